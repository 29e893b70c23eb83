"""Reads for the ratings table, the player chart and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from kyoku.models import League

from .models import PlayerRating, RatingEvent

# ?sort= values of the table page and the API, each with the order it means (stable: player id last)
SORTS = {
    "rating": ("-ordinal", "player__display_name", "player_id"),
    "-rating": ("ordinal", "player__display_name", "player_id"),
    "games": ("-games", "-ordinal", "player_id"),
    "-games": ("games", "-ordinal", "player_id"),
    "name": ("player__display_name", "player_id"),
    "-name": ("-player__display_name", "-player_id"),
    "skill": ("-mu", "player_id"),
    "-skill": ("mu", "player_id"),
    "uncertainty": ("sigma", "player_id"),
    "-uncertainty": ("-sigma", "player_id"),
}
DEFAULT_SORT = "rating"


def sort_clean(value) -> str:
    return value if isinstance(value, str) and value in SORTS else DEFAULT_SORT


def league_ratings(*, league, sort: str = DEFAULT_SORT):
    """The league's current ratings, each row annotated with its ``rank`` by rating (ties share
    the rank of the first of them), in the order ``sort`` asks for."""
    from django.db.models import Window
    from django.db.models.functions import Rank

    return (
        PlayerRating.objects.filter(league=league)
        .select_related("player", "last_game__season")
        .annotate(rank=Window(Rank(), order_by=F("ordinal").desc()))
        .order_by(*SORTS[sort_clean(sort)])
    )


@dataclass(frozen=True)
class CurrentRating:
    """A player's rating in one league as their latest rated game left it: the same figures as
    their ``PlayerRating`` row, which the ratings services write from the same events."""

    league: League
    mu: float
    sigma: float
    ordinal: float
    games: int


def player_rating_history(*, player) -> list[tuple[CurrentRating, list]]:
    """Per league the player has rated games in (by league name): the current rating and every
    rated game, oldest first (the chart's points). One query whatever the number of leagues."""
    by_league: dict[int, list] = {}
    for event in (
        RatingEvent.objects.filter(player=player)
        .select_related("league", "game__season", "game__division")
        .order_by("league__name", "league_id", "order_key")
    ):
        by_league.setdefault(event.league_id, []).append(event)
    return [
        (
            CurrentRating(
                league=events[-1].league,
                mu=events[-1].mu_after,
                sigma=events[-1].sigma_after,
                ordinal=events[-1].ordinal,
                games=len(events),
            ),
            events,
        )
        for events in by_league.values()
    ]


def chart(events: list, width: int = 480, height: int = 220, pad_x: int = 44, pad_y: int = 22) -> dict | None:
    """The rating (mu - 3 sigma) after each game as SVG coordinates, drawn server-side so the
    page needs no script; the first point is the start before any game. (mu itself is left out:
    on the same scale it would flatten the line players follow.)"""
    if not events:
        return None
    ratings = [events[0].ordinal_before] + [e.ordinal for e in events]
    low, high = min(ratings + [0.0]), max(ratings + [0.0])
    span = (high - low) or 1.0
    step = (width - pad_x - 8) / max(len(ratings) - 1, 1)

    def xy(i, v):
        return round(pad_x + i * step, 1), round(height - pad_y - (v - low) / span * (height - 2 * pad_y), 1)

    line = [xy(i, v) for i, v in enumerate(ratings)]
    seasons, previous = [], None  # a tick where a new season starts
    for i, e in enumerate(events, start=1):
        if e.game.season_id != previous:
            # the label starts at the tick, kept inside the frame (about 60 units wide at 13 px)
            seasons.append(
                {
                    "x": line[i][0],
                    "label_x": min(line[i][0], width - 62),
                    "label": str(e.game.season),
                }
            )
            previous = e.game.season_id
    return {
        "width": width,
        "height": height,
        "pad_x": pad_x,
        "rating": " ".join(f"{x},{y}" for x, y in line),
        "dots": line[1:],
        "zero_y": xy(0, 0.0)[1],
        "high": f"{high:.1f}",
        "low": f"{low:.1f}",
        "bottom": height - 4,
        "seasons": seasons[-6:],  # at most six labels fit a phone
        "last": f"{ratings[-1]:.2f}",
    }
