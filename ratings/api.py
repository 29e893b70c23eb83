"""Public reads of the ratings (GET only)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import PUBLIC, object_for_request, route
from kyoku.models import League
from league.models import Player

from . import selectors


class RatingsPagination(LimitOffsetPagination):
    """``?limit=&offset=``; both bounded so an absurd number reads as "past the end", not a
    database error."""

    default_limit = 100
    max_limit = 500

    def get_offset(self, request):
        return min(super().get_offset(request), 2**31 - 1)


class _PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    native_name = serializers.CharField()


class RatingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = _PlayerSerializer()
    rating = serializers.FloatField(source="ordinal", help_text="mu - 3 sigma, the figure shown")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    last_game = serializers.IntegerField(source="last_game_id", allow_null=True)


class RatingEventSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    season = serializers.SerializerMethodField()
    match_day = serializers.IntegerField(source="game.match_day")
    table = serializers.IntegerField(source="game.table")
    place = serializers.IntegerField()
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    rating_before = serializers.FloatField(source="ordinal_before")
    mu = serializers.FloatField(source="mu_after")
    sigma = serializers.FloatField(source="sigma_after")
    rating = serializers.FloatField(source="ordinal")

    def get_season(self, event) -> str:
        return str(event.game.season)


class LeagueRatingsView(APIView):
    access = route("league", GET=PUBLIC)

    @extend_schema(
        parameters=[
            OpenApiParameter("sort", OpenApiTypes.STR, enum=list(selectors.SORTS)),
            OpenApiParameter("limit", OpenApiTypes.INT),
            OpenApiParameter("offset", OpenApiTypes.INT),
        ],
        responses=RatingRowSerializer(many=True),
    )
    def get(self, request, slug):
        league = object_for_request(request, League, slug=slug)
        rows = selectors.league_ratings(league=league, sort=request.query_params.get("sort"))
        paginator = RatingsPagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(RatingRowSerializer(page, many=True).data)


class PlayerRatingsView(APIView):
    access = route("player", GET=PUBLIC)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, player_id):
        player = object_for_request(request, Player, pk=player_id)
        leagues = []
        for rating, events in selectors.player_rating_history(player=player):
            leagues.append(
                {
                    "league": {"slug": rating.league.slug, "name": rating.league.name},
                    "rating": rating.ordinal,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "games": rating.games,
                    "history": RatingEventSerializer(events, many=True).data,
                }
            )
        return Response({"player": player.pk, "leagues": leagues})
