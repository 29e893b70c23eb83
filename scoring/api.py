"""REST API of the scoring module: stateless settlement and hand-by-hand games."""

from __future__ import annotations

from django.contrib.auth import get_user
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext
from rest_framework import serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import ADMIN, PUBLIC, object_for_request, route
from kyoku.idempotency import idempotent
from kyoku.throttle import client_address, throttle_hit
from league.api.serializers import GameResultSerializer
from league.models import Game, Season

from . import display, selectors, services
from .models import HandRecord
from league.names import player_display_name

MAX_RECORDS = 500  # a whole season's hands go to the re-settle service, not through here
# One record or a list of them in, one settlement or a list out (the same shape as sent).
OBJECT_OR_LIST = {
    "oneOf": [
        {"type": "object", "additionalProperties": True},
        {"type": "array", "items": {"type": "object", "additionalProperties": True}},
    ]
}

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string per intended write (e.g. a UUID per form load): a repeat returns the first "
    "response and stores nothing twice.",
)

WRC_DOUBLE_RON = {
    "rules": "wrc",
    "dealer": 0,
    "honba": 1,
    "deposits": 1,
    "riichi": [2],
    "result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 3, "fu": 40}, {"seat": 2, "yakuman": 1}]},
}


# ---------------------------------------------------------------- serializers


class HandRecordSerializer(serializers.ModelSerializer):
    class Meta:
        model = HandRecord
        fields = ["id", "sequence", "record", "settlement", "scores_after", "ends_game", "entered_at"]


class HandInputSerializer(serializers.Serializer):
    record = serializers.JSONField(
        help_text="A settlement-contract hand record without 'rules' (the season's rule "
        "set applies). dealer / honba / deposits (riichi) and dealer / "
        "dealer_streak / after_draw (Beijing) follow from the previous hand; "
        "if given they must match."
    )
    sequence = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The hand number (default: the next). Sending the record already "
        "stored under this number again stores nothing.",
    )


class HandCorrectionSerializer(serializers.Serializer):
    record = serializers.JSONField(help_text="The corrected record (without 'rules'); later hands are re-settled.")


class HandDeletedSerializer(serializers.Serializer):
    sequence = serializers.IntegerField(help_text="The number the deleted hand had")
    record = serializers.JSONField(help_text="Its record, as it was stored")
    resettled = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Numbers (after the move) of the later hands whose settlement changed",
    )
    position = serializers.JSONField()


class HandPreviewSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    record = serializers.JSONField()
    settlement = serializers.JSONField()
    scores_before = serializers.ListField(child=serializers.IntegerField())
    scores_after = serializers.ListField(child=serializers.IntegerField())


class GamePositionSerializer(serializers.Serializer):
    system = serializers.CharField()
    next_sequence = serializers.IntegerField()
    state = serializers.JSONField()
    scores = serializers.ListField(child=serializers.IntegerField())
    deposits = serializers.IntegerField()
    finished_from_hands = serializers.BooleanField()


class GameHandsSerializer(serializers.Serializer):
    position = GamePositionSerializer()
    hands = HandRecordSerializer(many=True)


class HandWrittenSerializer(serializers.Serializer):
    hand = HandRecordSerializer()
    position = GamePositionSerializer()


# ---------------------------------------------------------------- stateless settlement


class SettleView(APIView):
    """Settle one hand record or a list (settlement contract). Stores nothing; anyone may call it."""

    access = route(POST=PUBLIC)
    authentication_classes: list = []  # no session, so no CSRF: the endpoint reads and writes nothing of anyone's

    @extend_schema(
        summary="Settle hand records",
        description="Body: one hand record, or a list of them (at most 500). Anonymous callers are limited per "
        "address, logged-in ones (session or token) more generously per user: over the limit the answer is 429 "
        "with Retry-After. Answer: one settlement or a list "
        'in the same order. An invalid record yields {"error": "field: message"} in its place; '
        "if any record is invalid the status is 400 but the other records are still settled. "
        'A game-end record ({"rules": ..., "game_end": {"scores", "deposits_left"}}) gives '
        "league points and places.",
        request={"application/json": OBJECT_OR_LIST},
        responses={
            200: OpenApiResponse(OBJECT_OR_LIST, description="Every record settled (an object, or a list)."),
            400: OpenApiResponse(
                OBJECT_OR_LIST,
                description="At least one invalid record: the same shape, "
                'with {"error": ...} in the invalid places; or {"detail", "errors": {"records": ...}} '
                "for a list of more than 500 records.",
            ),
            429: OpenApiResponse(
                {"type": "object", "additionalProperties": True},
                description="Too many requests from this address (or user): "
                '{"detail": words, "code": "throttled"} and a Retry-After header.',
            ),
        },
        examples=[
            OpenApiExample("WRC double ron (head bump)", value=WRC_DOUBLE_RON, request_only=True),
            OpenApiExample(
                "M-League game end",
                request_only=True,
                value={"rules": "mleague", "game_end": {"scores": [43000, 30800, 16000, 10200], "deposits_left": 0}},
            ),
            OpenApiExample(
                "A list with an invalid record",
                response_only=True,
                status_codes=["400"],
                value=[
                    {"deltas": [0, 7500, -1000, -5500], "...": "..."},
                    {"error": "result.winners[0].fu: must be 20, 25 or a multiple of 10 ..."},
                ],
            ),
        ],
        tags=["settlement"],
    )
    def post(self, request):
        user = _caller(request)
        if user is not None:
            throttle_hit("settle_user", f"user:{user.pk}")
        else:
            throttle_hit("settle_client", client_address(request))
        data = request.data
        if isinstance(data, list) and len(data) > MAX_RECORDS:
            raise ValidationError(
                {
                    "records": [
                        ValidationError(
                            _("at most %(n)s records in one request"),
                            code="records_too_many",
                            params={"n": MAX_RECORDS},
                        )
                    ]
                }
            )
        out, ok = services.settle_document(data)
        return Response(out, status=status.HTTP_200_OK if ok else status.HTTP_400_BAD_REQUEST)


