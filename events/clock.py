"""A round's clock, derived from the moments it changed (pure: no Django).

The server keeps when the round started, when it was paused and for how long, and how much time
the director added; the time left follows, so a reloaded phone and the big screen show the same
figure. When the time is up the round is not over: the table finishes under the event's rule
(the hand in play, or that hand and one more), and the director ends the round."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

WAITING, RUNNING, PAUSED, TIME_UP, ENDED = "waiting", "running", "paused", "time_up", "ended"


@dataclass(frozen=True)
class Clock:
    minutes: int
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused_seconds: int = 0
    extra_seconds: int = 0
    ended_at: datetime | None = None


def clock_allowed_seconds(clock: Clock) -> int:
    """The round's length with the director's extensions (never below zero)."""
    return max(0, clock.minutes * 60 + clock.extra_seconds)


def clock_elapsed(clock: Clock, now: datetime) -> float:
    """Seconds the clock has run: from the start to now (or to the pause, or the end), less the
    time spent paused before."""
    if clock.started_at is None:
        return 0.0
    until = clock.ended_at or clock.paused_at or now
    return max(0.0, (until - clock.started_at).total_seconds() - clock.paused_seconds)


def clock_state(clock: Clock, now: datetime) -> dict[str, int | str]:
    """{state, remaining, allowed, elapsed}: whole seconds, ``remaining`` never negative."""
    allowed = clock_allowed_seconds(clock)
    elapsed = clock_elapsed(clock, now)
    remaining = max(0, int(allowed - elapsed + 0.999))  # a started second still shows
    if clock.ended_at is not None:
        state = ENDED
    elif clock.started_at is None:
        state = WAITING
    elif clock.paused_at is not None:
        state = PAUSED
    elif remaining == 0:
        state = TIME_UP
    else:
        state = RUNNING
    return {"state": state, "remaining": remaining, "allowed": allowed, "elapsed": int(elapsed)}


def clock_time_up_at(clock: Clock, now: datetime) -> datetime | None:
    """The moment the round's time ran out (pauses before it not counted), or None while time is
    left (or when the round ended before its time)."""
    if clock.started_at is None:
        return None
    elapsed = clock_elapsed(clock, now)
    allowed = clock_allowed_seconds(clock)
    if elapsed < allowed:
        return None
    until = clock.ended_at or clock.paused_at or now
    return until - timedelta(seconds=elapsed - allowed)


def clock_pause(clock: Clock, now: datetime) -> Clock:
    if clock.started_at is None or clock.paused_at is not None or clock.ended_at is not None:
        raise ValueError("only a running clock can be paused")
    return Clock(clock.minutes, clock.started_at, now, clock.paused_seconds, clock.extra_seconds, None)


def clock_resume(clock: Clock, now: datetime) -> Clock:
    if clock.paused_at is None or clock.ended_at is not None:
        raise ValueError("only a paused clock can be resumed")
    paused = clock.paused_seconds + int(round((now - clock.paused_at).total_seconds()))
    return Clock(clock.minutes, clock.started_at, None, paused, clock.extra_seconds, None)


def hands_left_after_time(time_rule: str) -> int:
    """Hands still played once time is up, the hand in play included: 1 (finish the hand) or 2
    (that hand and one more)."""
    return 2 if time_rule == "one_more" else 1


def round_clock(round_: Any) -> Clock:  # an events.models.Round, read by its fields (no Django here)
    """A round's clock from the moments stored on it (services and selectors read it alike)."""
    return Clock(
        minutes=round_.minutes,
        started_at=round_.started_at,
        paused_at=round_.paused_at,
        paused_seconds=round_.paused_seconds,
        extra_seconds=round_.extra_seconds,
        ended_at=round_.ended_at,
    )
