"""Stored standings: one source of truth, equal to a full recompute, penalties included."""

from decimal import Decimal

from league import services
from league.models import Standing
from league.standings import rank_rows, standings_rows
from kyoku.principals import SYSTEM


def _play(division, players, day, scores, admin):
    game = services.game_create(division=division, match_day=day, table=1, players=players, actor=SYSTEM)
    services.game_result_record(game=game, scores=scores, actor=admin)
    return game


def test_totals_places_and_average(division_a, players, admin):
    four = players[:4]
    _play(division_a, four, 1, [43000, 30800, 16000, 10200], admin)
    _play(division_a, four, 2, [10200, 16000, 30800, 43000], admin)
    services.standings_recompute(division=division_a)
    rows = {s.player_id: s for s in Standing.objects.filter(division=division_a)}
    p0 = rows[four[0].pk]
    assert p0.games == 2
    assert p0.total_points == Decimal("13.2")  # 63.0 − 49.8
    assert (p0.firsts, p0.fourths) == (1, 1)
    assert p0.average_place == Decimal("2.50")


def _row(pid, points, average, places, games=None):
    return {
        "player_id": pid,
        "total_points": Decimal(points),
        "average_place": Decimal(average),
        "firsts": places[0],
        "seconds": places[1],
        "thirds": places[2],
        "fourths": places[3],
        "games": games if games is not None else sum(places),
    }


def test_tie_breaks_in_documented_order():
    rows = [
        _row(1, "10.0", "2.50", [1, 0, 1, 0]),
        _row(2, "10.0", "2.00", [0, 2, 0, 0]),  # same points, better average place
        _row(3, "10.0", "2.50", [0, 1, 1, 0]),  # same points and average, fewer 1sts than 1
        _row(4, "12.0", "3.00", [0, 0, 2, 0]),  # most points wins whatever the places
        _row(5, "0", "0", [0, 0, 0, 0]),  # no games: last
        _row(6, "-5.0", "4.00", [0, 0, 0, 1]),
    ]
    rows[4]["average_place"] = None
    ranked = rank_rows(rows, {})
    assert [r["player_id"] for r in ranked] == [4, 2, 1, 3, 6, 5]
    assert [r["rank"] for r in ranked] == [1, 2, 3, 4, 5, 6]


def test_penalty_is_subtracted_and_cancel_restores(division_a, players, admin, season):
    four = players[:4]
    _play(division_a, four, 1, [43000, 30800, 16000, 10200], admin)
    penalty = services.penalty_assign(
        season=season, player=four[0], offence="false_win", sanction="chombo", points=Decimal("20"), actor=admin
    )
    services.standings_recompute(division=division_a)
    row = Standing.objects.get(division=division_a, player=four[0])
    assert (row.game_points, row.penalty_points, row.total_points) == (
        Decimal("63.0"),
        Decimal("20.0"),
        Decimal("43.0"),
    )
    services.penalty_cancel(penalty=penalty, reason="overturned on appeal", actor=admin)
    services.standings_recompute(division=division_a)
    assert Standing.objects.get(division=division_a, player=four[0]).total_points == Decimal("63.0")


def test_stored_equals_full_recompute(division_a, players, admin):
    four = players[:4]
    _play(division_a, four, 1, [43000, 30800, 16000, 10200], admin)
    services.standings_recompute(division=division_a)
    stored = list(
        Standing.objects.filter(division=division_a)
        .order_by("rank")
        .values_list("player_id", "total_points", "games", "average_place")
    )
    services.standings_recompute(division=division_a)
    again = list(
        Standing.objects.filter(division=division_a)
        .order_by("rank")
        .values_list("player_id", "total_points", "games", "average_place")
    )
    assert stored == again


def test_entered_player_without_games_is_listed_last(division_a, players):
    rows = standings_rows(division=division_a)
    assert len(rows) == 4 and all(r["games"] == 0 for r in rows)