def _caller(request):
    """The logged-in caller, if any, for the throttle only: the endpoint authenticates no one (so
    needs no CSRF token), but a session or a valid token earns the per-user allowance. (DRF has
    set the Django request's user to anonymous by now: the session is read again.)"""
    user = get_user(request._request)
    if user.is_authenticated:
        return user
    try:
        found = TokenAuthentication().authenticate(request)
    except AuthenticationFailed:
        return None
    return found[0] if found else None


# ---------------------------------------------------------------- hand-by-hand games


def _game(request, pk) -> Game:
    """The game, checked at the level the view declares for this method."""
    return object_for_request(request, Game.objects.select_related("season__rule_set", "season__league"), pk=pk)


def _written(hand: HandRecord, game: Game) -> dict:
    return {"hand": HandRecordSerializer(hand).data, "position": selectors.game_position(game=game)}


class GameHandsView(APIView):
    """A game's hands in order (anyone) and entering the next hand (league admins)."""

    access = route("hand_game", GET=PUBLIC, POST=ADMIN)

    @extend_schema(responses=GameHandsSerializer, tags=["hands"])
    def get(self, request, pk):
        game = _game(request, pk)
        hands = list(selectors.game_hands(game=game))
        return Response(
            {
                "position": selectors.game_position(game=game, hands=hands),
                "hands": HandRecordSerializer(hands, many=True).data,
            }
        )

    @extend_schema(
        request=HandInputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        tags=["hands"],
        responses={
            201: HandWrittenSerializer,
            200: HandWrittenSerializer,
            400: OpenApiResponse(
                description="Invalid record: errors keyed by the record field, "
                'e.g. {"errors": {"result.winners[0].fu": [...]}}'
            ),
            409: OpenApiResponse(description="This hand number holds a different record."),
        },
        examples=[
            OpenApiExample(
                "Non-dealer ron",
                request_only=True,
                value={
                    "sequence": 1,
                    "record": {
                        "riichi": [1],
                        "result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 2, "fu": 30}]},
                    },
                },
            )
        ],
    )
    @idempotent
    def post(self, request, pk):
        game = _game(request, pk)
        data = HandInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand, created = services.hand_record_add(game=game, actor=request.user, **data.validated_data)
        return Response(_written(hand, game), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class GameHandDetailView(APIView):
    """Correct one hand (every later hand of the game is re-settled), or delete it."""

    access = route("hand", PUT=ADMIN, DELETE=ADMIN, query="hand_id={hand_id}")

    @extend_schema(
        request=HandCorrectionSerializer,
        responses=HandWrittenSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        tags=["hands"],
    )
    @idempotent
    def put(self, request, pk, sequence):
        game = _game(request, pk)
        hand = get_object_or_404(HandRecord, game=game, sequence=sequence)
        data = HandCorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = services.hand_record_correct(hand=hand, record=data.validated_data["record"], actor=request.user)
        return Response(_written(hand, game))

    @extend_schema(
        parameters=[
            IDEMPOTENCY_HEADER,
            OpenApiParameter(
                "hand_id",
                OpenApiTypes.INT,
                OpenApiParameter.QUERY,
                required=True,
                description="The id of the hand meant (from the hands list): the numbers of later hands move "
                "up when one is deleted, so a repeated or stale request must not hit the next.",
            ),
        ],
        responses={
            200: HandDeletedSerializer,
            409: OpenApiResponse(description="The hand under this number is not the one meant."),
        },
        tags=["hands"],
    )
    @idempotent
    def delete(self, request, pk, sequence):
        """Delete a hand entered by mistake: later hands move up one number and are re-settled."""
        game = _game(request, pk)
        hand_id = request.query_params.get("hand_id", "")
        if not hand_id.isdigit():
            raise ValidationError({"hand_id": [gettext("give the id of the hand to delete (from the hands list)")]})
        hand = services.hand_expected(game=game, sequence=sequence, hand_id=hand_id)
        deleted = services.hand_record_delete(hand=hand, actor=request.user)
        return Response({**deleted, "position": selectors.game_position(game=game)})


class GameHandPreviewView(APIView):
    """Settle a hand as it would be stored, without storing it (the scorekeeper's preview)."""

    access = route("hand_game", POST=ADMIN)

    @extend_schema(request=HandInputSerializer, responses=HandPreviewSerializer, tags=["hands"])
    def post(self, request, pk):
        game = _game(request, pk)
        data = HandInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = services.hand_preview(game=game, **data.validated_data)
        names = [player_display_name(s.player) for s in selectors.game_seats(game=game)]
        # the payments and penalties in words of the page's language, for the scorekeeper's preview
        preview["display"] = display.settlement_display(preview["settlement"], names)
        return Response(preview)


class GameHandsFinishView(APIView):
    """End the game at its last hand: the final scores are derived and recorded as the result."""

    access = route("hand_game", POST=ADMIN)

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY_HEADER],
        tags=["hands"],
        responses={
            201: GameResultSerializer,
            200: GameResultSerializer,
            400: OpenApiResponse(description="No hands, or typed totals that differ " "(errors name 'scores')."),
        },
    )
    @idempotent
    def post(self, request, pk):
        game = _game(request, pk)
        result, created = services.game_hands_finish(game=game, actor=request.user)
        return Response(
            GameResultSerializer(result).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


# ---------------------------------------------------------------- a season's rules and its re-settle


class SeasonRulesRevisionSerializer(serializers.Serializer):
    overrides = serializers.JSONField(
        help_text="The season rule set's options that differ from its preset, in full "
        "(options left out return to the preset's value)."
    )
    notes = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="Why the rules change (kept with the new version)."
    )


