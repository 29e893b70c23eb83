"""Tile-level analysis of a Beijing hand with wildcards (混).

A hand is ``{"concealed": "...", "melds": [{"type": "chi"|"pon"|"kan"|"ankan"|"kakan", "tiles": "123m"}],
"tile": "5p"}`` (``concealed`` excludes the winning ``tile``; a kong counts as one meld). The
wildcard is the tile after the indicator (:func:`wildcard_of`). Every reading (assignment of the
wildcards + decomposition) is enumerated; the payment uses the reading with the most factors
(spec B7), and 捉五魁 / 豪華 only count real tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from ..errors import SettlementError
from ..tiles import RED, GREEN, WHITE, parse_tile, parse_tiles, tile_name

FIVE_M = 4
_DRAGON_NEXT = {RED: GREEN, GREEN: WHITE, WHITE: RED}  # 中→發→白→中

MELD_TYPES = {
    "chi": "chi",
    "chow": "chi",
    "吃": "chi",
    "pon": "pon",
    "pung": "pon",
    "peng": "pon",
    "碰": "pon",
    "kan": "kan",
    "minkan": "kan",
    "open_kong": "kan",
    "minggang": "kan",
    "明槓": "kan",
    "ankan": "ankan",
    "concealed_kong": "ankan",
    "angang": "ankan",
    "暗槓": "ankan",
    "kakan": "kakan",
    "added_kong": "kakan",
    "jiagang": "kakan",
    "shouminkan": "kakan",
    "加槓": "kakan",
}
KONG_KIND = {"kan": "open", "ankan": "concealed", "kakan": "added"}

Group = tuple[str, int]  # ("pair" | "pung" | "chow", first tile)
Decomposition = tuple[Group, ...]
Meld = tuple[str, list[int]]  # (meld type, its tiles)


def next_tile(t: int) -> int:
    """The tile after ``t`` in the wildcard order (9→1 in a suit, E→S→W→N→E, 中→發→白→中)."""
    if t < 27:
        return t - t % 9 + (t % 9 + 1) % 9
    if t <= 30:
        return 27 + (t - 27 + 1) % 4
    return _DRAGON_NEXT[t]


def wildcard_of(indicator: Any) -> int | str:
    """The wildcard (混) shown by ``indicator``: ``'9m'`` → ``'1m'``, ``'7z'`` (中) → ``'6z'`` (發).

    Accepts a tile string (returns a string) or a 34-index (returns an index).
    """
    if isinstance(indicator, int) and not isinstance(indicator, bool):
        if not 0 <= indicator < 34:
            raise SettlementError("wildcard_indicator", f"no tile index {indicator}")
        return next_tile(indicator)
    return tile_name(next_tile(parse_tile(indicator, "wildcard_indicator")))


@lru_cache(maxsize=200_000)
def _decomps(counts: tuple[int, ...], melds: int, pair: int) -> tuple[Decomposition, ...]:
    """All decompositions of ``counts`` into ``melds`` melds and ``pair`` pairs (0/1)."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return ((),) if melds == 0 and pair == 0 else ()
    if sum(counts) != 3 * melds + 2 * pair:
        return ()
    out: list[Decomposition] = []
    c = list(counts)
    if pair and c[i] >= 2:
        c[i] -= 2
        out += [(("pair", i),) + d for d in _decomps(tuple(c), melds, 0)]
        c[i] += 2
    if melds:
        if c[i] >= 3:
            c[i] -= 3
            out += [(("pung", i),) + d for d in _decomps(tuple(c), melds - 1, pair)]
            c[i] += 3
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            out += [(("chow", i),) + d for d in _decomps(tuple(c), melds - 1, pair)]
    return tuple(out)


def _group_tiles(g: Group) -> list[int]:
    kind, t = g
    return {"pair": [t, t], "pung": [t, t, t], "chow": [t, t + 1, t + 2]}[kind]


@dataclass
class Reading:
    factors: tuple[str, ...]  # hand factors (menqing .. zhuowu; haohua repeated), canonical order
    duanmen: bool  # the represented hand lacks a number suit
    shape: str  # "standard" | "qidui"
    long_tiles_win: bool = False  # the winning tile sits in one of a 龍's three chows


@dataclass
class Analysis:
    wild: int | None
    tile: int
    concealed: list[int]
    melds: list[Meld]  # [(type, [tiles])]
    jokers: int  # wildcards among concealed + tile (+ a concealed kong of them)
    jokers13: int  # wildcards among the concealed tiles only
    open: bool
    kongs: list[str]  # ["open"|"concealed"|"added"]
    claims: int  # chow/pong claims (an added kong was a pong)
    hungang: bool
    hunyou: bool
    win_is_wild: bool
    readings: list[Reading] = dc_field(default_factory=list)

    @property
    def complete(self) -> bool:
        return bool(self.readings) or self.hungang

    def best(self, duanmen: bool = False) -> Reading | None:
        cands = [r for r in self.readings if r.duanmen or not duanmen]
        if not cands:
            return None
        return max(cands, key=lambda r: (len(r.factors), r.factors))

    def best_factor_sets(self, duanmen: bool = False) -> list[tuple[str, ...]]:
        b = self.best(duanmen)
        if b is None:
            return []
        return sorted(
            {r.factors for r in self.readings if (r.duanmen or not duanmen) and len(r.factors) == len(b.factors)}
        )


