"""The gate every hand record passes before it is settled or stored: storable JSON (no NUL,
no lone surrogate, bounded depth and size), no unknown keys at the record's and the result's
level, and every count within its real range (a han of 10**15 would make the engine compute
2**(10**15); a yakuman of 1e9 is a typing error, not a hand).

Keys below the result (a winner's evaluated hand, melds, tiles) are checked for storability
and ranges; their meaning is the engine's to check."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from kyoku.safe_json import UnsafeJSON, check
from scoring.engine.beijing import record_keys as beijing_keys
from scoring.engine.riichi import record_keys as riichi_keys
from scoring.engine.zung_jung import record_keys as zung_jung_keys

# Every key a record may carry at its top level and in ``result``: what the three engines declare
# (``scoring/engine/<system>/record_keys.py``), so the gate never drifts from the engines.
RECORD_KEYS = riichi_keys.RECORD_KEYS | zung_jung_keys.RECORD_KEYS | beijing_keys.RECORD_KEYS
RESULT_KEYS = riichi_keys.RESULT_KEYS | zung_jung_keys.RESULT_KEYS | beijing_keys.RESULT_KEYS
# Real ranges of the counts a person types (inclusive).
RANGES = {
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
MAX_RECORD_NODES = 2_000


def record_gate(record) -> None:
    if not isinstance(record, dict):
        raise ValidationError({"record": ["a hand record must be a JSON object"]})
    try:
        check(record, "record", max_depth=12, max_nodes=MAX_RECORD_NODES, max_string=200)
    except UnsafeJSON as exc:
        raise ValidationError({exc.path.removeprefix("record.") or "record": [exc.message]}) from None
    _unknown(record, RECORD_KEYS, "")
    result = record.get("result")
    if isinstance(result, dict):
        _unknown(result, RESULT_KEYS, "result.")
    _ranges(record, "")


def _unknown(obj: dict, allowed: frozenset, prefix: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise ValidationError({f"{prefix}{unknown[0]}": ["unknown field"]})


def _ranges(value, path: str) -> None:
    """Walk dicts and lists; every key named in RANGES that holds an integer must be in range."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, sub in item.items():
                here = f"{where}.{key}" if where else key
                bounds = RANGES.get(key)
                if bounds and isinstance(sub, int) and not isinstance(sub, bool):
                    low, high = bounds
                    if not low <= sub <= high:
                        raise ValidationError({here: [f"must be from {low} to {high}"]})
                elif bounds and isinstance(sub, float):
                    raise ValidationError({here: ["must be a whole number"]})
                stack.append((sub, here))
        elif isinstance(item, list):
            stack.extend((sub, f"{where}[{i}]") for i, sub in enumerate(item))
