"""Tile-level riichi hand evaluation through the ``mahjong`` package (2.1.0).

``evaluate_hand(winner, options, *, tsumo, field)`` turns a winning hand given as tiles into
han / fu / yakuman and the list of yaku. Pure Python, no Django.

Winner input
------------
::

    {"seat": 1,
     "hand": {"concealed": "123m456p789s1122z",   # tiles in hand, NOT the winning tile
              "melds": [{"type": "chi" | "pon" | "kan" | "ankan" | "shouminkan",
                         "tiles": "123m"}],       # a kan is written with its 4 tiles: "5555m"
              "tile": "2z"},                      # the winning tile
     "dora_indicators": ["1m"], "ura_indicators": [],
     "seat_wind": "2z",     # or derived from "seat" and "dealer" (key of the winner, or the
                            # ``dealer=`` argument)
     "round_wind": "1z",    # default East
     "flags": {"riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan",
               "chankan", "tenhou", "chiihou", "renhou"},   # booleans, all default false
     "aka": 0}              # red fives held (optional; must not exceed the fives held nor
                            # the rule set's ``aka_dora`` count)

``"kan"`` is an open kan called on a discard (daiminkan), ``"shouminkan"`` an added kan (open),
``"ankan"`` a concealed kan (the hand stays closed). Concealed tiles + winning tile + 3 per meld
(a kan counts as 3 here) must make 14.

Result
------
::

    {"han": 3, "fu": 30,            # han includes dora; fu as the mahjong package computes it
     "yakuman": 0,                  # k-fold yakuman (0 = none; caps applied); when > 0 use it:
                                    # han is then 13 × yakuman and fu is meaningless
     "yaku": [{"name": "Riichi", "romaji": "Riichi", "han": 1}, ...],   # dora not included
     "yaku_han": 2,                 # han from yaku alone (what min_han is checked against)
     "dora": 1,                     # dora + red fives + ura dora
     "dora_detail": {"dora": 1, "aka": 0, "ura": 0},
     "kazoe": False,                # 13+ han, no real yakuman, and kazoe_yakuman is on
     "fu_details": [{"fu": 20, "reason": "base"}, ...],
     "open": False}

Han is reported as is even at 13 or more: the settlement applies ``kazoe_yakuman`` (yakuman
or sanbaiman) and the limits. Options read (all with defaults): ``kuitan`` (True),
``kiriage`` (False), ``kazoe_yakuman`` (True), ``aka_dora`` (0), ``double_yakuman`` (True:
13-sided kokushi, single-wait suuankou, pure nine gates and daisuushii count double),
``max_yakuman_multiple`` (6; 1 = every yakuman hand counts single, stacked ones too),
``min_han`` (1), ``renhou`` (None/False/"none" = not a yaku, "mangan"/True = 5 han,
"yakuman"), ``ippatsu`` (True), ``ura_dora`` (True), ``kan_dora`` (True; False = only the
first indicator counts), ``double_wind_fu`` (4; 2 = a double-wind pair is worth 2 fu).

Errors are :class:`SettlementError` naming ``{field}.hand`` (tile count, "not a complete hand",
"no yaku") or the offending sub-field.

Pitfalls of mahjong 2.1.0 handled here: the 136-array is built from 34-indices choosing
non-red copies first (copy 0 of each five is the red one) and red fives are counted by this
module from ``aka``, never by the library (``has_aka_dora`` stays False); different yakuman
always stack in the library, so ``max_yakuman_multiple``/``double_yakuman`` caps are applied
here.
"""

from __future__ import annotations

from typing import Any, cast

from functools import lru_cache

from mahjong.constants import EAST
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

from ..errors import SettlementError
from ..tiles import parse_tile, parse_tiles, tile_name

__all__ = ["evaluate_hand", "parse_winner_hand", "optional_rules", "YAKU_EN"]

FLAG_NAMES = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
)

MELD_TYPES = ("chi", "pon", "kan", "ankan", "shouminkan")

