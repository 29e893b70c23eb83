"""When a round's time runs out: each table's hand in play is stored once (events.last_hand says
which hand is then the last), by the first of the clock's sweep, a page or a hand that sees the
time is up; a hand past the last is refused, or allowed and told to the referee where the event
lets the dealer repeat after time."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from kyoku.audit import audit_log_write
from kyoku.principals import Actor, System
from league.models import Game

from .. import clock as clocks
from .. import last_hand as lh
from ..models import Event, Round, TableReport, TableTimeUp
from .common import event_board_bump, fail, round_games


def round_time_up_record(*, round_: Round, actor: Actor, now=None) -> int:
    """Store the hand in play at every table of ``round_`` still playing when its time ran out,
    or when the director ended it before its time (once per table; the hands recorded until now
    were finished before). Returns how many tables were stored now. While time is left it reads
    nothing (pages call it on every view)."""
    now = now or timezone.now()
    moment = clocks.clock_time_up_at(clocks.round_clock(round_), now)
    if moment is None and round_.ended_at is not None:
        moment = round_.ended_at  # the director ended the round early: the hand in play is the last, as at time-up
    if moment is None:
        return 0
    with transaction.atomic():
        return _tables_time_up_store(round_, moment, actor)


def _tables_time_up_store(round_: Round, moment, actor: Actor) -> int:
    games = (
        round_games(round_)
        .filter(result__isnull=True, time_up__isnull=True)
        .exclude(status=Game.Status.VOID)
        .annotate(n=Count("hands"))
        .values_list("pk", "table", "n")
    )
    after = clocks.hands_left_after_time(round_.event.time_rule)
    rows = [
        TableTimeUp(game_id=pk, round=round_, at=moment, hand_in_play=n + 1, hands_after_time=after)
        for pk, _table, n in games
    ]
    if not rows:
        return 0
    TableTimeUp.objects.bulk_create(rows, ignore_conflicts=True)  # a second sweep at once stores nothing twice
    from .. import notices

    reported = set(
        TableReport.objects.filter(game_id__in=[pk for pk, _t, _n in games]).values_list("game_id", flat=True)
    )
    playing = {pk: n + 1 for pk, _t, n in games if pk not in reported}  # a table that reported has finished
    notices.time_up(round_=round_, hands=playing, hands_after_time=after, actor=actor)
    audit_log_write(
        actor=actor,
        action="event.time_up",
        obj=round_,
        data={
            "round": round_.number,
            "at": moment.isoformat(),
            "tables": {str(table): n + 1 for _pk, table, n in games},
            "hands_after_time": after,
        },
    )
    event_board_bump(round_.event_id)
    return len(rows)


def round_time_up_forget(round_: Round) -> None:
    """Time was added after it ran out: the round plays on, so no hand is the last yet."""
    TableTimeUp.objects.filter(round=round_).delete()


def game_round(game: Game) -> Round | None:
    return Round.objects.filter(event__season_id=game.season_id, number=game.match_day).select_related("event").first()


def hand_past_last_check(*, game: Game, sequence: int | None, actor: Actor) -> bool:
    """Before a table's hand is stored: store the time-up first if the time has run out, then refuse
    a new hand past the last. Returns True when the hand is one the dealer's repeat after time
    gives (allowed; the referee's desk lists it). A correction of an earlier hand is always allowed."""
    from scoring.models import HandRecord
    from scoring.engine import resolve_rules

    round_ = game_round(game)
    if round_ is None:
        return False
    round_time_up_record(round_=round_, actor=System(f"clock: round {round_.pk}"))  # the clock's fact, not the table's
    time_up = TableTimeUp.objects.filter(game=game).first()
    if time_up is None:
        return False
    hands = list(HandRecord.objects.filter(game=game).order_by("sequence").values_list("record", "settlement"))
    if sequence is not None and sequence <= len(hands):
        return False
    system, _options = resolve_rules(game.season.rule_set.spec)
    state = lh.last_hand(
        time_up.hand_in_play,
        time_up.hands_after_time,
        [lh.hand_fact(system, r, s) for r, s in hands],
        Event.objects.filter(season_id=game.season_id).values_list("dealer_repeats_after_time", flat=True).first()
        or False,
    )
    if not state.next_allowed:
        raise fail(
            "sequence",
            _("Time is up and the table's last hand (hand %(n)s) has been played: finish the game."),
            "past_last_hand",
            n=state.last,
        )
    return state.extra
