"""A tournament table's result told to the people it concerns: the scores a seat reported wait for
the other three seats' confirmation; a different report is a dispute, told to the table and called
to the league's referees and admins (not to another league's); the desk's entry is the recorded
result, told to the four players and announced on the league's public channel."""

from __future__ import annotations

import pytest
from django.core import mail

from events import services
from kyoku.models import League, LeagueRole
from kyoku.principals import SYSTEM, TablePhone
from league.models import Game
from notifications import services as notify
from notifications.models import Notification
from tests.actors import make_player_user, make_role_user
from tests.events.conftest import SCORES, event, field, in_play, rules, running  # noqa: F401


@pytest.fixture
def table(in_play):  # noqa: F811
    game = Game.objects.filter(season=in_play.season, match_day=1).order_by("table").first()
    users = []
    for seat in game.seats.select_related("player").order_by("seat"):
        user = getattr(seat.player, "user", None) or make_player_user(f"t{seat.seat}", seat.player)
        user.email = f"seat{seat.seat}@example.org"
        user.save()
        users.append(user)
    return game, users


def _told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def test_report_dispute_and_desk_entry_tell_the_table_and_call_the_referees(
    table, admin, referee, league, http_receiver, django_capture_on_commit_callbacks
):
    game, users = table
    other_league = League.objects.create(name="Elsewhere", slug="elsewhere")
    make_role_user("far-referee", other_league, LeagueRole.Role.REFEREE)
    notify.league_channel_add(league=league, name="Hall screen", url=f"json://{http_receiver.url[7:]}/", actor=SYSTEM)
    for user in (admin, referee):
        user.email = f"{user.username}@example.org"
        user.save()
    phone = TablePhone(game.pk)
    names = [u.username for u in users]

    with django_capture_on_commit_callbacks(execute=True):
        services.table_report_submit(game=game, scores=SCORES, seat=0, actor=phone)
    assert _told("result_to_confirm") == sorted(names[1:])  # the reporting seat is not asked
    n = Notification.objects.filter(kind="result_to_confirm").first()
    assert n.link == f"/events/tables/{game.pk}/"
    seat_names = [s.player.display_name for s in game.seats.order_by("seat")]
    assert n.params["scores"]["en"] == (  # in each language (league.names.names_said): here English
        f"{seat_names[0]} 48,000 · {seat_names[1]} 32,000 · {seat_names[2]} 12,000 · {seat_names[3]} 8,000"
    )
    # result_to_confirm goes by push only by default: no email yet
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        services.table_report_submit(game=game, scores=[40000, 40000, 12000, 8000], seat=2, actor=phone)
    assert _told("result_disputed") == sorted(names[:2] + names[3:])  # not the West seat, which disputed
    assert _told("referee_call") == ["admin", "referee"]  # not another league's referee
    subjects = sorted(m.subject for m in mail.outbox)
    assert subjects == sorted(["Table 1 needs a referee"] * 2 + ["Table 1: the result is disputed"] * 3)
    disputed = next(m for m in mail.outbox if m.subject == "Table 1: the result is disputed")
    assert "The West seat disputed the reported scores. A referee decides." in disputed.body

    with django_capture_on_commit_callbacks(execute=True):
        services.table_result_enter(game=game, version=1, actor=referee)
    assert _told("result_recorded") == sorted(names)
    [(_path, _headers, _body)] = http_receiver.requests
    post = http_receiver.json()
    assert post["title"] == "Table 1: the result is recorded"
    assert "Autumn Open" in post["message"] and "48,000" in post["message"]
    for seat in game.seats.select_related("player"):
        assert seat.player.membership_number not in post["message"]