# mahjong package yaku_id → English name.
YAKU_EN = {
    0: "Fully concealed hand (self-draw)",
    1: "Riichi",
    2: "Open riichi",
    3: "Ippatsu (one-shot)",
    4: "Robbing a kan",
    5: "After a kan (dead wall draw)",
    6: "Under the sea (last tile draw)",
    7: "Under the river (last discard)",
    8: "Double riichi",
    9: "Double open riichi",
    10: "Nagashi mangan",
    11: "Blessing of man",
    12: "Pinfu (no-points hand)",
    13: "All simples",
    14: "Pure double sequence",
    15: "Dragon pung: white",
    16: "Dragon pung: green",
    17: "Dragon pung: red",
    18: "Seat wind: East",
    19: "Seat wind: South",
    20: "Seat wind: West",
    21: "Seat wind: North",
    22: "Round wind: East",
    23: "Round wind: South",
    24: "Round wind: West",
    25: "Round wind: North",
    26: "Mixed triple sequence",
    27: "Pure straight",
    28: "Half outside hand",
    29: "All terminals and honors",
    30: "All triplets",
    31: "Three concealed triplets",
    32: "Three kans",
    33: "Triple triplets",
    34: "Seven pairs",
    35: "Little three dragons",
    36: "Half flush",
    37: "Fully outside hand",
    38: "Twice pure double sequence",
    39: "Full flush",
    100: "Thirteen orphans",
    101: "Nine gates",
    102: "Four concealed triplets",
    103: "Big three dragons",
    104: "Little four winds",
    105: "All green",
    106: "Four kans",
    107: "All honors",
    108: "All terminals",
    109: "Big wheels",
    110: "Big seven stars",
    111: "Big four winds",
    112: "Thirteen orphans (13-sided wait)",
    113: "Four concealed triplets (single wait)",
    114: "True nine gates",
    115: "Blessing of heaven",
    116: "Blessing of earth",
    117: "Blessing of man (yakuman)",
    118: "Sashikomi",
    119: "Eight consecutive dealer wins",
    120: "Dora",
    121: "Red fives",
    122: "Ura dora",
}
_DORA_IDS = {120: "dora", 121: "aka", 122: "ura"}

_FIVES = (4, 13, 22)  # 34-indices of 5m 5p 5s; their copy 0 in 136-format is the red five


# ---------------------------------------------------------------------------
# options → OptionalRules (cached)


def _renhou_mode(options: dict[str, Any]) -> str | None:
    value = options.get("renhou", None)
    if value in (None, False, "none", "off", "no", 0):
        return None
    if value in ("yakuman",):
        return "yakuman"
    return "mangan"


def _yakuman_cap(options: dict[str, Any]) -> int:
    """Largest yakuman multiple: ``max_yakuman_multiple`` (default 6, the mahjong package's cap)."""
    cap = options.get("max_yakuman_multiple", None)
    if isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1:
        return min(cap, 6)
    return 6


@lru_cache(maxsize=64)
def _optional_rules_cached(
    kuitan: bool,
    kazoe: bool,
    kiriage: bool,
    double: bool,
    renhou_yakuman: bool,
) -> OptionalRules:
    return OptionalRules(
        has_open_tanyao=kuitan,
        has_aka_dora=False,  # red fives are counted here, from the winner's "aka"
        has_double_yakuman=double,
        kazoe_limit=HandConstants.KAZOE_LIMITED if kazoe else HandConstants.KAZOE_SANBAIMAN,
        kiriage=kiriage,
        renhou_as_yakuman=renhou_yakuman,
    )


def optional_rules(options: dict[str, Any]) -> OptionalRules:
    """The mahjong package's :class:`OptionalRules` for a riichi option dict (cached)."""
    return _optional_rules_cached(
        bool(options.get("kuitan", True)),
        bool(options.get("kazoe_yakuman", True)),
        bool(options.get("kiriage", False)),
        bool(options.get("double_yakuman", True)) and _yakuman_cap(options) > 1,
        _renhou_mode(options) == "yakuman",
    )


# ---------------------------------------------------------------------------
# parsing


def _parse_meld(meld: Any, field: str) -> tuple[str, list[int]]:
    if not isinstance(meld, dict):
        raise SettlementError(field, 'a meld is an object {"type": ..., "tiles": ...}')
    kind = meld.get("type")
    if kind not in MELD_TYPES:
        raise SettlementError(f"{field}.type", f"expected one of {', '.join(MELD_TYPES)}, got {kind!r}")
    tiles = sorted(parse_tiles(meld.get("tiles"), f"{field}.tiles"))
    if kind == "chi":
        ok = (
            len(tiles) == 3
            and tiles[0] < 27
            and tiles[0] // 9 == tiles[2] // 9
            and tiles[1] == tiles[0] + 1
            and tiles[2] == tiles[0] + 2
        )
        if not ok:
            raise SettlementError(
                f"{field}.tiles", f"a chi is three consecutive tiles of one suit, got {meld.get('tiles')!r}"
            )
    elif kind == "pon":
        if len(tiles) != 3 or len(set(tiles)) != 1:
            raise SettlementError(f"{field}.tiles", f"a pon is three identical tiles, got {meld.get('tiles')!r}")
    else:
        if len(tiles) != 4 or len(set(tiles)) != 1:
            raise SettlementError(f"{field}.tiles", f"a kan is four identical tiles, got {meld.get('tiles')!r}")
    return kind, tiles


