"""The Zung Jung hand record, declared once (zung-jung.md, settlement contract): the engine
refuses any other key (``settle`` calls :data:`INTERFACE`'s check) and the app's record gate is
built from this same declaration."""

from __future__ import annotations

from ..interface import Interface, Key
from .hand import FLAG_ALIASES, FLAG_NAMES

_HAND = {"concealed": "123m456m789m234p5p", "tile": "5p"}
_FLAG_DOCS = {
    "final_tile": "a win on the last tile of the wall or its discard (zung-jung.md 9.1)",
    "kong_replacement": "a self-draw on a kong's replacement tile (9.2); needs a kong among the melds",
    "robbing_kong": "a win robbing a kong (9.3); a win on a discard",
    "heaven": "Blessing of Heaven (9.4.1): East's self-draw on the dealt tiles, no melds",
    "earth": "Blessing of Earth (9.4.2): a win on East's first discard, no melds",
}
# the flags: said by their names, or by the words other tables use for them (hand.py's aliases)
_FLAGS = {name: Key(_FLAG_DOCS[name], (True, False)) for name in FLAG_NAMES}
_FLAGS.update({alias: Key(f"the same as {canon}", (True,)) for alias, canon in FLAG_ALIASES.items()})

INTERFACE = Interface(
    system="zung-jung",
    levels={
        "record": {
            "note": Key("carried for the record: a note on the hand, kept as written", ("agreed at the table",)),
            "rules": Key(
                "the rule set: a preset name or {preset, ...overrides} (the season's, in a league)", ("zung-jung",)
            ),
            "dealer": Key("East's seat, 0-3, for the winner's seat wind when the tiles are given", (0, 1)),
            "result": Key("how the hand ended: an object with type self_draw, discard or draw", ()),
        },
        "result": {
            "type": Key(
                "self_draw, discard or draw (tsumo, ron, exhaustive_draw also read)", ("self_draw", "discard", "draw")
            ),
            "winner": Key("the winner's seat, 0-3", (0, 1, 2)),
            "from": Key("discard: the seat that discarded the winning tile", (3, 1)),
            "value": Key("the hand's value in points (or give the tiles in hand)", (25, 40, 80, 320)),
            "earlier": Key(
                "earlier discards the winner passed on the same turn: [{seat, tile, value}]",
                ([{"seat": 1, "tile": "4m", "value": 40}],),
            ),
            "seat_wind": Key("the winner's wind, when the tiles are given (default from the dealer)", ("1z", 2)),
            "hand": Key("the tiles, valued by the engine: concealed, melds, winning tile (and the flags)", (_HAND,)),
            "tile": Key("the winning tile (needed with earlier)", ("5p", "1m")),
            "tiles": Key("carried for the record: the tiles shown", ("123m",)),
            "melds": Key("carried for the record: the melds", ([],)),
            "limit": Key("carried for the record: the limit named", ("listed",)),
            "seat": Key("carried for the record: a seat", (0,)),
            "claimed": Key("carried for the record: the claims made", ([],)),
            **_FLAGS,
        },
    },
)

RECORD_KEYS = INTERFACE.keys("record")
RESULT_KEYS = INTERFACE.keys("result")
check_record = INTERFACE.check
