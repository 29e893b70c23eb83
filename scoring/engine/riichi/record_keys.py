"""The riichi hand record, declared once (docs/engine-interfaces.md, settlement contract): the
engine refuses any other key (``settle`` calls :data:`INTERFACE`'s check) and the app's record
gate is built from this same declaration."""

from __future__ import annotations

from ..interface import Interface, Key

_HAND = {"concealed": "123m456m789m234p5p", "tile": "5p"}
_HAND_OPEN = {"concealed": "456m789m234p5p", "melds": [{"type": "chi", "tiles": "123m"}], "tile": "5p"}

# A winner: one entry of ``result.winners`` (a ron, one per winner), ``result.winner`` when it is
# an object (a tsumo), or ``result`` itself in the flat tsumo form ``{"type": "tsumo", "winner": 1, "han": ..}``.
WINNER = {
    "seat": Key("the winner's seat, 0-3 (seat 0 is the first dealer)", (1, 2, 3)),
    "han": Key("the hand's han (with fu), or leave it out and give yakuman or the tiles", (1, 2, 3, 4, 5, 13)),
    "fu": Key("the hand's fu: 20, 25 or a multiple of 10 up to 110 (not needed from mangan up)", (30, 40, 25, 20)),
    "yakuman": Key("how many yakuman the hand is (1 single, 2 double ...)", (1, 2)),
    "pao": Key("the seat liable for the yakuman (sekinin barai)", (0, 2)),
    "pao_yakuman": Key("how many of the hand's yakuman carry the liability (default: all)", (1,)),
    "hand": Key("the tiles, valued by the engine: concealed tiles, melds, winning tile", (_HAND, _HAND_OPEN)),
    "tsumo": Key("with hand: the win is a self-draw (the result's type says it too)", (False,)),
    "seat_wind": Key("with hand: the winner's wind (default from the dealer)", ("2z",)),
    "round_wind": Key("with hand: the round wind (default East)", ("1z", "2z")),
    "dealer": Key("with hand: the dealer's seat, for the seat wind", (0,)),
    "dora_indicators": Key("with hand: the dora indicators shown", (["3m"], [])),
    "ura_indicators": Key("with hand: the ura dora indicators (after riichi)", (["9s"], [])),
    "flags": Key(
        "with hand: the situation yaku (riichi, ippatsu, haitei, rinshan, chankan ...)", ({"riichi": True}, {})
    ),
    "aka": Key("with hand: how many red fives the hand holds", (0, 1)),
    "yaku": Key("carried for the record: the yaku named (the engine values han, fu or the tiles)", (["riichi"],)),
    "limit": Key("carried for the record: the limit named (mangan ...)", ("mangan",)),
}

INTERFACE = Interface(
    system="riichi",
    levels={
        "record": {
            "note": Key("carried for the record: a note on the hand, kept as written", ("agreed at the table",)),
            "rules": Key("the rule set: a preset name or {preset, ...overrides} (the season's, in a league)", ("wrc",)),
            "dealer": Key("the dealer's seat, 0-3 (derived from the hand before, in a league)", (0, 1, 2, 3)),
            "honba": Key("the repeat counters on the table (derived)", (0, 1, 2)),
            "deposits": Key("riichi sticks left on the table before this hand (derived)", (0, 1, 2)),
            "riichi": Key("the seats that declared riichi this hand", ([2], [], [0, 1])),
            "result": Key("how the hand ended: an object with type ron, tsumo, draw, abortive or chombo", ()),
            "game_end": Key("instead of result: a finished game's raw scores, for league points", ()),
            "round_wind": Key("carried for the record: the round wind", ("1z",)),
            "seat_wind": Key("carried for the record: seat winds", ("1z",)),
            "dora_indicators": Key("carried for the record: the dora indicators", (["3m"],)),
            "ura_indicators": Key("carried for the record: the ura dora indicators", (["9s"],)),
        },
        "result": {
            "type": Key("ron, tsumo, draw, abortive or chombo", ("ron", "tsumo", "draw", "abortive", "chombo")),
            "from": Key("ron: the seat that discarded the winning tile", (3, 0)),
            "winners": Key(
                "ron: the winners, one object each (several on one discard)", ([{"seat": 1, "han": 3, "fu": 40}],)
            ),
            "winner": Key(
                "tsumo: the winner, an object (or a seat, with the winner's keys in result)",
                ({"seat": 1, "han": 1, "fu": 30}, 1),
            ),
            "tenpai": Key("draw: the seats in tenpai", ([0, 2], [])),
            "nagashi": Key("draw: the seats with nagashi mangan", ([1],)),
            "reason": Key(
                "abortive: why (kyuushu, suufon, suukan, suucha, sanchahou)",
                ("kyuushu", "suufon", "suucha", "suukan", "sanchahou"),
            ),
            "seat": Key("chombo: the seat that committed it", (2,)),
            "tile": Key("carried for the record: the winning tile", ("5p",)),
            "tiles": Key("carried for the record: the tiles shown", ("123m",)),
            "melds": Key("carried for the record: the melds", ([],)),
            "claimed": Key("carried for the record: the claims made", ([],)),
            **WINNER,
        },
        "winner": WINNER,
    },
)

RECORD_KEYS = INTERFACE.keys("record")
RESULT_KEYS = INTERFACE.keys("result")
WINNER_KEYS = INTERFACE.keys("winner")
check_record = INTERFACE.check
