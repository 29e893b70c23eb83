"""Referee API: incidents, rulings (preview, decide, public log), appeals, false-win checks.

Permissions: referees (and league admins, who count as referees) log incidents, preview and
decide rulings, check declared wins and decide appeals (a different referee than the one who
ruled); players see the incidents of their games (without private notes) and appeal the rulings
that concern them; the ruling log is public and never carries private notes.
"""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.labels import LABELS, false_win_reasons_words
from kyoku.parsers import SafeJSONField
from kyoku.access import ANY_REFEREE, LOGGED_IN, OWNER, PUBLIC, REFEREE, SELF, object_for_request, route
from kyoku.authz import Need, player_of
from kyoku.idempotency import idempotent
from league.models import Game, Player
from referee.engine import RulingError, rule, rule_many
from referee.engine.false_win import check_win
from scoring.api import OBJECT_OR_LIST
from scoring.engine import SettlementError

from . import selectors, services
from .models import Appeal, Incident, Ruling
from .seats import explanation_lines, reader_lang, seat_rows
from league.names import player_display_name


def ruling_with_names(ruling: dict, *, dealer: int, names: dict[int, str]) -> dict:
    """An engine ruling plus the seats and the explanation in the reader's language, each seat named
    by wind and player as the pages name it (the engine's own fields are left as they are)."""
    return {
        **ruling,
        "seats": seat_rows(dealer=dealer, names=names),
        "language": reader_lang(),
        "explanation_text": [ln["text"] for ln in explanation_lines(ruling, dealer=dealer, names=names)],
    }


# ---------------------------------------------------------------- serializers (input docs and checks)


class EventSerializer(serializers.Serializer):
    t = serializers.IntegerField(help_text="Milliseconds from any fixed origin; events in time order.")
    seat = serializers.IntegerField(min_value=0, max_value=3)
    act = serializers.CharField(
        help_text="announce, touch_wall, draw, discard, call, expose, ron, tsumo, "
        "claim_deal_incomplete, false_win_found, harm"
    )
    settled_t = serializers.IntegerField(required=False)
    visible = serializers.BooleanField(required=False)
    kind = serializers.CharField(required=False)
    by = serializers.IntegerField(required=False)


class RecordSerializer(serializers.Serializer):
    rules = SafeJSONField(help_text='A preset name or {"preset": "wrc", "reaction_time_ms": 1500}.')
    dealer = serializers.IntegerField(min_value=0, max_value=3)
    events = EventSerializer(many=True)


class IncidentInputSerializer(serializers.Serializer):
    game = serializers.PrimaryKeyRelatedField(queryset=Game.objects.select_related("season__league"))
    hand_number = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999, default=None)
    dealer = serializers.IntegerField(default=0, min_value=0, max_value=3)
    kind = serializers.ChoiceField(choices=list(LABELS["incident_kind"]))
    events = SafeJSONField(help_text="The timeline: a list of events (ruling contract).")
    description = serializers.CharField(required=False, allow_blank=True, default="", max_length=5000)
    private_notes = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=5000, help_text="Seen by referees only."
    )


class IncidentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    season = serializers.IntegerField()
    hand_number = serializers.IntegerField(allow_null=True)
    dealer = serializers.IntegerField()
    kind = serializers.CharField()
    events = SafeJSONField()
    description = serializers.CharField()
    private_notes = serializers.CharField(required=False, help_text="Present for referees only.")
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    reporter = serializers.CharField(allow_null=True)
    rulings = serializers.ListField(child=serializers.IntegerField())
    seats = SafeJSONField(
        help_text="The hand's seats: seat, wind (this hand, from the dealer), player, "
        "player_name, wind_name and label in the reader's language."
    )


class DecisionInputSerializer(serializers.Serializer):
    accept = serializers.BooleanField(help_text="true: the proposed ruling stands; false: override it.")
    override = SafeJSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text=f"Fields that change: {', '.join(services.OVERRIDABLE)}.",
    )
    override_reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    penalties = SafeJSONField(
        required=False, default=None, help_text='Extra penalties: [{"seat": 1, "offence": "slow_play"}].'
    )


class RulingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    incident = serializers.IntegerField()
    game = serializers.IntegerField()
    season = serializers.IntegerField()
    engine_version = serializers.CharField()
    rules = SafeJSONField()
    decision = serializers.CharField()
    override_reason = serializers.CharField()
    proposed = SafeJSONField()
    final = SafeJSONField()
    referee = serializers.CharField(allow_null=True)
    decided_at = serializers.DateTimeField()
    appeal_of = serializers.IntegerField(allow_null=True)
    penalties = SafeJSONField()
    appeals = SafeJSONField()
    seats = SafeJSONField(help_text="The hand's seats, named as on every page (see incidents).")
    language = serializers.CharField(help_text="Language of explanation_text: en, zh or ja (Accept-Language).")
    explanation_text = serializers.ListField(
        child=serializers.CharField(), help_text="The final ruling's explanation, each seat by wind and player."
    )


class AppealInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=5000)


class AppealSerializer(serializers.ModelSerializer):
    class Meta:
        model = Appeal
        fields = ["id", "ruling", "player", "reason", "status", "submitted_at", "decided_at", "decision_reason"]


class AppealDecisionInputSerializer(serializers.Serializer):
    uphold = serializers.BooleanField()
    reason = serializers.CharField(max_length=5000)
    new_final = SafeJSONField(required=False, allow_null=True, default=None)
    penalties = SafeJSONField(required=False, default=None)


class FalseWinInputSerializer(serializers.Serializer):
    rules = SafeJSONField(required=False, help_text="Rule set spec; or give 'game' to use its season's.")
    game = serializers.IntegerField(required=False, min_value=1, max_value=2**62)
    declaration = SafeJSONField(help_text="The win declaration (docs/engine-interfaces.md).")


# ---------------------------------------------------------------- views


class RulingPreviewView(APIView):
    """The engine's ruling on one incident record or a list of them. Stores nothing."""

    access = route(POST=ANY_REFEREE)  # stateless: reads and stores nothing of a league

    @extend_schema(
        request=RecordSerializer,
        responses={200: OBJECT_OR_LIST, 400: OBJECT_OR_LIST},
        parameters=[
            OpenApiParameter(
                "game",
                int,
                description="Name the seats by this game's players "
                "(adds seats and explanation_text in the reader's language).",
            )
        ],
        description="One incident record (or a JSON list) → ruling (or list). An invalid record is "
        'answered with {"error": "field: message"} (400 for a single record).',
    )
    def post(self, request):
        data = request.data
        if isinstance(data, list):
            return Response(rule_many(data))
        game_id = request.query_params.get("game")
        game = None
        if game_id:
            # the route is any referee's; naming a game's players asks more: a referee of its league
            game = object_for_request(request, Game, need=Need.REFEREE, pk=selectors.id_param("game", game_id))
        try:
            ruling = rule(data)
        except RulingError as exc:
            return Response(
                {"error": str(exc), "detail": exc.message, "field": exc.field}, status=status.HTTP_400_BAD_REQUEST
            )
        if game is not None:
            names = {s.seat: player_display_name(s.player) for s in game.seats.all()}
            ruling = ruling_with_names(ruling, dealer=data["dealer"], names=names)
        return Response(ruling)


class FalseWinCheckView(APIView):
    """Is a declared win false (錯和)? Each reason has its code, the engine's English and Chinese
    messages, and ``words``: the reason in the reader's language (Accept-Language)."""

    access = route(POST=ANY_REFEREE)

    @extend_schema(request=FalseWinInputSerializer, responses={200: dict})
    def post(self, request):
        data = FalseWinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        spec = v.get("rules")
        if spec is None:
            if "game" not in v:
                return Response(
                    {"detail": _("give the rule set, or the game whose season's rules apply"), "field": "rules"},
                    status=status.HTTP_400_BAD_REQUEST,
                )
            game = object_for_request(request, Game.objects.select_related("season__rule_set"), pk=v["game"])
            spec = game.season.rule_set.spec
        if not isinstance(v["declaration"], dict):
            return Response(
                {"detail": _("must be an object"), "field": "declaration"}, status=status.HTTP_400_BAD_REQUEST
            )
        try:
            checked = check_win(spec, v["declaration"])
            return Response({**checked, "reasons": false_win_reasons_words(checked["reasons"])})
        except SettlementError as exc:
            return Response({"detail": str(exc), "field": exc.field}, status=status.HTTP_400_BAD_REQUEST)
        except NotImplementedError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_501_NOT_IMPLEMENTED)
        except (KeyError, TypeError, ValueError) as exc:
            return Response({"detail": str(exc), "field": "declaration"}, status=status.HTTP_400_BAD_REQUEST)


