"""Data out: standings, a season's results and a player's history as rows for CSV and JSON.
Reads only; the views pick the format."""

from .models import GameSeat, Standing
from .names import player_display_name

STANDINGS_FIELDS = [
    "rank",
    "player",
    "games",
    "game_points",
    "penalty_points",
    "total_points",
    "average_place",
    "firsts",
    "seconds",
    "thirds",
    "fourths",
]
RESULTS_FIELDS = ["game", "division", "match_day", "table", "seat", "player", "raw_score", "points", "place"]
HISTORY_FIELDS = ["season", "division", "game", "match_day", "table", "seat", "raw_score", "points", "place"]
SEATS = ["E", "S", "W", "N"]


def _text(value):
    return "" if value is None else str(value)


def standings_rows(*, division) -> list[dict]:
    rows = Standing.objects.filter(division=division).select_related("player").order_by("rank")
    return [
        {f: _text(getattr(s, f)) if f != "player" else player_display_name(s.player) for f in STANDINGS_FIELDS}
        for s in rows
    ]


def season_results_rows(*, season) -> list[dict]:
    seats = (
        GameSeat.objects.filter(game__season=season, raw_score__isnull=False)
        .select_related("game__division", "player")
        .order_by("game__match_day", "game__division__order", "game__table", "seat")
    )
    return [
        {
            "game": s.game_id,
            "division": s.game.division.code,
            "match_day": s.game.match_day,
            "table": s.game.table,
            "seat": SEATS[s.seat],
            "player": player_display_name(s.player),  # the reader's language's one name (league.names)
            "raw_score": s.raw_score,
            "points": _text(s.points),
            "place": s.place,
        }
        for s in seats
    ]


def player_history_rows(*, player) -> list[dict]:
    seats = (
        GameSeat.objects.filter(player=player, raw_score__isnull=False)
        .select_related("game__season", "game__division")
        .order_by("game__season__year", "game__season__number", "game__match_day", "game__table")
    )
    return [
        {
            "season": str(s.game.season),
            "division": s.game.division.code,
            "game": s.game_id,
            "match_day": s.game.match_day,
            "table": s.game.table,
            "seat": SEATS[s.seat],
            "raw_score": s.raw_score,
            "points": _text(s.points),
            "place": s.place,
        }
        for s in seats
    ]
