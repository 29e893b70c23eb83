"""Riichi (Japanese) mahjong settlement: presets, hand settlement and game end.

Pure Python (no Django).  Public interface (``docs/engine-interfaces.md``):

* ``SYSTEM`` = ``"riichi"``
* ``PRESETS`` - ``wrc``, ``ema``, ``mleague``, ``tenhou``, ``mahjongsoul``, ``jpml`` (see ``presets.py`` for
  the sources of every value), ``OPTION_DOCS``, ``resolve(spec)``; ``GAME_END_OPTIONS``, the
  options no hand's settlement reads
* ``settle(record, options)`` - one hand (``shared/spec/settlement-contract.md``)
* ``game_end(options, scores, deposits_left=0)`` - raw scores → league points
* ``evaluate_hand`` / ``win_check`` - tile level, from ``hand.py`` / ``win_check.py``
  (another engineer's modules), imported on first call.

    >>> from scoring.engine.riichi import resolve, settle
    >>> settle({"dealer": 0, "result": {"type": "ron", "from": 2,
    ...         "winners": [{"seat": 1, "han": 1, "fu": 30}]}}, resolve({"preset": "wrc"}))["deltas"]
    [0, 1000, -1000, 0]
"""

from typing import Any

from .game_end import game_end
from .presets import (
    DEFAULT_OPTION_SOURCE,
    GAME_END_OPTIONS,
    OPTION_DOCS,
    OPTION_SOURCES,
    PRESET_SOURCES,
    PRESETS,
    resolve,
)
from .settle import settle

# Imported eagerly: a lazy ``from .win_check import ...`` would rebind the package attribute
# ``win_check`` to the submodule on first call.
from .win_check import win_check  # noqa: E402

SYSTEM = "riichi"


def evaluate_hand(winner: dict[str, Any], options: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Tile-level hand value (``hand.evaluate_hand``), imported on first call."""
    from .hand import evaluate_hand as _evaluate_hand

    return _evaluate_hand(winner, options, **kwargs)


__all__ = [
    "GAME_END_OPTIONS",
    "OPTION_DOCS",
    "OPTION_SOURCES",
    "DEFAULT_OPTION_SOURCE",
    "PRESETS",
    "PRESET_SOURCES",
    "SYSTEM",
    "evaluate_hand",
    "game_end",
    "resolve",
    "settle",
    "win_check",
]
