"""Tournament API: the board (conditional on its version, for screens polling every second),
the ranking, the tables' reports and the round clock."""

from __future__ import annotations

from django.utils import timezone
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiResponse, extend_schema
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import DIRECTOR, PUBLIC, TABLE, object_for_request, route
from kyoku.principals import Actor, System, request_actor
from kyoku.idempotency import idempotent
from league.models import Game
from league.names import player_display_name

from . import selectors, services
from .models import Event, Round


def _etag(version: int) -> str:
    return f'"board-{version}-{get_language()}"'  # the names are the page language's (league.names)


class BoardView(APIView):
    """Everything the big screen and the tables' phones show. Send ``If-None-Match`` with the last
    ETag: while nothing changed the answer is 304 without a database query (the version is cached),
    so hundreds of screens can poll every second."""

    access = route("event", GET=PUBLIC)
    authentication_classes: list = []  # public and read-only: no session, no CSRF

    @extend_schema(
        responses={
            200: OpenApiResponse(description="The board"),
            304: OpenApiResponse(description="Unchanged since the ETag sent"),
        },
        tags=["events"],
    )
    def get(self, request, pk):
        version = selectors.board_version(pk)
        if version is None:
            raise NotFound(_("No such event."))
        etag = _etag(version)
        if request.headers.get("If-None-Match") == etag:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            body = selectors.board_at_version(pk, version)
            if body is None:
                raise NotFound(_("No such event."))
            now = timezone.now()
            clock = selectors.board_clock(body, now)
            if clock and clock["state"] == "time_up" and not body["clock_round"].get("time_up_stored"):
                # the first screen to see time run out stores each table's hand in play
                round_ = Round.objects.select_related("event").get(pk=body["clock_round"]["pk"])
                if services.round_time_up_record(round_=round_, actor=System(f"clock: round {round_.pk}"), now=now):
                    version = selectors.board_version(pk) or version
                    etag = _etag(version)
                    body = selectors.board_at_version(pk, version) or body
            response = Response(selectors.board_public(body, now))
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True)
        return response


class RankingView(APIView):
    """The event's ranking now (after the cut: finalists first)."""

    access = route("event", GET=PUBLIC)

    @extend_schema(
        tags=["events"],
        responses={
            200: OpenApiResponse(
                description="[{rank, shared, player, name, points, games, places, penalty, finalist, carried, final_points, withdrawn, stage, cut_stale}]"
            )
        },
    )
    def get(self, request, pk):
        event = object_for_request(request, Event, pk=pk)
        body = selectors.board(event)
        # a cut whose seating a correction made stale: every row says the ranking waits on it
        stale = any(c["stale"] and not c["started"] for c in body["cuts"])
        return Response([{**row, "cut_stale": stale} for row in body["standings"]])


class CutDecisionSerializer(serializers.Serializer):
    stage = serializers.ChoiceField(choices=["semi_final", "final"], help_text="The stage whose cut is tied.")
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=2,
        max_length=400,
        help_text="The tied players' ids in the order the playoff or the draw gave (the first ones go through).",
    )
    method = serializers.ChoiceField(choices=["playoff", "lots", "other"])
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


def _cut_data(c: dict) -> dict:
    decision = c["decision"]
    return {
        "stage": c["stage"],
        "cut": c["cut"],
        "round": c["round"].number if c["round"] is not None else None,
        "tied": c["tied"],
        "places": c["places"],
        "undecided": c["undecided"],
        "decision": None
        if decision is None
        else {"order": decision.order, "method": decision.method, "note": decision.note, "at": decision.at},
        "seated": c["seated"],
        "started": c["started"],
        "stale": c["stale"],
        "complete": c["complete"],
        "provisional": c["provisional"],
        "now_in": c["now_in"],
        "now_out": c["now_out"],
    }


