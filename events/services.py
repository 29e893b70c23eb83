"""Tournament writes: each in one transaction, audited, the actor re-checked in the event's league.

The event's games are league games (league.services.game_create / game_result_record), so a
result confirmed by a table updates the standings, ratings and histories as any result does."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from league import services as league_services
from league.models import Division, Entry, Game, Player, RuleSet, Season
from matchdays import seating

from . import clock as clocks
from . import ranking
from .ema import ema_number_check, nationality_check
from .models import Event, Registration, Round, TableReport

EVENT_DIVISION = ("E", "Tournament", "賽事")
MAX_PLAYERS = 400
TABLE_CODE_LENGTH = 6


def _fail(field: str, message: str, code: str, **params) -> ValidationError:
    return ValidationError({field: [ValidationError(message, code=code, params=params or None)]})


def _authorize(actor, obj, need: authz.Need) -> None:
    """Services re-check a signed-in actor in the object's league (a task or command passes None)."""
    if getattr(actor, "is_authenticated", False):
        authz.authorize(actor, obj, need)


def event_board_bump(event_id: int) -> None:
    """Everything a board shows changed: boards revalidating on the version see it at once."""
    Event.objects.filter(pk=event_id).update(board_version=F("board_version") + 1)
    from .selectors import board_version_forget

    # forgotten now and again at the commit: a poll in between caches the old version, not the new
    board_version_forget(event_id)
    transaction.on_commit(lambda: board_version_forget(event_id))


# ---------------------------------------------------------------- the event


@transaction.atomic
def event_create(
    *,
    league,
    name: str,
    slug: str,
    starts_on: dt.date,
    ends_on: dt.date,
    rule_set: RuleSet,
    venue: str = "",
    capacity: int = 40,
    rounds: int = 6,
    round_minutes: int = 90,
    cut: int = 4,
    final_points: str = Event.FinalPoints.CARRY,
    time_rule: str = Event.TimeRule.FINISH_HAND,
    dealer_repeats_after_time: bool = False,
    seated_by_standings: int = 0,
    tiebreaks: list | None = None,
    team_scoring: str = Event.TeamScoring.NONE,
    team_best: int = 3,
    leftover: str = Event.Leftover.SUBSTITUTES,
    round_starts: list | None = None,
    actor=None,
) -> Event:
    """An event with its own season (the games' home) and its rounds; the final round is added
    when the event has a cut."""
    _authorize(actor, league, authz.Need.ADMIN)
    if ends_on < starts_on:
        raise _fail("ends_on", _("The event ends before it starts."), "ends_before_start")
    if (ends_on - starts_on).days > 6:
        raise _fail("ends_on", _("An event lasts at most a week."), "event_too_long")
    if not 1 <= rounds <= 30:
        raise _fail("rounds", _("From 1 to 30 rounds."), "rounds_range")
    if not 10 <= round_minutes <= 300:
        raise _fail("round_minutes", _("From 10 to 300 minutes."), "minutes_range")
    if not 4 <= capacity <= MAX_PLAYERS:
        raise _fail("capacity", _("From 4 to %(max)s places."), "capacity_range", max=MAX_PLAYERS)
    if cut % 4 or cut < 0 or cut > capacity:
        raise _fail("cut", _("The final seats a multiple of four players (0: no final)."), "cut_multiple")
    if seated_by_standings > rounds:
        raise _fail("seated_by_standings", _("No more than the qualifying rounds."), "too_many_rounds")
    try:
        tiebreaks = ranking.tiebreaks_check(list(tiebreaks if tiebreaks is not None else ["firsts", "best_game"]))
    except (ValueError, TypeError):
        raise _fail(
            "tiebreaks",
            _("Tiebreaks: distinct names among %(names)s."),
            "tiebreak_unknown",
            names=", ".join(ranking.TIEBREAKS),
        ) from None
    if Event.objects.filter(league=league, slug=slug).exists():
        raise _fail("slug", _("This league already has an event with this short name."), "slug_taken")
    season = league_services.season_create(
        league=league,
        year=starts_on.year,
        number=(starts_on.month - 1) // 3 + 1,
        rule_set=rule_set,
        starts_on=starts_on,
        ends_on=ends_on,
        divisions=(EVENT_DIVISION,),
        kind=Season.Kind.EVENT,
        rules_name=f"{league.name} · {name}",
        rules_slug=f"{league.slug}-event-{slug}",
        label=name,
        actor=actor,
    )
    league_services.season_status_set(season=season, status=Season.Status.OPEN, actor=actor)
    event = Event.objects.create(
        league=league,
        season=season,
        name=name,
        slug=slug,
        venue=venue,
        starts_on=starts_on,
        ends_on=ends_on,
        capacity=capacity,
        rounds=rounds,
        round_minutes=round_minutes,
        cut=cut,
        final_points=final_points,
        time_rule=time_rule,
        dealer_repeats_after_time=dealer_repeats_after_time,
        seated_by_standings=seated_by_standings,
        tiebreaks=tiebreaks,
        team_scoring=team_scoring,
        team_best=team_best,
        leftover=leftover,
    )
    starts = list(round_starts or [])
    for number in range(1, rounds + 1):
        Round.objects.create(
            event=event,
            number=number,
            minutes=round_minutes,
            scheduled_at=starts[number - 1] if number <= len(starts) else None,
        )
    if cut:
        Round.objects.create(
            event=event,
            number=rounds + 1,
            stage=Round.Stage.FINAL,
            minutes=round_minutes,
            scheduled_at=starts[rounds] if rounds < len(starts) else None,
        )
    audit_log_write(
        actor=actor,
        action="event.create",
        obj=event,
        data={"name": name, "rounds": rounds, "cut": cut, "capacity": capacity},
    )
    return event


