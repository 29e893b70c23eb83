"""/leagues/new/: a league, its admin, rules, first season and divisions in one step; pending
until a superuser approves when LEAGUE_START is "approval"; bad input refused naming the field,
nothing written; at most league_start_user leagues a person a day."""

import pytest
from django.core import mail
from django.test import Client

from kyoku.models import AuditLog, League, LeagueRole
from league.models import Season
from tests.leagues_start.conftest import counts, start_data


def test_the_page_offers_the_presets_then_the_form(founder_client, open_start):
    first = founder_client.get("/leagues/new/")
    assert first.status_code == 200
    body = first.content.decode()
    for preset in ("wrc", "ema", "mleague", "zung-jung", "beijing"):
        assert f'value="{preset}"' in body
    second = founder_client.get("/leagues/new/?preset=ema")
    assert second.status_code == 200
    body = second.content.decode()
    assert 'name="rules-uma"' in body  # the season rules page's typed option widgets
    assert 'name="division_0_code"' in body and 'value="A"' in body


def test_anonymous_is_sent_to_log_in(db):
    response = Client().get("/leagues/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_open_start_makes_everything_and_the_creator_admin(founder, founder_client, open_start):
    before = counts()
    response = founder_client.post("/leagues/new/", start_data(overrides='{"kiriage": true}'))
    assert response.status_code == 302 and response["Location"] == "/leagues/harbour/"
    league = League.objects.get(slug="harbour")
    assert league.approval == "active" and league.created_by == founder
    assert league.name_zh == "海港聯賽" and league.languages == ["en", "zh-hant"]
    assert list(LeagueRole.objects.filter(league=league).values_list("user__username", "role")) == [
        ("founder", "admin")
    ]
    season = Season.objects.get(league=league)
    assert (season.year, season.number, season.status) == (2027, 1, "draft")
    assert season.rule_set.preset == "wrc" and season.rule_set.overrides == {"kiriage": True}
    assert season.rule_set.options["kiriage"] is True
    assert [(d.code, d.name, d.name_zh) for d in season.divisions.order_by("order")] == [
        ("A", "A Division", "甲組"),
        ("B", "B Division", "乙組"),
    ]
    after = counts()
    assert after["League"] == before["League"] + 1
    assert after["RuleSet"] == before["RuleSet"] + 2  # the league's rules and the season's own copy
    assert AuditLog.objects.filter(action="league.start", league_id=league.pk, actor=founder).count() == 1
    page = founder_client.get("/leagues/harbour/")
    assert page.status_code == 200
    assert b'id="league-roles-link"' in page.content and b'id="league-settings-link"' in page.content
    assert Client().get("/leagues/harbour/").status_code == 200  # public


def test_typed_option_widgets_give_the_overrides(founder_client, open_start):
    from scoring.engine.riichi import OPTION_DOCS, PRESETS

    form_page = founder_client.get("/leagues/new/?preset=wrc")
    rules_form = form_page.context["rules_form"]
    data = start_data()
    for name, field in rules_form.fields.items():  # the preset's values, as the page shows them
        value = rules_form[name].value()
        if isinstance(value, bool):
            if value:
                data[f"rules-{name}"] = "on"
        elif isinstance(value, list):
            data[f"rules-{name}"] = value
        elif value is not None:
            data[f"rules-{name}"] = str(value)
    data["rules-uma"] = "20 / 10 / -10 / -20"
    response = founder_client.post("/leagues/new/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    rule_set = Season.objects.get(league__slug="harbour").rule_set
    assert rule_set.overrides == {"uma": [20, 10, -10, -20]}
    assert PRESETS["wrc"]["uma"] != [20, 10, -10, -20] and "uma" in OPTION_DOCS


def test_approval_start_is_pending_hidden_and_decided(founder, founder_client, superuser, approval_start):
    response = founder_client.post("/leagues/new/", start_data())
    assert response.status_code == 302
    league = League.objects.get(slug="harbour")
    assert league.approval == "pending"
    season = Season.objects.get(league=league)
    # only its creator (and superusers) see it; lists leave it out
    assert founder_client.get("/leagues/harbour/").status_code == 200
    assert b'id="league-pending"' in founder_client.get("/leagues/harbour/").content
    stranger = Client()
    assert stranger.get("/leagues/harbour/").status_code in (302, 403)
    assert stranger.get(f"/seasons/{season.pk}/").status_code in (302, 403)
    assert b"Harbour League" not in stranger.get("/").content
    # the superuser's queue, in the app
    boss = Client()
    boss.force_login(superuser)
    queue = boss.get("/leagues/requests/")
    assert queue.status_code == 200 and b'id="request-harbour"' in queue.content
    assert founder_client.get("/leagues/requests/").status_code == 403
    response = boss.post("/leagues/requests/", {"action": "approve", "league": league.pk})
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.approval == "active" and league.decided_by == superuser
    assert [m.to for m in mail.outbox] == [["founder@example.org"]]
    assert "approved" in mail.outbox[0].subject
    assert Client().get("/leagues/harbour/").status_code == 200
    assert b"Harbour League" in Client().get("/").content
    assert AuditLog.objects.filter(action="league.approve", league_id=league.pk).count() == 1


def test_refusal_needs_a_reason_and_tells_the_creator(founder_client, superuser, approval_start):
    founder_client.post("/leagues/new/", start_data())
    league = League.objects.get(slug="harbour")
    boss = Client()
    boss.force_login(superuser)
    no_reason = boss.post("/leagues/requests/", {"action": "refuse", "league": league.pk, "reason": ""})
    assert no_reason.status_code == 400
    league.refresh_from_db()
    assert league.approval == "pending" and not mail.outbox
    boss.post("/leagues/requests/", {"action": "refuse", "league": league.pk, "reason": "Test leagues go elsewhere."})
    league.refresh_from_db()
    assert league.approval == "refused" and league.refusal_reason == "Test leagues go elsewhere."
    assert "Test leagues go elsewhere." in mail.outbox[0].body
    page = founder_client.get("/leagues/harbour/")
    assert b'id="league-refused"' in page.content and b"Test leagues go elsewhere." in page.content
    assert Client().get("/leagues/harbour/").status_code in (302, 403)


def test_a_superuser_starts_an_active_league_even_with_approval(superuser, approval_start):
    boss = Client()
    boss.force_login(superuser)
    assert boss.post("/leagues/new/", start_data()).status_code == 302
    assert League.objects.get(slug="harbour").approval == "active"


BAD = [
    ("slug", {"slug": "taken"}, "Another league already has this address."),
    ("slug", {"slug": "requests"}, "This address is reserved"),
    ("slug", {"slug": "new"}, "This address is reserved"),
    ("slug", {"slug": "Bad Slug!"}, ""),
    ("time_zone", {"time_zone": "Mars/Olympus_Mons"}, ""),
    ("languages", {"languages": ["en", "xx"]}, ""),
    ("preset", {"preset": "nonsense"}, ""),
    ("overrides.uma", {"overrides": '{"uma": [1, 2]}'}, ""),
    ("overrides", {"overrides": "[1, 2]"}, ""),
    (
        "divisions",
        {
            "division_0_code": "",
            "division_0_name": "",
            "division_0_name_zh": "",
            "division_1_code": "",
            "division_1_name": "",
            "division_1_name_zh": "",
        },
        "at least one division",
    ),
    ("divisions", {"division_1_code": "A"}, "Division A is given twice."),
    ("season_number", {"season_number": "7"}, ""),
    ("ends_on", {"ends_on": "2026-01-01"}, "ends before it starts"),
    ("name", {"name": ""}, ""),
]


@pytest.mark.parametrize("field,changes,words", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_is_refused_naming_the_field(founder_client, open_start, league, field, changes, words):
    League.objects.create(name="Taken", slug="taken")
    before = counts()
    response = founder_client.post("/leagues/new/", start_data(**changes))
    assert response.status_code == 400
    form = response.context["form"]
    rules_form = response.context.get("rules_form")
    named = (
        set(form.errors)
        | {str(e).split(":")[0] for e in form.non_field_errors()}
        | set(getattr(rules_form, "errors", {}) if rules_form is not None and rules_form.is_bound else set())
    )
    assert field in named or field.split(".")[0] in named, (field, form.errors)
    if words:
        assert words in response.content.decode()
    assert counts() == before


def test_a_person_starts_at_most_three_leagues_a_day(founder_client, open_start):
    for i in range(3):
        assert founder_client.post("/leagues/new/", start_data(slug=f"league-{i}")).status_code == 302
    before = counts()
    refused = founder_client.post("/leagues/new/", start_data(slug="league-4"))
    assert refused.status_code == 429 and refused.has_header("Retry-After")
    assert counts() == before


def test_failed_starts_do_not_count(founder_client, open_start):
    for _ in range(5):
        assert founder_client.post("/leagues/new/", start_data(slug="new")).status_code == 400
    assert founder_client.post("/leagues/new/", start_data()).status_code == 302


def test_the_public_api_leaves_a_pending_league_out(founder_client, approval_start):
    founder_client.post("/leagues/new/", start_data())
    season = Season.objects.get(league__slug="harbour")

    def listed(client, path):
        body = client.get(path).json()
        return {row["id"] for row in (body["results"] if isinstance(body, dict) else body)}

    assert season.pk not in listed(Client(), "/api/seasons/")
    assert not set(season.divisions.values_list("pk", flat=True)) & listed(Client(), "/api/divisions/")
    assert season.pk in listed(founder_client, "/api/seasons/")  # its creator sees it
    League.objects.filter(slug="harbour").update(approval="active")
    assert season.pk in listed(Client(), "/api/seasons/")


def test_a_pending_leagues_tiers_and_penalties_are_left_out_of_the_public_lists(founder_client, approval_start):
    from kyoku.principals import SYSTEM
    from league.models import Player, QualificationTier
    from league.services import penalty_assign

    founder_client.post("/leagues/new/", start_data())
    season = Season.objects.get(league__slug="harbour")
    tier = QualificationTier.objects.create(
        league=season.league,
        code="H1",
        description="Harbour tier",
        division_code="A",
        effective_year=2020,
        validity=QualificationTier.Validity.YEARLY,
        requirements={},
    )
    player = Player.objects.create(display_name="Harbour Player", membership_number="HB001")
    penalty = penalty_assign(season=season, player=player, offence="slow_play", sanction="warning", actor=SYSTEM)

    def listed(client, path):
        body = client.get(path).json()
        return {row["id"] for row in (body["results"] if isinstance(body, dict) else body)}

    assert tier.pk not in listed(Client(), "/api/tiers/")
    assert penalty.pk not in listed(Client(), "/api/penalties/")
    assert tier.pk in listed(founder_client, "/api/tiers/")  # its creator sees them
    assert penalty.pk in listed(founder_client, "/api/penalties/")
    League.objects.filter(slug="harbour").update(approval="active")
    assert tier.pk in listed(Client(), "/api/tiers/") and penalty.pk in listed(Client(), "/api/penalties/")