class CutView(APIView):
    """Each stage's cut: a tie there that no tiebreak separates, the director's decision of it, and
    whether a correction changed who goes through since the stage was seated. POST records a
    decision (the director)."""

    access = route("event", GET=PUBLIC, POST=DIRECTOR)

    @extend_schema(
        tags=["events"], responses={200: OpenApiResponse(description="[{stage, cut, tied, decision, stale, …}]")}
    )
    def get(self, request, pk):
        event = object_for_request(request, Event, pk=pk)
        return Response([_cut_data(c) for c in selectors.cut_states(event)])

    @extend_schema(
        request=CutDecisionSerializer,
        tags=["events"],
        responses={201: OpenApiResponse(description="The cut's state with the decision")},
    )
    @idempotent
    def post(self, request, pk):
        event = object_for_request(request, Event, pk=pk)
        data = CutDecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.cut_decide(event=event, actor=request.user, **data.validated_data)
        states = [_cut_data(c) for c in selectors.cut_states(event) if c["stage"] == data.validated_data["stage"]]
        return Response(states[0] if states else {}, status=status.HTTP_201_CREATED)


class ReportSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text="The seat acting: 0 East … 3 North.")
    scores = serializers.ListField(child=serializers.IntegerField(), min_length=4, max_length=4, required=False)
    deposits_left = serializers.IntegerField(min_value=0, max_value=20, default=0)
    version = serializers.IntegerField(
        min_value=1, required=False, help_text="confirm: the version of the report this seat agrees with."
    )
    code = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=40,
        help_text="The table's code (from its sign), for a phone not logged in.",
    )
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class TableView(APIView):
    """A table's own write: its principal is the player seated here or the table's phone, and an
    ``Idempotency-Key`` belongs to that principal (a phone has no login)."""

    def idempotency_actor(self, request, pk, *args, **kwargs):
        return _table_request(request, pk)[1]


class TableReportView(TableView):
    """A table reports its final scores (``action`` report), confirms a version of them (confirm,
    naming ``version``) or disputes them (dispute). The result is recorded when all four seats have
    confirmed one version; a different report is a dispute, never a replacement
    (events.services.table_reports)."""

    access = route(
        "event_table",
        POST=TABLE,
        actions={"report": TABLE, "confirm": TABLE, "dispute": TABLE},
        action_in="url",
    )

    @extend_schema(
        request=ReportSerializer,
        tags=["events"],
        responses={
            200: OpenApiResponse(
                description="{game, status, version, scores, deposits_left, confirmed_seats, disputed_seat}"
            ),
            201: OpenApiResponse(description="A new version of the report (the first, or a different one: a dispute)"),
            400: OpenApiResponse(description="Errors keyed by field, e.g. seat: not_your_seat"),
            403: OpenApiResponse(description="Not a player seated here nor this table's phone"),
            409: OpenApiResponse(description="Stale version, disputed, recorded, or the round not in play"),
        },
    )
    @idempotent
    def post(self, request, pk, action):
        game, actor = _table_request(request, pk)
        data = ReportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if action == "report":
            if "scores" not in v:
                raise ValidationError({"scores": [_("Four final scores, East to North.")]})
            report, changed = services.table_report_submit(
                game=game, scores=v["scores"], deposits_left=v["deposits_left"], seat=v["seat"], actor=actor
            )
            return Response(
                services.report_data(report), status=status.HTTP_201_CREATED if changed else status.HTTP_200_OK
            )
        if action == "confirm":
            if "version" not in v:
                raise ValidationError({"version": [_("Name the version of the report you agree with.")]})
            report = services.table_report_confirm(game=game, seat=v["seat"], version=v["version"], actor=actor)
        else:
            report = services.table_report_dispute(game=game, seat=v["seat"], note=v["note"], actor=actor)
        return Response(services.report_data(report))


class ClockSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=services.CLOCK_ACTIONS)
    minutes = serializers.IntegerField(required=False, default=0, min_value=-120, max_value=120)


class ClockView(APIView):
    """The director's round clock: start, pause, resume, extend (minutes), end."""

    access = route("event_round", POST=DIRECTOR)

    @extend_schema(
        request=ClockSerializer,
        tags=["events"],
        responses={200: OpenApiResponse(description="{state, remaining, allowed, elapsed} in seconds")},
    )
    @idempotent
    def post(self, request, pk):
        round_ = object_for_request(request, Round.objects.select_related("event"), pk=pk)
        data = ClockSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        state = services.round_clock_set(
            round_=round_,
            action=data.validated_data["action"],
            minutes=data.validated_data["minutes"],
            actor=request.user,
        )
        return Response(state)


