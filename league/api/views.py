from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import ADMIN, LOGGED_IN, OWNER, PUBLIC, object_for_request, route
from kyoku.authz import Need, leagues_where, scope_for_actor, scope_visible
from kyoku import authz
from league import selectors, services
from league.models import (
    Division,
    Entry,
    Game,
    Penalty,
    Player,
    QualificationApplication,
    QualificationTier,
    RuleSet,
)

from . import serializers as s
from kyoku.idempotency import idempotent


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    access = {
        "list": route(GET=PUBLIC),
        "retrieve": route("player", GET=PUBLIC),
        "history": route("player", GET=PUBLIC),
    }
    queryset = Player.objects.all()
    serializer_class = s.PlayerSerializer
    filterset_fields = ["active"]

    def get_queryset(self):
        qs = super().get_queryset()
        number = self.request.query_params.get("membership_number")
        if number is not None:
            # a lookup by membership number is an admin's tool: for anyone else it would tell
            # whose number a given string is (docs/privacy.md)
            leagues = leagues_where(self.request.user, Need.ADMIN)
            if leagues == []:
                raise PermissionDenied(_("Only league admins may look players up by membership number."))
            qs = qs.filter(membership_number=number)
            if leagues is not None:  # among their leagues' members: another league's numbers stay private
                qs = qs.filter(memberships__league_id__in=leagues).distinct()
        return qs

    @extend_schema(responses=s.PlayerHistoryRowSerializer(many=True))
    @action(detail=True)
    def history(self, request, pk=None):
        player = self.get_object()
        rows = selectors.player_history(player=player)
        return Response(
            s.PlayerHistoryRowSerializer(
                [
                    {
                        "game": r["game"].pk,
                        "season": r["game"].season_id,
                        "seat": r["seat"].seat,
                        "raw_score": r["raw_score"],
                        "points": r["points"],
                        "place": r["place"],
                        "running": r["running"],
                    }
                    for r in rows
                ],
                many=True,
            ).data
        )


class RuleSetViewSet(viewsets.ReadOnlyModelViewSet):
    access = {"list": route(GET=PUBLIC), "retrieve": route("ruleset", GET=PUBLIC)}
    queryset = RuleSet.objects.all()
    serializer_class = s.RuleSetSerializer
    filterset_fields = ["system", "preset", "is_template", "slug"]


class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    access = {"list": route(GET=PUBLIC), "retrieve": route("season", GET=PUBLIC)}
    serializer_class = s.SeasonSerializer
    filterset_fields = ["year", "number", "status"]

    def get_queryset(self):
        return scope_visible(selectors.season_list(), actor=self.request.user)  # pending leagues hidden


class DivisionViewSet(viewsets.ReadOnlyModelViewSet):
    access = {
        "list": route(GET=PUBLIC),
        "retrieve": route("division", GET=PUBLIC),
        "entries": route("division", GET=PUBLIC),
        "standings": route("division", GET=PUBLIC),
    }
    queryset = Division.objects.select_related("season__league")  # the league: its visibility, no second read
    serializer_class = s.DivisionSerializer
    filterset_fields = ["season", "code"]

    def get_queryset(self):
        return scope_visible(super().get_queryset(), actor=self.request.user)  # pending leagues hidden

    @extend_schema(responses=s.StandingSerializer(many=True))
    @action(detail=True)
    def standings(self, request, pk=None):
        """Conditional and cached: the ETag is the division's standings version (bumped by every
        result, correction or penalty), so a client revalidates with If-None-Match and gets 304
        until the standings change; the serialized table is cached under the same version."""
        division = self.get_object()
        sort = request.query_params.get("sort", "rank")
        sort = sort if sort.lstrip("-") in selectors.STANDINGS_SORTS else "rank"
        etag = f'"standings-{division.pk}-{division.standings_version}-{sort}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        elif request.accepted_renderer.format == "json":
            # the rendered bytes are cached too: rendering 1,000 rows was most of a full answer
            key = f"standings-api-json:{division.pk}:{division.standings_version}:{sort}"
            body = cache.get(key)
            if body is None:
                body = request.accepted_renderer.render(_standings_data(division, sort))
                cache.set(key, body, 3600)
            response = HttpResponse(body, content_type="application/json")
        else:  # the browsable API
            response = Response(_standings_data(division, sort))
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"  # always revalidate: fresh the moment a result lands
        return response

    @extend_schema(responses=s.EntrySerializer(many=True))
    @action(detail=True)
    def entries(self, request, pk=None):
        rows = Entry.objects.filter(division=self.get_object()).select_related("player").order_by("pk")
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(s.EntrySerializer(page, many=True).data)


