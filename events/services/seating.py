"""Seating: one plan for the qualifying rounds not yet started, or a round by the standings (the final seats the cut)."""

from __future__ import annotations


from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.principals import Actor
from league import services as league_services
from league.models import Game, Player

from .. import notices, ranking
from ..models import Event, Registration, Round, TableReport
from .common import authorize, event_board_bump, event_division, fail, round_games, round_played
from matchdays import seating
from matchdays import services as matchday_services


def seated_players(event: Event) -> list[int]:
    """Who is seated: confirmed and checked in (substitutes included), in registration order."""
    return list(
        Registration.objects.filter(event=event, status=Registration.Status.CONFIRMED, checked_in=True)
        .order_by("registered_at", "pk")
        .values_list("player_id", flat=True)
    )


def seating_field(event: Event) -> tuple[list[int], list[int]]:
    """(seated, sitting out) for the plan. Where substitutes fill the last table, only as many of
    the substitutes checked in as the players need to make whole tables are seated (the first
    checked in, by registration); the others sit out. Too few substitutes: refused, saying how
    many more are needed."""
    players = seated_players(event)
    if event.leftover != Event.Leftover.SUBSTITUTES:
        return players, []
    subs = set(
        Registration.objects.filter(event=event, substitute=True, player_id__in=players).values_list(
            "player_id", flat=True
        )
    )
    regular = [p for p in players if p not in subs]
    spare = [p for p in players if p in subs]
    needed = -len(regular) % 4
    if len(spare) < needed:
        short = needed - len(spare)
        raise fail(
            "players",
            ngettext(
                "%(n)s checked in: add %(short)s substitute (or seat with byes).",
                "%(n)s checked in: add %(short)s substitutes (or seat with byes).",
                short,
            ),
            "substitutes_needed",
            n=len(players),
            short=short,
        )
    chosen = set(spare[:needed])
    return [p for p in players if p not in subs or p in chosen], spare[needed:]


def history_days(event: Event, before: int) -> list[seating.Day]:
    """The rounds seated before round ``before``, as the generator's history."""
    days: dict[int, dict[int, list]] = {}
    seats = (
        Game.objects.filter(season=event.season, match_day__lt=before)
        .prefetch_related("seats")
        .order_by("match_day", "table")
    )
    for game in seats:
        table: list[int | None] = [None] * 4
        for seat in game.seats.all():
            table[seat.seat] = seat.player_id
        days.setdefault(game.match_day, {})[game.table] = table
    return [seating.Day(tables=[t for _, t in sorted(d.items())]) for _, d in sorted(days.items())]