def parse_winner_hand(hand: Any, field: str) -> tuple[list[int], list[tuple[str, list[int]]], int]:
    """``hand`` object → (concealed 34-indices, [(meld type, 34-indices)], winning tile).

    Checks the tile count (14 with kans counted as 3) and that no tile appears more than 4 times.
    """
    if not isinstance(hand, dict):
        raise SettlementError(field, 'expected an object with "concealed", "melds" and "tile"')
    if "concealed" not in hand:
        raise SettlementError(f"{field}.concealed", "missing: the tiles in hand, without the winning tile")
    if "tile" not in hand or hand["tile"] in (None, ""):
        raise SettlementError(f"{field}.tile", "missing: the winning tile")
    concealed = parse_tiles(hand["concealed"], f"{field}.concealed")
    win = parse_tile(hand["tile"], f"{field}.tile")
    melds_in = hand.get("melds") or []
    if not isinstance(melds_in, list):
        raise SettlementError(f"{field}.melds", "expected a list of melds")
    melds = [_parse_meld(m, f"{field}.melds[{i}]") for i, m in enumerate(melds_in)]
    if len(melds) > 4:
        raise SettlementError(f"{field}.melds", f"at most 4 melds, got {len(melds)}")
    count = len(concealed) + 1 + 3 * len(melds)
    if count != 14:
        raise SettlementError(
            field,
            f"wrong number of tiles: {len(concealed)} concealed + 1 winning tile + "
            f"{len(melds)} meld(s) × 3 = {count}, a winning hand has 14 (a kan counts as 3)",
        )
    counts = [0] * 34
    for t in concealed + [win] + [t for _, ts in melds for t in ts]:
        counts[t] += 1
    over = [tile_name(t) for t in range(34) if counts[t] > 4]
    if over:
        raise SettlementError(field, f"more than four of the same tile: {', '.join(over)}")
    return concealed, melds, win


def _wind(value: Any, field: str) -> int:
    tile = parse_tile(value, field)
    if not 27 <= tile <= 30:
        raise SettlementError(field, f"a wind is 1z..4z (East..North), got {value!r}")
    return tile


def _flags(winner: dict[str, Any], field: str) -> dict[str, bool]:
    raw = winner.get("flags") or {}
    if isinstance(raw, (list, tuple)):
        raw = {name: True for name in raw}
    if not isinstance(raw, dict):
        raise SettlementError(f"{field}.flags", 'expected an object of booleans such as {"riichi": true}')
    unknown = sorted(set(raw) - set(FLAG_NAMES))
    if unknown:
        raise SettlementError(f"{field}.flags.{unknown[0]}", f"unknown flag; known: {', '.join(FLAG_NAMES)}")
    return {name: bool(raw.get(name, False)) for name in FLAG_NAMES}


def _indicators(value: Any, field: str) -> list[int]:
    if value in (None, ""):
        return []
    return parse_tiles(value, field)


# ---------------------------------------------------------------------------
# evaluation


class _Copies:
    """Hands out 136-format copies of 34-index tiles: plain copies first, red five last."""

    def __init__(self) -> None:
        self.used = [0] * 34

    def take(self, tile: int) -> int:
        n = self.used[tile]
        self.used[tile] += 1
        # copy order 1, 2, 3, 0: copy 0 of a five is the red one in the mahjong package
        return tile * 4 + (n + 1) % 4


