"""Route a record to its rule system by the ``rules`` field.

``rules`` is a preset name (``"wrc"``) or ``{"preset": name, **overrides}``.
Each rule system is a module with:

* ``SYSTEM``: its id (``"riichi"``, ``"zung-jung"``, ``"beijing"``),
* ``PRESETS``: ``{preset name: full option dict}`` (templates, documented),
* ``resolve(spec: dict) -> dict``: preset + overrides → validated full options
  (unknown options and bad values raise :class:`SettlementError` naming
  ``rules.<option>``),
* ``settle(record: dict, options: dict) -> dict``: one settlement.

Records and rules specs arrive as parsed JSON, not yet checked, hence typed Any where they enter.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import Any

from .errors import SettlementError

ENGINE_VERSION = "1.0"

# system id → module path; imported lazily so one system's import cost is not paid by the others.
SYSTEMS = {
    "riichi": "scoring.engine.riichi",
    "zung-jung": "scoring.engine.zung_jung",
    "beijing": "scoring.engine.beijing",
}


def _module(system: str) -> ModuleType:
    return importlib.import_module(SYSTEMS[system])


@lru_cache(maxsize=None)
def _preset_index() -> dict[str, str]:
    index = {}
    for system in SYSTEMS:
        try:
            mod = _module(system)
        except ImportError:  # a system still being built must not break the others
            continue
        for name in mod.PRESETS:
            index[name] = system
    return index


def presets() -> dict[str, dict[str, Any]]:
    """``{preset name: {"system": ..., "options": {...}}}`` for every rule system."""
    return {
        name: {"system": system, "options": dict(_module(system).PRESETS[name])}
        for name, system in _preset_index().items()
    }


def _split_spec(rules: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(rules, str):
        return rules, {}
    if isinstance(rules, dict):
        if "preset" not in rules:
            raise SettlementError("rules.preset", "missing: name a preset such as 'wrc' or 'zung-jung'")
        overrides = {k: v for k, v in rules.items() if k != "preset"}
        return rules["preset"], overrides
    raise SettlementError("rules", "expected a preset name or an object with 'preset'")


def system_for(rules: Any) -> str:
    """The rule system id a ``rules`` spec belongs to."""
    name, _ = _split_spec(rules)
    try:
        return _preset_index()[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_preset_index()))
        raise SettlementError("rules.preset", f"unknown preset {name!r}; known: {known}") from None


@lru_cache(maxsize=256)
def _resolve_cached(key: str) -> tuple[str, dict[str, Any]]:
    rules = json.loads(key)
    system = system_for(rules)
    return system, _module(system).resolve(rules if isinstance(rules, dict) else {"preset": rules})


def _spec_key(rules: Any) -> str:
    if isinstance(rules, str):
        return json.dumps(rules)
    try:
        return json.dumps(rules, sort_keys=True)
    except (TypeError, ValueError):
        raise SettlementError("rules", "must be JSON data") from None


def resolve_rules(rules: Any) -> tuple[str, dict[str, Any]]:
    """``rules`` spec → ``(system, full validated options)``. Cached: treat the dict as read-only."""
    return _resolve_cached(_spec_key(rules))


@lru_cache(maxsize=1024)
def _settler_by_key(key: str) -> tuple[dict[str, Any], Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]]:
    system, options = _resolve_cached(key)
    return options, _module(system).settle


def _settler(rules: Any) -> tuple[dict[str, Any], Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]]:
    """Hot path of settle(): a rules spec → (options, the system's settle function)."""
    return _settler_by_key(_spec_key(rules))


def settle(record: Any) -> dict[str, Any]:
    """Settle one hand record; raises :class:`SettlementError` on invalid input."""
    if not isinstance(record, dict):
        raise SettlementError("", "a hand record must be a JSON object")
    if "rules" not in record:
        raise SettlementError("rules", 'missing: name the rule set, e.g. "wrc"')
    options, settle_with = _settler(record["rules"])
    return settle_with(record, options)


def game_end(rules: Any, scores: Any, deposits_left: int = 0) -> dict[str, Any]:
    """A finished game's raw scores → league points and places under ``rules``.

    Riichi applies start/return, uma, oka and the tie rule; systems without a
    ``game_end`` of their own (Zung Jung, Beijing) score the net points as they stand,
    so a zero-sum total is required.
    """
    system, options = resolve_rules(rules)
    module = _module(system)
    if hasattr(module, "game_end"):
        result: dict[str, Any] = module.game_end(options, scores, deposits_left)
        return result
    return _net_game_end(scores)


def hands_affected(rules_before: Any, rules_after: Any) -> bool:
    """Whether a change of rules can change any hand's settlement or running scores: False when
    the two differ only in options the system reads at game end (``GAME_END_OPTIONS``, e.g.
    riichi's uma and oka), so stored hands stand and only game results need rescoring."""
    system, before = resolve_rules(rules_before)
    system_after, after = resolve_rules(rules_after)
    if system != system_after:
        return True
    game_end_only: frozenset[str] = getattr(_module(system), "GAME_END_OPTIONS", frozenset())
    return any(before.get(key) != after.get(key) for key in before.keys() | after.keys() if key not in game_end_only)


def _net_game_end(scores: Any) -> dict[str, Any]:
    if not isinstance(scores, (list, tuple)) or len(scores) != 4 or not all(isinstance(s, int) for s in scores):
        raise SettlementError("game_end.scores", "expected four integers, seats 0..3")
    if sum(scores) != 0:
        raise SettlementError("game_end.scores", f"net scores must add up to 0, they add up to {sum(scores)}")
    places = [1 + sum(1 for other in scores if other > s) for s in scores]
    return {"points": [float(s) for s in scores], "places": places}


def settle_many(records: Any) -> list[dict[str, Any]]:
    """Settle a list; an invalid record yields ``{"error": ...}`` in its place."""
    out = []
    for record in records:
        try:
            out.append(settle(record))
        except SettlementError as exc:
            out.append({"error": str(exc)})
    return out
