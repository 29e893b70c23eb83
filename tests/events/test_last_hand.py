"""Issue 35 item 4: when a round's time runs out each table's hand in play is stored on the server;
the phone, the scorekeeper and the board say which hand is the last ("East 2 is the last hand", or
that hand and one more) and stay right after any reload; a hand past the last is refused, or,
where the event lets the dealer repeat after time, allowed and told to the referee."""

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from events import clock as clocks
from events import last_hand as lh
from events import selectors, services
from events.models import Round, TableTimeUp
from kyoku.desk import desk_calls
from kyoku.models import AuditLog
from league.models import Game, Player
from tests.actors import make_player_user

# ---------------------------------------------------------------- pure


def test_the_moment_time_ran_out_leaves_out_the_pauses_before_it():
    start = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.timezone.utc)
    clock = clocks.Clock(minutes=60, started_at=start, paused_seconds=300)  # paused 5 minutes before
    assert clocks.clock_time_up_at(clock, start + dt.timedelta(minutes=64)) is None
    assert clocks.clock_time_up_at(clock, start + dt.timedelta(minutes=80)) == start + dt.timedelta(minutes=65)
    extended = clocks.Clock(minutes=60, started_at=start, extra_seconds=600)
    assert clocks.clock_time_up_at(extended, start + dt.timedelta(minutes=69)) is None
    ended_early = clocks.Clock(minutes=60, started_at=start, ended_at=start + dt.timedelta(minutes=50))
    assert clocks.clock_time_up_at(ended_early, start + dt.timedelta(hours=3)) is None


PASS, KEEP = lh.HandFact(0, False), lh.HandFact(0, True)


def test_a_hand_is_named_by_its_round_wind_and_dealer():
    assert lh.position_next([]) == lh.Position(0, 1, 0)  # East 1
    assert lh.position_next([PASS, KEEP, PASS]) == lh.Position(0, 3, 0)  # two dealers passed: East 3
    assert lh.position_next([PASS] * 6 + [KEEP], honba=1) == lh.Position(1, 3, 1)  # South 3, 1 honba
    assert lh.position_next([lh.HandFact(None, False)]) is None  # no dealer kept: "hand 2"


def test_the_last_hand_under_each_rule():
    # "finish the hand in play": hand 5 in play when time ran out is the last
    assert lh.last_hand(5, 1, [PASS] * 4, False).naming == "last_next"
    done = lh.last_hand(5, 1, [PASS] * 5, False)
    assert (done.naming, done.next_allowed, done.last) == ("done", False, 5)
    # "and one more": 5 and 6
    assert lh.last_hand(5, 2, [PASS] * 4, False).naming == "in_play_and_one_more"
    assert lh.last_hand(5, 2, [PASS] * 5, False).naming == "last_next"
    assert not lh.last_hand(5, 2, [PASS] * 6, False).next_allowed
    # a dealer's repeat on the last hand gives another only where the event allows it
    assert not lh.last_hand(5, 1, [PASS] * 4 + [KEEP], False).next_allowed
    extra = lh.last_hand(5, 1, [PASS] * 4 + [KEEP], True)
    assert (extra.naming, extra.next_allowed, extra.extra) == ("dealer_repeats", True, True)
    assert not lh.last_hand(5, 1, [PASS] * 4 + [KEEP, PASS], True).next_allowed


# ---------------------------------------------------------------- on the server

RON_BY_1 = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 3, "fu": 30}]}}
DRAW_1_TENPAI = {"result": {"type": "draw", "tenpai": [1]}}


@pytest.fixture
def timed(league, admin, rules):
    """Four players at one table, one round of 60 minutes, "finish the hand in play and one more"."""

    def make(dealer_repeats: bool):
        event = services.event_create(
            league=league,
            name=f"Clock Cup {int(dealer_repeats)}",
            slug=f"clock-cup-{int(dealer_repeats)}",
            starts_on=dt.date(2026, 12, 19),
            ends_on=dt.date(2026, 12, 19),
            rule_set=rules,
            capacity=4,
            rounds=1,
            round_minutes=60,
            cut=0,
            time_rule="one_more",
            dealer_repeats_after_time=dealer_repeats,
            actor=admin,
        )
        players = [
            Player.objects.create(
                display_name=f"Clock {int(dealer_repeats)}{i}", membership_number=f"CK{int(dealer_repeats)}{i}"
            )
            for i in range(4)
        ]
        for p in players:
            services.checkin_set(
                registration=services.registration_add(event=event, player=p, actor=admin), present=True, actor=admin
            )
        services.event_status_set(event=event, status="running", actor=admin)
        services.seating_plan(event=event, actor=admin, time_limit=1)
        round_ = event.round_set.get(number=1)
        services.round_clock_set(
            round_=round_, action="start", actor=admin, now=timezone.now() - dt.timedelta(minutes=30)
        )
        game = Game.objects.get(season=event.season, match_day=1)
        phone = Client()
        phone.post(f"/events/{event.pk}/code/", {"code": services.table_code(game)})
        return event, round_, game, phone

    return make