class SeasonResettleSummarySerializer(serializers.Serializer):
    rule_set = serializers.JSONField(required=False, help_text="{slug, version} of the rule set now in force")
    hands = serializers.IntegerField()
    hands_changed = serializers.IntegerField()
    hands_resettled = serializers.BooleanField(
        help_text="false when only game-end options (uma, oka, ...) changed: "
        "no hand reads them, so only results were rescored"
    )
    games_finished_from_hands = serializers.IntegerField()
    results_changed = serializers.IntegerField()


def _season(request, pk) -> Season:
    return object_for_request(request, Season.objects.select_related("league", "rule_set"), pk=pk)


class SeasonRulesView(APIView):
    """Revise a season's rules: a new version of its rule set, then every hand re-settled, every
    result's points re-derived and the standings recomputed, in one transaction."""

    access = route("season", POST=ADMIN)

    @extend_schema(
        request=SeasonRulesRevisionSerializer,
        responses=SeasonResettleSummarySerializer,
        parameters=[IDEMPOTENCY_HEADER],
        tags=["seasons"],
        examples=[
            OpenApiExample(
                "Kiriage mangan from now on",
                request_only=True,
                value={"overrides": {"kiriage": True}, "notes": "AGM decision"},
            )
        ],
    )
    @idempotent
    def post(self, request, pk):
        season = _season(request, pk)
        data = SeasonRulesRevisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(services.season_rules_revise(season=season, actor=request.user, **data.validated_data))


class SeasonResettleView(APIView):
    """Re-settle every hand of a season under its current rules (after an engine fix) and bring
    results and standings up to date. Running it twice changes nothing the second time."""

    access = route("season", POST=ADMIN)

    @extend_schema(request=None, responses=SeasonResettleSummarySerializer, tags=["seasons"])
    def post(self, request, pk):
        season = _season(request, pk)
        return Response(services.season_hands_resettle(season=season, actor=request.user))


# ---------------------------------------------------------------- presets in words


class RiichiPresetsView(APIView):
    """Every riichi preset with each option's label, meaning, value in words and source, in the
    language the request asks for (Accept-Language or ?lang=); raw values beside the words for tools."""

    access = route(GET=PUBLIC)
    authentication_classes: list = []

    @extend_schema(
        summary="Riichi presets and their options, in words, with sources",
        responses={
            200: OpenApiResponse(
                description="{presets: [name], sources: {name: text}, "
                "options: [{option, label, meaning, values: "
                "[{preset, value, words, source, unconfirmed}]}]}"
            )
        },
    )
    def get(self, request):
        data = selectors.riichi_presets()
        for row in data["options"]:
            row["label"], row["meaning"] = str(row["label"]), str(row["meaning"])
        return Response(data)
