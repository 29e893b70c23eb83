"""The Beijing 吃碰提 factor table as data (spec ``beijing.md`` §2.4, §2.6).

Every factor doubles (×2). ``kind``:

* ``"payer"``: added by the engine per payer (荘家, 提溜); never listed in a record.
* ``"hand"``: a property of the winning hand, listed in ``result.factors``.
* ``"fixed"``: a fixed-value special hand (``result.special``), paid equally by all three.
* ``"option"``: a per-table variation, off by default (see ``OPTION_DOCS``).
"""

from __future__ import annotations

from typing import Any

FACTORS: list[dict[str, Any]] = [
    {
        "id": "zhuangjia",
        "zh": "荘家",
        "pinyin": "zhuāngjiā",
        "kind": "payer",
        "doubling": 2,
        "en": "Dealer involved: doubles every payment when the dealer wins, and the dealer's own "
        "payment when a non-dealer wins (once per payer). Added by the engine.",
    },
    {
        "id": "tiliu",
        "zh": "提溜",
        "pinyin": "tíliu",
        "kind": "payer",
        "doubling": 2,
        "en": "Self-draw (incl. 槓開, and 搶槓 for scoring) doubles every payment; on a discard win "
        "the discarder's own payment is doubled instead. Added by the engine.",
    },
    {
        "id": "menqing",
        "zh": "門清",
        "pinyin": "ménqīng",
        "kind": "hand",
        "doubling": 2,
        "aliases": ["门清", "門前清", "门前清"],
        "en": "Concealed hand: no chow, pong or exposed kong (concealed kongs allowed).",
    },
    {
        "id": "meihuar",
        "zh": "没混",
        "pinyin": "méihùnr",
        "kind": "hand",
        "doubling": 2,
        "aliases": ["無混", "无混", "没混兒", "没混儿", "wuhuar"],
        "en": "No wildcard (混) in the hand, or every wildcard used at face value.",
    },
    {
        "id": "long",
        "zh": "龍",
        "pinyin": "lóng",
        "kind": "hand",
        "doubling": 2,
        "aliases": ["龙", "一条龍", "一條龍", "一条龙", "yitiaolong"],
        "en": "1-9 of one suit as three chows (123 456 789); wildcards allowed.",
    },
    {
        "id": "qidui",
        "zh": "七対",
        "pinyin": "qīduì",
        "kind": "hand",
        "doubling": 2,
        "aliases": ["七对", "七對", "七対子", "七对子", "七對子", "qiduizi"],
        "en": "Seven pairs (always also 門清; four identical tiles may count as two pairs).",
    },
    {
        "id": "haohua",
        "zh": "豪華",
        "pinyin": "háohuá",
        "kind": "hand",
        "doubling": 2,
        "repeatable": 3,
        "aliases": ["豪华", "豪華七対", "豪华七对", "豪七"],
        "en": "Per set of four identical real tiles inside a seven-pairs hand (no kong declared; "
        "no wildcard among the four). List it once per set.",
    },
    {
        "id": "zhuowu",
        "zh": "捉五魁",
        "pinyin": "zhuō wǔ kuí",
        "kind": "hand",
        "doubling": 2,
        "aliases": ["捉五"],
        "en": "Winning on a real 5m as a closed wait (4m_6m) or as the single wait of seven pairs; "
        "a wildcard cannot be the 5m.",
    },
    {
        "id": "gangkai",
        "zh": "槓開",
        "pinyin": "gàngkāi",
        "kind": "hand",
        "doubling": 2,
        "aliases": ["杠开", "槓疵", "杠上开花", "槓上開花"],
        "en": "Winning on a kong replacement tile; always a self-draw; also doubles kong points.",
    },
    {
        "id": "tianhu",
        "zh": "天和",
        "pinyin": "tiānhú",
        "kind": "fixed",
        "doubling": None,
        "aliases": ["天胡"],
        "en": "Dealer's dealt hand is complete: fixed value (default 20) from each of the three.",
    },
    {
        "id": "dihu",
        "zh": "地和",
        "pinyin": "dìhú",
        "kind": "fixed",
        "doubling": None,
        "aliases": ["地胡"],
        "en": "Non-dealer wins on the dealer's first discard: fixed value (default 20) from each of the three.",
    },
    {
        "id": "hungang",
        "zh": "混槓",
        "pinyin": "hùngàng",
        "kind": "fixed",
        "doubling": None,
        "aliases": ["混杠"],
        "en": "All four wildcards in hand (any shape): fixed value (default 20) from each of the three.",
    },
    {
        "id": "benhunlong",
        "zh": "本混龍",
        "pinyin": "běnhùnlóng",
        "kind": "option",
        "doubling": 2,
        "en": "Option benhunlong_meihuar: a 龍 in which exactly one wildcard stands in for another tile "
        "(any other wildcard at face value) and the wildcard's face is a number of the 龍's suit "
        "counts as 没混.",
    },
    {
        "id": "hunyou",
        "zh": "混悠",
        "pinyin": "hùnyōu",
        "kind": "option",
        "doubling": 2,
        "en": "Wildcard single wait (self-draw only). Option hunyou_meihuar: counts as 没混.",
    },
]

BY_ID = {f["id"]: f for f in FACTORS}
HAND_FACTORS = [f["id"] for f in FACTORS if f["kind"] == "hand"]
FIXED_HANDS = [f["id"] for f in FACTORS if f["kind"] == "fixed"]
PAYER_FACTORS = [f["id"] for f in FACTORS if f["kind"] == "payer"]

ALIASES: dict[str, str] = {}
for _f in FACTORS:
    ALIASES[_f["id"]] = _f["id"]
    ALIASES[_f["zh"]] = _f["id"]
    for _a in _f.get("aliases", []):
        ALIASES[_a] = _f["id"]
ALIASES.update({"莊家": "zhuangjia", "庄家": "zhuangjia", "zimo": "tiliu", "自摸": "tiliu"})


def zh_name(fid: str) -> str:
    f = BY_ID.get(fid)
    return f["zh"] if f else fid