def event_division(event: Event) -> Division:
    return event.season.divisions.get(code=EVENT_DIVISION[0])


# ---------------------------------------------------------------- registration and check-in


def _entry_ensure(event: Event, player: Player, actor) -> None:
    division = event_division(event)
    if not Entry.objects.filter(season=event.season, player=player).exists():
        league_services.entry_create(division=division, player=player, actor=actor)


@transaction.atomic
def registration_add(
    *,
    event: Event,
    player: Player,
    team: str = "",
    ema_number: str = "",
    nationality: str = "",
    substitute: bool = False,
    actor=None,
) -> Registration:
    """Register a player: confirmed while places remain, else on the waiting list (in order of
    registration). A substitute fills a seat on the day and is not ranked."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise _fail("event", _("The event is over."), "event_finished")
    own = authz.player_of(actor)
    if getattr(actor, "is_authenticated", False) and (own is None or own.pk != player.pk or substitute):
        authz.authorize(actor, event, authz.Need.ADMIN)  # registering someone else is the director's job
    elif (
        getattr(actor, "is_authenticated", False)
        and event.status != Event.Status.REGISTRATION
        and not authz.is_admin(actor, event.league)
    ):
        raise _fail("event", _("Registration has closed: ask the director."), "registration_closed")
    try:
        ema_number, nationality = ema_number_check(ema_number), nationality_check(nationality)
    except ValueError as exc:
        field, message = str(exc).split(": ", 1)
        raise _fail(field, message, f"{field}_invalid") from None
    if len(team) > 60:
        raise _fail("team", _("At most 60 characters."), "team_too_long")
    existing = Registration.objects.filter(event=event, player=player).first()
    if existing and existing.status != Registration.Status.WITHDRAWN:
        raise _fail("player", _("%(player)s is already registered."), "already_registered", player=str(player))
    confirmed = Registration.objects.filter(event=event, status=Registration.Status.CONFIRMED, substitute=False).count()
    status = Registration.Status.CONFIRMED if substitute or confirmed < event.capacity else Registration.Status.WAITING
    if existing:
        registration = existing
        registration.status, registration.team, registration.substitute = status, team, substitute
        registration.ema_number, registration.nationality = ema_number, nationality
        registration.registered_at = timezone.now()
        registration.save()
    else:
        registration = Registration.objects.create(
            event=event,
            player=player,
            status=status,
            team=team,
            ema_number=ema_number,
            nationality=nationality,
            substitute=substitute,
            checked_in=substitute,
        )
    if status == Registration.Status.CONFIRMED:
        _entry_ensure(event, player, actor)
    audit_log_write(
        actor=actor,
        action="event.register",
        obj=registration,
        data={"player": player.pk, "status": status, "substitute": substitute},
    )
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration, actor=None) -> Registration | None:
    """Withdraw; the first player on the waiting list takes the place (returned)."""
    own = authz.player_of(actor)
    if getattr(actor, "is_authenticated", False) and (own is None or own.pk != registration.player_id):
        authz.authorize(actor, registration, authz.Need.ADMIN)
    event = Event.objects.select_for_update().get(pk=registration.event_id)
    if event.status != Event.Status.REGISTRATION:
        raise _fail("event", _("Registration has closed: ask the director."), "registration_closed")
    was = registration.status
    registration.status, registration.checked_in = Registration.Status.WITHDRAWN, False
    registration.save(update_fields=["status", "checked_in"])
    audit_log_write(actor=actor, action="event.withdraw", obj=registration, data={"from": was})
    if was != Registration.Status.CONFIRMED:
        return None
    waiting = (
        Registration.objects.filter(event=event, status=Registration.Status.WAITING)
        .order_by("registered_at", "pk")
        .first()
    )
    if waiting:
        waiting.status = Registration.Status.CONFIRMED
        waiting.save(update_fields=["status"])
        _entry_ensure(event, waiting.player, None)
        audit_log_write(actor=actor, action="event.promote_waiting", obj=waiting, data={"player": waiting.player_id})
    return waiting


@transaction.atomic
def checkin_set(*, registration: Registration, present: bool, actor=None) -> Registration:
    _authorize(actor, registration, authz.Need.ADMIN)
    if registration.status != Registration.Status.CONFIRMED:
        raise _fail("registration", _("Only a confirmed player checks in."), "not_confirmed")
    registration.checked_in = bool(present)
    registration.save(update_fields=["checked_in"])
    audit_log_write(actor=actor, action="event.checkin", obj=registration, data={"present": bool(present)})
    return registration


# ---------------------------------------------------------------- seating


def seated_players(event: Event) -> list[int]:
    """Who is seated: confirmed and checked in (substitutes included), in registration order."""
    return list(
        Registration.objects.filter(event=event, status=Registration.Status.CONFIRMED, checked_in=True)
        .order_by("registered_at", "pk")
        .values_list("player_id", flat=True)
    )


def round_games(round_: Round):
    return Game.objects.filter(season=round_.event.season, match_day=round_.number)


def _round_played(round_: Round) -> bool:
    return round_.started_at is not None or round_games(round_).filter(result__isnull=False).exists()


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
def seating_plan(*, event: Event, actor=None, seed: int = 0, time_limit: float = 10.0) -> dict:
    """Seat every qualifying round not yet started (except those seated by standings) in one plan
    for the whole event, after the rounds already played: players meet as few others twice as the
    generator can manage, winds balanced over the event. Re-running it after a change of attendance
    re-plans the rounds not yet started."""
    _authorize(actor, event, authz.Need.ADMIN)
    event = Event.objects.select_for_update().get(pk=event.pk)
    players = seated_players(event)
    if len(players) < 4:
        raise _fail("players", _("At least four players must be checked in."), "too_few_players")
    if event.leftover == Event.Leftover.SUBSTITUTES and len(players) % 4:
        short = 4 - len(players) % 4
        raise _fail(
            "players",
            _("%(n)s checked in: add %(short)s substitutes (or seat with byes)."),
            "substitutes_needed",
            n=len(players),
            short=short,
        )
    rounds = list(event.round_set.filter(stage=Round.Stage.QUALIFYING).order_by("number"))
    by_plan = [r for r in rounds if r.number <= event.rounds - event.seated_by_standings]
    open_rounds = [r for r in by_plan if not _round_played(r)]
    if not open_rounds:
        raise _fail("rounds", _("Every round the plan covers has started."), "nothing_to_plan")
    first = open_rounds[0].number
    if any(_round_played(r) for r in by_plan if r.number > first):
        raise _fail("rounds", _("A later round has already started."), "later_round_started")
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
        raise _fail("rounds", _("Round %(n)s already has results."), "round_has_results", n=round_.number)
    TableReport.objects.filter(game__in=games).delete()
    for game in games:
        game.seats.all().delete()
        league_services.division_summary_game_moved(game=game, before=game.status, after=None)
        game.delete()


@transaction.atomic
def seating_by_standings(*, round_: Round, actor=None) -> int:
    """Seat a round by the standings so far: table 1 the top four, table 2 the next four, …;
    within a table the higher-placed player sits East. A final round seats the cut."""
    _authorize(actor, round_, authz.Need.ADMIN)
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    if _round_played(round_):
        raise _fail("round", _("This round has started."), "round_started")
    earlier = Game.objects.filter(season=event.season, match_day__lt=round_.number)
    if earlier.filter(result__isnull=True).exclude(status=Game.Status.VOID).exists():
        raise _fail("round", _("Earlier rounds still have tables without a result."), "results_missing")
    from .selectors import qualifying_standings

    rows = qualifying_standings(event)
    seated = set(seated_players(event))
    order = [r.player for r in rows if r.player in seated]
    if round_.stage == Round.Stage.FINAL:
        order = ranking.finalists(rows, event.cut)
    elif event.leftover == Event.Leftover.SUBSTITUTES and len(order) % 4:
        raise _fail(
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
        )
    audit_log_write(
        actor=actor, action="event.seat_by_standings", obj=round_, data={"round": round_.number, "tables": tables}
    )
    event_board_bump(event.pk)
    return tables


# ---------------------------------------------------------------- the round clock


@transaction.atomic
def round_schedule(*, round_: Round, starts_at: dt.datetime, actor=None) -> Round:
    """When a round is to start (shown on the event's page, the cards and the calendar of games)."""
    _authorize(actor, round_, authz.Need.ADMIN)
    event = round_.event
    first = dt.datetime.combine(event.starts_on, dt.time.min, tzinfo=starts_at.tzinfo)
    last = dt.datetime.combine(event.ends_on, dt.time.max, tzinfo=starts_at.tzinfo)
    if not first <= starts_at <= last:
        raise _fail("starts_at", _("A round starts within the event's dates."), "outside_event_dates")
    round_.scheduled_at = starts_at
    round_.save(update_fields=["scheduled_at"])
    round_games(round_).update(scheduled_at=starts_at)
    audit_log_write(
        actor=actor,
        action="event.round_schedule",
        obj=round_,
        data={"round": round_.number, "starts_at": starts_at.isoformat()},
    )
    event_board_bump(event.pk)
    return round_


def round_clock(round_: Round) -> clocks.Clock:
    return clocks.Clock(
        minutes=round_.minutes,
        started_at=round_.started_at,
        paused_at=round_.paused_at,
        paused_seconds=round_.paused_seconds,
        extra_seconds=round_.extra_seconds,
        ended_at=round_.ended_at,
    )


CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "end")


