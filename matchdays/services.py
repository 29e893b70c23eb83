"""Writes for match days: each is atomic and leaves an audit row."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.db.models import ProtectedError
from django.utils.translation import gettext

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.errors import Conflict
from kyoku.authz import acting_user
from kyoku.principals import Actor
from league import services as league_services
from league.models import Entry, Game, GameSeat, Player

from . import notices, seating, selectors
from .models import (
    Attendance,
    MatchDay,
    ReplacedGame,
    Reserve,
    SeatingConstraint,
    SeatingPlan,
    SeatingSchedule,
    Substitution,
)

MAX_SEED = 2**31 - 1


def _check(actor: Actor, obj, need=authz.Need.ADMIN):
    # the system (a command, a task) passes; a user needs the role; None is a programming error
    authz.authorize(actor, obj, need)


@transaction.atomic
def match_day_create(
    *,
    division,
    number: int,
    date,
    venue: str = "",
    start_time=None,
    leftover: str = MatchDay.Leftover.BYE,
    actor: Actor,
) -> MatchDay:
    _check(actor, division)
    if MatchDay.objects.filter(division=division, number=number).exists():
        raise ValidationError(
            {
                "number": [
                    gettext("match day %(number)s already exists in %(division)s")
                    % {"number": number, "division": division}
                ]
            }
        )
    day = MatchDay.objects.create(
        season=division.season,
        division=division,
        number=number,
        date=date,
        venue=venue,
        start_time=start_time,
        leftover=leftover,
    )
    audit_log_write(
        actor=actor, action="matchday.create", obj=day, data={"number": number, "date": str(date), "venue": venue}
    )
    return day


@transaction.atomic
def attendance_mark(*, match_day: MatchDay, player: Player, status: str, actor: Actor) -> Attendance:
    _check(actor, Attendance(match_day=match_day, player=player), authz.Need.OWNER)
    if status not in Attendance.Status.values:
        raise ValidationError({"status": [gettext("unknown status %(status)s") % {"status": repr(status)}]})
    if not Entry.objects.filter(division=match_day.division, player=player).exists():
        raise ValidationError(
            {
                "player": [
                    gettext("%(player)s is not entered in %(division)s")
                    % {"player": player, "division": match_day.division}
                ]
            }
        )
    row, _ = Attendance.objects.update_or_create(
        match_day=match_day, player=player, defaults={"status": status, "marked_by": acting_user(actor)}
    )
    audit_log_write(actor=actor, action="attendance.mark", obj=row, data={"status": status, "player": player.pk})
    return row


@transaction.atomic
def attendance_roster_mark(*, match_day: MatchDay, statuses: dict[int, str], actor: Actor) -> int:
    """The whole division's attendance in one save (the desk's roster): each player whose status
    changed is marked as :func:`attendance_mark` does (checked, audited); all or nothing.
    Returns how many changed."""
    _check(actor, match_day, authz.Need.REFEREE)
    current = dict(Attendance.objects.filter(match_day=match_day).values_list("player_id", "status"))
    players = Player.objects.in_bulk(list(statuses))
    missing = sorted(set(statuses) - set(players))
    if missing:
        raise ValidationError({"player": [gettext("no player %(player)s") % {"player": missing[0]}]})
    changed = 0
    for player_id, status in sorted(statuses.items()):
        before = current.get(player_id)  # None: unmarked, which counts as expected
        if before == status or (before is None and status == Attendance.Status.ATTENDING):
            continue
        attendance_mark(match_day=match_day, player=players[player_id], status=status, actor=actor)
        changed += 1
    return changed


def match_day_next_number(division) -> int:
    """The number a new match day of ``division`` gets: one after the last."""
    last = MatchDay.objects.filter(division=division).order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def attending_players(match_day: MatchDay) -> list[int]:
    """Entered players, minus those marked absent or withdrawn (unmarked players are expected)."""
    away = set(
        Attendance.objects.filter(match_day=match_day)
        .exclude(status=Attendance.Status.ATTENDING)
        .values_list("player_id", flat=True)
    )
    entered = (
        Entry.objects.filter(division=match_day.division).order_by("player_id").values_list("player_id", flat=True)
    )
    return [p for p in entered if p not in away]


def played_days(match_day: MatchDay) -> list[tuple[int, seating.Day]]:
    """The division's earlier match days as they stand in the league's games (published seatings,
    substitutions and games entered by hand alike), in match-day order, with each day's short
    tables (substitute seats, which have no game) from its published seating.  A day's byes are
    the division's players who did not play it, on a bye or absent alike: sitting out is a turn
    taken, so the turns rotate given attendance."""
    seats = (
        GameSeat.objects.filter(game__division=match_day.division, game__match_day__lt=match_day.number)
        .order_by("game__match_day", "game__table", "seat")
        .values_list("game__match_day", "game_id", "seat", "player_id")
    )
    days: dict[int, dict[int, list]] = {}
    for number, game_id, seat, player_id in seats:
        table = days.setdefault(number, {}).setdefault(game_id, [None] * 4)
        table[seat] = player_id
    published = {
        plan.match_day.number: plan
        for plan in SeatingPlan.objects.filter(
            match_day__division=match_day.division,
            match_day__number__lt=match_day.number,
            published_revision__isnull=False,
        ).select_related("match_day")
    }
    entered = set(Entry.objects.filter(division=match_day.division).values_list("player_id", flat=True))
    out = []
    for n in sorted(days):
        plan = published.get(n)
        tables = list(days[n].values()) + ([t for t in plan.tables if None in t] if plan else [])
        seated = {p for t in tables for p in t if p is not None}
        out.append((n, seating.Day(tables=tables, byes=sorted(entered - seated))))
    return out


def _history(match_day: MatchDay) -> list[seating.Day]:
    return [day for _, day in played_days(match_day)]


def _constraints(match_day: MatchDay):
    fixed, apart = {}, []
    for c in SeatingConstraint.objects.filter(season=match_day.season):
        if c.kind == SeatingConstraint.Kind.TABLE:
            fixed[c.player_id] = c.table
        else:
            apart.append((c.player_id, c.other_id))
    return fixed, apart


def plan_figures(match_day: MatchDay, tables, byes) -> dict:
    """The reviewer's figures for the season so far with this day's tables: repeats, consecutive
    repeats, wind imbalance and the constraints this seating breaks."""
    history = _history(match_day)
    everyone = sorted(
        {p for d in history for t in d.tables for p in t if p is not None}
        | {p for t in tables for p in t if p is not None}
    )
    figs = seating.schedule_figures(history + [seating.Day(tables=tables, byes=byes)], everyone, played=len(history))
    fixed, apart = _constraints(match_day)
    unmet = []
    where = {p: i for i, t in enumerate(tables) for p in t if p is not None}
    for p, t in fixed.items():
        if p in where and where[p] != t - 1:
            unmet.append({"kind": "table", "player": p, "table": t})
    for a, b in apart:
        if a in where and where.get(b) == where[a]:
            unmet.append({"kind": "apart", "player": a, "other": b, "table": where[a] + 1})
    return {
        "repeats": figs["repeats"],
        "consecutive_repeats": figs["consecutive_repeats"],
        "wind_imbalance": figs["wind_imbalance"],
        "wind_imbalance_min": figs["wind_imbalance_min"],
        "unmet": unmet,
    }


def tables_canonical(tables: list) -> list[list[int]]:
    """Tables as sorted lists of the players seated (seat order and empty seats aside)."""
    return sorted(sorted(p for p in t if p is not None) for t in tables if any(p is not None for p in t))


def constraints_canonical(fixed: dict, apart: list) -> dict:
    """Constraints as stored on a schedule (JSON: lists, in a fixed order)."""
    return {"fixed": sorted([p, t] for p, t in fixed.items()), "apart": sorted(sorted(pair) for pair in apart)}


def seating_schedule_departure(
    schedule: SeatingSchedule | None,
    match_day: MatchDay,
    players: list[int],
    seed: int,
    constraints: dict,
    played: list[tuple[int, seating.Day]],
) -> str:
    """Why ``schedule`` cannot seat ``match_day`` as planned ('' when it can): the day is not in
    it, or the seed, the leftover rule, the attending players or the constraints differ from the
    plan's, or the days played are not the plan's history followed by its own days."""
    if schedule is None:
        return "first plan"
    if match_day.number not in schedule.numbers:
        return "match day not planned"
    if schedule.seed != seed:
        return "seed"
    if schedule.leftover != match_day.leftover:
        return "leftover rule"
    if schedule.players != sorted(players):
        return "attendance"
    if schedule.constraints != constraints:
        return "constraints"
    expected = [[n, tables_canonical(t)] for n, t in schedule.history]
    expected += [
        [n, tables_canonical(d["tables"])] for n, d in zip(schedule.numbers, schedule.days) if n < match_day.number
    ]
    if expected != [[n, tables_canonical(day.tables)] for n, day in played]:
        return "played days"
    return ""


def seating_schedule_plan(
    *,
    match_day: MatchDay,
    players: list[int],
    seed: int,
    fixed: dict,
    apart: list,
    played: list[tuple[int, seating.Day]],
    reason: str,
    time_limit: float,
    actor: Actor,
) -> SeatingSchedule:
    """Seat this and every later match day of the division at once, given the days played."""
    numbers = list(
        MatchDay.objects.filter(division=match_day.division, number__gte=match_day.number)
        .order_by("number")
        .values_list("number", flat=True)
    )
    result = seating.generate(
        players,
        len(numbers),
        seed=seed,
        history=[d for _, d in played],
        leftover=match_day.leftover,
        fixed_table=fixed,
        apart=apart,
        time_limit=time_limit,
    )
    figures = {
        "repeats": result.repeats,
        "consecutive_repeats": result.consecutive_repeats,
        "wind_imbalance": result.wind_imbalance,
        "wind_imbalance_min": result.wind_imbalance_min,
        "lower_bound": seating.lower_bound_repeats(len(players), len(numbers) + len(played), match_day.leftover),
        "messages": result.unmet,
        "stopped_early": result.stopped_early,
    }
    schedule = SeatingSchedule.objects.create(
        division=match_day.division,
        numbers=numbers,
        players=sorted(players),
        seed=seed,
        history=[[n, tables_canonical(day.tables)] for n, day in played],
        days=[{"tables": d.tables, "byes": d.byes} for d in result.days],
        leftover=match_day.leftover,
        constraints=constraints_canonical(fixed, apart),
        figures=figures,
        reason=reason,
    )
    audit_log_write(
        actor=actor,
        action="seating.plan",
        obj=schedule,
        data={"reason": reason, "numbers": numbers, "seed": seed, "repeats": result.repeats},
    )
    return schedule


@transaction.atomic
def seating_generate(*, match_day: MatchDay, seed: int = 0, time_limit: float = 20.0, actor: Actor) -> SeatingPlan:
    """This match day's seating from the division's season schedule, planned anew only when play
    has departed from it (see :func:`seating_schedule_departure`)."""
    _check(actor, match_day)
    if not 0 <= seed <= MAX_SEED:
        raise ValidationError({"seed": [gettext("a seed is between 0 and %(seed)s") % {"seed": MAX_SEED}]})
    players = attending_players(match_day)
    if len(players) < 4:
        raise ValidationError({"players": [gettext("at least four attending players are needed")]})
    fixed, apart = _constraints(match_day)
    fixed = {p: t for p, t in fixed.items() if p in players}
    apart = [(a, b) for a, b in apart if a in players and b in players]
    played = played_days(match_day)
    schedule = SeatingSchedule.objects.filter(division=match_day.division).order_by("pk").last()
    reason = seating_schedule_departure(schedule, match_day, players, seed, constraints_canonical(fixed, apart), played)
    if reason:
        schedule = seating_schedule_plan(
            match_day=match_day,
            players=players,
            seed=seed,
            fixed=fixed,
            apart=apart,
            played=played,
            reason=reason,
            time_limit=time_limit,
            actor=actor,
        )
    day = schedule.days[schedule.numbers.index(match_day.number)]
    figures = plan_figures(match_day, day["tables"], day["byes"])
    figures["messages"] = schedule.figures.get("messages", [])
    figures["schedule"] = schedule.pk
    plan, created = SeatingPlan.objects.get_or_create(match_day=match_day)
    plan.tables, plan.byes, plan.figures, plan.seed = day["tables"], day["byes"], figures, seed
    if not created:
        plan.revision += 1
    plan.save()
    if match_day.status == MatchDay.Status.PLANNED:
        match_day.status = MatchDay.Status.SEATED
        match_day.save(update_fields=["status"])
    audit_log_write(
        actor=actor,
        action="seating.generate",
        obj=plan,
        data={
            "seed": seed,
            "revision": plan.revision,
            "repeats": figures["repeats"],
            "schedule": schedule.pk,
            "planned": bool(reason),
        },
    )
    return plan


@transaction.atomic
def seating_swap(*, plan: SeatingPlan, player_a: int, player_b: int, actor: Actor) -> SeatingPlan:
    """Swap two seated players (or a seated player and one on a bye) by hand; figures updated."""
    plan = SeatingPlan.objects.select_for_update().get(pk=plan.pk)
    _check(actor, plan)
    spots = {}
    for ti, t in enumerate(plan.tables):
        for si, p in enumerate(t):
            if p is not None:
                spots[p] = ("t", ti, si)
    for bi, p in enumerate(plan.byes):
        spots[p] = ("b", bi, None)
    for field, p in (("player_a", player_a), ("player_b", player_b)):
        if p not in spots:
            raise ValidationError({field: [gettext("player %(player)s is not in this seating") % {"player": p}]})
    if player_a == player_b:
        raise ValidationError({"player_b": [gettext("choose two different players")]})

    def put(spot, p):
        kind, i, j = spot
        if kind == "t":
            plan.tables[i][j] = p
        else:
            plan.byes[i] = p

    sa, sb = spots[player_a], spots[player_b]
    put(sa, player_b)
    put(sb, player_a)
    figures = plan_figures(plan.match_day, plan.tables, plan.byes)
    figures["messages"] = []
    plan.figures = figures
    plan.revision += 1
    plan.save()
    audit_log_write(
        actor=actor,
        action="seating.swap",
        obj=plan,
        data={"players": [player_a, player_b], "revision": plan.revision, "repeats": figures["repeats"]},
    )
    return plan


def game_replaced_record(game: Game) -> ReplacedGame:
    """Keep on record a game a new seating is about to remove (before its seats go): its address
    was sent to its players, and its page then says what replaced it (a tournament's round seated
    again calls this too)."""
    return ReplacedGame.objects.create(
        game_id=game.pk,
        division_id=game.division_id,
        match_day=game.match_day,
        table=game.table,
        players=[s.player_id for s in sorted(game.seats.all(), key=lambda s: s.seat)],
        scheduled_at=game.scheduled_at,
    )


def _games_remove(gone: list[Game]) -> None:
    """Remove the games a new seating replaces, each kept on record (``ReplacedGame``) so the
    address its players were sent still answers. Only games not started and without a result;
    one that the referee desk already names (an incident, a penalty, a hand) stays: the seating
    then changes through substitutions."""
    started = [g.table for g in gone if hasattr(g, "result") or g.status != Game.Status.SCHEDULED]
    if started:
        raise ValidationError(
            {
                "seating": [
                    _(
                        "Table %(tables)s of this match day has started or has a result: change it with "
                        "substitutions instead."
                    )
                    % {"tables": ", ".join(str(t) for t in started)}
                ]
            }
        )
    for game in gone:
        game_replaced_record(game)
        try:
            Game.objects.filter(pk=game.pk).delete()
        except ProtectedError as exc:
            kinds = sorted({str(obj._meta.verbose_name) for obj in exc.protected_objects})
            raise Conflict(
                {
                    "seating": [
                        _(
                            "A game of this match day is already referred to by %(what)s; change the "
                            "seating with substitutions instead of publishing again."
                        )
                        % {"what": ", ".join(kinds)}
                    ]
                },
                code="games_referred_to",
            ) from None
        league_services.division_summary_game_moved(game=game, before=game.status, after=None)


@transaction.atomic
def seating_publish(*, plan: SeatingPlan, actor: Actor) -> list[Game]:
    """Create the league games of the match day from the seating, one per full table (a table
    with substitute seats is published once its substitutes are named), and tell their players.
    Publishing again keeps every game whose table is unchanged (same id: the links sent stay
    true), replaces only the tables that changed (the old game's page then says what replaced
    it) and tells only the players of those tables. A game started or with a result is never
    replaced. Returns the match day's games, by table."""
    plan = SeatingPlan.objects.select_for_update().select_related("match_day__division").get(pk=plan.pk)
    match_day = plan.match_day
    _check(actor, plan)
    changes = selectors.seating_changes(plan)
    republish = plan.published_revision is not None
    before = {p for g in changes.gone for s in g.seats.all() for p in [s.player_id]}
    _games_remove(changes.gone)
    when = selectors.match_day_start(match_day)
    Game.objects.filter(pk__in=[g.pk for g in changes.retimed]).update(scheduled_at=when)
    players = {p.pk: p for p in Player.objects.filter(pk__in=[x for t in plan.tables for x in t if x])}
    made = [
        league_services.game_create(
            division=match_day.division,
            match_day=match_day.number,
            table=number,
            players=[players[p] for p in plan.tables[number - 1]],
            scheduled_at=when,
            actor=actor,
        )
        for number in sorted([*changes.replaced, *changes.added])
    ]
    plan.published_revision = plan.revision
    plan.save(update_fields=["published_revision", "updated_at"])
    match_day.status = MatchDay.Status.PUBLISHED
    match_day.save(update_fields=["status"])
    games = list(selectors.published_games(match_day))
    told = [g for g in games if g.table in changes.tables]
    audit_log_write(
        actor=actor,
        action="seating.republish" if republish else "seating.publish",
        obj=plan,
        data={
            "revision": plan.revision,
            "games": [g.pk for g in games],
            "kept": [g.pk for g in changes.kept],
            "replaced": {str(t): g.pk for t, g in changes.replaced.items()},
            "new": [g.pk for g in made],
        },
    )
    seated = {s.player_id for g in games for s in g.seats.all()}
    notices.seating_published(plan=plan, games=told, unseated=sorted(before - seated), actor=actor)
    return games


