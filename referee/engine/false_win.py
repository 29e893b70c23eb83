"""Is a declared win false (錯和)? Dispatch to the rule system's ``win_check``.

``check_win(rules_spec, declaration) -> {"false": bool, "reasons": [...], "system": str}``.

``rules_spec`` is what a hand record's ``rules`` holds (a preset name or
``{"preset": ..., **overrides}``); it is resolved by :func:`scoring.engine.resolve_rules`, which
raises :class:`scoring.engine.SettlementError` on an unknown preset or a bad option. The
declaration format is in ``docs/engine-interfaces.md``; each reason is
``{"code", "message", "message_zh"}`` (``referee-rules.md`` §4 lists what makes a win false).
Pure Python, no Django.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable
from typing import Any, cast

from scoring.engine import resolve_rules
from scoring.engine.dispatch import SYSTEMS

__all__ = ["check_win", "win_checker"]


WinCheck = Callable[[dict[str, Any], dict[str, Any]], list[dict[str, Any]]]


def win_checker(system: str) -> WinCheck:
    """The ``win_check(declaration, options)`` function of a rule system (imported lazily)."""
    try:
        path = SYSTEMS[system]
    except KeyError:
        raise NotImplementedError(f"no rule system {system!r}; known: {', '.join(sorted(SYSTEMS))}") from None
    module = importlib.import_module(path)
    func = getattr(module, "win_check", None)
    if isinstance(func, types.ModuleType):  # the package did not re-export it, only the submodule is loaded
        func = getattr(func, "win_check", None)
    if func is None:
        try:  # e.g. scoring.engine.riichi.win_check, before the package re-exports it
            func = getattr(importlib.import_module(f"{path}.win_check"), "win_check", None)
        except ImportError:
            func = None
    if not callable(func):
        raise NotImplementedError(
            f"the {system} rule system ({path}) does not provide win_check(declaration, options) yet"
        )
    return cast(WinCheck, func)  # every system's win_check has this signature (docs/engine-interfaces.md)


def check_win(rules_spec: Any, declaration: dict[str, Any]) -> dict[str, Any]:
    """Check a win declaration under ``rules_spec``.

    Returns ``{"false": bool, "reasons": [{"code", "message", "message_zh"}, ...], "system": id}``;
    ``false`` is True when there is at least one reason.
    """
    system, options = resolve_rules(rules_spec)
    reasons = list(win_checker(system)(declaration, options))
    return {"false": bool(reasons), "reasons": reasons, "system": system}
