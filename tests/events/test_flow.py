"""An event from registration to champion through the services: the waiting list, check-in,
one seating plan for the event, the clock, a table reporting and confirming its own result, a
dispute on the referee desk, the cut to the final, and the results out."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from events import selectors, services
from events.models import Event, Registration, Round, TableReport
from kyoku.desk import desk_calls
from kyoku.principals import TablePhone
from league.models import Game, GameResult, Player, Season
from matchdays.seating import pair_meetings

from .conftest import SCORES


def test_an_event_has_its_own_season_outside_the_league_seasons(event):
    assert event.season.kind == Season.Kind.EVENT
    assert str(event.season) == "Autumn Open"  # how a player's history and a game name its season
    assert event.season.status == Season.Status.OPEN
    assert [r.stage for r in event.round_set.order_by("number")] == ["qualifying"] * 4 + ["final"]
    from league import selectors as league_selectors

    assert event.season not in list(league_selectors.season_list())


def test_places_fill_then_the_waiting_list_moves_up(league, admin, rules, field):
    event = services.event_create(
        league=league,
        name="Small",
        slug="small",
        starts_on=dt.date(2026, 12, 5),
        ends_on=dt.date(2026, 12, 5),
        rule_set=rules,
        capacity=4,
        rounds=2,
        cut=0,
        actor=admin,
    )
    regs = [services.registration_add(event=event, player=p, actor=admin) for p in field[:6]]
    assert [r.status for r in regs] == ["confirmed"] * 4 + ["waiting"] * 2
    moved = services.registration_withdraw(registration=regs[1], actor=admin)
    assert moved.pk == regs[4].pk and moved.status == "confirmed"
    with pytest.raises(ValidationError) as err:
        services.registration_add(event=event, player=field[0], actor=admin)
    assert "player" in err.value.message_dict


def test_a_player_registers_only_themselves(event, field):
    user = field[0].user
    reg = services.registration_add(event=event, player=field[0], actor=user, ema_number="11000001", nationality="hkg")
    assert reg.nationality == "HKG"
    with pytest.raises(PermissionDenied):
        services.registration_add(event=event, player=field[5], actor=user)
    with pytest.raises(ValidationError) as err:
        services.registration_add(event=event, player=field[1], actor=field[1].user, ema_number="123")
    assert "ema_number" in err.value.message_dict


def test_one_plan_seats_every_round_and_nobody_meets_twice(running):
    days = services.history_days(running, 99)
    assert len(days) == 4 and all(len(d.tables) == 4 for d in days)
    # 16 players over 4 rounds: a resolvable design exists, so no pair meets twice
    assert max(len(rounds) for rounds in pair_meetings(days).values()) == 1
    cards = selectors.seating_cards(running)
    assert len(cards) == 16 and all(all(place for _, place in c["rounds"][:4]) for c in cards)


def test_substitutes_are_asked_for_when_players_are_not_a_multiple_of_four(event, field, admin):
    for p in field[:6]:
        services.checkin_set(
            registration=services.registration_add(event=event, player=p, actor=admin), present=True, actor=admin
        )
    with pytest.raises(ValidationError) as err:
        services.seating_plan(event=event, actor=admin)
    assert err.value.error_dict["players"][0].code == "substitutes_needed"
    for p in field[6:8]:
        services.registration_add(event=event, player=p, substitute=True, actor=admin)
    assert services.seating_plan(event=event, actor=admin, time_limit=1)["rounds"] == [1, 2, 3, 4]


def _round(event, n):
    return Round.objects.get(event=event, number=n)


def test_the_clock_runs_on_the_server(running, admin):
    r1 = _round(running, 1)
    t0 = dt.datetime(2026, 11, 28, 10, 0, tzinfo=dt.timezone.utc)
    assert services.round_clock_set(round_=r1, action="start", actor=admin, now=t0)["remaining"] == 3600
    r1.refresh_from_db()
    paused = services.round_clock_set(round_=r1, action="pause", actor=admin, now=t0 + dt.timedelta(minutes=10))
    assert paused["state"] == "paused" and paused["remaining"] == 50 * 60
    r1.refresh_from_db()
    services.round_clock_set(round_=r1, action="resume", actor=admin, now=t0 + dt.timedelta(minutes=15))
    r1.refresh_from_db()
    extended = services.round_clock_set(
        round_=r1, action="extend", minutes=5, actor=admin, now=t0 + dt.timedelta(minutes=15)
    )
    assert extended["remaining"] == 55 * 60
    with pytest.raises(ValidationError):
        services.round_clock_set(round_=_round(running, 2), action="start", actor=admin)  # round 1 still runs
    with pytest.raises(ValidationError):
        services.round_clock_set(round_=r1, action="extend", minutes=0, actor=admin)


def _table(event, round_number, table):
    return Game.objects.get(season=event.season, match_day=round_number, table=table)


def _start(event, n, admin):
    services.round_clock_set(round_=_round(event, n), action="start", actor=admin)


def test_a_table_reports_and_confirms_its_own_result(running, field, admin):
    game = _table(running, 1, 1)
    _start(running, 1, admin)
    seats = {s.seat: s.player for s in game.seats.select_related("player")}
    # the players with logins may not sit here: the phone on the table (its code entered) acts
    phone = TablePhone(game_id=game.pk)
    version = Event.objects.get(pk=running.pk).board_version
    report, changed = services.table_report_submit(game=game, scores=SCORES, seat=0, actor=phone)
    assert changed and report.status == "pending" and report.confirmed_seats == [0] and report.version == 1
    assert Event.objects.get(pk=running.pk).board_version > version
    for seat in (1, 2):
        services.table_report_confirm(game=game, seat=seat, version=1, actor=phone)
    assert not GameResult.objects.filter(game=game).exists()
    report = services.table_report_confirm(game=game, seat=3, version=1, actor=phone)
    assert report.status == "confirmed"
    result = GameResult.objects.get(game=game)
    assert result.scores == SCORES
    rows = {r.player: r for r in selectors.qualifying_standings(running)}
    # M-League: (48,000 − 30,000 return) / 1,000 = +18, uma +30, oka +20 to the top
    assert rows[seats[0].pk].points == Decimal("68.0")
    assert rows[seats[0].pk].rank == 1


def test_another_tables_phone_or_a_stranger_cannot_report(running, field, admin):
    game = _table(running, 1, 1)
    _start(running, 1, admin)
    with pytest.raises(PermissionDenied):
        services.table_report_submit(
            game=game, scores=SCORES, seat=0, actor=TablePhone(game_id=_table(running, 1, 2).pk)
        )
    stranger = next(p for p in field[:4] if not game.seats.filter(player=p).exists())
    with pytest.raises(PermissionDenied):
        services.table_report_submit(game=game, scores=SCORES, seat=0, actor=stranger.user)
    assert not TableReport.objects.filter(game=game).exists()


def test_a_seated_player_reports_for_their_own_seat_only(running, field, admin):
    from league.models import GameSeat

    _start(running, 1, admin)
    seat = (
        GameSeat.objects.filter(game__season=running.season, game__match_day=1, player__in=field[:4])
        .select_related("game")
        .first()
    )
    user = Player.objects.get(pk=seat.player_id).user
    game = seat.game
    with pytest.raises(ValidationError) as err:
        services.table_report_submit(game=game, scores=SCORES, seat=(seat.seat + 1) % 4, actor=user)
    assert err.value.error_dict["seat"][0].code == "not_your_seat"
    report, _ = services.table_report_submit(game=game, scores=SCORES, seat=seat.seat, actor=user)
    assert report.confirmed_seats == [seat.seat]


def test_bad_scores_are_refused_when_reported(running, admin):
    game = _table(running, 1, 2)
    _start(running, 1, admin)
    with pytest.raises(ValidationError) as err:
        services.table_report_submit(
            game=game, scores=[48000, 32000, 12000, 8050], seat=0, actor=TablePhone(game_id=game.pk)
        )
    assert "scores[3]" in err.value.message_dict
    assert not TableReport.objects.filter(game=game).exists()


def test_a_dispute_calls_a_referee_who_enters_the_result(running, referee, admin):
    game = _table(running, 1, 3)
    _start(running, 1, admin)
    phone = TablePhone(game_id=game.pk)
    services.table_report_submit(game=game, scores=SCORES, seat=0, actor=phone)
    services.table_report_dispute(game=game, seat=2, note="West had 13,000", actor=phone)
    calls = desk_calls(referee)
    assert len(calls) == 1 and "West had 13,000" in calls[0].detail
    assert calls[0].url == f"/events/tables/{game.pk}/"
    services.table_result_enter(game=game, scores=[48000, 31000, 13000, 8000], actor=referee)
    assert GameResult.objects.get(game=game).scores == [48000, 31000, 13000, 8000]
    assert desk_calls(referee) == []
    report = TableReport.objects.get(game=game)
    assert report.status == "resolved" and report.disputed_seat == 2 and report.dispute_note == "West had 13,000"
    assert [v.scores for v in report.versions.all()] == [SCORES, [48000, 31000, 13000, 8000]]


def _play_round(event, n, admin):
    for game in Game.objects.filter(season=event.season, match_day=n):
        rotate = game.table % 4
        services.table_result_enter(game=game, scores=SCORES[rotate:] + SCORES[:rotate], actor=admin)


def test_the_cut_seats_the_top_four_and_the_final_decides_the_champion(running, admin):
    for n in range(1, 5):
        _play_round(running, n, admin)
    qualifying = selectors.qualifying_standings(running)
    final = _round(running, 5)
    assert services.seating_by_standings(round_=final, actor=admin) == 1
    finalists = [s.player_id for s in Game.objects.get(season=running.season, match_day=5).seats.order_by("seat")]
    assert finalists == [r.player for r in qualifying[:4]]
    _play_round(running, 5, admin)
    services.event_status_set(event=running, status="finished", actor=admin)
    rows = selectors.event_standings(running)
    assert [r.finalist for r in rows[:4]] == [True] * 4 and not rows[4].finalist
    assert rows[0].points == rows[0].carried + rows[0].final_points
    running.season.refresh_from_db()
    assert running.season.status == "closed"
    placed = selectors.ema_placed(running)
    assert [p.position for p in placed][:5] == [r.rank for r in rows][:5]


def test_finishing_waits_for_every_table(running, admin):
    with pytest.raises(ValidationError) as err:
        services.event_status_set(event=running, status="finished", actor=admin)
    assert err.value.error_dict["status"][0].code == "results_missing"


def test_a_stranger_is_not_a_director(running, field):
    with pytest.raises(PermissionDenied):
        services.round_clock_set(round_=_round(running, 1), action="start", actor=field[0].user)
    assert Registration.objects.filter(event=running).count() == 16


def test_once_the_event_runs_players_no_longer_register_themselves(running, league, rules, admin):
    from league.models import Player
    from tests.actors import make_player_user

    late = Player.objects.create(display_name="Late Comer", membership_number="LATE01")
    user = make_player_user("late", late)
    with pytest.raises(ValidationError) as err:
        services.registration_add(event=running, player=late, actor=user)
    assert err.value.error_dict["event"][0].code == "registration_closed"
    assert services.registration_add(event=running, player=late, substitute=True, actor=admin).checked_in


def test_a_players_pages_name_an_event_game_by_the_event_and_its_round(running, admin, client):
    _play_round(running, 1, admin)
    game = Game.objects.filter(season=running.season, match_day=1).first()
    player = game.seats.first().player
    for url in (f"/players/{player.pk}/", f"/games/{game.pk}/"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Round 1" in page, url
        assert "day 1" not in page, url
    history = client.get(f"/players/{player.pk}/").content.decode()
    assert "Autumn Open" in history


def test_a_director_cannot_pull_another_leagues_player_into_the_event(event, admin, field):
    """Issue 34, item 8 through an event: registering a player of another league would make them a
    member (and open their private numbers to this league's admins); only their own registration
    or an accepted invitation does."""
    from kyoku.models import League
    from league.models import LeagueMembership
    from league.services import membership_grant
    from kyoku.principals import SYSTEM
    from tests.actors import make_player_user

    elsewhere = League.objects.create(name="Elsewhere", slug="elsewhere-ev")
    outsider = Player.objects.create(display_name="Outsider", membership_number="OUT001")
    membership_grant(league=elsewhere, player=outsider, via="system", actor=SYSTEM)
    with pytest.raises(ValidationError) as err:
        services.registration_add(event=event, player=outsider, actor=admin)
    assert err.value.error_dict["player"][0].code == "invitation_required"
    assert not Registration.objects.filter(event=event, player=outsider).exists()
    assert not LeagueMembership.objects.filter(league=event.league, player=outsider).exists()
    # the player's own registration is their consent
    reg = services.registration_add(event=event, player=outsider, actor=make_player_user("outsider", outsider))
    assert reg.status == "confirmed"
    assert LeagueMembership.objects.get(league=event.league, player=outsider).via == "registration"