class IncidentListView(APIView):
    """GET: referees see every incident; players the incidents of their games (no private notes).
    POST: a referee logs an incident; its timeline is checked by the engine (Idempotency-Key)."""

    # players see the incidents of their own games, staff those of their leagues (the list is scoped)
    access = route(GET=LOGGED_IN, POST=ANY_REFEREE)

    @extend_schema(
        responses=IncidentSerializer(many=True),
        parameters=[OpenApiParameter("status", str), OpenApiParameter("game", int), OpenApiParameter("season", int)],
    )
    def get(self, request):
        qs = selectors.incidents_search(
            selectors.incidents_visible_to(request.user),
            status=request.query_params.get("status"),
            game=request.query_params.get("game"),
            season=request.query_params.get("season"),
        )
        return Response([selectors.incident_public(i, private=selectors.can_see_private(request.user, i)) for i in qs])

    @extend_schema(request=IncidentInputSerializer, responses={201: IncidentSerializer})
    @idempotent
    def post(self, request):
        data = IncidentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        # the game comes from the body and asks more than the route's ANY_REFEREE: a referee of its league
        game = object_for_request(
            request,
            Game.objects.select_related("season__rule_set", "season__league"),
            need=Need.REFEREE,
            pk=v.pop("game").pk,
        )
        incident = services.incident_log(game=game, reporter=request.user, **v)
        return Response(selectors.incident_public(incident, private=True), status=status.HTTP_201_CREATED)


def _visible_incident(request, pk) -> Incident:
    """An incident the actor may see (404 for others: its existence is not told), at the declared level."""
    return object_for_request(request, selectors.incidents_visible_to(request.user), pk=pk)


class IncidentDetailView(APIView):
    access = route("incident", GET=OWNER)

    @extend_schema(responses=IncidentSerializer)
    def get(self, request, pk):
        incident = _visible_incident(request, pk)
        return Response(selectors.incident_public(incident, private=selectors.can_see_private(request.user, incident)))


class IncidentRulingView(APIView):
    """GET: the engine's proposed ruling (referees). POST: decide it, accept or override with a
    reason; its penalties go to the ledger with sanctions from the league's catalogue."""

    access = route("incident", GET=REFEREE, POST=REFEREE)

    @extend_schema(responses={200: dict})
    def get(self, request, pk):
        incident = object_for_request(request, Incident, pk=pk)
        return Response(
            ruling_with_names(
                services.ruling_propose(incident=incident), dealer=incident.dealer, names=selectors.seat_names(incident)
            )
        )

    @extend_schema(request=DecisionInputSerializer, responses={201: RulingSerializer})
    @idempotent
    def post(self, request, pk):
        incident = object_for_request(request, Incident, pk=pk)
        data = DecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = services.ruling_decide(incident=incident, referee=request.user, **data.validated_data)
        return Response(selectors.ruling_public(ruling), status=status.HTTP_201_CREATED)


class RulingListView(APIView):
    """The public ruling log (no private notes), newest first; ?season= filters."""

    access = route(GET=PUBLIC)

    @extend_schema(responses=RulingSerializer(many=True), parameters=[OpenApiParameter("season", int)])
    def get(self, request):
        season = request.query_params.get("season")
        qs = selectors.rulings_public()
        if season:
            qs = qs.filter(incident__game__season_id=selectors.id_param("season", season))
        return Response([selectors.ruling_public(r) for r in qs])


class RulingDetailView(APIView):
    access = route("ruling", GET=PUBLIC)

    @extend_schema(responses=RulingSerializer)
    def get(self, request, pk):
        return Response(selectors.ruling_public(object_for_request(request, selectors.rulings_public(), pk=pk)))


class RulingAppealView(APIView):
    """A player concerned (a seat of the game) appeals the ruling."""

    access = route("ruling", POST=SELF)

    @extend_schema(request=AppealInputSerializer, responses={201: AppealSerializer})
    @idempotent
    def post(self, request, pk):
        ruling = object_for_request(request, Ruling.objects.select_related("incident"), pk=pk)
        player = player_of(request.user)
        data = AppealInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        appeal = services.appeal_file(
            ruling=ruling, player=cast(Player | None, player), reason=data.validated_data["reason"], actor=request.user
        )
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)


class AppealDecideView(APIView):
    """A referee other than the one who ruled decides an appeal: uphold, or reverse (cancels the
    old ruling's penalties, stores a new ruling)."""

    access = route("appeal", POST=REFEREE)

    @extend_schema(request=AppealDecisionInputSerializer, responses={200: AppealSerializer})
    @idempotent
    def post(self, request, pk):
        appeal = object_for_request(request, Appeal, pk=pk)
        data = AppealDecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        appeal = services.appeal_decide(appeal=appeal, referee=request.user, **data.validated_data)
        return Response(AppealSerializer(appeal).data)
