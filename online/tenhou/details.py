"""What a Tenhou record says about each hand beyond its settlement: the yaku of each win, its dora
(dora, red fives, ura dora, from the yaku list), whether each seat called a tile (chi, pon, an
open or added kan: the hand is open; a concealed kan keeps it closed) and on which of its own
discards each riichi was declared. Kept with the hands at import (``stats.models.HandDetail``)
so the statistics can count them (docs/statistics.md).

Read from the same two formats as :mod:`.parse`, one entry per hand in the same order:
``{"winners": [{"seat", "yaku": [key, ...], "dora": n}], "open": [seat, ...],
"riichi_turns": {seat: n}}``. Yaku keys are those of :data:`YAKU_BY_ID` (Tenhou's own numbering
of its yaku in the mjlog ``yaku=`` attribute, documented by the record format's readers, e.g.
https://github.com/MahjongRepository/tenhou-log and tenhou.net/6's yaku names)."""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree import ElementTree

from .parse import JSON_YAKU, TenhouError, parse_record

# Tenhou's yaku numbers (mjlog) → the statistics' yaku keys; 52–54 are dora, counted apart.
YAKU_BY_ID = {
    0: "menzen_tsumo",
    1: "riichi",
    2: "ippatsu",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    7: "pinfu",
    8: "tanyao",
    9: "iipeikou",
    10: "seat_wind",
    11: "seat_wind",
    12: "seat_wind",
    13: "seat_wind",
    14: "round_wind",
    15: "round_wind",
    16: "round_wind",
    17: "round_wind",
    18: "haku",
    19: "hatsu",
    20: "chun",
    21: "double_riichi",
    22: "chiitoitsu",
    23: "chanta",
    24: "ittsu",
    25: "sanshoku",
    26: "sanshoku_doukou",
    27: "sankantsu",
    28: "toitoi",
    29: "sanankou",
    30: "shousangen",
    31: "honroutou",
    32: "ryanpeikou",
    33: "junchan",
    34: "honitsu",
    35: "chinitsu",
    36: "renhou",
    37: "tenhou",
    38: "chiihou",
    39: "daisangen",
    40: "suuankou",
    41: "suuankou",
    42: "tsuuiisou",
    43: "ryuuiisou",
    44: "chinroutou",
    45: "chuuren",
    46: "chuuren",
    47: "kokushi",
    48: "kokushi",
    49: "daisuushii",
    50: "shousuushii",
    51: "suukantsu",
}
DORA_IDS = (52, 53, 54)  # ドラ, 裏ドラ, 赤ドラ
# tenhou.net/6 writes the same yaku by their Japanese names
YAKU_BY_NAME = {
    "門前清自摸和": "menzen_tsumo",
    "立直": "riichi",
    "一発": "ippatsu",
    "槍槓": "chankan",
    "嶺上開花": "rinshan",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "役牌 白": "haku",
    "役牌 發": "hatsu",
    "役牌 中": "chun",
    "両立直": "double_riichi",
    "七対子": "chiitoitsu",
    "混全帯幺九": "chanta",
    "一気通貫": "ittsu",
    "三色同順": "sanshoku",
    "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu",
    "対々和": "toitoi",
    "三暗刻": "sanankou",
    "小三元": "shousangen",
    "混老頭": "honroutou",
    "二盃口": "ryanpeikou",
    "純全帯幺九": "junchan",
    "混一色": "honitsu",
    "清一色": "chinitsu",
    "人和": "renhou",
    "天和": "tenhou",
    "地和": "chiihou",
    "大三元": "daisangen",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou",
    "字一色": "tsuuiisou",
    "緑一色": "ryuuiisou",
    "清老頭": "chinroutou",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "chuuren",
    "国士無双": "kokushi",
    "国士無双１３面": "kokushi",
    "大四喜": "daisuushii",
    "小四喜": "shousuushii",
    "四槓子": "suukantsu",
}
DORA_NAMES = ("ドラ", "裏ドラ", "赤ドラ")
DISCARD_TAG = re.compile(r"^([DEFG])(\d+)$")


