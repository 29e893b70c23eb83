"""Tile-level Zung Jung hand evaluation (zung-jung.md §1.1–1.4).

Every arrangement of the concealed tiles is evaluated (Freedom of Count) and the one with the
best final value (after the limit) is kept. Decomposition is memoised over 34-count tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from ..errors import SettlementError
from ..tiles import DRAGONS, WINDS, parse_tile, parse_tiles, tile_name, tiles_to_string
from .patterns import table

TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_WIND_WORDS = {"e": 27, "east": 27, "s": 28, "south": 28, "w": 29, "west": 29, "n": 30, "north": 30}
FLAG_NAMES = ("final_tile", "kong_replacement", "robbing_kong", "heaven", "earth")
FLAG_ALIASES = {
    "final_draw": "final_tile",
    "final_discard": "final_tile",
    "last_tile": "final_tile",
    "win_on_kong": "kong_replacement",
    "rinshan": "kong_replacement",
}

_MELD_KINDS = {
    "chow": ("chow", False),
    "chi": ("chow", False),
    "pung": ("pung", False),
    "pong": ("pung", False),
    "pon": ("pung", False),
    "kong": ("kong", False),
    "kan": ("kong", False),
    "open_kong": ("kong", False),
    "exposed_kong": ("kong", False),
    "minkan": ("kong", False),
    "concealed_kong": ("kong", True),
    "ankan": ("kong", True),
}


SetSplit = tuple[tuple[str, int], ...]  # sets as ("P" | "C", lowest tile)
SetInfo = tuple[str, int, bool, bool]  # (kind "C" | "P", tile, concealed triplet, is a kong)
Found = tuple[str, int | None]  # (pattern key, the set's tile for a per-set pattern)


def _is_terminal(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


@dataclass(frozen=True)
class Meld:
    kind: str  # "chow" | "pung" | "kong"
    tile: int  # lowest tile
    concealed: bool  # only a concealed kong


@dataclass(frozen=True)
class Hand:
    concealed: tuple[int, ...]  # concealed tiles, winning tile excluded
    melds: tuple[Meld, ...]
    tile: int | None  # winning tile, when given


# ---------------------------------------------------------------------------------------- parsing


def parse_hand(hand: Any, field: str = "hand", need_tile: bool = True) -> Hand:
    if not isinstance(hand, dict):
        raise SettlementError(field, "expected an object with 'concealed', 'melds' and 'tile'")
    concealed = parse_tiles(hand.get("concealed", ""), f"{field}.concealed")
    melds_raw = hand.get("melds", []) or []
    if not isinstance(melds_raw, list):
        raise SettlementError(f"{field}.melds", "expected a list of melds")
    melds = []
    for i, m in enumerate(melds_raw):
        mf = f"{field}.melds[{i}]"
        if not isinstance(m, dict):
            raise SettlementError(mf, 'expected {"type": ..., "tiles": ...}')
        kind_raw = m.get("type")
        if kind_raw not in _MELD_KINDS:
            raise SettlementError(f"{mf}.type", f"expected chow, pung, kong or concealed_kong, got {kind_raw!r}")
        kind, conc = _MELD_KINDS[kind_raw]
        if m.get("concealed") is True and kind == "kong":
            conc = True
        tiles = sorted(parse_tiles(m.get("tiles", ""), f"{mf}.tiles"))
        if kind == "chow":
            ok = (
                len(tiles) == 3
                and tiles[0] < 27
                and tiles[0] % 9 <= 6
                and tiles[1] == tiles[0] + 1
                and tiles[2] == tiles[0] + 2
            )
        elif kind == "pung":
            ok = len(tiles) == 3 and len(set(tiles)) == 1
        else:
            ok = len(tiles) == 4 and len(set(tiles)) == 1
        if not ok:
            raise SettlementError(f"{mf}.tiles", f"{tiles_to_string(tiles) or 'nothing'} is not a {kind}")
        melds.append(Meld(kind, tiles[0], conc))
    if len(melds) > 4:
        raise SettlementError(f"{field}.melds", "at most four melds")
    tile = None
    if hand.get("tile") is not None:
        tile = parse_tile(hand["tile"], f"{field}.tile")
    elif need_tile:
        raise SettlementError(f"{field}.tile", "missing: the winning tile")
    want = 13 - 3 * len(melds)
    if len(concealed) != want:
        raise SettlementError(
            f"{field}.concealed",
            f"expected {want} concealed tiles besides the winning tile with {len(melds)} meld(s), "
            f"got {len(concealed)}",
        )
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    for m in melds:
        if m.kind == "chow":
            for d in range(3):
                counts[m.tile + d] += 1
        else:
            counts[m.tile] += 4 if m.kind == "kong" else 3
    if tile is not None:
        counts[tile] += 1
    for t, c in enumerate(counts):
        if c > 4:
            raise SettlementError(field, f"{c} copies of {tile_name(t)} (there are only four)")
    return Hand(tuple(sorted(concealed)), tuple(melds), tile)


def parse_seat_wind(value: Any, field: str = "seat_wind") -> int:
    if isinstance(value, bool):
        raise SettlementError(field, f"expected a wind, got {value!r}")
    if isinstance(value, int):
        if 0 <= value <= 3:
            return 27 + value
        raise SettlementError(field, f"expected 0..3 (E, S, W, N), got {value}")
    if isinstance(value, str) and value.strip().lower() in _WIND_WORDS:
        return _WIND_WORDS[value.strip().lower()]
    t = parse_tile(value, field)
    if t not in WINDS:
        raise SettlementError(field, f"{tile_name(t)} is not a wind")
    return t


def parse_flags(src: dict[str, Any], field: str) -> dict[str, Any]:
    flags: dict[str, object] = {}
    for raw, canon in [(n, n) for n in FLAG_NAMES] + list(FLAG_ALIASES.items()):
        if raw in src and src[raw] is not None:
            if not isinstance(src[raw], bool):
                raise SettlementError(f"{field}.{raw}", f"expected true or false, got {src[raw]!r}")
            flags[canon] = flags.get(canon, False) or src[raw]
    return flags


def check_flags(flags: dict[str, Any], self_draw: bool, hand: Hand, field: str) -> None:
    if flags.get("kong_replacement") and not self_draw:
        raise SettlementError(f"{field}.kong_replacement", "a win on a kong replacement tile is a self-draw")
    if flags.get("kong_replacement") and not any(m.kind == "kong" for m in hand.melds):
        raise SettlementError(f"{field}.kong_replacement", "needs a kong among the melds")
    if flags.get("robbing_kong") and self_draw:
        raise SettlementError(f"{field}.robbing_kong", "robbing a kong is a win on a discard")
    if flags.get("heaven") and (not self_draw or hand.melds):
        raise SettlementError(f"{field}.heaven", "Blessing of Heaven is East's self-draw on the dealt 14 tiles")
    if flags.get("earth") and (self_draw or hand.melds):
        raise SettlementError(f"{field}.earth", "Blessing of Earth is a win on East's first discard, no melds")


# ---------------------------------------------------------------------------------- decomposition


@lru_cache(maxsize=65536)
def _set_decomps(counts: tuple[int, ...]) -> tuple[SetSplit, ...]:
    """All ways to split ``counts`` into pungs ('P', t) and chows ('C', t)."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return ((),)
    out: list[SetSplit] = []
    if counts[i] >= 3:
        sub = list(counts)
        sub[i] -= 3
        out.extend((("P", i),) + d for d in _set_decomps(tuple(sub)))
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        sub = list(counts)
        sub[i] -= 1
        sub[i + 1] -= 1
        sub[i + 2] -= 1
        out.extend((("C", i),) + d for d in _set_decomps(tuple(sub)))
    return tuple(out)