# ---------------------------------------------------------------- a table's own scorekeeper


def _table_request(request, pk: int) -> tuple[Game, Actor]:
    """The game and the principal acting on it: the signed-in user, or the phone holding this
    table's code (its session's, or one in the body). A phone has no login, so the CSRF check a
    session would run is run here for a browser that holds a code."""
    from rest_framework.authentication import SessionAuthentication

    game = object_for_request(request, Game.objects.select_related("season__rule_set", "season__league"), pk=pk)
    actor = request_actor(request, game)
    if not request.user.is_authenticated and (request.session.get(services.CODES_KEY) or {}):
        SessionAuthentication().enforce_csrf(request)
    return game, actor


class TableHandSerializer(serializers.Serializer):
    sequence = serializers.IntegerField(required=False, min_value=1)
    record = serializers.JSONField()


class TableHandsView(TableView):
    """A table enters its next hand (the scorekeeper's save, for the players at the table)."""

    access = route("event_table", POST=TABLE)  # a player seated here, or the table's phone

    @extend_schema(
        request=TableHandSerializer,
        tags=["events"],
        responses={
            201: OpenApiResponse(description="{hand, position}"),
            200: OpenApiResponse(description="Already stored"),
        },
    )
    @idempotent
    def post(self, request, pk):
        from scoring import selectors as scoring_selectors
        from scoring.api import HandRecordSerializer

        game, actor = _table_request(request, pk)
        data = TableHandSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand, created = services.table_hand_add(
            game=game,
            record=data.validated_data["record"],
            sequence=data.validated_data.get("sequence"),
            actor=actor,
        )
        return Response(
            {"hand": HandRecordSerializer(hand).data, "position": scoring_selectors.game_position(game=game)},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class TableHandDetailView(TableView):
    """A table corrects one of its hands (every later hand is re-settled)."""

    access = route("event_table_hand", PUT=TABLE)

    @extend_schema(
        request=TableHandSerializer, tags=["events"], responses={200: OpenApiResponse(description="{hand, position}")}
    )
    @idempotent
    def put(self, request, pk, sequence):
        from scoring import selectors as scoring_selectors
        from scoring.api import HandRecordSerializer

        game, actor = _table_request(request, pk)
        data = TableHandSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = services.table_hand_correct(
            game=game, sequence=sequence, record=data.validated_data["record"], actor=actor
        )
        return Response(
            {"hand": HandRecordSerializer(hand).data, "position": scoring_selectors.game_position(game=game)}
        )


class TableHandPreviewView(TableView):
    """A hand settled as it would be stored, without storing it (the scorekeeper's preview)."""

    access = route("event_table", POST=TABLE)

    @extend_schema(
        request=TableHandSerializer,
        tags=["events"],
        responses={
            200: OpenApiResponse(description="{sequence, record, settlement, scores_before, scores_after, display}")
        },
    )
    def post(self, request, pk):
        from scoring import display, selectors as scoring_selectors

        game, actor = _table_request(request, pk)
        data = TableHandSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = services.table_hand_preview(
            game=game,
            record=data.validated_data["record"],
            sequence=data.validated_data.get("sequence"),
            actor=actor,
        )
        names = [player_display_name(s.player) for s in scoring_selectors.game_seats(game=game)]
        preview["display"] = display.settlement_display(preview["settlement"], names)
        return Response(preview)


class TableHandsFinishView(TableView):
    """The table ends its game: the hands' final scores become its report, for the others to confirm."""

    access = route("event_table", POST=TABLE)

    @extend_schema(
        request=None,
        tags=["events"],
        responses={201: OpenApiResponse(description="The table's report, waiting for the other seats")},
    )
    @idempotent
    def post(self, request, pk):
        game, actor = _table_request(request, pk)
        report, changed = services.table_hands_finish(game=game, actor=actor)
        return Response(services.report_data(report), status=status.HTTP_201_CREATED if changed else status.HTTP_200_OK)
