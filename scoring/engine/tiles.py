"""Tile notation shared by every rule system.

Tiles are written as in Tenhou's notation (``1m``..``9m``, ``1p``..``9p``,
``1s``..``9s``, ``1z``..``7z`` = East South West North White Green Red); a run
such as ``123m55z`` is a list of tiles.  Chinese characters are accepted too
(``一萬``..``九萬`` or ``1萬``, ``1筒``, ``1索``, ``東南西北白發中``).

Internally a tile is an ``int`` 0..33 (the 34-tile index used by the
``mahjong`` package): 0-8 man, 9-17 pin, 18-26 sou, 27-33 honors.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from .errors import SettlementError

SUITS = "mpsz"
_SUIT_OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27}
_CN_SUIT = {"萬": "m", "万": "m", "筒": "p", "餅": "p", "饼": "p", "索": "s", "條": "s", "条": "s"}
_CN_HONOR = {"東": 27, "东": 27, "南": 28, "西": 29, "北": 30, "白": 31, "發": 32, "发": 32, "中": 33}
_CN_DIGIT = {c: i + 1 for i, c in enumerate("一二三四五六七八九")}

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)


def tile_name(tile: int) -> str:
    """34-index → ``'5p'``."""
    if tile >= 27:
        return f"{tile - 26}z"
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def is_honor(tile: int) -> bool:
    return tile >= 27


def is_terminal(tile: int) -> bool:
    return tile < 27 and tile % 9 in (0, 8)


def suit_of(tile: int) -> str:
    return SUITS[tile // 9] if tile < 27 else "z"


def number_of(tile: int) -> int:
    """1..9 for suited tiles, 1..7 for honors."""
    return tile % 9 + 1 if tile < 27 else tile - 26


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[int, ...]:
    tiles: list[int] = []
    digits: list[int] = []
    for ch in text:
        if ch.isspace() or ch in ",":
            continue
        if ch.isdigit() and ch.isascii():
            digits.append(int(ch))
        elif ch in _CN_DIGIT:
            digits.append(_CN_DIGIT[ch])
        elif ch in "mpsz" or ch in _CN_SUIT:
            suit = ch if ch in "mpsz" else _CN_SUIT[ch]
            if not digits:
                raise ValueError(f"suit letter {ch!r} without numbers before it")
            for d in digits:
                if suit == "z" and not 1 <= d <= 7:
                    raise ValueError(f"there is no honor tile {d}z")
                if suit != "z" and not 1 <= d <= 9:
                    # 0 is accepted as a red five by some tools; we keep red fives out of the notation.
                    raise ValueError(f"there is no tile {d}{suit}")
                tiles.append(_SUIT_OFFSET[suit] + d - 1)
            digits = []
        elif ch in _CN_HONOR:
            if digits:
                raise ValueError(f"number before honor {ch!r}")
            tiles.append(_CN_HONOR[ch])
        else:
            raise ValueError(f"unknown tile character {ch!r}")
    if digits:
        raise ValueError("numbers without a suit letter at the end")
    return tuple(tiles)


def parse_tiles(text: Any, field: str = "tiles") -> list[int]:
    """Parse ``'123m55z'`` (or a list of such strings) into 34-indices.

    Raises :class:`SettlementError` naming ``field`` on bad input.
    """
    if isinstance(text, (list, tuple)):
        out: list[int] = []
        for i, part in enumerate(text):
            out.extend(parse_tiles(part, f"{field}[{i}]"))
        return out
    if not isinstance(text, str):
        raise SettlementError(field, f"expected a tile string such as '123m55z', got {type(text).__name__}")
    try:
        return list(_parse(text))
    except ValueError as exc:
        raise SettlementError(field, f"{exc} in {text!r}") from None


def parse_tile(text: Any, field: str = "tile") -> int:
    """Parse exactly one tile."""
    tiles = parse_tiles(text, field)
    if len(tiles) != 1:
        raise SettlementError(field, f"expected exactly one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def tiles_to_string(tiles: Iterable[int]) -> str:
    """34-indices → compact ``'123m55z'`` (sorted by suit, input order inside a suit)."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for t in sorted(tiles):
        groups[suit_of(t)].append(str(number_of(t)))
    return "".join("".join(ns) + s for s, ns in groups.items() if ns)
