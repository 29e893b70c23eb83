"""Tournament API: the board (conditional on its version, for screens polling every second),
the ranking, the tables' reports and the round clock."""

from __future__ import annotations

from django.utils import timezone
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiResponse, extend_schema
from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import ADMIN, PUBLIC, object_for_request, route
from kyoku.idempotency import idempotent
from league.models import Game

from . import selectors, services
from .models import Event, Round, TableReport


def _etag(version: int) -> str:
    return f'"board-{version}"'


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
            data = {k: v for k, v in body.items() if k != "clock_round"}
            response = Response({**data, "clock": selectors.board_clock(body, now), "server_time": now.isoformat()})
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
                description="[{rank, shared, player, name, points, games, places, penalty, finalist, carried, final_points}]"
            )
        },
    )
    def get(self, request, pk):
        event = object_for_request(request, Event, pk=pk)
        return Response(selectors.board(event)["standings"])


class ReportSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text="The seat acting: 0 East … 3 North.")
    scores = serializers.ListField(child=serializers.IntegerField(), min_length=4, max_length=4, required=False)
    deposits_left = serializers.IntegerField(min_value=0, max_value=20, default=0)
    code = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="The table's code (from its sign), for a phone not logged in.",
    )
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


def _report_data(report: TableReport) -> dict:
    return {
        "game": report.game_id,
        "status": report.status,
        "scores": report.scores,
        "deposits_left": report.deposits_left,
        "confirmed_seats": report.confirmed_seats,
        "disputed_seat": report.disputed_seat,
    }


class TableReportView(APIView):
    """A table reports its final scores (``action`` report), confirms (confirm) or disputes
    (dispute) them. The result is recorded when all four seats have confirmed."""

    access = route("event_table", POST=PUBLIC)  # who may act is the table's: its seats or its code

    @extend_schema(
        request=ReportSerializer,
        tags=["events"],
        responses={
            200: OpenApiResponse(description="{game, status, scores, deposits_left, confirmed_seats, disputed_seat}"),
            201: OpenApiResponse(description="The report, waiting for the other seats"),
            400: OpenApiResponse(description="Errors keyed by field, e.g. seat: not_at_table"),
        },
    )
    @idempotent
    def post(self, request, pk, action):
        game, held, _actor = _table_request(request, pk)
        data = ReportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = {**data.validated_data}
        v["code"] = v["code"] or held  # the code in the body, else the one this browser entered
        if action == "report":
            if "scores" not in v:
                raise ValidationError({"scores": [_("Four final scores, East to North.")]})
            submitted = services.table_report_submit(
                game=game,
                scores=v["scores"],
                deposits_left=v["deposits_left"],
                seat=v["seat"],
                actor=request.user,
                code=v["code"],
            )
            return Response(_report_data(submitted), status=status.HTTP_201_CREATED)
        report = TableReport.objects.filter(game=game).first()
        if report is None:
            raise ValidationError({"report": [_("Nothing has been reported at this table yet.")]})
        if action == "confirm":
            report = services.table_report_confirm(report=report, seat=v["seat"], actor=request.user, code=v["code"])
        else:
            report = services.table_report_dispute(
                report=report, seat=v["seat"], note=v["note"], actor=request.user, code=v["code"]
            )
        return Response(_report_data(report))


class ClockSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=services.CLOCK_ACTIONS)
    minutes = serializers.IntegerField(required=False, default=0, min_value=-120, max_value=120)


class ClockView(APIView):
    """The director's round clock: start, pause, resume, extend (minutes), end."""

    access = route("event_round", POST=ADMIN)

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


def _table_request(request, pk: int) -> tuple[Game, str, object]:
    """The game, the table's code this browser holds, and the acting user (None for the table's
    phone with its code). A phone holding a code has no login, so the CSRF check the login's
    session would run is run here."""
    from rest_framework.authentication import SessionAuthentication

    from .views import CODES_KEY

    game = object_for_request(request, Game.objects.select_related("season__rule_set", "season__league"), pk=pk)
    code = (request.session.get(CODES_KEY) or {}).get(str(game.pk), "")
    if not request.user.is_authenticated and code:
        SessionAuthentication().enforce_csrf(request)
    return game, code, request.user if request.user.is_authenticated else None


class TableHandSerializer(serializers.Serializer):
    sequence = serializers.IntegerField(required=False, min_value=1)
    record = serializers.JSONField()


class TableHandsView(APIView):
    """A table enters its next hand (the scorekeeper's save, for the players at the table)."""

    access = route("event_table", POST=PUBLIC)  # who may is the table's: its seats or its code

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

        game, code, actor = _table_request(request, pk)
        data = TableHandSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand, created = services.table_hand_add(
            game=game,
            record=data.validated_data["record"],
            sequence=data.validated_data.get("sequence"),
            actor=actor,
            code=code,
        )
        return Response(
            {"hand": HandRecordSerializer(hand).data, "position": scoring_selectors.game_position(game=game)},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class TableHandDetailView(APIView):
    """A table corrects one of its hands (every later hand is re-settled)."""

    access = route("event_table_hand", PUT=PUBLIC)

    @extend_schema(
        request=TableHandSerializer, tags=["events"], responses={200: OpenApiResponse(description="{hand, position}")}
    )
    @idempotent
    def put(self, request, pk, sequence):
        from scoring import selectors as scoring_selectors
        from scoring.api import HandRecordSerializer

        game, code, actor = _table_request(request, pk)
        data = TableHandSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand = services.table_hand_correct(
            game=game, sequence=sequence, record=data.validated_data["record"], actor=actor, code=code
        )
        return Response(
            {"hand": HandRecordSerializer(hand).data, "position": scoring_selectors.game_position(game=game)}
        )


class TableHandPreviewView(APIView):
    """A hand settled as it would be stored, without storing it (the scorekeeper's preview)."""

    access = route("event_table", POST=PUBLIC)

    @extend_schema(
        request=TableHandSerializer,
        tags=["events"],
        responses={
            200: OpenApiResponse(description="{sequence, record, settlement, scores_before, scores_after, display}")
        },
    )
    def post(self, request, pk):
        from scoring import display, selectors as scoring_selectors

        game, code, actor = _table_request(request, pk)
        data = TableHandSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = services.table_hand_preview(
            game=game,
            record=data.validated_data["record"],
            sequence=data.validated_data.get("sequence"),
            actor=actor,
            code=code,
        )
        names = [s.player.display_name for s in scoring_selectors.game_seats(game=game)]
        preview["display"] = display.settlement_display(preview["settlement"], names)
        return Response(preview)


class TableHandsFinishView(APIView):
    """The table ends its game: the hands' final scores become its report, for the others to confirm."""

    access = route("event_table", POST=PUBLIC)

    @extend_schema(
        request=None,
        tags=["events"],
        responses={201: OpenApiResponse(description="The table's report, waiting for the other seats")},
    )
    @idempotent
    def post(self, request, pk):
        game, code, actor = _table_request(request, pk)
        report = services.table_hands_finish(game=game, actor=actor, code=code)
        return Response(_report_data(report), status=status.HTTP_201_CREATED)
