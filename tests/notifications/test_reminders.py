""" "Your round starts in N minutes" (notifications.reminders): the periodic scan tells each seated
player of a tournament round or a league match day starting within N minutes (15 by default),
once, in their language, with a link to their table; twice scanned, or two scans at once, it is
still once; a round moved to another time is told again for its new time; a round whose clock has
started, or a game already played, tells nobody. Times are worked by hand (Asia/Hong_Kong, UTC+8)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from events import services as events
from kyoku.principals import SYSTEM
from league import services as league_services
from notifications import services as notify
from notifications.models import Delivery, Notification, Preferences
from notifications.reminders import reminders_scan
from notifications.rendering import render
from tests.actors import make_player_user, open_season
from tests.events.conftest import event, field, rules, running  # noqa: F401

UTC = dt.timezone.utc
START = dt.datetime(2026, 11, 28, 2, 0, tzinfo=UTC)  # 10:00 in Hong Kong


def _scan(now):
    return reminders_scan(actor=SYSTEM, now=now)


def _told():
    return sorted(Notification.objects.filter(kind="round_starts").values_list("recipient__username", "key"))


@pytest.fixture
def round1(running, admin):  # noqa: F811
    return events.round_schedule(round_=running.round_set.get(number=1), starts_at=START, actor=admin)


def test_a_round_is_told_once_to_its_seated_players_within_the_window(round1, monkeypatch, settings):
    assert settings.NOTIFY_START_REMINDER_MINUTES == 15
    assert _scan(START - dt.timedelta(minutes=16)) == {"events.rounds": 0, "league.match_days": 0}  # before
    assert _scan(START - dt.timedelta(minutes=15))["events.rounds"] == 4  # p0…p3 have logins
    key = f"round-starts:{round1.pk}:2026-11-28T02:00:00+00:00"
    assert _told() == [(f"p{i}", key) for i in range(4)]
    assert _scan(START - dt.timedelta(minutes=3))["events.rounds"] == 0  # scanned again: still once
    # two scans at once: the second read before the first committed (it saw nobody told), so it
    # tries the same rows: the unique (recipient, kind, key) refuses them and it tells nobody
    monkeypatch.setattr(notify, "_told", lambda *args: set())
    assert _scan(START - dt.timedelta(minutes=2))["events.rounds"] == 0
    monkeypatch.undo()
    assert len(_told()) == 4
    n = Notification.objects.get(kind="round_starts", recipient__username="p0")
    game = n.params
    assert n.link.startswith("/events/tables/") and game["round"] == 1
    monkeypatch.setattr(timezone, "now", lambda: START - dt.timedelta(minutes=14, seconds=20))
    subject, body = render(n, "en")
    assert subject == f"Round 1 starts at 10 a.m.: table {game['table']}"  # Django's TIME_FORMAT in English
    assert body.splitlines()[:2] == ["Autumn Open", "Starts in 15 min."]  # 14 min 20 s, rounded up
    assert render(n, "ja")[0] == f"1回戦は10:00開始：{game['table']}卓"
    assert render(n, "zh-hant")[1].splitlines()[1] == "15 分鐘後開始。"
    monkeypatch.setattr(timezone, "now", lambda: START + dt.timedelta(minutes=5))
    assert "Starts in" not in render(n, "en")[1]  # read after the start: no countdown


def test_a_moved_round_is_told_for_its_new_time_and_a_started_one_not(round1, admin):
    _scan(START - dt.timedelta(minutes=10))
    later = START + dt.timedelta(minutes=30)
    events.round_schedule(round_=round1, starts_at=later, actor=admin)
    assert _scan(START - dt.timedelta(minutes=5))["events.rounds"] == 0  # the new start is 35 min away
    assert _scan(later - dt.timedelta(minutes=10))["events.rounds"] == 4  # told again, for 10:30
    assert len(_told()) == 8 and len({key for _user, key in _told()}) == 2
    # round 2 at 11:30, its clock started early by the director: no reminder
    round2 = running_round(round1, 2)
    events.round_schedule(round_=round2, starts_at=later + dt.timedelta(hours=1), actor=admin)
    events.round_clock_set(round_=round2, action="start", actor=admin)
    assert _scan(later + dt.timedelta(minutes=50))["events.rounds"] == 0


def running_round(round1, number):
    return round1.event.round_set.get(number=number)


def test_a_league_match_day_reminds_by_the_channel_chosen_in_the_language_chosen(
    league, players, smtp, django_capture_on_commit_callbacks, monkeypatch
):
    rules = league_services.rule_set_create(name="WRC", slug="wrc-r", preset="wrc", is_template=True, actor=SYSTEM)
    season = open_season(league, rules, players, per_division=4)
    users = [make_player_user(f"r{i}", p) for i, p in enumerate(players[:4])]
    for i, user in enumerate(users):
        user.email = f"r{i}@example.org"
        user.save()
    notify.preferences_set(user=users[0], language="ja", choices={"round_starts": {"email": True}}, actor=users[0])
    # r1 chose email too, but is in quiet hours (22:00–11:00 in Hong Kong): the email waits
    notify.preferences_set(
        user=users[1],
        choices={"round_starts": {"email": True}},
        quiet_start=dt.time(22),
        quiet_end=dt.time(11),
        actor=users[1],
    )
    division = season.divisions.get(code="A")
    game = league_services.game_create(
        division=division, match_day=3, table=2, players=players[:4], scheduled_at=START, actor=SYSTEM
    )
    played = league_services.game_create(
        division=season.divisions.get(code="B"), match_day=3, table=1, players=players[4:8], actor=SYSTEM
    )
    assert played.scheduled_at is None  # no start time: no reminder
    monkeypatch.setattr(timezone, "now", lambda: START - dt.timedelta(minutes=12))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("notifications_remind", stdout=open("/dev/null", "w"))
        call_command("notifications_remind", stdout=open("/dev/null", "w"))
    assert _told() == [(f"r{i}", f"day-starts:{division.pk}:3:2026-11-28T02:00:00+00:00") for i in range(4)]
    [(to, message)] = smtp.messages  # r0 by email; r2, r3 chose nothing (push by default, no phone)
    assert to == ["r0@example.org"]
    assert str(message["Subject"]).strip() == "第3節は10:00開始：2卓"  # a folded header starts with a space
    assert "12分後に開始します。" in message.get_content()
    assert f"/games/{game.pk}/" in message.get_content()
    waiting = Delivery.objects.get(notification__recipient=users[1])
    assert waiting.status == Delivery.Status.PENDING
    assert timezone.localtime(waiting.next_attempt_at).hour == 11  # after the quiet hours
    assert Preferences.objects.get(user=users[0]).language == "ja"
    # the seating changes after the reminder (a substitute takes the North seat): the newcomer is
    # told at the next scan, the three already told are not told again
    from league.models import GameSeat

    newcomer = make_player_user("r-sub", players[4])
    GameSeat.objects.filter(game=game, seat=3).update(player=players[4])
    assert _scan(START - dt.timedelta(minutes=11))["league.match_days"] == 1
    assert [u for u, _key in _told()].count("r-sub") == 1 and len(_told()) == 5
    assert newcomer.notifications.get().params["players"]["en"].endswith(players[4].display_name)
