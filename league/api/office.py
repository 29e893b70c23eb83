"""Season office through the API: next season, close, promotion preview (GET) and confirm (POST)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.authz import Need, object_for_actor

from .. import office
from ..models import Season
from .idempotency import idempotent


class SeasonRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "year", "number", "status"]


class PromotionRowSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.display_name")
    from_division = serializers.CharField(source="from")
    to_division = serializers.CharField(source="to")
    basis = serializers.CharField()


class PromotionSummarySerializer(serializers.Serializer):
    created = serializers.IntegerField()
    skipped = serializers.IntegerField()
    promoted = serializers.ListField(child=serializers.IntegerField())
    relegated = serializers.ListField(child=serializers.IntegerField())


def _season(request, pk):
    return object_for_actor(Season.objects.select_related("league"), actor=request.user, need=Need.ADMIN, pk=pk)


class SeasonNextView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: SeasonRefSerializer})
    @idempotent
    def post(self, request, pk):
        nxt = office.season_create_next(season=_season(request, pk), actor=request.user)
        return Response(SeasonRefSerializer(nxt).data, status=status.HTTP_201_CREATED)


class SeasonCloseView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=SeasonRefSerializer)
    @idempotent
    def post(self, request, pk):
        season = office.season_close(season=_season(request, pk), actor=request.user)
        return Response(SeasonRefSerializer(season).data)


class SeasonPromotionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PromotionRowSerializer(many=True))
    def get(self, request, pk):
        rows = office.promotion_preview(season=_season(request, pk))
        return Response(PromotionRowSerializer(rows, many=True).data)

    @extend_schema(request=None, responses=PromotionSummarySerializer)
    @idempotent
    def post(self, request, pk):
        summary = office.season_promotion_confirm(season=_season(request, pk), actor=request.user)
        return Response(PromotionSummarySerializer(summary).data)
