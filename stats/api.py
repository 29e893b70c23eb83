"""Public reads of the statistics (GET only): a player's figures in a scope, a league's
leaderboard for one rate, its records. Absent figures are null with the reason in words."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import PUBLIC, object_for_request, route
from kyoku.models import League
from league.models import Player

from . import selectors
from .achievements import achievements_of
from .views import board_of, scope_of


class BoardPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 500

    def get_offset(self, request: Any) -> int:
        return min(super().get_offset(request), 2**31 - 1)


def _player(p: Player) -> dict[str, Any]:
    return {"id": p.pk, "display_name": p.display_name, "native_name": p.native_name}


SCOPE_PARAMETERS = [
    OpenApiParameter("league", OpenApiTypes.STR, description="a league's slug (default: every league)"),
    OpenApiParameter("season", OpenApiTypes.INT, description="one season"),
    OpenApiParameter("system", OpenApiTypes.STR, enum=list(selectors.SYSTEMS)),
]


class PlayerStatisticsView(APIView):
    access = route("player", GET=PUBLIC)

    @extend_schema(parameters=SCOPE_PARAMETERS, responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, player_id: int) -> Response:
        player = object_for_request(request, Player, pk=player_id)
        scope = scope_of(request, player)
        figures = selectors.player_figures(
            player=player, league=scope["league"], season=scope["season"], system=scope["system"]
        )
        counts = figures["counts"]
        return Response(
            {
                "player": _player(player),
                "scope": {
                    "league": scope["league"].slug if scope["league"] else None,
                    "season": scope["season"].pk if scope["season"] else None,
                    "system": figures["system"],
                },
                "figures": [
                    {
                        "key": f["key"],
                        "value": f["value"],
                        "absent_because": None if f["why"] is None else str(f["why"]),
                        "numerator": float(f["numerator"]),
                        "denominator": float(f["denominator"]),
                        "league_average": f["average"],
                    }
                    for f in figures["table"]
                ],
                "counts": {k: float(counts[k]) if k == "points_sum" else counts[k] for k in selectors.FIELDS},
                "placements": figures["charts"]["places"],
                "yaku": [{"key": y["key"], "name": y["label"], "wins": y["count"]} for y in figures["yaku"]],
                "biggest_hand": counts["biggest"],
                "best_game": counts["best_game"],
                "worst_game": counts["worst_game"],
                "longest_first_place_streak": counts["first_streak"],
                "longest_last_place_streak": counts["last_streak"],
                "running_total": figures["charts"]["running"],
                "achievements": [
                    {
                        **{k: a[k] for k in ("key", "reached", "value", "target", "at_most", "minimum", "base")},
                        "name": str(a["name"]),
                        "rule": str(a["rule"]),
                        "absent_because": None if a["absent_because"] is None else str(a["absent_because"]),
                    }
                    for a in achievements_of(counts, figures["system"])
                ],
            }
        )


class LeaderboardView(APIView):
    access = route("league", GET=PUBLIC)

    @extend_schema(
        parameters=[
            OpenApiParameter("rate", OpenApiTypes.STR, enum=selectors.BOARD_RATES),
            OpenApiParameter("season", OpenApiTypes.INT),
            OpenApiParameter("system", OpenApiTypes.STR, enum=list(selectors.SYSTEMS)),
            OpenApiParameter("min", OpenApiTypes.INT, description="minimum hands (games, for a rate over games)"),
            OpenApiParameter("limit", OpenApiTypes.INT),
            OpenApiParameter("offset", OpenApiTypes.INT),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request, slug: str) -> Response:
        league = object_for_request(request, League, slug=slug)
        board = board_of(request, league)
        rate = board["rate"]
        paginator = BoardPagination()
        page = paginator.paginate_queryset(board["rows"], request, view=self) or []
        start = paginator.offset
        rows = [
            {
                "rank": start + i,
                "player": {"id": r.player_id, "display_name": r.name, "native_name": r.native_name},
                "value": r.value,
                "numerator": float(r.num),
                "denominator": float(r.den),
                "hands": r.hands,
                "games": r.games,
            }
            for i, r in enumerate(page, start=1)
        ]
        response = paginator.get_paginated_response(rows)
        response.data["rate"] = rate.key
        response.data["minimum"] = board["min"]
        response.data["system"] = board["system"]
        return response


class RecordsView(APIView):
    access = route("league", GET=PUBLIC)

    @extend_schema(parameters=[OpenApiParameter("season", OpenApiTypes.INT)], responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        league = object_for_request(request, League, slug=slug)
        scope = scope_of(request, league=league)
        records = selectors.league_records(league=league, season=scope["season"])
        return Response(
            {
                "league": league.slug,
                "season": scope["season"].pk if scope["season"] else None,
                "biggest_hands": [
                    {"player": _player(r["row"].player), "season": r["row"].season_id, **r["hand"]}
                    for r in records["biggest"]
                ],
                "most_wins_in_a_day": [
                    {"player": _player(r.player), "wins": r.best_day_wins, **(r.best_day or {})}
                    for r in records["best_day"]
                ],
                "longest_first_place_streaks": [
                    {"player": _player(r.player), "season": r.season_id, "games": r.first_streak}
                    for r in records["first_streak"]
                ],
            }
        )
