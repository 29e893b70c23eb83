"""Referee forms, not JSON: extra cards and penalties are chosen from the league's catalogue by
name, an override picks winners by seat, an appeal's new ruling is a table, and the catalogue is
edited as a table (add, change, remove rows), every version kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from kyoku.models import AuditLog
from league.models import Penalty
from referee import services
from referee.models import Appeal, PenaltyCatalogue, Ruling

pytestmark = pytest.mark.django_db


def zh(client):
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})


def _table(prefix, rows):
    data = {f"{prefix}-TOTAL_FORMS": str(len(rows)), f"{prefix}-INITIAL_FORMS": "0"}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"{prefix}-{i}-{key}"] = value
    return data


def test_decide_form_offers_the_catalogue_by_name_not_json(client, referee, logged):
    client.force_login(referee)
    body = client.get(reverse("referee-incident", args=[logged.pk])).content.decode()
    assert "JSON" not in body and 'textarea name="extra_penalties"' not in body
    # a select of the catalogue's offences: the code is the value, the name is what is shown
    assert '<option value="slow_play">Slow play</option>' in body
    assert '<option value="late_declaration">Late declaration</option>' in body
    # players chosen by this hand's wind (dealer seat 0: seat 1 is South) and name, as the ruling names them
    assert '<option value="1">South (Player 2)</option>' in body
    zh(client)
    body = client.get(reverse("referee-incident", args=[logged.pk])).content.decode()
    assert '<option value="slow_play">拖延對局,或以「等等」等非正規方式中斷牌局</option>' in body


def test_accept_with_an_extra_card_chosen_by_name(client, referee, logged, players):
    client.force_login(referee)
    data = {
        "decision": "accept",
        **_table(
            "extra", [{"seat": "3", "offence": "slow_play", "note": "kept saying wait"}, {"seat": "", "offence": ""}]
        ),
    }
    response = client.post(reverse("referee-ruling-decide", args=[logged.pk]), data, follow=True)
    assert response.status_code == 200
    ruling = Ruling.objects.get()
    issued = {(p.player_id, p.offence, p.sanction) for p in Penalty.objects.filter(ruling=ruling)}
    # the ruling's own penalty (South, early play that harmed North: yellow card) and the extra warning
    assert issued == {(players[1].pk, "early_play_harm", "yellow_card"), (players[3].pk, "slow_play", "warning")}
    assert "kept saying wait" in Penalty.objects.get(offence="slow_play").note
    body = response.content.decode()
    assert (
        "Slow play" in body and "Yellow card" in body and "slow_play" not in body.split("<main")[1].split("<select")[0]
    )


def test_half_filled_row_or_unknown_offence_stores_nothing(client, referee, logged):
    client.force_login(referee)
    url = reverse("referee-ruling-decide", args=[logged.pk])
    response = client.post(url, {"decision": "accept", **_table("extra", [{"seat": "2", "offence": ""}])}, follow=True)
    assert "Choose both the player and the offence" in response.content.decode()
    response = client.post(
        url, {"decision": "accept", **_table("extra", [{"seat": "2", "offence": "jumping"}])}, follow=True
    )
    assert "Row 1 · Offence" in response.content.decode()
    assert not Ruling.objects.exists() and not Penalty.objects.exists()


def test_override_picks_winners_and_withdraws_penalties(client, referee, logged):
    client.force_login(referee)
    response = client.post(
        reverse("referee-ruling-decide", args=[logged.pk]),
        {
            "decision": "override",
            "override_winners": ["2"],
            "override_drop_penalties": "on",
            "override_reason": "North's call was not lost",
        },
        follow=True,
    )
    assert response.status_code == 200
    ruling = Ruling.objects.get()
    assert ruling.decision == "overridden" and ruling.final["winners"] == [2] and ruling.final["penalties"] == []
    assert not Penalty.objects.exists()


def test_appeal_reversed_with_a_new_penalty_table(client, referee, referee2, member, logged, players):
    ruled = services.ruling_decide(incident=logged, referee=referee, accept=True)
    appeal = services.appeal_file(ruling=ruled, player=players[0], reason="I was harmed more", actor=member)
    client.force_login(referee2)
    body = client.get(reverse("referee-incident", args=[logged.pk])).content.decode()
    assert 'name="newpen-0-offence"' in body and "new_final" not in body
    client.post(
        reverse("referee-appeal-decide", args=[appeal.pk]),
        {
            "decision": "reverse",
            "reason": "a warning is enough",
            "new_winners": [],
            **_table("newpen", [{"seat": "1", "offence": "late_declaration"}]),
        },
    )
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.REVERSED
    active = Penalty.objects.filter(cancelled_at__isnull=True)
    assert [(p.player_id, p.offence, p.sanction) for p in active] == [(players[1].pk, "late_declaration", "warning")]


# ---------------------------------------------------------------- the catalogue as a table


def _catalogue_post(current: dict, *, version="2026.1", change=None, drop=(), add=()):
    rows = []
    for code, e in current["offences"].items():
        row = {
            "code": code,
            "description": e["description"],
            "description_zh": e.get("description_zh", ""),
            "sanction": e["sanction"],
            "points": "" if e.get("points") is None else str(e["points"]),
            "clauses": ", ".join(e.get("clauses", [])),
        }
        row.update((change or {}).get(code, {}))
        if code in drop:
            row["DELETE"] = "on"
        rows.append(row)
    rows += list(add)
    data = _table("offences", rows)
    data["offences-INITIAL_FORMS"] = str(len(current["offences"]))
    data["version"] = version
    return data


def test_catalogue_page_lists_offences_by_name_for_referees(client, referee, league):
    client.force_login(referee)
    url = reverse("referee-catalogue", args=[league.pk])
    body = client.get(url).content.decode()
    assert 'id="catalogue-offences"' in body and "False win (chombo)" in body and "Chombo" in body
    assert 'id="catalogue-form"' not in body  # referees read; admins edit
    assert client.post(url, {"version": "x"}).status_code == 403
    dash = client.get(reverse("referee-dashboard")).content.decode()
    assert url in dash and reverse("referee-mine") in dash


def test_admin_adds_changes_and_removes_rows(client, admin, league):
    client.force_login(admin)
    url = reverse("referee-catalogue", args=[league.pk])
    current = services.penalty_catalogue_current(league=league).data
    body = client.get(url).content.decode()
    assert 'name="offences-0-code"' in body and 'class="formset-empty"' in body
    response = client.post(
        url,
        _catalogue_post(
            current,
            change={"slow_play": {"sanction": "point_deduction", "points": "2000"}},
            drop=["unsportsmanlike"],
            add=[
                {
                    "code": "phone_at_table",
                    "description": "Phone at the table",
                    "description_zh": "對局中使用手機",
                    "sanction": "yellow_card",
                    "points": "",
                    "clauses": "5",
                }
            ],
        ),
        follow=True,
    )
    assert response.status_code == 200 and "version 2" in response.content.decode()
    latest = PenaltyCatalogue.objects.filter(league=league).order_by("-version").first()
    assert latest.version == 2 and latest.data["version"] == "2026.1"
    offences = latest.data["offences"]
    assert "unsportsmanlike" not in offences
    assert offences["slow_play"]["sanction"] == "point_deduction" and offences["slow_play"]["points"] == 2000
    assert offences["phone_at_table"] == {
        "sanction": "yellow_card",
        "clauses": ["5"],
        "description": "Phone at the table",
        "description_zh": "對局中使用手機",
    }
    assert latest.data["escalation"] == current["escalation"]  # the parts the table does not edit are kept
    assert AuditLog.objects.filter(action="penalty_catalogue.revise").count() == 1
    # the new offence is offered by its own name (zh from the catalogue) on a referee's form
    zh(client)
    body = client.get(url).content.decode()
    assert "對局中使用手機" in body


def test_catalogue_refuses_bad_rows_by_name_and_stores_nothing(client, admin, league):
    client.force_login(admin)
    url = reverse("referee-catalogue", args=[league.pk])
    current = services.penalty_catalogue_current(league=league).data
    body = client.post(url, _catalogue_post(current, drop=["false_win"])).content.decode()
    assert "False win (chombo): rulings name this offence" in body
    body = client.post(url, _catalogue_post(current, change={"misdeal": {"code": "Bad Code"}})).content.decode()
    assert "Use lower-case letters" in body
    body = client.post(url, _catalogue_post(current, change={"misdeal": {"code": "slow_play"}})).content.decode()
    assert "used twice" in body
    body = client.post(url, _catalogue_post(current, change={"false_win": {"points": ""}})).content.decode()
    assert "False win (chombo) · Points: missing" in body
    assert PenaltyCatalogue.objects.filter(league=league).count() == 1


def test_other_leagues_admin_is_refused(client, league, db):
    from kyoku.models import League, LeagueRole
    from tests.actors import make_role_user

    other = League.objects.create(name="Other", slug="other-l")
    stranger = make_role_user("other-admin", other, LeagueRole.Role.ADMIN)
    client.force_login(stranger)
    url = reverse("referee-catalogue", args=[league.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"version": "x"}).status_code == 403


def test_my_rulings_linked_from_the_navigation_and_my_page(client, member):
    client.force_login(member)
    body = client.get(reverse("me")).content.decode()
    assert body.count(f'href="{reverse("referee-mine")}"') == 2  # the navigation and the player's own page


def test_tier_and_division_names_follow_the_language(client, league, season):
    from league.models import QualificationTier

    tier = QualificationTier.objects.create(
        league=league,
        code="1",
        description="Category 1: league results",
        description_zh="第一類資格:聯賽成績",
        division_code="A",
        effective_year=2020,
        validity="yearly",
        requirements={},
    )
    division = season.divisions.get(code="A")
    from django.utils import translation

    with translation.override("zh-hant"):
        assert str(tier) == "1: 第一類資格:聯賽成績" and division.display_name == "甲組"
    with translation.override("en"):
        assert str(tier) == "1: Category 1: league results" and division.display_name == "A Division"


def test_incident_builder_gets_display_names_for_its_selects(client, referee, game):
    import json as _json
    import re as _re

    client.force_login(referee)
    body = client.get(reverse("referee-incident-new") + f"?game={game.pk}").content.decode()
    data = _json.loads(_re.search(r'<script id="incident-i18n" type="application/json">(.*?)</script>', body).group(1))
    assert data["labels"]["code"]["touch_wall"] == "Touch wall"
    assert data["labels"]["code"]["claim_deal_incomplete"] == "Claim deal incomplete"
    assert data["labels"]["phase"]["SETTLEMENT"] == "Settlement"
    assert data["labels"]["offence"]["early_play_harm"] == "Early play that harmed another player"
