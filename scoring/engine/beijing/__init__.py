"""Beijing 吃碰提 (混兒) scoring engine: pure Python, no Django.

Spec: ``shared/spec/beijing.md``; JSON interface: ``shared/spec/settlement-contract.md`` (Beijing part);
internal contract: ``docs/engine-interfaces.md``.

    >>> settle({"rules": "beijing", "dealer": 0,
    ...         "result": {"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}},
    ...        resolve({"preset": "beijing"}))["deltas"]
    [48, -16, -16, -16]
"""

from .factors import FACTORS
from .hand import analyse, next_tile, wildcard_of
from .options import OPTION_DOCS, PRESETS, resolve
from .settle import settle
from .wincheck import win_check

SYSTEM = "beijing"

__all__ = [
    "SYSTEM",
    "PRESETS",
    "OPTION_DOCS",
    "FACTORS",
    "resolve",
    "settle",
    "win_check",
    "wildcard_of",
    "next_tile",
    "analyse",
]