_ORDER = ["menqing", "meihuar", "long", "qidui", "haohua", "zhuowu", "gangkai"]


def _canon(fs: list[str]) -> tuple[str, ...]:
    return tuple(sorted(fs, key=_ORDER.index))


def parse_hand(hand: Any, field: str) -> tuple[list[int], list[Meld], int]:
    if not isinstance(hand, dict):
        raise SettlementError(field, "must be an object {concealed, melds, tile}")
    if "concealed" not in hand:
        raise SettlementError(f"{field}.concealed", "missing")
    if "tile" not in hand:
        raise SettlementError(f"{field}.tile", "missing: the winning tile (not included in 'concealed')")
    concealed = parse_tiles(hand["concealed"], f"{field}.concealed")
    tile = parse_tile(hand["tile"], f"{field}.tile")
    melds: list[Meld] = []
    raw = hand.get("melds", []) or []
    if not isinstance(raw, list):
        raise SettlementError(f"{field}.melds", "must be a list")
    for i, m in enumerate(raw):
        mf = f"{field}.melds[{i}]"
        if not isinstance(m, dict):
            raise SettlementError(mf, "must be an object {type, tiles}")
        mtype = MELD_TYPES.get(str(m.get("type", "")).lower()) or MELD_TYPES.get(str(m.get("type", "")))
        if mtype is None:
            raise SettlementError(
                f"{mf}.type", f"unknown meld type {m.get('type')!r}; use chi, pon, kan, ankan or kakan"
            )
        ts = sorted(parse_tiles(m.get("tiles", ""), f"{mf}.tiles"))
        if mtype == "chi":
            ok = len(ts) == 3 and ts[0] < 27 and ts[0] % 9 <= 6 and ts == [ts[0], ts[0] + 1, ts[0] + 2]
        elif mtype == "pon":
            ok = len(ts) == 3 and len(set(ts)) == 1
        else:
            ok = len(ts) == 4 and len(set(ts)) == 1
        if not ok:
            raise SettlementError(f"{mf}.tiles", f"{m.get('tiles')!r} is not a valid {mtype}")
        melds.append((mtype, ts))
    return concealed, melds, tile


def analyse(hand: Any, indicator: Any, options: dict[str, Any], field: str = "hand") -> Analysis:
    """Parse and analyse a winning hand (see module doc). Raises SettlementError on malformed input."""
    concealed, melds, tile = parse_hand(hand, field)
    wild = None
    if indicator is not None:
        wild = next_tile(parse_tile(indicator, "wildcard_indicator"))
    n = len(concealed) + 1 + 3 * len(melds)
    if n != 14:
        what = "大相公 (too many tiles)" if n > 14 else "小相公 (too few tiles)"
        raise SettlementError(
            f"{field}.concealed", f"{what}: {n} tiles counting each meld as 3 and the winning tile, need 14"
        )
    everything = concealed + [tile] + [t for _, ts in melds for t in ts]
    for t in set(everything):
        if everything.count(t) > 4:
            raise SettlementError(field, f"more than four {tile_name(t)}")
    jokers_in_kong = 0
    for i, (mtype, ts) in enumerate(melds):
        if wild is not None and ts[0] == wild:
            if mtype == "ankan":
                jokers_in_kong = 4
            else:
                raise SettlementError(
                    f"{field}.melds[{i}]", "a meld containing a 混 (wildcard) cannot be claimed or exposed"
                )
    jokers13 = concealed.count(wild) if wild is not None else 0
    win_is_wild = wild is not None and tile == wild
    jokers = jokers13 + (1 if win_is_wild else 0) + jokers_in_kong
    open_ = any(m in ("chi", "pon", "kan", "kakan") for m, _ in melds)
    a = Analysis(
        wild=wild,
        tile=tile,
        concealed=concealed,
        melds=melds,
        jokers=jokers,
        jokers13=jokers13,
        open=open_,
        kongs=[KONG_KIND[m] for m, _ in melds if m in KONG_KIND],
        claims=sum(1 for m, _ in melds if m in ("chi", "pon", "kakan")),
        hungang=jokers >= 4,
        hunyou=False,
        win_is_wild=win_is_wild,
    )
    if a.hungang:
        return a
    a.hunyou = _is_hunyou(concealed, wild, len(melds))
    a.readings = _readings(a, options)
    return a


def _real_counts(tiles: list[int], wild: int | None) -> list[int]:
    c = [0] * 34
    for t in tiles:
        if t != wild:
            c[t] += 1
    return c


