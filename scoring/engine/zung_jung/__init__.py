"""Zung Jung (中庸麻雀) v3.3: pattern evaluation and settlement. Pure Python, no Django.

Rules: ``shared/spec/zung-jung.md``; JSON interface: ``shared/spec/settlement-contract.md``.

    >>> settle({"result": {"type": "discard", "winner": 0, "from": 3, "tile": "1m", "value": 80,
    ...         "earlier": [{"seat": 1, "tile": "4m", "value": 40}]}},
    ...        resolve({"preset": "zung-jung", "liability": "precise_multiwait"}))["deltas"]
    [240, -70, -25, -145]
"""

from __future__ import annotations

from typing import Any

from ..errors import SettlementError
from . import hand as _hand
from .options import LIABILITY_MODES, OPTION_DOCS, PRESETS, SCHEMES, resolve
from .patterns import CHICKEN, EDITIONS, PATTERNS
from .settle import SYSTEM, settle

__all__ = [
    "SYSTEM",
    "PRESETS",
    "OPTION_DOCS",
    "PATTERNS",
    "CHICKEN",
    "EDITIONS",
    "LIABILITY_MODES",
    "SCHEMES",
    "resolve",
    "settle",
    "evaluate_hand",
    "win_check",
    "waits",
]

_DEFAULT: dict[str, Any] | None = None


def _options(options: dict[str, Any] | None) -> dict[str, Any]:
    global _DEFAULT
    if options is None:
        if _DEFAULT is None:
            _DEFAULT = resolve({"preset": "zung-jung"})
        return _DEFAULT
    return options


def _self_draw_flag(value: object, field: str) -> bool:
    if value is None:
        return False
    if value in ("self_draw", "tsumo"):
        return True
    if value in ("discard", "ron"):
        return False
    if not isinstance(value, bool):
        raise SettlementError(field, f"expected true or false, got {value!r}")
    return value


def evaluate_hand(
    hand: dict[str, Any],
    options: dict[str, Any] | None = None,
    *,
    self_draw: bool | None = None,
    seat_wind: Any = None,
    nine_gates_allowed: bool = True,
    field: str = "hand",
    **flags: Any,
) -> dict[str, Any]:
    """Value a winning hand from its tiles.

    ``hand``: ``{"concealed": "...", "melds": [{"type": "chow"|"pung"|"kong"|"concealed_kong", "tiles": "..."}],
    "tile": winning tile}``; optional in ``hand`` or as keywords: ``seat_wind`` ("1z".."4z", 0..3, "E"; default
    East), ``self_draw`` (default false), and the situation flags ``final_tile``, ``kong_replacement``,
    ``robbing_kong``, ``heaven``, ``earth``.

    Returns ``{"value", "patterns": [{"id", "key", "en", "zh", "value"(, "tile")}], "other_patterns", "sum",
    "limit": None|"compound"|"listed", "chicken", "shape", "arrangement"}``. ``patterns`` are the counted ones;
    under a listed limit the others are in ``other_patterns``. Raises :class:`SettlementError` naming ``field``
    when the tiles are invalid or the hand is not complete.
    """
    options = _options(options)
    h = _hand.parse_hand(hand, field)
    sd = _self_draw_flag(self_draw if self_draw is not None else hand.get("self_draw"), f"{field}.self_draw")
    sw_raw = seat_wind if seat_wind is not None else hand.get("seat_wind")
    sw = _hand.parse_seat_wind(sw_raw, f"{field}.seat_wind") if sw_raw is not None else 27
    fl = _hand.parse_flags(hand, field)
    fl.update(_hand.parse_flags(flags, field))
    _hand.check_flags(fl, sd, h, field)
    if h.tile is None:  # parse_hand asks for the tile; said again for the type checker
        raise SettlementError(f"{field}.tile", "missing: the winning tile")
    ev = _hand.evaluate(
        h, h.tile, self_draw=sd, seat_wind=sw, flags=fl, options=options, nine_gates_allowed=nine_gates_allowed
    )
    if ev is None:
        raise SettlementError(field, "not a complete hand")
    return _hand.public_result(ev)


def waits(hand: dict[str, Any], options: dict[str, Any] | None = None, field: str = "hand") -> list[str]:
    """The tiles that complete a 13-tile hand (``tile`` not needed)."""
    options = _options(options)
    h = _hand.parse_hand(hand, field, need_tile=False)
    from ..tiles import tile_name

    return [tile_name(t) for t in _hand.waits(h, options)]


def _reason(code: str, message: str, message_zh: str) -> dict[str, Any]:
    return {"code": code, "message": message, "message_zh": message_zh}


def win_check(declaration: dict[str, Any], options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Why a declared win would be false (empty list: the win stands).

    Zung Jung has no furiten or passed-tile prohibitions (same-turn immunity replaces them), so
    the only reasons are: invalid tiles, an incomplete hand, and a value below ``min_points``.
    """
    options = _options(options)
    if not isinstance(declaration, dict):
        raise SettlementError("declaration", "expected an object")
    dtype = declaration.get("type", "discard")
    if dtype not in ("discard", "ron", "self_draw", "tsumo"):
        raise SettlementError("type", f"expected discard or self_draw, got {dtype!r}")
    self_draw = dtype in ("self_draw", "tsumo")
    hand_in = declaration.get("hand")
    try:
        h = _hand.parse_hand(hand_in, "hand")
    except SettlementError as exc:
        return [_reason("invalid_tiles", f"the declared tiles are not a valid hand ({exc})", f"牌張無效（{exc}）")]
    sw_raw = declaration.get("seat_wind")
    if sw_raw is None and isinstance(hand_in, dict):
        sw_raw = hand_in.get("seat_wind")
    sw = _hand.parse_seat_wind(sw_raw, "seat_wind") if sw_raw is not None else 27
    flags = _hand.parse_flags(hand_in if isinstance(hand_in, dict) else {}, "hand")  # parse_hand checked it
    flags.update(_hand.parse_flags(declaration, "declaration"))
    # situation flags that contradict the win type are ignored here (they only add points)
    flags = {
        k: v
        for k, v in flags.items()
        if not (
            (k in ("kong_replacement", "heaven") and not self_draw) or (k in ("robbing_kong", "earth") and self_draw)
        )
    }
    if h.tile is None:  # parse_hand asks for the tile
        return [_reason("invalid_tiles", "the declared tiles have no winning tile", "未有和張")]
    ev = _hand.evaluate(h, h.tile, self_draw=self_draw, seat_wind=sw, flags=flags, options=options)
    if ev is None:
        return [
            _reason(
                "incomplete_hand",
                "the hand is not complete (not four sets and a pair, seven pairs or " "thirteen terminals)",
                "未成和牌形（詐和）",
            )
        ]
    if ev["value"] < options["min_points"]:
        return [
            _reason(
                "below_min_points",
                f"the hand is worth {ev['value']} point(s), below the minimum of {options['min_points']}",
                f"和牌只得{ev['value']}分，未達起和分數{options['min_points']}分",
            )
        ]
    return []
