"""The scoring engine: settles hand records under riichi, Zung Jung and Beijing rules.

Pure Python, no Django. The stable JSON interface is ``shared/spec/settlement-contract.md``.

    >>> from scoring.engine import settle
    >>> settle({"rules": "wrc", "dealer": 0, "result": {"type": "draw", "tenpai": [1]}})["deltas"]
    [-1000, 3000, -1000, -1000]
"""

from .dispatch import (
    ENGINE_VERSION,
    SYSTEMS,
    game_end,
    hands_affected,
    presets,
    resolve_rules,
    settle,
    settle_many,
    system_for,
)
from .errors import SettlementError

__all__ = [
    "ENGINE_VERSION",
    "SYSTEMS",
    "SettlementError",
    "game_end",
    "hands_affected",
    "presets",
    "resolve_rules",
    "settle",
    "settle_many",
    "system_for",
]