def _hand(phone, game, record):
    return phone.post(f"/api/events/tables/{game.pk}/hands/", {"record": record}, content_type="application/json")


def _time_runs_out(round_):
    Round.objects.filter(pk=round_.pk).update(started_at=timezone.now() - dt.timedelta(minutes=61))


def test_the_hand_in_play_is_stored_and_every_view_names_the_last(timed):
    event, round_, game, phone = timed(False)
    for seat in game.seats.select_related("player"):  # the players have logins: they are told
        make_player_user(f"clock-{seat.seat}", seat.player)
    assert _hand(phone, game, RON_BY_1).status_code == 201  # East 1: South wins, East 2 follows
    assert "last hand" not in phone.get(f"/events/tables/{game.pk}/").content.decode()
    _time_runs_out(round_)
    page = phone.get(f"/events/tables/{game.pk}/").content.decode()
    stored = TableTimeUp.objects.get(game=game)
    assert (stored.hand_in_play, stored.hands_after_time) == (2, 2)
    assert "Time is up: East 2 was in play; it and one more hand are played." in page
    assert AuditLog.objects.filter(action="event.time_up").count() == 1
    from notifications.models import Notification

    told = Notification.objects.filter(kind="time_up")
    assert told.count() == 4 and {n.params["hand_in_play"] for n in told} == {2}  # each seated player, once
    # a reload, the scorekeeper and the board say the same; nothing is stored twice
    assert "East 2 was in play" in phone.get(f"/events/tables/{game.pk}/").content.decode()
    assert "East 2 was in play" in phone.get(f"/events/tables/{game.pk}/scorekeeper/").content.decode()
    board = Client().get(f"/api/events/{event.pk}/board").json()
    assert board["tables"][0]["last_hand"] == "Time is up: East 2 was in play; it and one more hand are played."
    assert TableTimeUp.objects.count() == 1 and AuditLog.objects.filter(action="event.time_up").count() == 1
    # East 2 ends in a draw with the dealer (South) tenpai: East 2 again, 1 honba, is the last
    assert _hand(phone, game, DRAW_1_TENPAI).status_code == 201
    assert "Time is up: East 2, 1 honba is the last hand." in phone.get(f"/events/tables/{game.pk}/").content.decode()
    assert _hand(phone, game, RON_BY_1).status_code == 201
    page = phone.get(f"/events/tables/{game.pk}/scorekeeper/").content.decode()
    assert "the last hand has been played: finish the game" in page
    # a fourth hand is past the last: refused, naming the field, nothing stored
    refused = _hand(phone, game, RON_BY_1)
    assert refused.status_code == 400 and refused.json()["errors"]["sequence"][0].startswith("Time is up")
    assert game.hands.count() == 3
    # in Chinese and Japanese too
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hant").get(f"/events/tables/{game.pk}/").content.decode()
    assert "finish the game" not in zh and "Time is up" not in zh


def test_the_dealer_repeating_after_time_plays_on_and_the_referee_is_told(timed, referee):
    event, round_, game, phone = timed(True)
    assert _hand(phone, game, RON_BY_1).status_code == 201
    _time_runs_out(round_)
    assert _hand(phone, game, DRAW_1_TENPAI).status_code == 201  # the first hand after time stores it
    assert TableTimeUp.objects.get(game=game).hand_in_play == 2
    assert not [c for c in desk_calls(referee) if "past its last hand" in c.title]
    assert _hand(phone, game, RON_BY_1).status_code == 201  # the last hand: the dealer (South) wins
    assert len([c for c in desk_calls(referee) if "past its last hand" in c.title]) == 1  # told at once
    from notifications.models import Notification
    from notifications.rendering import render

    [called] = Notification.objects.filter(kind="referee_call", recipient=referee)  # and notified, once
    assert called.params["reason"] == "after_time" and called.link == f"/events/tables/{game.pk}/"
    assert render(called, "en")[1].endswith(f"round 1, table {game.table} plays past its last hand")
    page = phone.get(f"/events/tables/{game.pk}/").content.decode()
    assert "The dealer repeats after time: East 2, 2 honba is played too, and the referee is told." in page
    assert _hand(phone, game, RON_BY_1).status_code == 201  # allowed: the dealer repeats
    calls = [c for c in desk_calls(referee) if "past its last hand" in c.title]
    assert len(calls) == 1 and calls[0].url == f"/events/tables/{game.pk}/"
    assert Notification.objects.filter(kind="referee_call", recipient=referee).count() == 1  # not per hand


def test_time_added_after_it_ran_out_forgets_the_last_hand(timed, admin):
    event, round_, game, phone = timed(False)
    _time_runs_out(round_)
    phone.get(f"/events/tables/{game.pk}/")
    assert TableTimeUp.objects.filter(game=game).exists()
    services.round_clock_set(round_=Round.objects.get(pk=round_.pk), action="extend", minutes=10, actor=admin)
    assert not TableTimeUp.objects.filter(game=game).exists()
    assert "last hand" not in phone.get(f"/events/tables/{game.pk}/").content.decode()
    assert selectors.table_last_hand(game) is None