def _standings_data(division: Division, sort: str) -> list[dict]:
    """What ``StandingSerializer(many=True)`` gives, from one values() query: the serializer's own
    fields turn each value into its representation, without a model instance and a nested
    serializer per row (most of a 1,000-row answer's time). A test holds the two equal."""
    fields = s.StandingSerializer().fields
    player_fields = fields["player"].fields
    own = [name for name in fields if name != "player"]
    # the public list never carries a player's private fields (docs/privacy.md): not even read
    private = set(s.PlayerSerializer.PRIVATE_FIELDS)
    player_own = [name for name in player_fields if name not in private]
    rows = selectors.standings_for(division=division, sort=sort).values(
        *own, *(f"player__{name}" for name in player_own)
    )
    convert = {name: fields[name].to_representation for name in own}
    convert_player = {name: player_fields[name].to_representation for name in player_own}

    def shown(value, to_representation):
        return None if value is None else to_representation(value)

    out = []
    for row in rows:
        data = {
            "rank": shown(row["rank"], convert["rank"]),
            "player": {
                name: (None if name in private else shown(row[f"player__{name}"], convert_player[name]))
                for name in player_fields
            },
        }
        data.update((name, shown(row[name], convert[name])) for name in own if name != "rank")
        out.append(data)
    return out


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    access = {"list": route(GET=PUBLIC), "retrieve": route("game", GET=PUBLIC)}
    serializer_class = s.GameSerializer
    filterset_fields = ["season", "division", "match_day", "status"]

    def get_queryset(self):
        return scope_visible(selectors.games_for(), actor=self.request.user)  # pending leagues hidden


class GameResultView(APIView):
    """Record (POST) or read (GET) a game's final scores."""

    access = route("result_game", GET=PUBLIC, POST=ADMIN)

    @extend_schema(responses=s.GameResultSerializer)
    def get(self, request, pk):
        game = object_for_request(request, Game, pk=pk)
        if not hasattr(game, "result"):
            return Response({"detail": "no result yet"}, status=status.HTTP_404_NOT_FOUND)
        return Response(s.GameResultSerializer(game.result).data)

    @extend_schema(
        request=s.GameResultInputSerializer, responses={201: s.GameResultSerializer, 200: s.GameResultSerializer}
    )
    @idempotent
    def post(self, request, pk):
        game = object_for_request(request, Game, pk=pk)
        data = s.GameResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result, created = services.game_result_record(game=game, actor=request.user, **data.validated_data)
        return Response(
            s.GameResultSerializer(result).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class TierViewSet(viewsets.ReadOnlyModelViewSet):
    access = {"list": route(GET=PUBLIC), "retrieve": route("tier", GET=PUBLIC)}
    queryset = QualificationTier.objects.filter(active=True)
    serializer_class = s.TierSerializer

    def get_queryset(self):
        return scope_visible(super().get_queryset(), actor=self.request.user)  # pending leagues hidden


class ApplicationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Players see and file their own applications; admins see all and decide."""

    serializer_class = s.ApplicationSerializer
    access = {
        "list": route(GET=LOGGED_IN),  # scoped: one's own, and those of the leagues one referees
        # a player files their own; the body names the season (validated before the league check)
        "create": route(POST=LOGGED_IN),
        "retrieve": route("application", GET=OWNER),
        "decide": route("application", POST=ADMIN),
    }
    filterset_fields = ["status", "season", "tier"]

    def get_queryset(self):
        # the player's own applications, and every application of the leagues where the user
        # is an admin or referee (evidence is private: nobody else sees it)
        qs = QualificationApplication.objects.select_related("player", "tier", "season").order_by("-submitted_at")
        return scope_for_actor(qs, actor=self.request.user, need=Need.OWNER)

    @extend_schema(request=s.ApplicationInputSerializer, responses={201: s.ApplicationSerializer})
    @idempotent
    def create(self, request):
        data = s.ApplicationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        player = v.pop("player", None)
        season, tier, proof = v.pop("season"), v.pop("tier"), v.pop("proof", None)
        if player is not None and not authz.is_admin(request.user, season.league):
            # what the body asks, not the route: filing for someone else is for the season's league admins
            raise PermissionDenied("Only an admin of this season's league may apply on another player's behalf.")
        player = player or authz.player_of(request.user)
        if player is None:
            raise PermissionDenied("Your login is not linked to a player.")
        application = services.application_submit(
            player=player, season=season, tier=tier, evidence=v, proof=proof, actor=request.user
        )
        return Response(s.ApplicationSerializer(application).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ApplicationDecisionSerializer, responses=s.ApplicationSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def decide(self, request, pk=None):
        application = object_for_request(request, QualificationApplication, pk=pk)
        data = s.ApplicationDecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        application = services.application_decide(application=application, actor=request.user, **data.validated_data)
        return Response(s.ApplicationSerializer(application).data)


class PenaltyViewSet(viewsets.ReadOnlyModelViewSet):
    """The penalty ledger, cancelled rows included (they are never deleted)."""

    access = {"list": route(GET=PUBLIC), "retrieve": route("penalty", GET=PUBLIC)}

    serializer_class = s.PenaltySerializer
    filterset_fields = ["season", "player", "game", "sanction"]

    def get_queryset(self):
        # pending leagues hidden
        return scope_visible(Penalty.objects.select_related("player"), actor=self.request.user)