def record_details(data: bytes | str, name: str = "") -> list[dict[str, Any]]:
    """One entry per hand of the record (the hands :func:`.parse.parse_record` reads, in order)."""
    game = parse_record(data, name)  # the same checks: a record that does not parse has no details
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if game.format == "mjlog":
        if isinstance(data, bytes) and data.startswith(b"\x1f\x8b"):
            from .parse import _gunzip  # noqa: PLC0415 - the reader's own gzip bound

            text = _gunzip(data).decode("utf-8")
        out = _mjlog(text.lstrip("\ufeff \t\r\n"))
    else:
        out = _tenhou6(text.lstrip("\ufeff \t\r\n"))
    if len(out) != len(game.hands):
        raise TenhouError("malformed", "malformed record: %(where)s", where="hands and results do not pair up")
    return out


def _open_meld(m: int) -> bool:
    """An mjlog meld code (``<N m=>``): chi (bit 2), pon (bit 3), added kan (bit 4) are open; with
    none of those set it is a kan, concealed when it was called from nobody (the low two bits)."""
    if m & 0x4 or m & 0x8 or m & 0x10:
        return True
    if m & 0x20:
        return False  # a north taken aside (three-player only)
    return bool(m & 0x3)


def _mjlog(text: str) -> list[dict[str, Any]]:
    root = ElementTree.fromstring(text)
    out: list[dict[str, Any]] = []
    hand: dict[str, Any] | None = None
    discards = [0, 0, 0, 0]
    for el in root:
        tag = el.tag
        if tag == "INIT":
            hand = {"winners": [], "open": set(), "riichi_turns": {}}
            discards = [0, 0, 0, 0]
        elif hand is None:
            continue
        elif DISCARD_TAG.match(tag):
            discards["DEFG".index(tag[0])] += 1
        elif tag == "N":
            if _open_meld(int(el.get("m") or 0)):
                hand["open"].add(int(el.get("who") or 0))
        elif tag == "REACH" and el.get("step") == "1":
            seat = int(el.get("who") or 0)
            hand["riichi_turns"][seat] = discards[seat] + 1  # the next discard declares it
        elif tag == "AGARI":
            pairs = [int(x) for x in (el.get("yaku") or "").split(",") if x != ""]
            yakuman = [int(x) for x in (el.get("yakuman") or "").split(",") if x != ""]
            yaku = [YAKU_BY_ID[i] for i in pairs[0::2] if i in YAKU_BY_ID] + [
                YAKU_BY_ID[i] for i in yakuman if i in YAKU_BY_ID
            ]
            dora = sum(h for i, h in zip(pairs[0::2], pairs[1::2]) if i in DORA_IDS)
            hand["winners"].append({"seat": int(el.get("who") or 0), "yaku": yaku, "dora": dora})
            if not out or out[-1] is not hand:
                out.append(hand)
        elif tag == "RYUUKYOKU":
            out.append(hand)
    return [_finish(h) for h in out]


def _finish(hand: dict[str, Any]) -> dict[str, Any]:
    return {
        "winners": hand["winners"],
        "open": sorted(hand["open"]),
        "riichi_turns": {str(k): v for k, v in sorted(hand["riichi_turns"].items())},
    }


def _tenhou6(text: str) -> list[dict[str, Any]]:
    doc = json.loads(text)
    out = []
    for kyoku in doc["log"]:
        hand: dict[str, Any] = {"winners": [], "open": set(), "riichi_turns": {}}
        for seat in range(4):
            draws, discards = kyoku[5 + 3 * seat], kyoku[6 + 3 * seat]
            # a call is written in the draws (chi c, pon p, open kan m) or the discards (added
            # kan k; a concealed kan a keeps the hand closed)
            if any(isinstance(t, str) and re.search("[cpm]", t) for t in draws) or any(
                isinstance(t, str) and "k" in t for t in discards
            ):
                hand["open"].add(seat)
            for turn, tile in enumerate(discards, start=1):
                if isinstance(tile, str) and tile.startswith("r"):
                    hand["riichi_turns"][seat] = turn
                    break
        end = kyoku[16]
        if end[0] == "和了":
            for k in range(1, len(end) - 1, 2):
                info = end[k + 1]
                yaku, dora = [], 0
                for t in info[4:]:
                    m = JSON_YAKU.fullmatch(t.strip()) if isinstance(t, str) else None
                    if not m:
                        continue
                    name = m[1].strip()
                    if name in DORA_NAMES:
                        dora += int(m[2] or 0)
                    elif name in YAKU_BY_NAME:
                        yaku.append(YAKU_BY_NAME[name])
                hand["winners"].append({"seat": int(info[0]), "yaku": yaku, "dora": dora})
        out.append(_finish(hand))
    return out
