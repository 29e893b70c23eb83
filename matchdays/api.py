"""API for match days, attendance and seating (same authorization and idempotency as the league API)."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from kyoku import authz
from kyoku.access import ADMIN, LOGGED_IN, PUBLIC, object_for_request, route
from kyoku.authz import Need
from kyoku.idempotency import idempotent
from league.models import Division, Player

from . import selectors, services
from .models import Attendance, MatchDay, SeatingPlan
from .services import MAX_SEED

BIG = 2**31 - 1


@extend_schema_field({"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}(:[0-9]{2})?$", "example": "14:00"})
class LocalTimeField(serializers.TimeField):
    """A local wall-clock time (the venue's), without a zone: not JSON Schema's zoned "time"."""


class MatchDaySerializer(serializers.ModelSerializer):
    start_time = LocalTimeField(allow_null=True, required=False, format="%H:%M")

    class Meta:
        model = MatchDay
        fields = ["id", "season", "division", "number", "date", "start_time", "venue", "status", "leftover"]
        read_only_fields = ["season", "status"]


class MatchDayInputSerializer(serializers.Serializer):
    division = serializers.IntegerField(min_value=1, max_value=BIG)
    number = serializers.IntegerField(min_value=1, max_value=999)
    date = serializers.DateField()
    start_time = LocalTimeField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=120, required=False, allow_blank=True)
    leftover = serializers.ChoiceField(choices=MatchDay.Leftover.choices, required=False)

    def validate(self, attrs):
        unknown = set(self.initial_data) - set(self.fields)
        if unknown:
            raise serializers.ValidationError({k: ["unknown field"] for k in sorted(unknown)})
        return attrs


class AttendanceInputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Attendance.Status.choices)
    player = serializers.IntegerField(min_value=1, max_value=BIG, required=False)


class AttendanceSerializer(serializers.ModelSerializer):
    class Meta:
        model = Attendance
        fields = ["player", "status", "marked_at"]


class GenerateInputSerializer(serializers.Serializer):
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False, default=0)


class SwapInputSerializer(serializers.Serializer):
    player_a = serializers.IntegerField(min_value=1, max_value=BIG)
    player_b = serializers.IntegerField(min_value=1, max_value=BIG)


def seating_payload(plan: SeatingPlan) -> dict:
    return {
        "match_day": plan.match_day_id,
        "revision": plan.revision,
        "published_revision": plan.published_revision,
        "seed": plan.seed,
        "tables": plan.tables,
        "byes": plan.byes,
        "figures": plan.figures,
    }


class MatchDayViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Match days. Admins create them, generate, swap and publish seating; players mark attendance."""

    serializer_class = MatchDaySerializer
    queryset = MatchDay.objects.select_related("season__league", "division").order_by("pk")

    access = {
        "list": route(GET=PUBLIC),
        "retrieve": route("matchday", GET=PUBLIC),
        # any logged-in user may ask; the division named in the body is then checked (its admins)
        "create": route(POST=LOGGED_IN),
        # a player marks their own attendance; the league's admins and referees mark anyone's
        "attendance": route("matchday", GET=PUBLIC, POST=LOGGED_IN),
        "seating": route("matchday", GET=PUBLIC, POST=ADMIN),
        "swap": route("matchday", POST=ADMIN),
        "publish": route("matchday", POST=ADMIN),
    }

    def _day(self, pk):
        """The match day, checked at the level declared for this action and method."""
        return object_for_request(self.request, self.queryset, pk=pk)

    @extend_schema(request=MatchDayInputSerializer, responses={201: MatchDaySerializer})
    @idempotent
    def create(self, request):
        data = MatchDayInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        # the division comes from the body, not the URL, and needs more than the route's LOGGED_IN:
        # an admin of its league
        division = object_for_request(
            request, Division.objects.select_related("season__league"), need=Need.ADMIN, pk=v.pop("division")
        )
        day = services.match_day_create(division=division, actor=request.user, **v)
        return Response(MatchDaySerializer(day).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=AttendanceInputSerializer, responses={200: AttendanceSerializer})
    @action(detail=True, methods=["get", "post"])
    @idempotent
    def attendance(self, request, pk=None):
        if request.method == "GET":
            day = self._day(pk)
            rows = Attendance.objects.filter(match_day=day)
            return Response(AttendanceSerializer(rows, many=True).data)
        day = self._day(pk)
        data = AttendanceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player_id = data.validated_data.get("player")
        me = authz.player_of(request.user)
        if player_id is None:
            if me is None:
                raise PermissionDenied("only a player marks their own attendance")
            player = me
        else:
            player = Player.objects.filter(pk=player_id).first()
            if player is None:
                raise NotFound("no such player")
            if player != me and not authz.is_referee(request.user, day.season.league):
                raise PermissionDenied("only the league's admins and referees mark other players")
        row = services.attendance_mark(
            match_day=day, player=player, status=data.validated_data["status"], actor=request.user
        )
        return Response(AttendanceSerializer(row).data)

    @extend_schema(request=GenerateInputSerializer)
    @action(detail=True, methods=["get", "post"])
    @idempotent
    def seating(self, request, pk=None):
        if request.method == "GET":
            day = self._day(pk)
            plan = SeatingPlan.objects.filter(match_day=day).select_related("match_day__season__league").first()
            if not selectors.seating_visible(plan, request.user):
                raise NotFound("no seating published")
            return Response(seating_payload(plan))
        day = self._day(pk)
        data = GenerateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        plan = services.seating_generate(match_day=day, seed=data.validated_data["seed"], actor=request.user)
        return Response(seating_payload(plan), status=status.HTTP_201_CREATED)

    def _plan(self, pk):
        day = self._day(pk)
        plan = SeatingPlan.objects.filter(match_day=day).first()
        if plan is None:
            raise NotFound("no seating yet")
        return plan

    @extend_schema(request=SwapInputSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def swap(self, request, pk=None):
        plan = self._plan(pk)
        data = SwapInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        plan = services.seating_swap(plan=plan, actor=request.user, **data.validated_data)
        return Response(seating_payload(plan))

    @extend_schema(request=None)
    @action(detail=True, methods=["post"])
    @idempotent
    def publish(self, request, pk=None):
        plan = self._plan(pk)
        games = services.seating_publish(plan=plan, actor=request.user)
        plan.refresh_from_db()
        return Response({**seating_payload(plan), "games": [g.pk for g in games]})