def substitutes_at_last_tables(event: Event, players: list[int]) -> dict[int, int]:
    """Substitutes fill the last table (the next to last after four, …), so the other tables are
    all players who are ranked: {substitute: table number} for the generator to keep them there."""
    if event.leftover != Event.Leftover.SUBSTITUTES:
        return {}
    subs = set(
        Registration.objects.filter(event=event, substitute=True, player_id__in=players).values_list(
            "player_id", flat=True
        )
    )
    tables = len(players) // 4
    ordered = [p for p in players if p in subs]
    return {p: tables - i // 4 for i, p in enumerate(ordered) if tables - i // 4 >= 1}


@transaction.atomic
def seating_plan(*, event: Event, actor: Actor, seed: int = 0, time_limit: float = 10.0) -> dict:
    """Seat every qualifying round not yet started (except those seated by standings) in one plan
    for the whole event, after the rounds already played: players meet as few others twice as the
    generator can manage, winds balanced over the event. Re-running it after a change of attendance
    re-plans the rounds not yet started."""
    authorize(actor, event, authz.Need.DIRECTOR)
    event = Event.objects.select_for_update().get(pk=event.pk)
    players, sitting_out = seating_field(event)
    if len(players) < 4:
        raise fail("players", _("At least four players must be checked in."), "too_few_players")
    rounds = list(event.round_set.filter(stage=Round.Stage.QUALIFYING).order_by("number"))
    by_plan = [r for r in rounds if r.number <= event.rounds - event.seated_by_standings]
    open_rounds = [r for r in by_plan if not round_played(r)]
    if not open_rounds:
        raise fail("rounds", _("Every round the plan covers has started."), "nothing_to_plan")
    first = open_rounds[0].number
    if any(round_played(r) for r in by_plan if r.number > first):
        raise fail("rounds", _("A later round has already started."), "later_round_started")
    for r in open_rounds:
        _round_unseat(r)
    result = seating.generate(
        players,
        len(open_rounds),
        seed=seed,
        history=history_days(event, first),
        leftover=seating.BYE,
        fixed_table=substitutes_at_last_tables(event, players),
        time_limit=time_limit,
    )
    by_id = Player.objects.in_bulk(players)
    division = event_division(event)
    for r, day in zip(open_rounds, result.days):
        for t, table in enumerate(day.tables, start=1):
            league_services.game_create(
                division=division,
                match_day=r.number,
                table=t,
                players=[by_id[p] for p in table],
                scheduled_at=r.scheduled_at,
                actor=actor,
            )
    audit_log_write(
        actor=actor,
        action="event.seat",
        obj=event,
        data={
            "rounds": [r.number for r in open_rounds],
            "players": len(players),
            "repeats": result.repeats,
            "wind_imbalance": result.wind_imbalance,
        },
    )
    notices.round_seated(event=event, rounds=open_rounds, actor=actor)
    event_board_bump(event.pk)
    return {
        "rounds": [r.number for r in open_rounds],
        "sitting_out": sitting_out,
        "repeats": result.repeats,
        "wind_imbalance": result.wind_imbalance,
        "wind_imbalance_min": result.wind_imbalance_min,
    }


def _round_unseat(round_: Round) -> None:
    """Remove a round's seating (only rounds not started, whose games hold nothing)."""
    games = round_games(round_)
    if games.filter(result__isnull=False).exists() or games.filter(hands__isnull=False).exists():
        raise fail("rounds", _("Round %(n)s already has results."), "round_has_results", n=round_.number)
    TableReport.objects.filter(game__in=games).delete()
    for game in games:
        matchday_services.game_replaced_record(game)  # the table's address was sent: it still answers
        game.seats.all().delete()
        league_services.division_summary_game_moved(game=game, before=game.status, after=None)
        game.delete()


def stage_order(event: Event, round_: Round) -> list[int]:
    """Who a round seated by the standings seats, best first: a qualifying round, every player by
    the qualifying standings; a stage's first round, the players through its cut (a tie there must
    have been decided by the director); a stage's later round, its players by the stage so far."""
    from .. import selectors

    if round_.stage == Round.Stage.QUALIFYING:
        return [r.player for r in selectors.qualifying_standings(event)]
    by_stage = selectors.standings_by_stage(event)
    for i, stage in enumerate(selectors.event_stages(event)):
        if round_.number not in stage.rounds:
            continue
        if round_.number != stage.rounds[0]:
            chosen = set(selectors.stage_seated(event, stage))
            return [r.player for r in by_stage[min(i + 1, len(by_stage) - 1)][1] if r.player in chosen]
        if i >= len(by_stage):
            raise fail("round", _("Seat the stage before this one first."), "stage_before_unseated")
        rows = by_stage[i][1]
        tied, _places = ranking.cut_tie(rows, stage.cut)
        decision = selectors.cut_decision(event, stage.name, tied) if tied else None
        try:
            return ranking.entrants(rows, stage.cut, decision.order if decision else None)
        except ranking.CutUndecided as exc:
            raise fail(
                "cut",
                _(
                    "%(names)s are level at the cut for %(places)s places and no tiebreak separates them: "
                    "record how the tie is decided (a playoff hand, a draw of lots) first."
                ),
                "cut_undecided",
                names=", ".join(selectors.names(exc.tied).values()),
                places=exc.places,
            ) from None
    raise fail("round", _("This round belongs to no stage of the event."), "round_stage_unknown")


@transaction.atomic
def seating_by_standings(*, round_: Round, actor: Actor) -> int:
    """Seat a round by the standings so far: table 1 the top four, table 2 the next four, …;
    within a table the higher-placed player sits East. A stage's first round seats its cut
    (``stage_order``); seating it again after a correction re-makes the cut."""
    authorize(actor, round_, authz.Need.DIRECTOR)
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    round_ = Round.objects.select_related("event").get(pk=round_.pk)  # as stored now, under the event's lock
    if round_played(round_):
        raise fail("round", _("This round has started."), "round_started")
    earlier = Game.objects.filter(season=event.season, match_day__lt=round_.number)
    if earlier.filter(result__isnull=True).exclude(status=Game.Status.VOID).exists():
        raise fail("round", _("Earlier rounds still have tables without a result."), "results_missing")
    order = stage_order(event, round_)
    if round_.stage == Round.Stage.QUALIFYING:
        seated = set(seated_players(event))
        order = [p for p in order if p in seated]
        if event.leftover == Event.Leftover.SUBSTITUTES and len(order) % 4:
            raise fail(
                "players",
                _("Seated players are not a multiple of four."),
                "substitutes_needed",
                n=len(order),
                short=4 - len(order) % 4,
            )
    _round_unseat(round_)
    by_id = Player.objects.in_bulk(order)
    division = event_division(event)
    tables = len(order) // 4
    for t in range(tables):
        league_services.game_create(
            division=division,
            match_day=round_.number,
            table=t + 1,
            players=[by_id[p] for p in order[4 * t : 4 * t + 4]],
            scheduled_at=round_.scheduled_at,
            actor=actor,
        )
    audit_log_write(
        actor=actor, action="event.seat_by_standings", obj=round_, data={"round": round_.number, "tables": tables}
    )
    notices.round_seated(event=event, rounds=[round_], actor=actor)
    event_board_bump(event.pk)
    return tables
