"""Which hand is a table's last once its round's time is up (pure: no Django).

When time runs out, the hand in play is stored for each table (``TableTimeUp``): the table then
plays that hand (rule "finish the hand in play") or that hand and one more ("one more"). Where the
event lets the dealer repeat after time, a dealer's win or tenpai on the last hand gives one more
hand, and the referee is told; otherwise a hand past the last is refused.

Hands are numbered as stored (1 = the game's first). A hand is named by its round: the prevailing
wind and the dealer's turn ("South 3"), with the counters (honba) when there are any."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WINDS = ("east", "south", "west", "north")


@dataclass(frozen=True)
class HandFact:
    """What naming and the dealer rule need of a recorded hand."""

    dealer: int | None  # the seat dealing (None: the system keeps no dealer)
    dealer_repeats: bool  # the same dealer deals the next hand


@dataclass(frozen=True)
class Position:
    """A hand's round: prevailing wind (0 East … 3 North), dealer's turn (1–4), counters."""

    wind: int
    turn: int
    honba: int


def hand_fact(system: str, record: dict[str, Any], settlement: dict[str, Any]) -> HandFact:
    dealer = record.get("dealer")
    if system == "riichi":
        return HandFact(dealer=dealer, dealer_repeats=bool(settlement.get("dealer_repeats")))
    if system == "beijing" and dealer is not None:
        return HandFact(dealer=dealer, dealer_repeats=settlement.get("dealer_next") == dealer)
    return HandFact(dealer=dealer if isinstance(dealer, int) else None, dealer_repeats=False)


def position_next(facts: list[HandFact], honba: int = 0) -> Position | None:
    """The round of the hand after ``facts`` (riichi counting: the wind moves on after four
    dealers have passed); None when the hands keep no dealer."""
    if any(f.dealer is None for f in facts):
        return None
    passes = sum(1 for f in facts if not f.dealer_repeats)
    return Position(wind=(passes // 4) % 4, turn=passes % 4 + 1, honba=honba)


@dataclass(frozen=True)
class LastHand:
    """A table's state after time: ``last`` is the last hand's number; ``next_allowed`` whether the
    next hand may be entered; ``extra`` whether that next hand is one the dealer's repeat gives
    (past the last: the referee is told)."""

    hand_in_play: int
    last: int
    recorded: int
    next_allowed: bool
    extra: bool
    naming: str  # "in_play_and_one_more", "last_next", "done", "dealer_repeats"


def last_hand(
    hand_in_play: int, hands_after_time: int, facts: list[HandFact], dealer_repeats_after_time: bool
) -> LastHand:
    """Where a table stands against its last hand, given the hands recorded so far (``facts``)."""
    last = hand_in_play + hands_after_time - 1
    recorded = len(facts)
    if recorded + 1 < last:
        return LastHand(hand_in_play, last, recorded, True, False, "in_play_and_one_more")
    if recorded + 1 == last:
        return LastHand(hand_in_play, last, recorded, True, False, "last_next")
    repeated = bool(facts) and facts[-1].dealer_repeats
    if dealer_repeats_after_time and repeated:
        return LastHand(hand_in_play, last, recorded, True, True, "dealer_repeats")
    return LastHand(hand_in_play, last, recorded, False, False, "done")
