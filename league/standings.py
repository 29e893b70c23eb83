"""Standings arithmetic, from stored seat results and the penalty ledger.

Order (the league's documented tie-breaks): total points (game points minus penalties)
descending, then average place ascending, then more 1st places, more 2nd, more 3rd, then
more games played, then display name. Players with an entry but no game yet are listed last
in name order with zero points.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.db import connection
from django.db.models import Sum

from .models import Division, Entry, Game, GameSeat, Penalty, Season, Standing

ZERO = Decimal("0")
TENTH = Decimal("0.1")


def _seat_totals(division: Division, player_ids=None) -> dict[int, dict]:
    totals: dict[int, dict] = defaultdict(lambda: {"games": 0, "points": ZERO, "places": [0, 0, 0, 0]})
    for player_id, points, place in (
        _division_seats(division) if player_ids is None else _players_division_seats(division, player_ids)
    ):
        row = totals[player_id]
        row["games"] += 1
        row["points"] += points
        row["places"][place - 1] += 1
    return totals


def _division_seats(division: Division):
    """Every finished seat of the division (the full recompute reads them all)."""
    # no ORDER BY: GameSeat's default ordering would join and sort every seat for nothing
    return (
        GameSeat.objects.filter(game__division=division, game__status=Game.Status.FINISHED, place__isnull=False)
        .order_by()
        .values_list("player_id", "points", "place")
    )


def _players_division_seats(division: Division, player_ids) -> list[tuple]:
    """The finished seats of a few players in the division (an incremental update).

    Written so the database starts from the players' seats (the GameSeat.player index: a few
    hundred rows) and looks each game up by key. Joined the ORM way, SQLite's planner (which has
    no statistics unless ANALYZE ran) starts from the division's games instead and probes every
    one of them: 36 ms at 25,000 games in a division, against under 2 ms this way. CROSS JOIN
    fixes SQLite's join order; PostgreSQL plans it freely from its statistics."""
    player_ids = [int(p) for p in player_ids]
    if not player_ids:
        return []
    seat, game = GameSeat._meta.db_table, Game._meta.db_table
    marks = ", ".join(["%s"] * len(player_ids))
    sql = (
        f'SELECT s.player_id, s.points, s.place FROM "{seat}" s CROSS JOIN "{game}" g '
        f"WHERE g.id = s.game_id AND s.player_id IN ({marks}) AND g.division_id = %s "
        f"AND g.status = %s AND s.place IS NOT NULL"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*player_ids, division.pk, Game.Status.FINISHED.value])
        rows = cursor.fetchall()
    # raw SQL hands back what the driver gives: PostgreSQL a Decimal, SQLite an int or a float
    # (str() of a float is its shortest exact decimal, so 16.6 stays 16.6)
    return [(player_id, Decimal(str(points)).quantize(TENTH), place) for player_id, points, place in rows]


def _penalty_totals(season_id: int, player_ids) -> dict[int, Decimal]:
    rows = (
        Penalty.objects.filter(season_id=season_id, player_id__in=player_ids, cancelled_at__isnull=True)
        .order_by()
        .values("player_id")
        .annotate(total=Sum("points"))
    )
    return {r["player_id"]: r["total"] or ZERO for r in rows}


def _row(player_id: int, totals: dict, penalties: dict) -> dict:
    t = totals.get(player_id, {"games": 0, "points": ZERO, "places": [0, 0, 0, 0]})
    games, places = t["games"], t["places"]
    average = (
        (Decimal(sum((i + 1) * n for i, n in enumerate(places))) / games).quantize(Decimal("0.01")) if games else None
    )
    penalty = penalties.get(player_id, ZERO)
    return {
        "player_id": player_id,
        "games": games,
        "game_points": t["points"],
        "penalty_points": penalty,
        "total_points": t["points"] - penalty,
        "average_place": average,
        "firsts": places[0],
        "seconds": places[1],
        "thirds": places[2],
        "fourths": places[3],
    }


def entrant_names(division: Division, player_ids=None) -> dict[int, str]:
    """The entrants' names (the last tie-break), of the whole division or of ``player_ids``."""
    entries = Entry.objects.filter(division=division)
    if player_ids is not None:
        entries = entries.filter(player_id__in=player_ids)
    return dict(entries.order_by().values_list("player_id", "player__display_name"))


