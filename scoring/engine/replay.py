"""A game's hands in play order (pure: no Django, no database).

The engine state of a hand (riichi: dealer, honba, deposits; Beijing: dealer, dealer streak,
whether the previous hand was a draw) follows from the previous hand's settlement, so a stored
hand keeps it only as a derived copy and it is never retyped. Replaying a game re-derives that
state, each settlement and the running scores, hand after hand.

Two entry points: :func:`hands_replay` (dicts in and out, one game at a time) and
:func:`games_resettle` (whole games as stored JSON text in, only what changed out, encoded and
ready to write back: the bulk path behind re-settling a season).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from importlib import import_module
from itertools import groupby
from operator import itemgetter
from typing import Any

import orjson
import xxhash

from .dispatch import SYSTEMS
from .errors import SettlementError

# a stored hand row: (hand id, game id, record JSON, ends the game, stored digest or None)
Row = tuple[int, int, str | bytes, bool, int | None]
# a changed hand: (hand id, record JSON or None, settlement JSON, scores JSON, digest)
Changed = tuple[int, bytes | None, bytes, bytes, int]
# a penalty: (hand number, seat, points, why)
Penalty = tuple[int, int, int, str]
# a finished game: (final scores, riichi sticks left, penalties)
Final = tuple[list[int], int, list[Penalty]]

STATE_KEYS = {
    "riichi": ("dealer", "honba", "deposits"),
    "beijing": ("dealer", "dealer_streak", "after_draw"),
    "zung-jung": (),
}


def state_first(system: str) -> dict[str, Any]:
    """The engine state of a game's first hand (seat 0 deals)."""
    if system == "riichi":
        return {"dealer": 0, "honba": 0, "deposits": 0}
    if system == "beijing":
        return {"dealer": 0, "dealer_streak": 1, "after_draw": False}
    return {}


def state_next(system: str, record: dict[str, Any], settlement: dict[str, Any]) -> dict[str, Any]:
    """The engine state of the hand after ``record`` (settled as ``settlement``)."""
    if system == "riichi":
        dealer = record["dealer"] if settlement["dealer_repeats"] else (record["dealer"] + 1) % 4
        return {"dealer": dealer, "honba": settlement["honba_next"], "deposits": settlement["deposits_after"]}
    if system == "beijing":
        return {
            "dealer": settlement["dealer_next"],
            "dealer_streak": settlement["dealer_streak_next"],
            "after_draw": settlement.get("result") == "draw",
        }
    return {}


def scores_start(system: str, options: dict[str, Any]) -> list[int]:
    return [options["start_points"]] * 4 if system == "riichi" else [0, 0, 0, 0]


def deposits_left_of(system: str, settlement: dict[str, Any]) -> int:
    """Riichi sticks still on the table after a hand (they go to the game-end rule)."""
    return settlement.get("deposits_after", 0) if system == "riichi" else 0


def hands_replay(
    system: str,
    options: dict[str, Any],
    records: Iterable[dict[str, Any]],
    state: dict[str, Any] | None = None,
    scores: list[int] | None = None,
) -> Iterator[tuple[dict[str, Any], dict[str, Any], list[int]]]:
    """Yield ``(record with its state, settlement, scores after)`` for each record in order.

    ``state`` and ``scores`` are those before the first record (default: a game's start). A
    record is never changed in place. A :class:`SettlementError` carries ``index``, the position
    of the record that failed.
    """
    settle = import_module(SYSTEMS[system]).settle
    state = state_first(system) if state is None else state
    scores = scores_start(system, options) if scores is None else scores
    for index, record in enumerate(records):
        record = record if state.items() <= record.items() else {**record, **state}
        try:
            settlement = settle(record, options)
        except SettlementError as exc:
            exc.index = index
            raise
        d = settlement["deltas"]
        scores = [scores[0] + d[0], scores[1] + d[1], scores[2] + d[2], scores[3] + d[3]]
        yield record, settlement, scores
        state = state_next(system, record, settlement)


# ---------------------------------------------------------------- the bulk path (stored JSON text)


def encode(value: Any) -> bytes:
    """Compact JSON as stored (key order kept, UTF-8)."""
    return orjson.dumps(value)


_SIGNED = 1 << 63


def derived_digest(settlement_json: bytes, scores_json: bytes) -> int:
    """A 64-bit fingerprint (XXH3, shifted into a signed BIGINT) of a hand's derived data as
    stored; a re-settle compares it instead of reading the stored settlement back. Not
    cryptographic: it only has to notice the engine's own output changing."""
    return xxhash.xxh3_64_intdigest(settlement_json + b"\n" + scores_json) - _SIGNED


def games_resettle(
    system: str,
    options: dict[str, Any],
    rows: Iterable[Row],
) -> tuple[list[Changed], dict[int, Final], int]:
    """Re-settle whole games given as stored rows, in play order:
    ``(hand id, game id, record JSON, ends game, stored digest or None)``.

    Returns ``(changed, finals, hands)``: ``changed`` lists ``(hand id, record JSON or None if its
    state is unchanged, settlement JSON, scores JSON, digest)`` for the hands whose stored derived
    data differ from the new ones; ``finals`` maps each game whose last row ends it to ``(final
    scores, riichi sticks left, penalties)``, penalties being ``(hand number, seat, points, why)``
    of the hands' point deductions (riichi chombo), hand numbers counted from 1 in play order;
    ``hands`` counts the rows. A :class:`SettlementError` carries ``hand_id``.
    """
    loads, dumps, digest_of = orjson.loads, orjson.dumps, derived_digest
    changed: list[Changed] = []
    finals: dict[int, Final] = {}
    hands = 0
    for game_id, group in groupby(rows, key=itemgetter(1)):
        game_rows = list(group)
        hands += len(game_rows)
        records = [loads(row[2]) for row in game_rows]
        replay = hands_replay(system, options, records)
        penalties: list[Penalty] = []
        try:
            for number, ((hand_id, _, _, ends_game, stored), stored_record, (record, settlement, scores)) in enumerate(
                zip(game_rows, records, replay), 1
            ):
                settlement_json, scores_json = dumps(settlement), dumps(scores)
                digest = digest_of(settlement_json, scores_json)
                stale = record is not stored_record  # the replay filled in a different state
                if stale or digest != stored:
                    changed.append((hand_id, dumps(record) if stale else None, settlement_json, scores_json, digest))
                for p in settlement.get("penalties", ()):
                    penalties.append((number, p["seat"], p["points"], p.get("why", "")))
                if ends_game:
                    finals[game_id] = (scores, deposits_left_of(system, settlement), penalties)
        except SettlementError as exc:
            exc.hand_id = game_rows[exc.index or 0][0]
            raise
    return changed, finals, hands