_LIB_ERRORS = {
    HandCalculator.ERR_OPEN_HAND_RIICHI: ("flags.riichi", "riichi with an open hand"),
    HandCalculator.ERR_OPEN_HAND_DABURI: ("flags.double_riichi", "double riichi with an open hand"),
    HandCalculator.ERR_IPPATSU_WITHOUT_RIICHI: ("flags.ippatsu", "ippatsu without riichi"),
    HandCalculator.ERR_CHANKAN_WITH_TSUMO: ("flags.chankan", "robbing a kan is a ron, not a self-draw"),
    HandCalculator.ERR_RINSHAN_WITHOUT_TSUMO: ("flags.rinshan", "a win after a kan is a self-draw"),
    HandCalculator.ERR_HAITEI_WITHOUT_TSUMO: ("flags.haitei", "haitei is a self-draw win"),
    HandCalculator.ERR_HOUTEI_WITH_TSUMO: ("flags.houtei", "houtei is a ron win"),
    HandCalculator.ERR_HAITEI_WITH_RINSHAN: ("flags.haitei", "haitei and rinshan cannot both apply"),
    HandCalculator.ERR_HOUTEI_WITH_CHANKAN: ("flags.houtei", "houtei and chankan cannot both apply"),
    HandCalculator.ERR_TENHOU_NOT_AS_DEALER: ("flags.tenhou", "tenhou is for the dealer only"),
    HandCalculator.ERR_TENHOU_WITHOUT_TSUMO: ("flags.tenhou", "tenhou is a self-draw win"),
    HandCalculator.ERR_TENHOU_WITH_MELD: ("flags.tenhou", "tenhou with a meld"),
    HandCalculator.ERR_CHIIHOU_AS_DEALER: ("flags.chiihou", "chiihou is for a non-dealer only"),
    HandCalculator.ERR_CHIIHOU_WITHOUT_TSUMO: ("flags.chiihou", "chiihou is a self-draw win"),
    HandCalculator.ERR_CHIIHOU_WITH_MELD: ("flags.chiihou", "chiihou with a meld"),
    HandCalculator.ERR_RENHOU_AS_DEALER: ("flags.renhou", "renhou is for a non-dealer only"),
    HandCalculator.ERR_RENHOU_WITH_TSUMO: ("flags.renhou", "renhou is a ron win"),
    HandCalculator.ERR_RENHOU_WITH_MELD: ("flags.renhou", "renhou with a meld"),
}


