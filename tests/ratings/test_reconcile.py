"""The periodic reconciliation repairs what a lost task (or a change around the services) left
stale, from the stored results, and a second run finds nothing."""

from decimal import Decimal
from io import StringIO

from django.core.management import call_command

from league import services
from league.models import Game, GameSeat, Standing
from ratings.models import PlayerRating, RatingEvent
from ratings.reconcile import derived_reconcile, league_ratings_disagreement
from ratings.services import league_ratings_rebuild
from tests.ratings.conftest import new_game, snapshot
from kyoku.principals import SYSTEM


def full_recompute(league):
    league_ratings_rebuild(league=league, actor=SYSTEM)
    return snapshot(league)


def played(season, players, admin, record, days=4):
    games = [new_game(season, "A", day, 1, players[:4]) for day in range(1, days + 1)]
    for game, scores in zip(
        games,
        (
            [45000, 30000, 15000, 10000],
            [10000, 15000, 30000, 45000],
            [25000, 35000, 30000, 10000],
            [30000, 30000, 20000, 20000],
        ),
    ):
        record(game, scores)
    return games


def nothing_repaired(league) -> bool:
    return derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug] == {
        "seats": 0,
        "standings": 0,
        "summaries": 0,
        "ratings": None,
    }


def test_a_result_whose_ratings_task_was_lost_is_rated_by_the_next_run(season, players, admin, record, league):
    games = played(season, players, admin, record, days=3)
    # the fourth result commits, but its task never runs (the worker was killed): no events
    late = new_game(season, "A", 4, 1, players[:4])
    services.game_result_record(game=late, scores=[30000, 30000, 20000, 10000 + 10000], actor=admin)
    assert not RatingEvent.objects.filter(game=late).exists()
    assert (
        league_ratings_disagreement(league=league)[0]
        == RatingEvent.objects.filter(game=games[0]).values_list("order_key", flat=True)[0][:6]
        + "00004-00001-"
        + f"{late.pk:012d}"
    )
    report = derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug]
    assert report["ratings"]["games"] == 1  # replayed from the lost game only
    assert RatingEvent.objects.filter(game=late).count() == 4
    repaired = snapshot(league)
    assert full_recompute(league) == repaired
    assert nothing_repaired(league)


def test_a_correction_whose_task_was_lost_replays_from_that_game(season, players, admin, record, league):
    games = played(season, players, admin, record)
    services.game_result_record(game=games[1], scores=[45000, 30000, 15000, 10000], actor=admin, replace=True)
    assert RatingEvent.objects.get(game=games[1], player=players[0]).place == 4  # stale: still the old places
    report = derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug]
    assert report["ratings"]["games"] == 3  # games 2, 3 and 4; game 1 is kept
    assert RatingEvent.objects.get(game=games[1], player=players[0]).place == 1
    repaired = snapshot(league)
    assert full_recompute(league) == repaired
    assert nothing_repaired(league)


def test_a_deleted_game_whose_rebuild_was_lost_leaves_no_trace(season, players, admin, record, league):
    games = played(season, players, admin, record)
    Game.objects.filter(pk=games[1].pk).delete()  # no on-commit hooks run: the rebuild is lost
    report = derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug]
    assert report["ratings"]["games"] == 2
    assert report["summaries"] == 1  # the season page no longer counts the deleted game
    first_after = RatingEvent.objects.get(game=games[2], player=players[0])
    assert (first_after.mu_before, first_after.sigma_before) == tuple(
        RatingEvent.objects.filter(game=games[0], player=players[0]).values_list("mu_after", "sigma_after")[0]
    )
    repaired = snapshot(league)
    assert full_recompute(league) == repaired
    assert nothing_repaired(league)


def test_a_current_rating_row_that_disagrees_is_restored_without_a_replay(season, players, admin, record, league):
    played(season, players, admin, record)
    kept = snapshot(league)
    PlayerRating.objects.filter(player=players[2]).update(mu=1.0, games=99)
    PlayerRating.objects.filter(player=players[3]).delete()
    report = derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug]
    assert report["ratings"]["games"] == 0 and report["ratings"]["players"] == 2
    assert snapshot(league) == kept
    assert nothing_repaired(league)


def test_seat_settlements_and_standings_are_repaired_from_the_result(season, players, admin, record, league, game):
    record(game, [45000, 30000, 15000, 10000])
    seat = GameSeat.objects.get(game=game, seat=0)
    # M-League: 45,000 is +15.0 over 30,000 plus uma 30 (+ the 20.0 top prize for the oka) = 65.0
    assert seat.points == Decimal("65.0") and seat.place == 1
    GameSeat.objects.filter(pk=seat.pk).update(points=Decimal("-1.0"), place=4)
    Standing.objects.filter(division=game.division, player=players[1]).delete()
    report = derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug]
    assert (report["seats"], report["standings"]) == (1, 1)
    seat.refresh_from_db()
    assert (seat.points, seat.place) == (Decimal("65.0"), 1)
    top = Standing.objects.get(division=game.division, player=players[0])
    assert (top.rank, top.total_points, top.games) == (1, Decimal("65.0"), 1)
    assert Standing.objects.filter(division=game.division, player=players[1]).exists()
    assert nothing_repaired(league)


def test_command_reports_each_league(season, players, admin, record, league):
    games = played(season, players, admin, record, days=2)
    RatingEvent.objects.filter(game=games[1]).delete()
    out = StringIO()
    call_command("derived_reconcile", stdout=out)
    assert out.getvalue().startswith(
        "test: 0 seats repaired, 0 divisions' standings recomputed, 0 divisions' summaries "
        "recounted, ratings replayed 1 "
    )
    out = StringIO()
    call_command("derived_reconcile", "--league", "test", stdout=out)
    assert out.getvalue() == (
        "test: 0 seats repaired, 0 divisions' standings recomputed, 0 divisions' summaries "
        "recounted, ratings up to date\n"
    )


def test_the_beat_runs_the_reconciliation_periodically():
    from config.celery import app

    entry = app.conf.beat_schedule["derived-reconcile"]
    assert entry["task"] == "ratings.tasks.derived_reconcile"
    assert entry["schedule"] == 600.0
