"""Season office through the API: open registration, next season, close, promotion preview (GET)
and confirm (POST); a season's entries (list, add, remove) and games (list, create). The writes call the same
services as the office pages (league.office), so page and API refuse the same things."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import ADMIN, PUBLIC, object_for_request, route

from .. import office, selectors
from ..models import Entry, Game, LeagueInvitation, Player, Season
from . import serializers as s
from kyoku.idempotency import idempotent
from kyoku.body_keys import ConfirmField

BIG = 2**31 - 1  # the largest id the database holds; more is a 400 naming the field


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


def _season(request, pk) -> Season:
    """The season, checked at the level the view declares for this method."""
    return object_for_request(request, Season.objects.select_related("league"), pk=pk)


class SeasonNextSerializer(serializers.Serializer):
    starts_on = serializers.DateField(
        required=False, allow_null=True, default=None, help_text="Default: the day after this season ends."
    )
    ends_on = serializers.DateField(
        required=False, allow_null=True, default=None, help_text="Default: as long after the start as this season was."
    )


class SeasonNextView(APIView):
    access = route("season", POST=ADMIN)

    @extend_schema(request=SeasonNextSerializer, responses={201: SeasonRefSerializer})
    @idempotent
    def post(self, request, pk):
        season = _season(request, pk)
        data = SeasonNextSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        nxt = office.season_create_next(season=season, actor=request.user, **data.validated_data)
        return Response(SeasonRefSerializer(nxt).data, status=status.HTTP_201_CREATED)


class SeasonCloseSerializer(serializers.Serializer):
    confirm = ConfirmField(
        default=False,
        help_text="Close although games or match days are still open "
        "(without it such a season answers 409 listing them).",
    )


class SeasonReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class SeasonOpenView(APIView):
    """Open a draft season's registration: its league's members are told and its channels announce
    it; a season already open or closed answers 409 in words."""

    access = route("season", POST=ADMIN)

    @extend_schema(request=None, responses=SeasonRefSerializer)
    @idempotent
    def post(self, request, pk):
        season = office.season_open(season=_season(request, pk), actor=request.user)
        return Response(SeasonRefSerializer(season).data)


class SeasonCloseView(APIView):
    """Close a season; with games or match days still open, 409 lists them unless ``confirm``."""

    access = route("season", POST=ADMIN)

    @extend_schema(request=SeasonCloseSerializer, responses=SeasonRefSerializer)
    @idempotent
    def post(self, request, pk):
        ser = SeasonCloseSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        season = office.season_close(
            season=_season(request, pk), actor=request.user, confirm=ser.validated_data["confirm"]
        )
        return Response(SeasonRefSerializer(season).data)


class SeasonReopenView(APIView):
    """Reopen a closed season (audited)."""

    access = route("season", POST=ADMIN)

    @extend_schema(request=SeasonReopenSerializer, responses=SeasonRefSerializer)
    @idempotent
    def post(self, request, pk):
        ser = SeasonReopenSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        season = office.season_reopen(
            season=_season(request, pk), actor=request.user, reason=ser.validated_data["reason"]
        )
        return Response(SeasonRefSerializer(season).data)


class SeasonPromotionView(APIView):
    access = route("season", GET=ADMIN, POST=ADMIN)

    @extend_schema(responses=PromotionRowSerializer(many=True))
    def get(self, request, pk):
        rows = office.promotion_preview(season=_season(request, pk))
        return Response(PromotionRowSerializer(rows, many=True).data)

    @extend_schema(request=None, responses=PromotionSummarySerializer)
    @idempotent
    def post(self, request, pk):
        summary = office.season_promotion_confirm(season=_season(request, pk), actor=request.user)
        return Response(PromotionSummarySerializer(summary).data)


# ---------------------------------------------------------------- entries and games


class _StrictInput(serializers.Serializer):
    """Unknown keys are refused by name: a typo ("divison") must not be silently ignored."""

    def validate(self, attrs):
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({k: ["unknown field"] for k in unknown})
        return attrs


class EntryInputSerializer(_StrictInput):
    division = serializers.IntegerField(min_value=1, max_value=BIG, help_text="A division of this season.")
    player = serializers.IntegerField(min_value=1, max_value=BIG, help_text="A player with no entry this season.")


class GameInputSerializer(_StrictInput):
    division = serializers.IntegerField(min_value=1, max_value=BIG, help_text="A division of this season.")
    match_day = serializers.IntegerField(min_value=1, max_value=99)
    table = serializers.IntegerField(min_value=1, max_value=99)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=BIG),
        min_length=4,
        max_length=4,
        help_text="Player ids in seat order: East, South, West, North; " "each entered in the division.",
    )
    scheduled_at = serializers.DateTimeField(required=False, allow_null=True)


def _division_of(season: Season, division_id: int):
    division = season.divisions.filter(pk=division_id).first()
    if division is None:
        raise ValidationError({"division": [gettext("not a division of %(season)s") % {"season": season}]})
    return division


def _players(ids: list[int], field: str) -> list[Player]:
    found = Player.objects.in_bulk(ids)
    unknown = [i for i in ids if i not in found]
    if unknown:
        raise ValidationError(
            {field: [gettext("unknown player: %(unknown)s") % {"unknown": ", ".join(map(str, unknown))}]}
        )
    return [found[i] for i in ids]


class SeasonEntriesView(generics.ListAPIView):
    """Entries of a season (public, like its standings); an admin of the season's league adds one
    (or, for a player who has not joined the league, invites them: 202)."""

    serializer_class = s.EntrySerializer
    filterset_fields = ["division", "basis"]

    access = route("season", GET=PUBLIC, POST=ADMIN)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: the model, no season
            return Entry.objects.none()
        season = _season(self.request, self.kwargs["pk"])
        return Entry.objects.filter(season=season).select_related("player").order_by("division__order", "pk")

    @extend_schema(
        request=EntryInputSerializer,
        responses={201: s.EntrySerializer, 202: s.InvitationSerializer},
        description="A member of the season's league is entered (201). A player who has not joined "
        "the league is invited instead (202, the invitation): they are entered when they accept it.",
    )
    @idempotent
    def post(self, request, pk):
        season = _season(request, pk)
        data = EntryInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        division = _division_of(season, data.validated_data["division"])
        player = _players([data.validated_data["player"]], "player")[0]
        entry = office.entry_add(division=division, player=player, actor=request.user)
        if isinstance(entry, LeagueInvitation):
            # a player of another league: invited, entered when they accept (docs/privacy.md)
            return Response(s.InvitationSerializer(entry).data, status=status.HTTP_202_ACCEPTED)
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class SeasonEntryView(APIView):
    """Remove an entry that has not played (409 when the player has games: the entry stays)."""

    access = route("entry", DELETE=ADMIN)

    @extend_schema(request=None, responses={204: None})
    @idempotent
    def delete(self, request, pk, entry_id):
        entry = object_for_request(
            request, Entry.objects.filter(season_id=pk).select_related("division", "season"), pk=entry_id
        )
        office.entry_remove(entry=entry, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonGamesView(generics.ListAPIView):
    """Games of a season in match-day order (public), filtered by division, status, match day;
    an admin of the season's league creates one with its four seats."""

    serializer_class = s.GameSerializer
    filterset_fields = ["division", "status", "match_day"]

    access = route("season", GET=PUBLIC, POST=ADMIN)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: the model, no season
            return Game.objects.none()
        return selectors.games_for(season=_season(self.request, self.kwargs["pk"]))

    @extend_schema(request=GameInputSerializer, responses={201: s.GameSerializer})
    @idempotent
    def post(self, request, pk):
        season = _season(request, pk)
        data = GameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        division = _division_of(season, v["division"])
        players = _players(v["players"], "players")
        game = office.game_create(
            division=division,
            match_day=v["match_day"],
            table=v["table"],
            players=players,
            scheduled_at=v.get("scheduled_at"),
            actor=request.user,
        )
        game = selectors.games_for().get(pk=game.pk)  # seats and players for the answer
        return Response(s.GameSerializer(game).data, status=status.HTTP_201_CREATED)