def _candidates(real: list[int], melds: list[Meld], wild: int | None) -> list[int]:
    suits = {t // 9 for t in range(27) if real[t]} | {ts[0] // 9 for _, ts in melds if ts[0] < 27}
    cand = {t for s in suits for t in range(9 * s, 9 * s + 9)}
    cand |= {t for t in range(27, 34) if real[t]}
    if wild is not None:
        cand.add(wild)
    spare = next((t for t in range(27, 34) if t not in cand), None)
    if spare is not None:
        cand.add(spare)
    return sorted(cand)


def _is_hunyou(concealed: list[int], wild: int | None, nmelds: int) -> bool:
    """13 tiles waiting on a 混 single: without one 混 the rest is complete melds (or six pairs)."""
    if wild is None or wild not in concealed:
        return False
    real = _real_counts(concealed, wild)
    j = concealed.count(wild) - 1
    for combo in combinations_with_replacement(_candidates(real, [], wild), j):
        c = list(real)
        for t in combo:
            c[t] += 1
        if _decomps(tuple(c), 4 - nmelds, 0):
            return True
        if nmelds == 0 and all(x % 2 == 0 for x in c):
            return True
    return False


def _readings(a: Analysis, options: dict[str, Any]) -> list[Reading]:
    wild = a.wild
    tiles14 = a.concealed + [a.tile]
    real = _real_counts(tiles14, wild)
    j = a.jokers
    need = 4 - len(a.melds)
    exposed_chows = [("chow", ts[0]) for m, ts in a.melds if m == "chi"]
    meld_suits = {ts[0] // 9 for _, ts in a.melds if ts[0] < 27}
    menqing = not a.open
    real_five_win = a.tile == FIVE_M and not a.win_is_wild
    seen = set()
    out: list[Reading] = []

    def suits_of(counts: list[int]) -> set[int]:
        return {t // 9 for t in range(27) if counts[t]} | meld_suits

    combos = combinations_with_replacement(_candidates(real, a.melds, wild), j) if j else [()]
    for combo in combos:
        c = list(real)
        for t in combo:
            c[t] += 1
        face = all(t == wild for t in combo)
        meih = face or (options.get("hunyou_meihuar") and a.hunyou and j == 1)
        duan = len(suits_of(c)) < 3
        ct = tuple(c)
        for d in _decomps(ct, need, 1):
            groups = exposed_chows + list(d)
            fs = []
            long_suits = [s for s in range(3) if all(("chow", 9 * s + k) in groups for k in (0, 3, 6))]
            m = meih
            stand_ins = [t for t in combo if t != wild]
            if (
                not m
                and options.get("benhunlong_meihuar")
                and len(stand_ins) == 1
                and long_suits
                and wild is not None
                and wild < 27
            ):
                # 本混龍: exactly one 混 stands in (others at face value) for a tile of the 龍's suit
                t = stand_ins[0]
                s = t // 9
                if s in long_suits and wild // 9 == s:
                    long_set = {("chow", 9 * s + k) for k in (0, 3, 6)}
                    used_elsewhere = sum(_group_tiles(g).count(t) for g in d if g not in long_set)
                    if used_elsewhere <= real[t]:
                        m = True
            if menqing:
                fs.append("menqing")
            if m:
                fs.append("meihuar")
            if long_suits:
                fs.append("long")
            if real_five_win and ("chow", FIVE_M - 1) in d:
                fs.append("zhuowu")
            win_in_long = any(a.tile in _group_tiles(("chow", 9 * s + k)) for s in long_suits for k in (0, 3, 6))
            key = (tuple(fs), duan, "standard", win_in_long)
            if key not in seen:
                seen.add(key)
                out.append(Reading(_canon(fs), duan, "standard", win_in_long))
        if not a.melds and all(x % 2 == 0 for x in c):
            fs = ["menqing", "qidui"]
            if meih:
                fs.append("meihuar")
            fs += ["haohua"] * sum(1 for t in range(34) if real[t] == 4 and t != wild)
            if real_five_win and c[FIVE_M] >= 2:
                fs.append("zhuowu")
            key = (tuple(fs), duan, "qidui", False)
            if key not in seen:
                seen.add(key)
                out.append(Reading(_canon(fs), duan, "qidui"))
    return out


def is_complete_with(concealed: list[int], melds: list[Meld], tile: int, wild: int | None) -> bool:
    """Would ``tile`` complete the hand (any reading)?"""
    tiles14 = concealed + [tile]
    real = _real_counts(tiles14, wild)
    j = sum(1 for t in tiles14 if t == wild) if wild is not None else 0
    if j >= 4:
        return True
    for combo in combinations_with_replacement(_candidates(real, melds, wild), j) if j else [()]:
        c = list(real)
        for t in combo:
            c[t] += 1
        if _decomps(tuple(c), 4 - len(melds), 1):
            return True
        if not melds and all(x % 2 == 0 for x in c):
            return True
    return False
