"""Each kind to the people it concerns, from the services that make the fact (the matrix world of
tests/security/world.py runs them: a penalty, rulings on the owner's game, an appeal), in each
language; and the privacy rule (docs/privacy.md) over every kind: a private kind never reaches a
public channel, no notification carries a membership number, nobody reads another's inbox."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from kyoku.principals import SYSTEM
from league import services as league_services
from notifications import services
from notifications.kinds import KINDS, PUBLIC_KINDS
from notifications.models import Notification
from notifications.rendering import render
from referee import services as referee
from tests.security.world import world_build

# a sample of every kind's parameters, as its notices module writes them
SAMPLES = {
    "seating_published": {"match_day": 3, "table": 2, "seat": 1, "division": {"en": "A"}, "players": "A · B · C · D"},
    "round_starts": {"event": "Autumn Open", "round": 1, "table": 4, "seat": 0, "when": "2026-11-28T02:00:00+00:00"},
    "time_up": {"event": "Autumn Open", "round": 1, "table": 4, "hand_in_play": 7, "hands_after_time": 2},
    "result_to_confirm": {"event": "Autumn Open", "round": 1, "table": 4, "scores": "A 48,000"},
    "result_recorded": {"event": "Autumn Open", "round": 1, "table": 4, "scores": "A 48,000"},
    "result_disputed": {"event": "Autumn Open", "round": 1, "table": 4, "disputed_seat": 2},
    "referee_call": {"event": "Autumn Open", "round": 1, "table": 4, "reason": "dispute"},
    "ruling_issued": {"game": {"en": "A · day 1 · table 1"}},
    "ruling_appealed": {"game": {"en": "A · day 1 · table 1"}, "player": "M0", "decided": False},
    "penalty_issued": {"points": "20", "sanction": {"en": "Penalty"}, "reason": {"en": "Slow play"}},
    "application_decided": {"season": "2026 S1", "approved": True},
    "promotion_relegation": {"season": "2026 S2", "division": {"en": "A"}, "moved": "up"},
    "seating_announced": {"match_day": 3, "division": {"en": "A"}, "tables": 4},
    "results_announced": {"table": 4, "standing": "A 48,000"},
    "registration_open": {"season": "2026 S2"},
}


def test_every_kind_has_a_template_in_three_languages(db):
    assert set(SAMPLES) == set(KINDS)
    for kind, params in SAMPLES.items():
        n = Notification(kind=kind, params={"league": {"en": "Matrix League", "zh": "矩陣聯賽"}, **params})
        english = render(n, "en")
        assert english[0] and english[0] == english[0].strip(), kind
        for language in ("zh-hant", "ja"):
            subject, body = render(n, language)
            assert subject and subject != english[0], f"{kind} is not translated into {language}"


@pytest.fixture
def world(db):
    return world_build()


def _inbox(user):
    return sorted(Notification.objects.filter(recipient=user).values_list("kind", flat=True))


def test_the_desk_and_the_ledger_tell_the_players_and_the_referees(world):
    # the world issued a warning to the owner, ruled twice on the owner's game, and the owner appealed
    assert _inbox(world.owner) == ["penalty_issued", "ruling_issued", "ruling_issued"]
    assert _inbox(world.referee) == ["ruling_appealed"] and _inbox(world.admin) == ["ruling_appealed"]
    assert _inbox(world.other_referee) == [] and _inbox(world.other_admin) == []
    assert _inbox(world.other_player) == []  # not at that game
    appealed = Notification.objects.get(recipient=world.referee)
    with translation.override("en"):
        assert render(appealed)[1].endswith("M0 appealed the ruling.")
    assert appealed.link == f"/referee/incidents/{world.appeal.ruling.incident_id}/"
    penalty = Notification.objects.get(recipient=world.owner, kind="penalty_issued")
    assert render(penalty, "en")[0] == "A penalty is issued to you"  # a warning: no points
    assert render(penalty, "ja")[0] == "あなたに罰則が科されました"

    league_services.application_decide(
        application=world.application, approve=False, reason="no proof", actor=world.admin
    )
    decided = Notification.objects.get(recipient=world.owner, kind="application_decided")
    assert render(decided, "en") == (
        "Your qualification application is rejected",
        "Matrix League · 2026 S1\nNote from the league: no proof",
    )
    second = world_build_referee(world)
    referee.appeal_decide(appeal=world.appeal, referee=second, uphold=True, reason="the timeline stands")
    told = Notification.objects.filter(kind="ruling_appealed", params__decided=True)
    assert sorted(n.recipient.username for n in told) == ["m-owner"]  # the one seated player with a login


def world_build_referee(world):
    from kyoku.models import LeagueRole
    from tests.actors import make_role_user

    return make_role_user("m-referee-2", world.league, LeagueRole.Role.REFEREE)


def test_privacy_every_kind(world):
    # every kind is declared private or public; the private ones are the ones that name a person's
    # own business (a ruling, a penalty, an application, their own table's dispute)
    assert set(PUBLIC_KINDS) == {"seating_announced", "results_announced", "registration_open"}
    for kind in set(KINDS) - set(PUBLIC_KINDS):
        with pytest.raises(ValueError):
            services.announce(kind=kind, league=world.league, params={}, actor=SYSTEM)
    # nothing a notification stores names a membership number (private: docs/privacy.md)
    numbers = [p.membership_number for p in world.players]
    for n in Notification.objects.all():
        for language in ("en", "zh-hant", "ja"):
            text = " ".join(render(n, language)) + str(n.params)
            assert not any(number in text for number in numbers), n.kind
    # one's inbox is one's own: the page and the API show only the reader's notifications
    client = Client()
    client.force_login(world.other_player)
    assert client.get("/api/me/notifications/").json()["count"] == 0
    page = client.get("/me/notifications/").content.decode()
    assert "A ruling on your game is issued" not in page
    # and marking another's notification read changes nothing
    owner_ids = list(Notification.objects.filter(recipient=world.owner).values_list("pk", flat=True))
    assert (
        client.post("/api/me/notifications/read/", {"ids": owner_ids}, content_type="application/json").json()["marked"]
        == 0
    )
    assert Notification.objects.filter(recipient=world.owner, read_at__isnull=True).count() == len(owner_ids)


def test_registration_opens_to_members_and_the_season_end_tells_each_division(league, players):
    from tests.actors import make_player_user, open_season

    users = [make_player_user(f"pp{i}", p) for i, p in enumerate(players)]
    rules = league_services.rule_set_create(name="WRC", slug="wrc-n", preset="wrc", is_template=True, actor=SYSTEM)
    s1 = open_season(league, rules, players, per_division=4)  # entering them makes them members
    s2 = league_services.season_create(league=league, year=2026, number=2, rule_set=rules, actor=SYSTEM)
    league_services.season_status_set(season=s2, status="open", actor=SYSTEM)
    told = Notification.objects.filter(kind="registration_open", params__season=str(s2))
    assert sorted(n.recipient.username for n in told) == sorted(u.username for u in users)
    league_services.season_promote(season=s1, next_season=s2, actor=SYSTEM)
    moved = {}
    for n in Notification.objects.filter(kind="promotion_relegation"):
        moved.setdefault(n.params["moved"], []).append(n.recipient.username)
    # promotion_count 2: two of B up to A, two of A down to B, the other four stay
    assert sorted(len(v) for v in moved.values()) == [2, 2, 4] and set(moved) == {"up", "down", "stay"}
    up = Notification.objects.filter(kind="promotion_relegation", params__moved="up").first()
    assert render(up, "en")[0] == "Promoted to A Division"
    # telling it again (the promotion is idempotent) adds nothing
    league_services.season_promote(season=s1, next_season=s2, actor=SYSTEM)
    assert Notification.objects.filter(kind="promotion_relegation").count() == 8


def test_an_appeal_is_told_to_the_games_other_players_not_the_appellant(world):
    from tests.actors import make_player_user

    seat = world.game.seats.exclude(player__user=world.owner).select_related("player").order_by("seat").first()
    other = make_player_user("m-seat", seat.player)
    appeal = referee.appeal_file(ruling=world.ruling, player=world.owner.player, reason="not short", actor=world.owner)
    told = Notification.objects.filter(kind="ruling_appealed", key=f"appeal:{appeal.pk}")
    assert sorted(n.recipient.username for n in told) == sorted(
        ["m-seat", world.referee.username, world.admin.username]
    )
    mine = told.get(recipient=other)
    assert mine.link == "/referee/mine/" and render(mine, "en")[1].endswith("M0 appealed the ruling.")


def test_a_fact_rolled_back_tells_nobody(world):
    from django.db import transaction

    from notifications.models import Delivery

    before = (Notification.objects.count(), Delivery.objects.count())
    with pytest.raises(RuntimeError), transaction.atomic():
        league_services.penalty_assign(
            season=world.season, player=world.players[0], offence="slow_play", sanction="warning", actor=world.admin
        )
        assert Notification.objects.count() == before[0] + 1  # written with the penalty…
        raise RuntimeError("the request fails after the penalty")
    assert (Notification.objects.count(), Delivery.objects.count()) == before  # …and gone with it


@pytest.mark.parametrize(
    "stored, words",
    [
        (
            "SMTPRecipientsRefused: {'referee@example.org': (550, b'5.1.1 mailbox unavailable')}",
            "The mail server refused the address: {'referee@example.org': (550, b'5.1.1 mailbox unavailable')}",
        ),
        ("ConnectionRefusedError: [Errno 111] Connection refused", "The server could not be reached: [Errno 111]"),
        ("TimeoutError: timed out", "The server did not answer in time: timed out"),
        ("OSError: [Errno 101] Network is unreachable", "The server answered with an error: [Errno 101]"),
        ("no_email", "The recipient has no email address."),
        ("550 mailbox unavailable", "550 mailbox unavailable"),  # a server's answer alone, as it said it
    ],
)
def test_a_failed_sends_reason_is_in_words_never_an_exceptions_name(stored, words):
    from django.utils import translation

    from notifications.kinds import reason_words

    with translation.override("en"):
        shown = str(reason_words(stored))
    assert shown.startswith(words)
    assert not any(
        name in shown for name in ("SMTPRecipientsRefused", "ConnectionRefusedError", "TimeoutError:", "OSError")
    )
