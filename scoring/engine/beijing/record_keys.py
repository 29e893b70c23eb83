"""The Beijing hand record, declared once (beijing.md, settle.py's record): the engine refuses any
other key (``settle`` calls :data:`INTERFACE`'s check) and the app's record gate is built from
this same declaration."""

from __future__ import annotations

from ..interface import Interface, Key

_HAND = {"concealed": "123m456m789m234p5p", "tile": "5p"}

# A winner: ``result`` itself, or one entry of ``result.winners`` (several winners on one discard).
WINNER = {
    "winner": Key("the winner's seat, 0-3", (0, 1, 2)),
    "seat": Key("in result.winners: the winner's seat (the same as winner); chombo: the offender", (1, 2)),
    "from": Key("discard or qianggang: the discarder or the robbed player", (3,)),
    "factors": Key("the hand's factors (番種), by id or 中文 name", (["menqing", "long"], ["pinghu"], [])),
    "kongs": Key("the winner's kongs: [{type: open, concealed or added}]", ([{"type": "concealed"}], [])),
    "special": Key("a fixed-value hand: tianhu, dihu or hungang", ("tianhu", "dihu")),
    "hand": Key("the tiles: factors derived or verified (needs the 混 indicator)", (_HAND,)),
    "wildcard_indicator": Key("the tile turned up; the next tile is the 混 (wildcard)", ("1p",)),
    "wildcard": Key("the 混 itself, instead of its indicator", ("2p",)),
    "wildcards": Key("how many 混 the winning hand holds", (0, 1)),
    "hunyou": Key("混悠: the winning tile is a 混 used as itself", (False, True)),
    "winning_tile_wildcard": Key("the winning tile is a 混", (False, True)),
    "discarded_wildcard": Key("the winner discarded a 混 this hand (forfeits winning)", (False,)),
    "forfeited": Key("the winner had forfeited winning this hand (上がり放棄)", (False,)),
}

INTERFACE = Interface(
    system="beijing",
    levels={
        "record": {
            "note": Key("carried for the record: a note on the hand, kept as written", ("agreed at the table",)),
            "rules": Key(
                "the rule set: a preset name or {preset, ...overrides} (the season's, in a league)", ("beijing",)
            ),
            "dealer": Key("the dealer's seat, 0-3 (derived in a league)", (0, 1)),
            "dealer_streak": Key("how many hands the dealer has dealt in a row, from 1 (derived)", (1, 2)),
            "after_draw": Key("the hand before was a draw (上楼 trigger; derived)", (False, True)),
            "shanglou": Key("上楼 said outright: overrides the triggers", (False, True)),
            "shaozhuang": Key("焼荘 happened in the first go-around", (False,)),
            "wildcard_indicator": Key("the tile turned up; the next tile is the 混 (wildcard)", ("1p",)),
            "wildcard": Key("the 混 itself, instead of its indicator", ("2p",)),
            "result": Key("how the hand ended: type tsumo, ron, qianggang, draw or chombo", ()),
        },
        "result": {
            "type": Key("tsumo, ron, qianggang, draw or chombo", ("tsumo", "ron", "qianggang", "draw", "chombo")),
            "qianggang": Key("a ron robbing a kong (the same as type qianggang)", (True, False)),
            "claims": Key(
                "Hangzhou 包: [{by, from, count}] claims one player made from another",
                ([{"by": 1, "from": 2, "count": 3}], []),
            ),
            "winners": Key("several winners on one discard: one object each", ([{"seat": 1, "factors": ["menqing"]}],)),
            "claimed": Key("chombo: what was claimed (reverse mode)", ({"type": "tsumo", "winner": 2},)),
            **WINNER,
        },
        "winner": WINNER,
    },
)

RECORD_KEYS = INTERFACE.keys("record")
RESULT_KEYS = INTERFACE.keys("result")
WINNER_KEYS = INTERFACE.keys("winner")
check_record = INTERFACE.check