def evaluate_hand(
    winner: dict[str, Any],
    options: dict[str, Any],
    *,
    tsumo: bool | None = None,
    field: str = "winner",
    dealer: int | None = None,
) -> dict[str, Any]:
    """Value a winning hand given as tiles (see the module docstring for input and output).

    ``tsumo``: self-draw (default: ``winner["tsumo"]``, else False). ``field``: the dotted path
    of ``winner`` in the record, used in error messages. ``dealer``: the dealer's seat, used
    to derive the seat wind when ``winner`` has no ``seat_wind``.
    """
    if not isinstance(winner, dict):
        raise SettlementError(field, "expected an object")
    options = options or {}
    if tsumo is None:
        tsumo = bool(winner.get("tsumo", False))

    concealed, melds, win = parse_winner_hand(winner.get("hand"), f"{field}.hand")
    flags = _flags(winner, field)

    # winds
    if winner.get("seat_wind") not in (None, ""):
        seat_wind = _wind(winner["seat_wind"], f"{field}.seat_wind")
    else:
        d = winner.get("dealer", dealer)
        seat = winner.get("seat")
        if not (isinstance(d, int) and isinstance(seat, int) and 0 <= d <= 3 and 0 <= seat <= 3):
            raise SettlementError(f"{field}.seat_wind", "missing: give seat_wind (1z..4z) or seat and dealer")
        seat_wind = EAST + (seat - d) % 4
    round_wind = _wind(winner.get("round_wind") or "1z", f"{field}.round_wind")

    dora_ind = _indicators(winner.get("dora_indicators"), f"{field}.dora_indicators")
    ura_ind = _indicators(winner.get("ura_indicators"), f"{field}.ura_indicators")
    if not options.get("kan_dora", True):  # only the first indicator of each kind counts
        dora_ind, ura_ind = dora_ind[:1], ura_ind[:1]
    if not options.get("ura_dora", True):
        ura_ind = []
    if not options.get("ippatsu", True):
        flags["ippatsu"] = False

    # red fives: counted here, not by the library
    aka = winner.get("aka", 0) or 0
    if not isinstance(aka, int) or isinstance(aka, bool) or aka < 0:
        raise SettlementError(f"{field}.aka", f"expected a count of red fives held, got {aka!r}")
    all_tiles = concealed + [win] + [t for _, ts in melds for t in ts]
    if aka:
        allowed = options.get("aka_dora", 0) or 0
        if aka > allowed:
            raise SettlementError(f"{field}.aka", f"{aka} red five(s) held but this rule set has {allowed}")
        fives = sum(1 for t in all_tiles if t in _FIVES)
        if aka > fives:
            raise SettlementError(f"{field}.aka", f"{aka} red five(s) held but the hand has only {fives} five(s)")

    # 136-format, plain copies first
    copies = _Copies()
    lib_melds = []
    meld_136: list[int] = []
    for kind, ts in melds:
        ids = [copies.take(t) for t in ts]
        meld_136 += ids
        if kind == "chi":
            lib_melds.append(Meld(Meld.CHI, ids, opened=True))
        elif kind == "pon":
            lib_melds.append(Meld(Meld.PON, ids, opened=True))
        elif kind == "ankan":
            lib_melds.append(Meld(Meld.KAN, ids, opened=False))
        elif kind == "shouminkan":
            lib_melds.append(Meld(Meld.SHOUMINKAN, ids, opened=True))
        else:
            lib_melds.append(Meld(Meld.KAN, ids, opened=True))
    concealed_136 = [copies.take(t) for t in concealed]
    win_136 = copies.take(win)
    tiles_136 = concealed_136 + [win_136] + meld_136
    ind_copies = _Copies()
    dora_136 = [ind_copies.take(t) for t in dora_ind]
    ura_136 = [ind_copies.take(t) for t in ura_ind]

    renhou = _renhou_mode(options)
    config = HandConfig(
        is_tsumo=bool(tsumo),
        is_riichi=flags["riichi"] or flags["double_riichi"],
        is_ippatsu=flags["ippatsu"],
        is_rinshan=flags["rinshan"],
        is_chankan=flags["chankan"],
        is_haitei=flags["haitei"],
        is_houtei=flags["houtei"],
        is_daburu_riichi=flags["double_riichi"],
        is_tenhou=flags["tenhou"],
        is_chiihou=flags["chiihou"],
        is_renhou=flags["renhou"] and renhou is not None,
        player_wind=seat_wind,
        round_wind=round_wind,
        options=optional_rules(options),
    )
    result = HandCalculator.estimate_hand_value(
        tiles_136,
        win_136,
        melds=lib_melds,
        dora_indicators=dora_136,
        config=config,
        ura_dora_indicators=ura_136,
    )
    hand_text = _describe(concealed, melds, win)
    if result.error:
        if result.error == HandCalculator.ERR_HAND_NOT_WINNING:
            raise SettlementError(f"{field}.hand", f"not a complete hand: {hand_text}")
        if result.error == HandCalculator.ERR_NO_YAKU:
            raise SettlementError(f"{field}.hand", f"no yaku in {hand_text} (dora alone are not a yaku)")
        sub, msg = _LIB_ERRORS.get(result.error, ("hand", result.error))
        raise SettlementError(f"{field}.{sub}", msg)

    is_open = any(kind not in ("ankan",) for kind, _ in melds)
    yaku: list[dict[str, Any]] = []
    dora_detail = {"dora": 0, "aka": 0, "ura": 0}
    yakuman_han = 0
    for y in result.yaku or []:
        han = y.han_open if (is_open and y.han_open) else y.han_closed
        if y.yaku_id in _DORA_IDS:
            dora_detail[_DORA_IDS[y.yaku_id]] += han
            continue
        if y.is_yakuman:
            yakuman_han += han
        yaku.append({"name": YAKU_EN.get(y.yaku_id, y.name), "romaji": y.name, "han": han})

    yakuman = min(yakuman_han // 13, _yakuman_cap(options))
    if yakuman:
        dora_detail = {"dora": 0, "aka": 0, "ura": 0}
        yaku_han = yakuman_han
    else:
        yaku_han = sum(y["han"] for y in yaku)
        if aka and options.get("aka_dora", 0):
            dora_detail["aka"] = aka
        min_han = options.get("min_han", 1) or 1
        if yaku_han < min_han:
            raise SettlementError(
                f"{field}.hand",
                f"no yaku worth the minimum of {min_han} han in {hand_text}: the yaku make {yaku_han} "
                f"(dora do not count)",
            )
    dora = sum(dora_detail.values())

    fu = result.fu
    fu_details = [dict(d) for d in (result.fu_details or [])]
    double_wind_fu = options.get("double_wind_fu", 4)
    if double_wind_fu != 4 and fu_details and fu != 25:
        changed = False
        for d in fu_details:
            if d.get("reason") == FuCalculator.DOUBLE_VALUED_PAIR:
                d["fu"] = double_wind_fu
                changed = True
        if changed:
            fu = (sum(cast(int, d["fu"]) for d in fu_details) + 9) // 10 * 10
    han = 13 * yakuman if yakuman else yaku_han + dora
    return {
        "han": han,
        "fu": fu,
        "yakuman": yakuman,
        "yaku": yaku,
        "yaku_han": yaku_han,
        "dora": dora,
        "dora_detail": dora_detail,
        "kazoe": not yakuman and han >= 13 and bool(options.get("kazoe_yakuman", True)),
        "fu_details": fu_details,
        "open": is_open,
    }


def _describe(concealed: list[int], melds: list[tuple[str, list[int]]], win: int) -> str:
    from ..tiles import tiles_to_string

    parts = [tiles_to_string(concealed)]
    parts += [f"[{kind} {tiles_to_string(ts)}]" for kind, ts in melds]
    return " ".join(p for p in parts if p) + f" + {tile_name(win)}"
