"""Seating: one plan for the qualifying rounds not yet started, or a round by the standings (the final seats the cut)."""

from __future__ import annotations


from django.db import transaction
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.principals import Actor
from league import services as league_services
from league.models import Game, Player

from .. import notices, ranking
from ..models import Event, Registration, Round, TableReport
from .common import authorize, event_board_bump, event_division, fail, round_games, round_played
from matchdays import seating


def seated_players(event: Event) -> list[int]:
    """Who is seated: confirmed and checked in (substitutes included), in registration order."""
    return list(
        Registration.objects.filter(event=event, status=Registration.Status.CONFIRMED, checked_in=True)
        .order_by("registered_at", "pk")
        .values_list("player_id", flat=True)
    )


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


@transaction.atomic
def seating_plan(*, event: Event, actor: Actor, seed: int = 0, time_limit: float = 10.0) -> dict:
    """Seat every qualifying round not yet started (except those seated by standings) in one plan
    for the whole event, after the rounds already played: players meet as few others twice as the
    generator can manage, winds balanced over the event. Re-running it after a change of attendance
    re-plans the rounds not yet started."""
    authorize(actor, event, authz.Need.ADMIN)
    event = Event.objects.select_for_update().get(pk=event.pk)
    players = seated_players(event)
    if len(players) < 4:
        raise fail("players", _("At least four players must be checked in."), "too_few_players")
    if event.leftover == Event.Leftover.SUBSTITUTES and len(players) % 4:
        short = 4 - len(players) % 4
        raise fail(
            "players",
            _("%(n)s checked in: add %(short)s substitutes (or seat with byes)."),
            "substitutes_needed",
            n=len(players),
            short=short,
        )
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
        game.seats.all().delete()
        league_services.division_summary_game_moved(game=game, before=game.status, after=None)
        game.delete()


@transaction.atomic
def seating_by_standings(*, round_: Round, actor: Actor) -> int:
    """Seat a round by the standings so far: table 1 the top four, table 2 the next four, …;
    within a table the higher-placed player sits East. A final round seats the cut."""
    authorize(actor, round_, authz.Need.ADMIN)
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    if round_played(round_):
        raise fail("round", _("This round has started."), "round_started")
    earlier = Game.objects.filter(season=event.season, match_day__lt=round_.number)
    if earlier.filter(result__isnull=True).exclude(status=Game.Status.VOID).exists():
        raise fail("round", _("Earlier rounds still have tables without a result."), "results_missing")
    from ..selectors import qualifying_standings

    rows = qualifying_standings(event)
    seated = set(seated_players(event))
    order = [r.player for r in rows if r.player in seated]
    if round_.stage == Round.Stage.FINAL:
        order = ranking.finalists(rows, event.cut)
    elif event.leftover == Event.Leftover.SUBSTITUTES and len(order) % 4:
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
