"""Reads for pages and the API."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Prefetch

from .models import Division, Game, GameSeat, Penalty, Player, QualificationApplication, Season, Standing
from .names import player_name_for

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
    """The league's numbered seasons (an event's games have a season of their own, shown with the
    event: events app)."""
    qs = (
        Season.objects.filter(kind=Season.Kind.LEAGUE)
        .select_related("league", "rule_set")
        .prefetch_related("divisions")
    )
    return qs.filter(league=league) if league else qs


def standings_for(*, division: Division, sort: str = "rank"):
    order = STANDINGS_SORTS.get(sort.lstrip("-"), ["rank"])
    return Standing.objects.filter(division=division).select_related("player").order_by(*order)


STANDINGS_PAGE_SIZE = 200


def standings_table(*, division: Division, sort: str = "rank", page: int = 1) -> dict:
    """One page of a division's standings for the page, sorted across the whole division, as
    plain rows with their numbers already formatted and each row's promotion or relegation zone
    (the league's ``promotion_count``, as ``promotion_plan`` applies it)."""
    from django.urls import reverse

    sort = sort if sort.lstrip("-") in STANDINGS_SORTS else "rank"
    order = STANDINGS_SORTS[sort.lstrip("-")]
    qs = Standing.objects.filter(division=division).order_by(*order)
    count = qs.count()
    pages = max(1, -(-count // STANDINGS_PAGE_SIZE))
    page = min(max(page, 1), pages)
    start = (page - 1) * STANDINGS_PAGE_SIZE
    up, down = _zones(division, count)
    player_url = reverse("player", args=[0])[:-2]  # one reverse for the page, not one per row
    rows = []
    for r in qs.values_list(
        "rank",
        "player_id",
        "player__display_name",
        "player__native_name",
        "games",
        "total_points",
        "penalty_points",
        "average_place",
        "firsts",
        "seconds",
        "thirds",
        "fourths",
        "player__family_name",
        "player__given_name",
        "player__name_order",
    )[start : start + STANDINGS_PAGE_SIZE]:
        rank = r[0]
        who = dict(zip(("display_name", "native_name", "family_name", "given_name", "name_order"), r[2:4] + r[12:15]))
        rows.append(
            {
                "rank": rank,
                "player_id": r[1],
                "name": player_name_for(who),  # the page language's one name (league.names)
                "games": r[4],
                "points": f"{r[5]:.1f}",
                "penalties": f"−{r[6]:.1f}" if r[6] else "",
                "average": f"{r[7]:.2f}" if r[7] is not None else "–",
                "places": r[8:12],
                "url": f"{player_url}{r[1]}/",
                "zone": "promotion" if rank <= up else "relegation" if down and rank > count - down else "",
            }
        )
    return {
        "rows": rows,
        "count": count,
        "page": page,
        "pages": pages,
        "page_list": list(range(1, pages + 1)),
        "sort": sort,
        "promoted": up,
        "relegated": down,
    }


def _zones(division: Division, count: int) -> tuple[int, int]:
    """How many rows at the top move up and at the bottom move down: none up from the top
    division, none down from the bottom one, never more than half the division."""
    orders = list(
        Division.objects.filter(season_id=division.season_id).order_by("order").values_list("order", flat=True)
    )
    n = min(division.season.league.promotion_count, count // 2)
    up = n if orders and division.order != orders[0] else 0
    down = n if orders and division.order != orders[-1] else 0
    return up, down


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
    seats = (
        GameSeat.objects.filter(player=player, game__status=Game.Status.FINISHED)
        .select_related("game", "game__season", "game__division")
        .order_by("game__season__year", "game__season__number", "game__match_day", "game__table")
    )
    if season:
        seats = seats.filter(game__season=season)
    running, out = Decimal("0"), []
    for seat in seats:
        running += seat.points or 0
        out.append(
            {
                "seat": seat,
                "game": seat.game,
                "points": seat.points,
                "place": seat.place,
                "raw_score": seat.raw_score,
                "running": running,
            }
        )
    return out


def player_penalties(*, player: Player):
    return Penalty.objects.filter(player=player).select_related("season", "game").order_by("-assigned_at")


def applications_pending():
    return (
        QualificationApplication.objects.filter(status=QualificationApplication.Status.PENDING)
        .select_related("player", "season", "tier")
        .order_by("submitted_at")
    )


def season_audit_log(
    *, season: Season, action: str = "", object_type: str = "", actor: str = "", since=None, until=None
):
    """The season's audit rows, newest first (indexed on season_id, at)."""
    from kyoku.models import AuditLog

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

    qs = (
        QualificationApplication.objects.exclude(status=QualificationApplication.Status.PENDING)
        .select_related("player", "season", "tier", "decided_by")
        .order_by("-decided_at", "-pk")
    )
    if status:
        qs = qs.filter(status=status)
    if tier:
        qs = qs.filter(tier__code__iexact=tier)
    if since:
        qs = qs.filter(decided_at__date__gte=since)
    if until:
        qs = qs.filter(decided_at__date__lte=until)
    return qs


SEASON_GAMES_PAGE_SIZE = 50


def season_summary(*, season: Season) -> list[dict]:
    """Per division: entrants, games finished / to play / void, the last match day played — the
    stored summary (league.services.summary), a few rows whatever the number of games; a
    division without its row yet is counted from its games."""
    from .models import DivisionSummary
    from .summary import SUMMARY_FIELDS, division_summary_rows

    divisions = list(season.divisions.order_by("order"))
    stored = {
        row[0]: dict(zip(SUMMARY_FIELDS, row[1:]))
        for row in DivisionSummary.objects.filter(season=season).values_list("division_id", *SUMMARY_FIELDS)
    }
    missing = [d.pk for d in divisions if d.pk not in stored]
    if missing:
        stored.update(division_summary_rows(season_id=season.pk, division_ids=missing))
    out = []
    for d in divisions:
        row = stored[d.pk]
        out.append({"division": d, **row, "games": row["finished"] + row["to_play"] + row["void"]})
    return out


def season_games_page(
    *, season: Season, division_code: str = "", match_day=None, page: int = 1, summary: list[dict] | None = None
):
    """One page of the season's games, latest match day first (then division order, table),
    optionally one division or match day; seats are fetched for that page only. The number of
    games comes from the season's ``summary`` when no match day is picked (not counted), and
    the order names the divisions' order by id (no join): the database walks its
    (season, match day) index from the latest day instead of sorting the season."""
    from django.core.paginator import Paginator
    from django.db.models import Case, IntegerField, Value, When

    summary = season_summary(season=season) if summary is None else summary
    rows = [r for r in summary if not division_code or r["division"].code == division_code]
    qs = (
        Game.objects.filter(season=season)
        .select_related("division")
        .prefetch_related(Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat")))
    )
    if division_code:
        qs = qs.filter(division_id__in=[r["division"].pk for r in rows])
    if match_day is not None:
        qs = qs.filter(match_day=match_day)
    divisions = [r["division"] for r in summary]
    order = (
        [
            Case(
                *(When(division_id=d.pk, then=Value(d.order)) for d in divisions),
                default=Value(0),
                output_field=IntegerField(),
            )
        ]
        if len(divisions) > 1
        else []
    )
    paginator = Paginator(qs.order_by("-match_day", *order, "table"), SEASON_GAMES_PAGE_SIZE)
    if match_day is None:
        paginator.count = sum(r["games"] for r in rows)  # a cached property: set, so not counted
    return paginator.get_page(page)


def player_page(*, player: Player, season_id: int | None = None) -> dict:
    """Everything the player page shows, in three queries whatever the number of games or
    seasons: every seat the player has (a few hundred rows at most), their standings row of every
    season (the career, the same figures as the standings pages) and their penalty ledger.

    The seasons offered are those the player sat, stood or was penalised in, latest first
    (every entrant has a standings row from the moment the entry is made); ``season_id`` picks
    one of them, otherwise the latest. ``history`` is that season's running total
    (:func:`season_running_total`)."""
    seats = list(GameSeat.objects.filter(player=player).order_by().select_related("game__division", "game__season"))
    career = list(
        Standing.objects.filter(player=player)
        .select_related("season", "division")
        .order_by("-season__year", "-season__number")
    )
    penalties = list(
        Penalty.objects.filter(player=player).select_related("season", "game").order_by("-assigned_at", "-pk")
    )
    by_id = {s.game.season_id: s.game.season for s in seats}
    by_id.update((s.season_id, s.season) for s in career)
    by_id.update((p.season_id, p.season) for p in penalties)
    seasons = sorted(by_id.values(), key=lambda s: (s.year, s.number, s.pk), reverse=True)
    season = next((s for s in seasons if s.pk == season_id), seasons[0] if seasons else None)
    history = []
    if season is not None:
        finished = sorted(
            (
                s
                for s in seats
                if s.game.season_id == season.pk and s.place is not None and s.game.status == Game.Status.FINISHED
            ),
            key=lambda s: (s.game.match_day, s.game.table, s.game_id),
        )
        in_force = sorted(
            (p for p in penalties if p.season_id == season.pk and p.cancelled_at is None),
            key=lambda p: (p.assigned_at, p.pk),
        )
        history = season_running_total(finished, in_force)
    return {"seasons": seasons, "season": season, "history": history, "career": career, "penalties": penalties}


def season_running_total(seats: list[GameSeat], penalties: list[Penalty]) -> list[dict]:
    """One season's running total as the standings count it, from its finished seats in play
    order and its penalties in force in the order they were assigned: each game's points, and
    each penalty after the game it concerns (at the end when it names none), so the last running
    total is the player's standings total."""
    by_game: dict = {}
    loose = []
    for p in penalties:
        (by_game.setdefault(p.game_id, []) if p.game_id else loose).append(p)
    running, out = Decimal("0"), []
    for seat in seats:
        running += seat.points or 0
        out.append(
            {
                "kind": "game",
                "seat": seat,
                "game": seat.game,
                "points": seat.points,
                "place": seat.place,
                "raw_score": seat.raw_score,
                "running": running,
            }
        )
        for p in by_game.pop(seat.game_id, []):
            running -= p.points
            out.append({"kind": "penalty", "penalty": p, "points": -p.points, "running": running})
    for p in [p for rest in by_game.values() for p in rest] + loose:
        running -= p.points
        out.append({"kind": "penalty", "penalty": p, "points": -p.points, "running": running})
    return out
