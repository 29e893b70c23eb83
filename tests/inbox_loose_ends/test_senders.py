"""Issue 50 loose ends: who is told what (time-up only to tables still playing; the actor of a
fact is never told of it)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from events import services
from kyoku.principals import TablePhone
from league.models import Game
from notifications.models import Notification
from tests.actors import make_player_user
from tests.events.conftest import SCORES, event, field, in_play, rules, running  # noqa: F401


@pytest.fixture
def tables(in_play):  # noqa: F811
    """Round 1's four tables, every seat with a login (t<table>-<seat>)."""
    games = list(Game.objects.filter(season=in_play.season, match_day=1).order_by("table"))
    for game in games:
        for seat in game.seats.select_related("player").order_by("seat"):
            if getattr(seat.player, "user", None) is None:
                make_player_user(f"t{game.table}-{seat.seat}", seat.player)
    return in_play, games


def _told(kind: str) -> list[str]:
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def _names(game: Game, skip: tuple[int, ...] = ()) -> list[str]:
    return sorted(s.player.user.username for s in game.seats.select_related("player__user") if s.seat not in skip)


def test_time_up_is_told_only_to_tables_still_playing(tables):
    event, (reported, disputed, playing, recorded) = tables
    services.table_report_submit(game=reported, scores=SCORES, seat=0, actor=TablePhone(reported.pk))
    services.table_report_submit(game=disputed, scores=SCORES, seat=0, actor=TablePhone(disputed.pk))
    services.table_report_submit(
        game=disputed, scores=[40000, 40000, 12000, 8000], seat=1, actor=TablePhone(disputed.pk)
    )
    for seat in range(4):
        services.table_report_submit(game=recorded, scores=SCORES, seat=seat, actor=TablePhone(recorded.pk))
    round_ = event.round_set.get(number=1)
    services.round_time_up_record(
        round_=round_, actor=TablePhone(playing.pk), now=timezone.now() + dt.timedelta(hours=3)
    )
    assert _told("time_up") == _names(playing)
    assert set(Notification.objects.filter(kind="time_up").values_list("key", flat=True)) == {
        f"time-up:{round_.pk}:{playing.pk}"
    }


def test_the_seat_that_disputes_is_not_told_of_its_own_dispute(tables):
    _event, (game, *_rest) = tables
    phone = TablePhone(game.pk)
    services.table_report_submit(game=game, scores=SCORES, seat=0, actor=phone)
    services.table_report_submit(game=game, scores=[40000, 40000, 12000, 8000], seat=2, actor=phone)
    assert _told("result_disputed") == _names(game, skip=(2,))


def test_a_player_disputing_from_their_own_login_is_not_told_either(tables):
    _event, (game, *_rest) = tables
    seats = {s.seat: s.player.user for s in game.seats.select_related("player__user")}
    services.table_report_submit(game=game, scores=SCORES, seat=0, actor=seats[0])
    services.table_report_submit(game=game, scores=[40000, 40000, 12000, 8000], seat=3, actor=seats[3])
    assert _told("result_disputed") == _names(game, skip=(3,))
    # and the seat that reported is not asked to confirm its own report
    assert seats[0].username not in _told("result_to_confirm")
