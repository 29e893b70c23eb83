"""Reads for pages and the API."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Prefetch

from .models import Division, Game, GameSeat, Penalty, Player, QualificationApplication, Season, Standing

STANDINGS_SORTS = {
    "rank": ["rank"],
    "points": ["-total_points", "rank"],
    "games": ["-games", "rank"],
    "average": ["average_place", "rank"],
    "firsts": ["-firsts", "rank"],
    "fourths": ["-fourths", "rank"],
    "penalties": ["-penalty_points", "rank"],
    "name": ["player__display_name"],
}


def season_list(*, league=None):
    qs = Season.objects.select_related("league", "rule_set").prefetch_related("divisions")
    return qs.filter(league=league) if league else qs


def standings_for(*, division: Division, sort: str = "rank"):
    order = STANDINGS_SORTS.get(sort.lstrip("-"), ["rank"])
    return Standing.objects.filter(division=division).select_related("player").order_by(*order)


def games_for(*, division: Division | None = None, season: Season | None = None, player: Player | None = None):
    qs = Game.objects.select_related("division", "season").prefetch_related(
        Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat"))
    )
    if division:
        qs = qs.filter(division=division)
    if season:
        qs = qs.filter(season=season)
    if player:
        qs = qs.filter(seats__player=player)
    return qs.order_by("match_day", "table")


def player_history(*, player: Player, season: Season | None = None) -> list[dict]:
    """The player's finished games in order, with the running total (for the chart)."""
    seats = (GameSeat.objects.filter(player=player, game__status=Game.Status.FINISHED)
             .select_related("game", "game__season", "game__division")
             .order_by("game__season__year", "game__season__number", "game__match_day", "game__table"))
    if season:
        seats = seats.filter(game__season=season)
    running, out = Decimal("0"), []
    for seat in seats:
        running += seat.points or 0
        out.append({"seat": seat, "game": seat.game, "points": seat.points, "place": seat.place,
                    "raw_score": seat.raw_score, "running": running})
    return out


def player_penalties(*, player: Player):
    return Penalty.objects.filter(player=player).select_related("season", "game").order_by("-assigned_at")


def applications_pending():
    return (QualificationApplication.objects.filter(status=QualificationApplication.Status.PENDING)
            .select_related("player", "season", "tier").order_by("submitted_at"))


def season_audit_log(*, season: Season, action: str = "", object_type: str = "", actor: str = "",
                     since=None, until=None):
    """The season's audit rows, newest first (indexed on season_id, at)."""
    from .models import AuditLog

    qs = AuditLog.objects.filter(season_id=season.pk).select_related("actor")
    if action:
        qs = qs.filter(action__icontains=action)
    if object_type:
        qs = qs.filter(object_type__icontains=object_type)
    if actor:
        qs = qs.filter(actor__username__iexact=actor)
    if since:
        qs = qs.filter(at__date__gte=since)
    if until:
        qs = qs.filter(at__date__lte=until)
    return qs.order_by("-at", "-id")


def applications_decided(*, status: str = "", tier: str = "", since=None, until=None):
    """Decided applications, newest decision first, for the review history."""
    from .models import QualificationApplication

    qs = (QualificationApplication.objects.exclude(status=QualificationApplication.Status.PENDING)
          .select_related("player", "season", "tier", "decided_by").order_by("-decided_at", "-pk"))
    if status:
        qs = qs.filter(status=status)
    if tier:
        qs = qs.filter(tier__code__iexact=tier)
    if since:
        qs = qs.filter(decided_at__date__gte=since)
    if until:
        qs = qs.filter(decided_at__date__lte=until)
    return qs