@lru_cache(maxsize=65536)
def regular_decomps(counts: tuple[int, ...]) -> tuple[tuple[int, SetSplit], ...]:
    """``((pair, sets), ...)``: every split of a 3n+2-tile count tuple into n sets and one pair."""
    if sum(counts) % 3 != 2:
        return ()
    out = []
    for p, c in enumerate(counts):
        if c >= 2:
            sub = list(counts)
            sub[p] -= 2
            for sets in _set_decomps(tuple(sub)):
                out.append((p, sets))
    return tuple(out)


def _is_seven_pairs(counts: Sequence[int], allow_quad: bool) -> bool:
    if sum(counts) != 14:
        return False
    allowed = (0, 2, 4) if allow_quad else (0, 2)
    return all(c in allowed for c in counts)


def _is_thirteen(counts: Sequence[int]) -> bool:
    return (
        sum(counts) == 14
        and all(counts[t] >= 1 for t in TERMINALS_AND_HONORS)
        and sum(counts[t] for t in TERMINALS_AND_HONORS) == 14
    )


def _counts(tiles: Iterable[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def is_complete(hand: Hand, tile: int, options: dict[str, Any]) -> bool:
    counts = _counts(hand.concealed)
    counts[tile] += 1
    if copies_held(hand, tile) >= 4:
        return False
    ct = tuple(counts)
    if regular_decomps(ct):
        return True
    if not hand.melds:
        return _is_seven_pairs(counts, options.get("seven_pairs_quad", True)) or _is_thirteen(counts)
    return False


def copies_held(hand: Hand, tile: int) -> int:
    """Copies of ``tile`` among the 13 tiles and melds (winning tile excluded)."""
    n = hand.concealed.count(tile)
    for m in hand.melds:
        if m.kind == "chow":
            n += m.tile <= tile <= m.tile + 2
        elif m.tile == tile:
            n += 4 if m.kind == "kong" else 3
    return n


def waits(hand: Hand, options: dict[str, Any]) -> list[int]:
    """Tiles that complete ``hand`` (its 13 tiles)."""
    near = set()
    for t in hand.concealed:
        if t >= 27:
            near.add(t)
        else:
            base = t - t % 9
            near.update(x for x in range(t - 2, t + 3) if base <= x < base + 9)
    if not hand.melds:
        near.update(TERMINALS_AND_HONORS)  # thirteen terminals can wait on a tile not held
    return [t for t in sorted(near) if is_complete(hand, t, options)]


# ---------------------------------------------------------------------------------- detection


def _composition(counts: Sequence[int]) -> tuple[list[str], dict[str, Any]]:
    suits = {t // 9 for t in range(27) if counts[t]}
    honors = any(counts[t] for t in range(27, 34))
    present = [t for t in range(34) if counts[t]]
    all_simple = all(t < 27 and t % 9 not in (0, 8) for t in present)
    all_term = all(_is_terminal(t) for t in present)
    all_term_honor = all(_is_terminal(t) or t >= 27 for t in present)
    has_term = any(_is_terminal(t) for t in present)
    keys = []
    if all_simple:
        keys.append("no_terminals")
    if len(suits) == 1:
        keys.append("mixed_one_suit" if honors else "pure_one_suit")
    if not suits and honors:
        keys.append("all_honors")
    info = {"honors": honors, "all_term": all_term, "all_term_honor": all_term_honor, "has_term": has_term}
    return keys, info


def _incidental(self_draw: bool, flags: dict[str, Any]) -> list[str]:
    keys = []
    if flags.get("final_tile"):
        keys.append("final_draw" if self_draw else "final_discard")
    if flags.get("kong_replacement") and self_draw:
        keys.append("win_on_kong")
    if flags.get("robbing_kong") and not self_draw:
        keys.append("robbing_a_kong")
    if flags.get("heaven"):
        keys.append("blessing_of_heaven")
    if flags.get("earth"):
        keys.append("blessing_of_earth")
    return keys


def _detect_regular(
    sets: list[SetInfo],
    pair: int,
    comp_keys: list[str],
    comp: dict[str, Any],
    seat_wind: int,
    concealed_hand: bool,
    nine_gates: bool,
) -> list[Found]:
    """``sets``: list of (kind 'C'|'P', tile, concealed_triplet, is_kong). Returns [(key, tile|None)]."""
    found: list[Found] = [(k, None) for k in comp_keys]
    chows = [t for k, t, _, _ in sets if k == "C"]
    pungs = [t for k, t, _, _ in sets if k == "P"]
    if len(chows) == 4:
        found.append(("all_sequences", None))
    if concealed_hand:
        found.append(("concealed_hand", None))
    if nine_gates:
        found.append(("nine_gates", None))
    for t in pungs:
        if t in DRAGONS or t == seat_wind:
            found.append(("value_honor", t))
    dragon_sets = sum(1 for t in pungs if t in DRAGONS)
    if dragon_sets == 3:
        found.append(("big_three_dragons", None))
    elif dragon_sets == 2 and pair in DRAGONS:
        found.append(("small_three_dragons", None))
    wind_sets = sum(1 for t in pungs if t in WINDS)
    if wind_sets == 4:
        found.append(("big_four_winds", None))
    elif wind_sets == 3 and pair in WINDS:
        found.append(("small_four_winds", None))
    elif wind_sets == 3:
        found.append(("big_three_winds", None))
    elif wind_sets == 2 and pair in WINDS:
        found.append(("small_three_winds", None))
    if len(pungs) == 4:
        found.append(("all_triplets", None))
    n_conc = sum(1 for k, _, conc, _ in sets if k == "P" and conc)
    if n_conc >= 2:
        found.append(
            ({2: "two_concealed_triplets", 3: "three_concealed_triplets"}.get(n_conc, "four_concealed_triplets"), None)
        )
    n_kong = sum(1 for _, _, _, kong in sets if kong)
    if n_kong:
        found.append((("one_kong", "two_kong", "three_kong", "four_kong")[n_kong - 1], None))
    if chows:
        groups: dict[int, int] = {}  # chow start → how many
        for t in chows:
            groups[t] = groups.get(t, 0) + 1
        sizes = list(groups.values())
        if 4 in sizes:
            found.append(("four_identical_sequences", None))
        elif 3 in sizes:
            found.append(("three_identical_sequences", None))
        elif sum(1 for n in sizes if n >= 2) >= 2:
            found.append(("two_identical_sequences_twice", None))
        elif any(n >= 2 for n in sizes):
            found.append(("two_identical_sequences", None))
        if any(r in chows and 9 + r in chows and 18 + r in chows for r in range(7)):
            found.append(("three_similar_sequences", None))
        if any(s * 9 in chows and s * 9 + 3 in chows and s * 9 + 6 in chows for s in range(3)):
            found.append(("nine_tile_straight", None))
    suited_pungs = {t for t in pungs if t < 27}
    similar = None
    for r in range(9):
        with_pung = [s for s in range(3) if s * 9 + r in suited_pungs]
        if len(with_pung) == 3:
            similar = "three_similar_triplets"
            break
        if len(with_pung) == 2:
            third = ({0, 1, 2} - set(with_pung)).pop()
            if pair == third * 9 + r:
                similar = similar or "small_three_similar_triplets"
    if similar:
        found.append((similar, None))
    best_run = 0
    for s in range(3):
        run = 0
        for r in range(9):
            run = run + 1 if s * 9 + r in suited_pungs else 0
            best_run = max(best_run, run)
    if best_run >= 4:
        found.append(("four_consecutive_triplets", None))
    elif best_run == 3:
        found.append(("three_consecutive_triplets", None))
    # 8.1 terminals
    if comp["all_term"]:
        found.append(("pure_greater_terminals", None))
    elif comp["all_term_honor"] and comp["has_term"] and comp["honors"]:
        found.append(("mixed_greater_terminals", None))
    else:

        def set_term(k: str, t: int) -> bool:
            return (t % 9 in (0, 6)) if k == "C" else _is_terminal(t)

        every_term = all(set_term(k, t) for k, t, _, _ in sets) and _is_terminal(pair)
        every_term_honor = all(set_term(k, t) or t >= 27 for k, t, _, _ in sets) and (_is_terminal(pair) or pair >= 27)
        if every_term and not comp["honors"]:
            found.append(("pure_lesser_terminals", None))
        elif every_term_honor and comp["honors"] and comp["has_term"]:
            found.append(("mixed_lesser_terminals", None))
    return found


def _score(
    found: Iterable[Found],
    rows: dict[str, dict[str, Any]],
    chicken: dict[str, Any],
    limit: int,
) -> dict[str, Any]:
    """Apply the one-pattern-per-series rule and the limit. Returns a result dict."""
    best_in_series: dict[str, dict[str, Any]] = {}
    honors: list[tuple[dict[str, Any], int]] = []
    for key, tile in found:
        row = rows.get(key)
        if row is None:  # not in this edition
            continue
        if row.get("per_set"):
            honors.append((row, cast(int, tile)))  # a per-set pattern names its set's tile
            continue
        cur = best_in_series.get(row["series"])
        if cur is None or row["value"] > cur["value"]:
            best_in_series[row["series"]] = row
    pats = []
    for row in best_in_series.values():
        pats.append({"id": row["id"], "key": row["key"], "en": row["en"], "zh": row["zh"], "value": row["value"]})
    for row, tile in honors:
        pats.append(
            {
                "id": row["id"],
                "key": row["key"],
                "en": row["en"],
                "zh": row["zh"],
                "value": row["value"],
                "tile": tile_name(tile),
            }
        )
    pats.sort(key=lambda p: (tuple(int(x) for x in p["id"].split(".")), p.get("tile", "")))
    if not pats:
        c = {
            "id": chicken["id"],
            "key": chicken["key"],
            "en": chicken["en"],
            "zh": chicken["zh"],
            "value": chicken["value"],
        }
        return {
            "value": chicken["value"],
            "sum": chicken["value"],
            "limit": None,
            "chicken": True,
            "patterns": [c],
            "other_patterns": [],
        }
    total = sum(p["value"] for p in pats)
    listed = [p for p in pats if p["value"] >= limit]
    if listed:
        top = max(listed, key=lambda p: p["value"])
        return {
            "value": top["value"],
            "sum": total,
            "limit": "listed",
            "chicken": False,
            "patterns": [top],
            "other_patterns": [p for p in pats if p is not top],
        }
    return {
        "value": min(total, limit),
        "sum": total,
        "limit": "compound" if total >= limit else None,
        "chicken": False,
        "patterns": pats,
        "other_patterns": [],
    }


def _set_out(kind: str, t: int, conc: bool, kong: bool, melded: bool) -> dict[str, Any]:
    if kind == "C":
        return {"type": "chow", "tiles": tiles_to_string([t, t + 1, t + 2]), "melded": melded}
    return {
        "type": "kong" if kong else "pung",
        "tiles": tiles_to_string([t] * (4 if kong else 3)),
        "melded": melded,
        "concealed": conc,
    }


def evaluate(
    hand: Hand,
    tile: int,
    *,
    self_draw: bool,
    seat_wind: int,
    flags: dict[str, Any],
    options: dict[str, Any],
    nine_gates_allowed: bool = True,
) -> dict[str, Any] | None:
    """Best arrangement of ``hand`` + ``tile``; None when it is not a complete hand."""
    rows, chicken = table(options)
    limit = options.get("limit", 320)
    counts = _counts(hand.concealed)
    counts[tile] += 1
    logical = counts[:]
    for m in hand.melds:
        if m.kind == "chow":
            for d in range(3):
                logical[m.tile + d] += 1
        else:
            logical[m.tile] += 3
    comp_keys, comp = _composition(logical)
    incidental: list[Found] = [(k, None) for k in _incidental(self_draw, flags)]
    candidates = []

    meld_sets = [
        ("C" if m.kind == "chow" else "P", m.tile, m.kind == "kong" and m.concealed, m.kind == "kong")
        for m in hand.melds
    ]
    concealed_hand = all(m.kind == "kong" and m.concealed for m in hand.melds)
    nine_gates = False
    if nine_gates_allowed and not hand.melds and tile < 27:
        s = tile // 9
        want = [0] * 34
        for r, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
            want[s * 9 + r] = n
        nine_gates = _counts(hand.concealed) == want

    for pair, sets in regular_decomps(tuple(counts)):
        # where the winning tile sits (matters for a triplet completed by a discard)
        exposed_choices: list[int | None] = [None]
        if not self_draw:
            in_other = (pair == tile) or any(k == "C" and t <= tile <= t + 2 for k, t in sets)
            if not in_other and any(k == "P" and t == tile for k, t in sets):
                exposed_choices = [tile]
        for exposed in exposed_choices:
            conc_sets = [(k, t, k == "P" and t != exposed, False) for k, t in sets]
            all_sets = meld_sets + conc_sets
            found = _detect_regular(all_sets, pair, comp_keys, comp, seat_wind, concealed_hand, nine_gates)
            res = _score(found + incidental, rows, chicken, limit)
            res["shape"] = "regular"
            res["arrangement"] = {
                "sets": [_set_out(k, t, c, kg, True) for k, t, c, kg in meld_sets]
                + [_set_out(k, t, c, kg, False) for k, t, c, kg in conc_sets],
                "pair": tile_name(pair),
            }
            candidates.append(res)

    if not hand.melds and _is_seven_pairs(counts, options.get("seven_pairs_quad", True)):
        found = cast(list[Found], [(k, None) for k in comp_keys]) + [("seven_pairs", None)]
        if comp["all_term"]:
            found.append(("pure_greater_terminals", None))
        elif comp["all_term_honor"] and comp["has_term"] and comp["honors"]:
            found.append(("mixed_greater_terminals", None))
        res = _score(found + incidental, rows, chicken, limit)
        res["shape"] = "seven_pairs"
        res["arrangement"] = {"pairs": [tile_name(t) for t in range(34) for _ in range(counts[t] // 2)]}
        candidates.append(res)
    if not hand.melds and _is_thirteen(counts):
        res = _score([("thirteen_terminals", None)] + incidental, rows, chicken, limit)
        res["shape"] = "thirteen_terminals"
        res["arrangement"] = {}
        candidates.append(res)
    if not candidates:
        return None
    best = max(candidates, key=lambda r: (r["value"], r["sum"]))
    return best


def public_result(res: dict[str, Any]) -> dict[str, Any]:
    def strip(p: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in p.items()}

    return {
        "value": res["value"],
        "patterns": [strip(p) for p in res["patterns"]],
        "other_patterns": [strip(p) for p in res["other_patterns"]],
        "sum": res["sum"],
        "limit": res["limit"],
        "chicken": res["chicken"],
        "shape": res["shape"],
        "arrangement": res["arrangement"],
    }
