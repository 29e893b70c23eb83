"""The director's round clock and the rounds' start times."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.principals import Actor

from .. import clock as clocks
from ..models import Round
from .common import authorize, event_board_bump, fail, round_games


@transaction.atomic
def round_schedule(*, round_: Round, starts_at: dt.datetime, actor: Actor) -> Round:
    """When a round is to start (shown on the event's page, the cards and the calendar of games)."""
    authorize(actor, round_, authz.Need.DIRECTOR)
    event = round_.event
    first = dt.datetime.combine(event.starts_on, dt.time.min, tzinfo=starts_at.tzinfo)
    last = dt.datetime.combine(event.ends_on, dt.time.max, tzinfo=starts_at.tzinfo)
    if not first <= starts_at <= last:
        raise fail("starts_at", _("A round starts within the event's dates."), "outside_event_dates")
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


CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "end")
END_AND_START = "end_and_start"  # the desk's one step: end the round still open, start this one


def round_open_refusal(round_: Round, open_: Round) -> ValidationError:
    """Why ``round_`` cannot start while ``open_`` is open, in words: the open round's tables not
    recorded yet by number, or (all recorded) that it can be ended in the same step."""
    from ..stages import round_tables_unrecorded

    tables = round_tables_unrecorded(open_)
    if tables:
        return fail(
            "action",
            ngettext(
                "Round %(round)s is still open: table %(tables)s has no result yet.",
                "Round %(round)s is still open: tables %(tables)s have no result yet.",
                len(tables),
            ),
            "round_running",
            round=open_.number,
            tables=", ".join(map(str, tables)),
        )
    return fail(
        "action",
        _("Round %(round)s is still open, every table recorded: end it and start round %(next)s in one step."),
        "round_running",
        round=open_.number,
        next=round_.number,
    )


@transaction.atomic
def round_end_and_start(*, round_: Round, actor: Actor, now=None) -> dict:
    """Start ``round_`` while another round is still open, ending that one in the same step: only
    when every table of the open round has its result (else refused, naming the tables by number,
    and nothing changes). With no round open it is a plain start."""
    from ..stages import round_open_other, round_tables_unrecorded

    authorize(actor, round_, authz.Need.DIRECTOR)
    now = now or timezone.now()
    open_ = round_open_other(round_)
    if open_ is not None:
        Round.objects.select_for_update().filter(pk=open_.pk).first()
        if round_tables_unrecorded(open_):
            raise round_open_refusal(round_, open_)
        round_clock_set(round_=open_, action="end", actor=actor, now=now)
    state = round_clock_set(round_=round_, action="start", actor=actor, now=now)
    audit_log_write(
        actor=actor,
        action="event.round_end_and_start",
        obj=round_,
        data={"ended": open_.number if open_ is not None else None, "started": round_.number},
    )
    return state


@transaction.atomic
def round_clock_set(*, round_: Round, action: str, minutes: int = 0, actor: Actor, now=None) -> dict:
    """The director's clock: start, pause, resume, extend by (or shorten by, negative) minutes,
    end. Time runs on the server; every view derives the time left from these moments."""
    authorize(actor, round_, authz.Need.DIRECTOR)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    now = now or timezone.now()
    c = clocks.round_clock(round_)
    state = clocks.clock_state(c, now)["state"]
    if action not in CLOCK_ACTIONS:
        raise fail("action", _("One of: %(actions)s."), "clock_action", actions=", ".join(CLOCK_ACTIONS))
    if action == "start":
        if state != clocks.WAITING:
            raise fail("action", _("This round's clock has already started."), "clock_started")
        if not round_games(round_).exists():
            raise fail("action", _("Seat the round before starting it."), "round_not_seated")
        from .cut import stage_seating_stale

        if stage_seating_stale(round_):
            raise fail(
                "action",
                _("A correction changed who goes through the cut since this stage was seated: seat it again first."),
                "stage_seating_stale",
            )
        from ..stages import round_open_other

        open_ = round_open_other(round_)
        if open_ is not None:
            raise round_open_refusal(round_, open_)
        round_.started_at = now
    elif action == "pause":
        if state not in (clocks.RUNNING, clocks.TIME_UP):
            raise fail("action", _("Only a running clock can be paused."), "clock_not_running")
        round_.paused_at = now
    elif action == "resume":
        if state != clocks.PAUSED:
            raise fail("action", _("Only a paused clock can be resumed."), "clock_not_paused")
        resumed = clocks.clock_resume(c, now)
        round_.paused_at, round_.paused_seconds = None, resumed.paused_seconds
    elif action == "extend":
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 or abs(minutes) > 120:
            raise fail("minutes", _("Minutes to add (or take away): from -120 to 120, not 0."), "minutes_range")
        if state == clocks.ENDED:
            raise fail("action", _("The round has ended."), "clock_ended")
        round_.extra_seconds += minutes * 60
        if clocks.clock_time_up_at(clocks.round_clock(round_), now) is None:
            from .time_up import round_time_up_forget

            round_time_up_forget(round_)  # time is left again: no hand is the last yet
    elif action == "end":
        if state == clocks.ENDED:
            raise fail("action", _("The round has ended."), "clock_ended")
        if state == clocks.WAITING:
            raise fail("action", _("The round has not started."), "clock_waiting")
        if round_.paused_at is not None:  # ending a paused round: the pause counts as paused
            round_.paused_seconds += int((now - round_.paused_at).total_seconds())
            round_.paused_at = None
        round_.ended_at = now
    round_.save()
    if action in ("end", "pause"):  # the moment time ran out is kept, whatever the clock does next
        from .time_up import round_time_up_record

        round_time_up_record(round_=round_, actor=actor, now=now)
    audit_log_write(
        actor=actor,
        action=f"event.clock_{action}",
        obj=round_,
        data={"round": round_.number, "minutes": minutes or None},
    )
    event_board_bump(round_.event_id)
    return clocks.clock_state(clocks.round_clock(round_), now)