def points_key(row: dict) -> tuple:
    """The order's first figures (:func:`rank_key`): who has played comes first, then the most
    total points."""
    return row["games"] == 0, -row["total_points"]


def standings_rows(*, division: Division) -> list[dict]:
    """The full recompute (the audit): every row of the division from seats and the ledger."""
    totals = _seat_totals(division)
    names = entrant_names(division)
    player_ids = set(totals) | set(names)
    penalties = _penalty_totals(division.season_id, player_ids)
    return rank_rows([_row(p, totals, penalties) for p in player_ids], names)


def standings_rows_for(*, division: Division, player_ids) -> dict[int, dict | None]:
    """The rows of some players only (an incremental update): ``None`` for a player who has
    neither an entry nor a finished game in the division (their row goes)."""
    player_ids = set(player_ids)
    totals = _seat_totals(division, player_ids)
    entrants = set(
        Entry.objects.filter(division=division, player_id__in=player_ids).order_by().values_list("player_id", flat=True)
    )
    present = set(totals) | entrants
    penalties = _penalty_totals(division.season_id, present)
    return {p: (_row(p, totals, penalties) if p in present else None) for p in player_ids}


SeatResult = tuple[Decimal, int]  # a finished seat's league points and place


def row_moved(stored: dict, player_id: int, before: SeatResult | None, after: SeatResult | None) -> dict:
    """A player's row after one of their seats changed (a result entered or corrected): the
    stored row less the seat as it counted (``before``: None when it did not, the game not yet
    finished), plus the seat as it counts now. Exact, so the same row as reading every seat of
    the player (:func:`standings_rows_for`); the penalty ledger is not touched by a result."""
    places = [stored["firsts"], stored["seconds"], stored["thirds"], stored["fourths"]]
    games, points = stored["games"], stored["game_points"]
    for sign, seat in ((-1, before), (1, after)):
        if seat is not None:
            games += sign
            points += sign * seat[0]
            places[seat[1] - 1] += sign
    totals = {player_id: {"games": games, "points": points, "places": places}}
    return _row(player_id, totals, {player_id: stored["penalty_points"]})


def figures_key(row: dict) -> tuple:
    """The order's figures (:func:`rank_key` without the name and the id): rows level on these
    are parted only by their names."""
    return (
        *points_key(row),
        row["average_place"] or 9,
        -row["firsts"],
        -row["seconds"],
        -row["thirds"],
        -row["games"],
    )


def rank_key(row: dict, name: str) -> tuple:
    """A row's place in the order: the documented tie-breaks, then the name, then the player's id
    (two players of the same name and figures keep one order, whichever way the rows are read)."""
    return (*figures_key(row), name, row["player_id"])


def rank_rows(rows: list[dict], names: dict[int, str]) -> list[dict]:
    """Sort by the documented tie-breaks and number the ranks 1..n."""
    rows.sort(key=lambda r: rank_key(r, names.get(r["player_id"], "")))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


def promotion_plan(*, season: Season, count: int) -> list[tuple[int, str, str]]:
    """``(player_id, division code next season, basis)`` for every entry of ``season``."""
    divisions = list(season.divisions.order_by("order"))
    ranked = {
        d.pk: list(Standing.objects.filter(division=d).order_by("rank").values_list("player_id", flat=True))
        for d in divisions
    }
    for d in divisions:  # entries without a standings row (no recompute yet) keep their place at the end
        listed = set(ranked[d.pk])
        ranked[d.pk] += [
            p for p in Entry.objects.filter(division=d).values_list("player_id", flat=True) if p not in listed
        ]
    destination = {p: (d.code, Entry.Basis.RETAINED) for d in divisions for p in ranked[d.pk]}
    for upper, lower in zip(divisions, divisions[1:]):
        n = min(count, len(ranked[upper.pk]) // 2, len(ranked[lower.pk]) // 2)
        for p in ranked[lower.pk][:n]:
            destination[p] = (upper.code, Entry.Basis.PROMOTED)
        for p in ranked[upper.pk][len(ranked[upper.pk]) - n :] if n else []:
            destination[p] = (lower.code, Entry.Basis.RELEGATED)
    return [(p, code, basis) for p, (code, basis) in destination.items()]
