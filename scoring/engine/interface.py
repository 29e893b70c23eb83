"""A rule system's hand record, declared once: every key the engine reads, level by level, what
it means and an example value. The engine refuses a key it does not declare (a coded
:class:`SettlementError` naming it) and a count outside its real range; the app's record gate
(``scoring/record_gate.py``) is this same check plus the storage bounds it adds, so the two can
never drift (docs/engine-interfaces.md lists every key). :func:`check_ranges` is the storage
bound the gate adds on counts (the engine itself says a seat of 7 is no seat, in its own words).

Levels: ``record`` (the hand record itself), ``result`` (``record["result"]``) and, where a
system has several winners, ``winner`` (each ``result.winners[i]``, and riichi's
``result.winner`` when it is an object). Below these levels (a winner's tiles, melds, claims)
the meaning is the engine's to check; ranges are checked at every depth.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import SettlementError

# Real ranges of the counts a person types (inclusive), wherever a key of this name holds an
# integer: a han of 10**15 would make the engine compute 2**(10**15); a yakuman of 1e9 is a
# typing error, not a hand.
RANGES: dict[str, tuple[int, int]] = {
    "han": (0, 99),
    "fu": (0, 200),
    "yakuman": (0, 10),
    "honba": (0, 99),
    "deposits": (0, 99),
    "dealer": (0, 3),
    "seat": (0, 3),
    "from": (0, 3),
    "winner": (0, 3),
    "pao": (0, 3),
    "dealer_streak": (0, 99),
    "value": (0, 100_000),
}


@dataclass(frozen=True)
class Key:
    """One key of a record: what it means (``doc``, where it goes) and example values (the first
    is the one the docs show; the property test draws from all of them)."""

    doc: str
    examples: tuple[Any, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Interface:
    system: str
    levels: Mapping[str, Mapping[str, Key]]

    def keys(self, level: str) -> frozenset[str]:
        return frozenset(self.levels.get(level, {}))

    def check(self, record: Any) -> None:
        """Refuse an undeclared key at a declared level (the engine's own words say what is wrong
        with a declared key's value; :func:`check_ranges` is the app's storage bound on counts)."""
        if not isinstance(record, dict):
            return  # the engine says what a record must be
        _unknown(record, self.levels["record"], "")
        result = record.get("result")
        if isinstance(result, dict):
            _unknown(result, self.levels["result"], "result.")
            winner_keys = self.levels.get("winner")
            if winner_keys is not None:
                winners = result.get("winners")
                if isinstance(winners, list):
                    for i, w in enumerate(winners):
                        if isinstance(w, dict):
                            _unknown(w, winner_keys, f"result.winners[{i}].")
                single = result.get("winner")
                if isinstance(single, dict):
                    _unknown(single, winner_keys, "result.winner.")


def _unknown(obj: dict[str, Any], allowed: Mapping[str, Key], prefix: str) -> None:
    for key in obj:
        if key not in allowed:
            unknown = sorted(str(k) for k in obj if k not in allowed)[0]
            raise SettlementError(f"{prefix}{unknown}", "unknown field", "unknown_field", {"key": unknown})


def check_ranges(value: Any, path: str = "") -> None:
    """Walk dicts and lists; every key named in RANGES that holds an integer must be in range."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, sub in item.items():
                here = f"{where}.{key}" if where else str(key)
                bounds = RANGES.get(key)
                if bounds and isinstance(sub, int) and not isinstance(sub, bool):
                    low, high = bounds
                    if not low <= sub <= high:
                        raise SettlementError(
                            here, f"must be from {low} to {high}", "out_of_range", {"low": low, "high": high}
                        )
                elif bounds and isinstance(sub, float):
                    raise SettlementError(here, "must be a whole number", "not_whole")
                if isinstance(sub, (dict, list)):
                    stack.append((sub, here))
        elif isinstance(item, list):
            stack.extend((sub, f"{where}[{i}]") for i, sub in enumerate(item) if isinstance(sub, (dict, list)))
