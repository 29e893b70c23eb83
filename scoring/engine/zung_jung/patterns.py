"""Pattern-table registry: editions of the Zung Jung table, looked up by option ``edition``."""

from __future__ import annotations

from typing import Any

from . import patterns_v33

EDITIONS: dict[str, dict[str, Any]] = {
    patterns_v33.EDITION: {"patterns": patterns_v33.PATTERNS, "chicken": patterns_v33.CHICKEN},
}

DEFAULT_EDITION = patterns_v33.EDITION

PATTERNS = patterns_v33.PATTERNS
CHICKEN = patterns_v33.CHICKEN

_BY_ID = {p["id"]: p for p in PATTERNS}


def known_ids(edition: str = DEFAULT_EDITION) -> set[str]:
    return {p["id"] for p in EDITIONS[edition]["patterns"]} | {EDITIONS[edition]["chicken"]["id"]}


_TableKey = tuple[str, tuple[tuple[str, Any], ...]]
_Table = tuple[dict[str, dict[str, Any]], dict[str, Any]]
_TABLE_CACHE: dict[_TableKey, _Table] = {}


def table(options: dict[str, Any]) -> _Table:
    """``(key -> row, chicken row)`` for the options' edition with ``pattern_values`` applied."""
    edition = options.get("edition", DEFAULT_EDITION)
    overrides = options.get("pattern_values") or {}
    cache_key: _TableKey = (edition, tuple(sorted(overrides.items())))
    hit = _TABLE_CACHE.get(cache_key)
    if hit is not None:
        return hit
    ed = EDITIONS[edition]
    rows: dict[str, dict[str, Any]] = {}
    for p in ed["patterns"]:
        row = dict(p)
        if p["id"] in overrides:
            row["value"] = overrides[p["id"]]
        rows[p["key"]] = row
    chicken = dict(ed["chicken"])
    if chicken["id"] in overrides:
        chicken["value"] = overrides[chicken["id"]]
    _TABLE_CACHE[cache_key] = (rows, chicken)
    return rows, chicken