@transaction.atomic
def round_clock_set(*, round_: Round, action: str, minutes: int = 0, actor=None, now=None) -> dict:
    """The director's clock: start, pause, resume, extend by (or shorten by, negative) minutes,
    end. Time runs on the server; every view derives the time left from these moments."""
    _authorize(actor, round_, authz.Need.ADMIN)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    now = now or timezone.now()
    c = round_clock(round_)
    state = clocks.clock_state(c, now)["state"]
    if action not in CLOCK_ACTIONS:
        raise _fail("action", _("One of: %(actions)s."), "clock_action", actions=", ".join(CLOCK_ACTIONS))
    if action == "start":
        if state != clocks.WAITING:
            raise _fail("action", _("This round's clock has already started."), "clock_started")
        if not round_games(round_).exists():
            raise _fail("action", _("Seat the round before starting it."), "round_not_seated")
        running = Round.objects.filter(event=round_.event_id, started_at__isnull=False, ended_at__isnull=True)
        if running.exclude(pk=round_.pk).exists():
            raise _fail("action", _("Another round is still running: end it first."), "round_running")
        round_.started_at = now
    elif action == "pause":
        if state not in (clocks.RUNNING, clocks.TIME_UP):
            raise _fail("action", _("Only a running clock can be paused."), "clock_not_running")
        round_.paused_at = now
    elif action == "resume":
        if state != clocks.PAUSED:
            raise _fail("action", _("Only a paused clock can be resumed."), "clock_not_paused")
        resumed = clocks.clock_resume(c, now)
        round_.paused_at, round_.paused_seconds = None, resumed.paused_seconds
    elif action == "extend":
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 or abs(minutes) > 120:
            raise _fail("minutes", _("Minutes to add (or take away): from -120 to 120, not 0."), "minutes_range")
        if state == clocks.ENDED:
            raise _fail("action", _("The round has ended."), "clock_ended")
        round_.extra_seconds += minutes * 60
    elif action == "end":
        if state == clocks.ENDED:
            raise _fail("action", _("The round has ended."), "clock_ended")
        if state == clocks.WAITING:
            raise _fail("action", _("The round has not started."), "clock_waiting")
        if round_.paused_at is not None:  # ending a paused round: the pause counts as paused
            round_.paused_seconds += int((now - round_.paused_at).total_seconds())
            round_.paused_at = None
        round_.ended_at = now
    round_.save()
    audit_log_write(
        actor=actor,
        action=f"event.clock_{action}",
        obj=round_,
        data={"round": round_.number, "minutes": minutes or None},
    )
    event_board_bump(round_.event_id)
    return clocks.clock_state(round_clock(round_), now)