@transaction.atomic
def substitution_make(*, match_day: MatchDay, player_out: Player, player_in: Player, actor: Actor) -> Substitution:
    """A late withdrawal replaced by a reserve: the seat of the published game changes hands."""
    _check(actor, match_day)
    if not Reserve.objects.filter(season=match_day.season, player=player_in).exists():
        raise ValidationError({"player_in": [gettext("%(player)s is not on the reserve list") % {"player": player_in}]})
    seat = (
        GameSeat.objects.select_related("game")
        .filter(game__division=match_day.division, game__match_day=match_day.number, player=player_out)
        .first()
    )
    if seat is None:
        raise ValidationError(
            {"player_out": [gettext("%(player)s has no seat on this match day") % {"player": player_out}]}
        )
    if GameSeat.objects.filter(
        game__division=match_day.division, game__match_day=match_day.number, player=player_in
    ).exists():
        raise ValidationError(
            {"player_in": [gettext("%(player)s already plays on this match day") % {"player": player_in}]}
        )
    if hasattr(seat.game, "result") or seat.game.status != Game.Status.SCHEDULED:
        raise ValidationError({"player_out": [gettext("the game has already started")]})
    # the substitute plays the seat without an entry of their own: the division's table stays as entered
    seat.player = player_in
    seat.save(update_fields=["player"])
    Attendance.objects.update_or_create(
        match_day=match_day,
        player=player_out,
        defaults={"status": Attendance.Status.WITHDRAWN, "marked_by": acting_user(actor)},
    )
    sub = Substitution.objects.create(
        match_day=match_day,
        game=seat.game,
        seat=seat.seat,
        player_out=player_out,
        player_in=player_in,
        made_by=acting_user(actor),
    )
    audit_log_write(
        actor=actor,
        action="substitution.make",
        obj=sub,
        data={"game": seat.game_id, "seat": seat.seat, "out": player_out.pk, "in": player_in.pk},
    )
    return sub
