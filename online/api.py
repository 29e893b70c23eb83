"""REST API: POST /api/games/<id>/import/ (a Tenhou record becomes the game's hands)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import ADMIN, SELF_OR_ADMIN, object_for_request, route
from kyoku.idempotency import idempotent
from kyoku.parsers import SafeJSONField, SafeJSONParser
from kyoku.text import NameSerializerField
from league.models import Game, Player

from . import services
from .tenhou.parse import MAX_BYTES


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The Tenhou record: mjlog XML or a tenhou.net/6 JSON log.")
    mapping = SafeJSONField(
        required=False, default=dict, help_text='Tenhou name → player id for names not yet linked: {"name": 12}.'
    )
    override_reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    keep = serializers.ChoiceField(
        choices=["hands", "result"],
        default="hands",
        help_text="What the league keeps: every hand (settled under the season's rules) " "or the final scores only.",
    )

    def validate_file(self, upload):
        if upload.size > MAX_BYTES:
            raise serializers.ValidationError(f"at most {MAX_BYTES} bytes")
        return upload

    def validate_mapping(self, value):
        if not isinstance(value, dict) or len(value) > 4:
            raise serializers.ValidationError("an object of at most 4 Tenhou names")
        out = {}
        for name, pk in value.items():
            if not isinstance(name, str) or len(name) > 40 or type(pk) is not int or not 0 < pk < 2**31:
                raise serializers.ValidationError("each Tenhou name maps to a player id")
            player = Player.objects.filter(pk=pk).first()
            if player is None:
                raise serializers.ValidationError(f"no player {pk}")
            out[name] = player
        return out


class GameImportView(APIView):
    """Import a Tenhou record: every hand is settled by the engine and compared with the record;
    a disagreement answers 400 with the hands (nothing stored) unless ``override_reason`` is given."""

    access = route("game", POST=ADMIN)
    parser_classes = [MultiPartParser, SafeJSONParser]

    @extend_schema(
        request={"multipart/form-data": ImportSerializer},
        tags=["online"],
        responses={
            201: OpenApiResponse(description="Imported: hands, result and the check"),
            400: OpenApiResponse(description="Errors name 'file', 'mapping', 'hands' or 'game'."),
        },
    )
    @idempotent
    def post(self, request, pk):
        game = object_for_request(request, Game.objects.select_related("season__rule_set", "season__league"), pk=pk)
        ser = ImportSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        upload = ser.validated_data["file"]
        data = upload.read()
        try:
            imported = services.game_import(
                game=game,
                data=data,
                filename=upload.name,
                actor=request.user,
                mapping=ser.validated_data["mapping"],
                override_reason=ser.validated_data["override_reason"],
                keep=ser.validated_data["keep"],
            )
        except ValidationError as exc:
            if "hands" in getattr(exc, "error_dict", {}):
                record = services.record_read(data, upload.name)
                plan = services.import_plan(game=game, record=record, mapping=ser.validated_data["mapping"])
                return Response(
                    {
                        "detail": exc.error_dict["hands"][0].messages[0],
                        "field": "hands",
                        "errors": {"hands": exc.error_dict["hands"][0].messages},
                        "check": plan["check"],
                        "season_check": plan["season_check"],
                    },
                    status=status.HTTP_400_BAD_REQUEST,
                )
            raise
        return Response(
            {
                "id": imported.pk,
                "game": game.pk,
                "agreed": imported.agreed,
                "log_id": imported.log_id,
                "hands": len(imported.comparison["hands"]),
                "check": imported.comparison,
            },
            status=status.HTTP_201_CREATED,
        )


class AccountSerializer(serializers.Serializer):
    platform = serializers.ChoiceField(choices=["tenhou"], default="tenhou")
    account_name = NameSerializerField(max_length=40)  # kyoku.text: the service's check, answered early


class PlayerAccountsView(APIView):
    """A player's online account names. Read and changed by the player, or by an admin of a league
    the player belongs to (docs/privacy.md); each change is audited in every league of the player.
    ``DELETE`` takes ``account_name`` (and ``platform``) as query parameters."""

    access = route("player", GET=SELF_OR_ADMIN, POST=SELF_OR_ADMIN, DELETE=SELF_OR_ADMIN)
    parser_classes = [SafeJSONParser]

    def _player(self, request, pk):
        return object_for_request(request, Player, pk=pk)

    @extend_schema(responses=AccountSerializer(many=True), tags=["online"])
    def get(self, request, pk):
        player = self._player(request, pk)
        rows = player.online_accounts.order_by("platform", "account_name")
        return Response(AccountSerializer(rows, many=True).data)

    @extend_schema(request=AccountSerializer, responses={201: AccountSerializer}, tags=["online"])
    @idempotent
    def post(self, request, pk):
        player = self._player(request, pk)
        ser = AccountSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        account = services.account_link(
            player=player,
            account_name=ser.validated_data["account_name"],
            platform=ser.validated_data["platform"],
            actor=request.user,
        )
        return Response(AccountSerializer(account).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None}, tags=["online"])
    def delete(self, request, pk):
        player = self._player(request, pk)
        ser = AccountSerializer(
            data={
                "account_name": request.query_params.get("account_name", ""),
                "platform": request.query_params.get("platform", "tenhou"),
            }
        )
        ser.is_valid(raise_exception=True)
        services.account_unlink(
            player=player,
            account_name=ser.validated_data["account_name"],
            platform=ser.validated_data["platform"],
            actor=request.user,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