# ---------------------------------------------------------------- tables report their own results


def table_code(game: Game) -> str:
    """The code printed on a table's sign: it lets that table's phone enter and confirm the table's
    result without a login. Derived from the site's secret, so nothing is stored and nobody can
    work out another table's code."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"event-table:{game.pk}".encode(), hashlib.sha256).digest()
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off paper
    return "".join(alphabet[b % len(alphabet)] for b in digest[:TABLE_CODE_LENGTH])


def table_code_valid(game: Game, code: str) -> bool:
    return hmac.compare_digest(table_code(game), (code or "").strip().upper())


def seat_of(game: Game, user) -> int | None:
    player = authz.player_of(user)
    if player is None:
        return None
    return game.seats.filter(player=cast(Player, player)).values_list("seat", flat=True).first()


def table_may_act(game: Game, user, code: str = "") -> set[int]:
    """The seats this visitor may act for: all four with the table's code, their own seat when
    logged in and seated; a referee or admin of the league acts as the desk, not a seat."""
    if code and table_code_valid(game, code):
        return {0, 1, 2, 3}
    seat = seat_of(game, user)
    return {seat} if seat is not None else set()


def _event_of(game: Game) -> Event:
    try:
        return game.season.event
    except Event.DoesNotExist:
        raise _fail("game", _("This game is not part of an event."), "not_event_game") from None


def _round_of(game: Game) -> Round:
    return Round.objects.get(event=_event_of(game), number=game.match_day)


def _game_open(game: Game) -> None:
    if game.status == Game.Status.VOID:
        raise _fail("game", _("This game is void."), "game_void")
    if _event_of(game).status == Event.Status.FINISHED:
        raise _fail("game", _("The event is over."), "event_finished")


@transaction.atomic
def table_report_submit(
    *, game: Game, scores, deposits_left: int = 0, seat: int, actor=None, code: str = ""
) -> TableReport:
    """A seated player (or the table's phone with its code) reports the final scores; the other
    three seats confirm. A new report replaces one not yet confirmed."""
    game = Game.objects.select_for_update().select_related("season").get(pk=game.pk)
    _game_open(game)
    if seat not in table_may_act(game, actor, code):
        raise _fail(
            "seat", _("Only a player at this table (or its phone, with the table's code) may report."), "not_at_table"
        )
    if hasattr(game, "result"):
        raise _fail(
            "scores", _("This table's result is already recorded: ask a referee to correct it."), "result_recorded"
        )
    scores = _scores_check(game, scores, deposits_left)
    report = TableReport.objects.filter(game=game).first()
    if report and report.status == TableReport.Status.CONFIRMED:
        raise _fail("scores", _("This table's result is already confirmed."), "already_confirmed")
    report = report or TableReport(game=game)
    report.scores, report.deposits_left, report.status = scores, deposits_left, TableReport.Status.PENDING
    report.confirmed_seats, report.disputed_seat, report.dispute_note = [seat], None, ""
    report.reported_by = authz.acting_user(actor)
    report.save()
    audit_log_write(
        actor=actor,
        action="event.table_report",
        obj=report,
        data={"scores": scores, "deposits_left": deposits_left, "seat": seat},
    )
    event_board_bump(_event_of(game).pk)
    return report


def _scores_check(game: Game, scores, deposits_left) -> list[int]:
    return league_services.game_scores_check(game=game, scores=scores, deposits_left=deposits_left)


@transaction.atomic
def table_report_confirm(*, report: TableReport, seat: int, actor=None, code: str = "") -> TableReport:
    """A seat agrees with the report; when all four agree the result is recorded."""
    report = TableReport.objects.select_for_update().select_related("game__season").get(pk=report.pk)
    game = report.game
    _game_open(game)
    if seat not in table_may_act(game, actor, code):
        raise _fail("seat", _("Only a player at this table may confirm."), "not_at_table")
    if report.status != TableReport.Status.PENDING:
        raise _fail("report", _("This report is not waiting for confirmation."), "not_pending")
    if seat not in report.confirmed_seats:
        report.confirmed_seats = sorted({*report.confirmed_seats, seat})
    audit_log_write(actor=actor, action="event.table_confirm", obj=report, data={"seat": seat})
    if len(report.confirmed_seats) == 4:
        report.status = TableReport.Status.CONFIRMED
        # the table's own agreement stands for the director's entry: recorded as the system
        league_services.game_result_record(
            game=game, scores=report.scores, deposits_left=report.deposits_left, actor=None
        )
    report.save()
    if report.status == TableReport.Status.CONFIRMED:
        # a seat's agreement changes nothing a board shows until the last one records the result
        event_board_bump(_event_of(game).pk)
    return report


@transaction.atomic
def table_report_dispute(*, report: TableReport, seat: int, note: str = "", actor=None, code: str = "") -> TableReport:
    """A seat disagrees: the report waits for a referee (it shows on the referee desk)."""
    report = TableReport.objects.select_for_update().select_related("game__season").get(pk=report.pk)
    _game_open(report.game)
    if seat not in table_may_act(report.game, actor, code):
        raise _fail("seat", _("Only a player at this table may dispute."), "not_at_table")
    if report.status == TableReport.Status.CONFIRMED:
        raise _fail("report", _("This result is confirmed: ask a referee to correct it."), "already_confirmed")
    if len(note or "") > 2000:
        raise _fail("note", _("At most 2,000 characters."), "note_too_long")
    report.status, report.disputed_seat, report.dispute_note = TableReport.Status.DISPUTED, seat, note or ""
    report.save()
    audit_log_write(actor=actor, action="event.table_dispute", obj=report, data={"seat": seat, "note": note})
    event_board_bump(_event_of(report.game).pk)
    return report


@transaction.atomic
def table_result_enter(*, game: Game, scores, deposits_left: int = 0, actor=None) -> TableReport:
    """A director or referee enters (or corrects) a table's result: it is recorded at once and
    settles any report or dispute at that table."""
    _authorize(actor, game, authz.Need.REFEREE)
    game = Game.objects.select_for_update().select_related("season").get(pk=game.pk)
    _game_open(game)
    scores = _scores_check(game, scores, deposits_left)
    league_services.game_result_record(game=game, scores=scores, deposits_left=deposits_left, actor=None, replace=True)
    report = TableReport.objects.filter(game=game).first() or TableReport(game=game)
    report.scores, report.deposits_left, report.status = scores, deposits_left, TableReport.Status.CONFIRMED
    report.confirmed_seats, report.reported_by = [0, 1, 2, 3], authz.acting_user(actor)
    report.save()
    audit_log_write(
        actor=actor, action="event.table_result", obj=report, data={"scores": scores, "deposits_left": deposits_left}
    )
    event_board_bump(_event_of(game).pk)
    return report


# ---------------------------------------------------------------- the end


@transaction.atomic
def event_status_set(*, event: Event, status: str, actor=None) -> Event:
    """Registration → running (check-in closes registration) → finished (the results stand: the
    event's season closes, so no result changes any more)."""
    _authorize(actor, event, authz.Need.ADMIN)
    event = Event.objects.select_for_update().get(pk=event.pk)
    order: list[str] = [Event.Status.REGISTRATION, Event.Status.RUNNING, Event.Status.FINISHED]
    if status not in order or order.index(status) != order.index(event.status) + 1:
        raise _fail("status", _("An event goes from registration to running to finished."), "status_order")
    if status == Event.Status.FINISHED:
        pending = Game.objects.filter(season=event.season, result__isnull=True).exclude(status=Game.Status.VOID)
        if pending.exists():
            raise _fail("status", _("%(n)s tables have no result yet."), "results_missing", n=pending.count())
        league_services.season_status_set(season=event.season, status=Season.Status.CLOSED, actor=actor)
    was = event.status
    event.status = status
    event.save(update_fields=["status"])
    audit_log_write(actor=actor, action="event.status", obj=event, data={"from": was, "to": status})
    event_board_bump(event.pk)
    return event


# ---------------------------------------------------------------- tables keep their own hands


def _table_check(game: Game, actor, code: str) -> None:
    if not table_may_act(game, actor, code):  # as for a report: the table's own rule, named by its field
        raise _fail(
            "seat", _("Only a player at this table (or its phone, with the table's code) may do this."), "not_at_table"
        )
    _game_open(game)
    if TableReport.objects.filter(game=game, status=TableReport.Status.CONFIRMED).exists():
        raise _fail("game", _("This table's result is already confirmed."), "already_confirmed")


def table_hand_add(*, game: Game, record, sequence: int | None, actor=None, code: str = ""):
    """A player at the table (or the table's phone) enters the next hand, as the scorekeeper does."""
    from scoring import services as scoring

    _table_check(game, actor, code)
    return scoring.hand_record_add(game=game, record=record, actor=actor, sequence=sequence)


def table_hand_correct(*, game: Game, sequence: int, record, actor=None, code: str = ""):
    from scoring import services as scoring
    from scoring.models import HandRecord

    _table_check(game, actor, code)
    hand = HandRecord.objects.filter(game=game, sequence=sequence).first()
    if hand is None:
        raise _fail("sequence", _("No hand %(n)s at this table."), "no_such_hand", n=sequence)
    return scoring.hand_record_correct(hand=hand, record=record, actor=actor)


def table_hand_preview(*, game: Game, record, sequence: int | None, actor=None, code: str = "") -> dict:
    from scoring import services as scoring

    _table_check(game, actor, code)
    return scoring.hand_preview(game=game, record=record, sequence=sequence)


@transaction.atomic
def table_hands_finish(*, game: Game, actor=None, code: str = "") -> TableReport:
    """The table ends its game at the last hand entered: the final scores the hands give become the
    table's report, which the other seats confirm (the reporting seat is the player's own, or East
    for the table's phone)."""
    from scoring import services as scoring
    from scoring.models import HandRecord

    _table_check(game, actor, code)
    hands = list(HandRecord.objects.filter(game=game).order_by("sequence"))
    if not hands:
        raise _fail("hands", _("No hand has been entered at this table."), "no_hands")
    scores, deposits_left = scoring.final_scores(scoring.Rules(game.season.rule_set), hands)
    seat = seat_of(game, actor)
    return table_report_submit(
        game=game,
        scores=scores,
        deposits_left=deposits_left,
        seat=seat if seat is not None else 0,
        actor=actor,
        code=code,
    )
