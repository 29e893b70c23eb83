"""Zung Jung settlement: payoff schemes and same-turn immunity, with seed 000's four worked examples."""

import pytest

from scoring.engine import settle as dispatch_settle
from scoring.engine.errors import SettlementError
from scoring.engine.zung_jung import resolve, settle

MODES = ("none", "ordinary", "precise", "precise_multiwait")


def run(result, **rules):
    return settle({"result": result}, resolve({"preset": "zung-jung", **rules}))


# ---------------------------------------------------------------- seed 000 examples (winner = East = seat 0)
# Seats: 0 East, 1 South, 2 West, 3 North. Expected deltas per liability mode.

EX1_VALUES = {
    "type": "discard",
    "winner": 0,
    "from": 1,
    "tile": "4m",
    "value": 480,
    "earlier": [{"seat": 0, "tile": "4m", "value": 85}],
}
EX1_HAND = {
    "type": "discard",
    "winner": 0,
    "from": 1,
    "tile": "4m",
    "hand": {"concealed": "1112345678999m"},
    "earlier": [{"seat": 0, "tile": "4m"}],
}
EX1 = {
    "precise": [1440, -1270, -85, -85],  # S0: South 395×3 + 85 = 1270, West 85, North 85
    "precise_multiwait": [1440, -1270, -85, -85],
    "ordinary": [1440, -480, -480, -480],  # own 4m first in the window: settled as a self-draw
    "none": [1440, -(25 + 3 * 455), -25, -25],
}

EX2_VALUES = {
    "type": "discard",
    "winner": 0,
    "from": 3,
    "tile": "7p",
    "value": 45,
    "earlier": [{"seat": 2, "tile": "4p", "value": 10}],
}
EX2_HAND = {
    "type": "discard",
    "winner": 0,
    "from": 3,
    "tile": "7p",
    "hand": {"concealed": "234s567m56p33p", "melds": [{"type": "chow", "tiles": "567s"}]},
    "earlier": [{"seat": 2, "tile": "4p"}],
}
EX2 = {m: [135, -25, -25, -85] for m in MODES}  # S0: North 85, South 25, West 25 in every reading

EX3_VALUES = {
    "type": "discard",
    "winner": 0,
    "from": 3,
    "tile": "1m",
    "value": 80,
    "earlier": [{"seat": 1, "tile": "4m", "value": 40}],
}
EX3_HAND = {
    "type": "discard",
    "winner": 0,
    "from": 3,
    "tile": "1m",
    "hand": {
        "concealed": "23m789m中中",
        "melds": [{"type": "pung", "tiles": "北北北"}, {"type": "chow", "tiles": "456m"}],
    },
    "earlier": [{"seat": 1, "tile": "4m"}],
}
EX3 = {
    "precise_multiwait": [240, -70, -25, -145],  # S0: North 145, South 70, West 25
    "precise": [240, -25, -25, -190],  # 4m is not the winning tile
    "ordinary": [240, -25, -25, -190],
    "none": [240, -25, -25, -190],
}

EX4_VALUES = {
    "type": "discard",
    "winner": 0,
    "from": 3,
    "tile": "4s",
    "value": 50,
    "earlier": [
        {"seat": 0, "tile": "4s", "value": 40},
        {"seat": 1, "tile": "4s", "value": 40},
        {"seat": 2, "tile": "1s", "value": 90},
    ],
}
EX4_HAND = {
    "type": "discard",
    "winner": 0,
    "from": 3,
    "tile": "4s",
    "final_tile": True,
    "hand": {
        "concealed": "789p23s11m",
        "melds": [{"type": "chow", "tiles": "789s"}, {"type": "chow", "tiles": "789m"}],
    },
    "earlier": [{"seat": 0, "tile": "4s"}, {"seat": 1, "tile": "4s"}, {"seat": 2, "tile": "1s"}],
}
EX4 = {
    "precise_multiwait": [150, -40, -70, -40],  # S0: West 70, South 40, North 40
    "precise": [150, -40, -40, -70],  # 1s ignored: North covers 40→50 (3×10)
    "ordinary": [150, -50, -50, -50],  # own 4s first: settled as a self-draw
    "none": [150, -25, -25, -100],
}

EXAMPLES = [
    ("ex1", EX1_VALUES, EX1_HAND, EX1),
    ("ex2", EX2_VALUES, EX2_HAND, EX2),
    ("ex3", EX3_VALUES, EX3_HAND, EX3),
    ("ex4", EX4_VALUES, EX4_HAND, EX4),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name,values,hand,expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_seed_examples_with_values(name, values, hand, expected, mode):
    out = run(values, liability=mode)
    assert out["deltas"] == expected[mode]
    assert sum(out["deltas"]) == 0
    assert sum(p["points"] for p in out["payments"]) == 3 * values["value"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name,values,hand,expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_seed_examples_from_tiles(name, values, hand, expected, mode):
    out = run(hand, liability=mode)
    assert out["value"] == values["value"]
    assert out["deltas"] == expected[mode]
    assert out["patterns"]


def test_seed_example_hypothetical_values_are_computed():
    out = run(EX4_HAND, liability="precise_multiwait")
    assert [e["value"] for e in out["earlier"]] == [40, 40, 90]
    assert [e["used"] for e in out["earlier"]] == [True, False, True]
    assert [(b["from"], b["to"], b["kind"], b["seat"]) for b in out["bands"]] == [
        (0, 40, "self", None),
        (40, 50, "liable", 2),
    ]
    assert {p["zh"] for p in out["patterns"]} == {"三色同順", "平和", "河底撈魚"}
    out = run(EX1_HAND, liability="precise")
    assert out["earlier"][0]["value"] == 85  # declined self-draw is never Nine Gates
    assert out["hand"]["patterns"][0]["zh"] == "九蓮寶燈"


def test_declined_nine_gates_option():
    out = run(EX1_HAND, liability="precise", declined_nine_gates=True)
    assert out["deltas"] == [1440, -480, -480, -480]


def test_contract_example_through_dispatch():
    record = {
        "rules": {"preset": "zung-jung", "liability": "precise_multiwait"},
        "result": {
            "type": "discard",
            "winner": 0,
            "from": 3,
            "tile": "1m",
            "value": 80,
            "earlier": [{"seat": 1, "tile": "4m", "value": 40}],
        },
    }
    out = dispatch_settle(record)
    assert out["deltas"] == [240, -70, -25, -145]
    assert out["penalties"] == []
    assert {(p["from"], p["to"]) for p in out["payments"]} <= {(1, 0), (2, 0), (3, 0)}


def test_default_preset_is_ordinary_competition():
    out = dispatch_settle({"rules": "zung-jung", "result": EX1_VALUES})
    assert out["deltas"] == EX1["ordinary"]


# ---------------------------------------------------------------- payoff schemes


def test_self_draw_each_opponent_pays_value():
    out = run({"type": "self_draw", "winner": 2, "value": 45})
    assert out["deltas"] == [-45, -45, 135, -45]


def test_discard_competition_official_example():
    # zjmj "spec example": 70 on a discard → 25 / 25 / 160
    assert run({"type": "discard", "winner": 0, "from": 2, "value": 70})["deltas"] == [210, -25, -160, -25]
    # exactly par: split equally
    assert run({"type": "discard", "winner": 1, "from": 0, "value": 25})["deltas"] == [-25, 75, -25, -25]


def test_par_option():
    out = run({"type": "discard", "winner": 0, "from": 2, "value": 70}, par=30)
    assert out["deltas"] == [210, -30, -150, -30]


def test_full_discard_scheme():
    out = run({"type": "discard", "winner": 0, "from": 2, "value": 70}, scheme="full_discard")
    assert out["deltas"] == [210, 0, -210, 0]
    out = run(EX3_VALUES, scheme="full_discard", liability="precise_multiwait")
    assert out["deltas"] == [240, -120, 0, -120]
    out = run(EX4_VALUES, scheme="full_discard", liability="precise_multiwait")
    assert out["deltas"] == [150, -40, -70, -40]  # SELF band still split equally
    out = run({"type": "self_draw", "winner": 0, "value": 70}, scheme="full_discard")
    assert out["deltas"] == [210, -70, -70, -70]


def test_uniform_scheme():
    for mode in MODES:
        assert run(EX3_VALUES, scheme="uniform", liability=mode)["deltas"] == [240, -80, -80, -80]


def test_draw_pays_nothing():
    out = run({"type": "draw"})
    assert out["deltas"] == [0, 0, 0, 0] and out["payments"] == [] and out["penalties"] == []


def test_robbing_a_kong_is_a_discard_by_the_konger():
    out = run(
        {
            "type": "discard",
            "winner": 1,
            "from": 3,
            "tile": "5s",
            "robbing_kong": True,
            "hand": {"concealed": "456p789s34s11z", "melds": [{"type": "pung", "tiles": "222m"}]},
        }
    )
    assert out["value"] == 10 and out["deltas"] == [-10, 30, -10, -10]


def test_seat_wind_from_dealer():
    hand = {"concealed": "456p789s34s55m", "melds": [{"type": "pung", "tiles": "222z"}]}
    rec = {"type": "discard", "winner": 2, "from": 0, "tile": "5s", "hand": hand}
    assert settle({"dealer": 1, "result": rec}, resolve("zung-jung"))["value"] == 10  # seat 2 is South
    assert settle({"dealer": 0, "result": rec}, resolve("zung-jung"))["value"] == 1  # seat 2 is West
    assert run(dict(rec, seat_wind="2z"))["value"] == 10


def test_earlier_ordinary_identical_tile_only_and_first():
    rec = {
        "type": "discard",
        "winner": 0,
        "from": 3,
        "tile": "1m",
        "value": 80,
        "earlier": [{"seat": 2, "tile": "4m"}, {"seat": 1, "tile": "1m"}, {"seat": 2, "tile": "1m"}],
    }
    out = run(rec, liability="ordinary")
    assert out["deltas"] == [240, -190, -25, -25] and out["liable"] == 1


def test_earlier_hypothetical_below_min_points_is_not_liable():
    rec = {
        "type": "discard",
        "winner": 0,
        "from": 3,
        "tile": "1m",
        "value": 80,
        "earlier": [{"seat": 1, "tile": "1m", "value": 1}],
    }
    out = run(rec, liability="precise", min_points=5, scheme="full_discard")
    assert out["deltas"] == [240, 0, 0, -240]


# ---------------------------------------------------------------- errors name fields


@pytest.mark.parametrize(
    "rules,field",
    [
        ({"liability": "strict"}, "rules.liability"),
        ({"scheme": "dealer"}, "rules.scheme"),
        ({"par": -1}, "rules.par"),
        ({"par": "25"}, "rules.par"),
        ({"min_points": True}, "rules.min_points"),
        ({"limit": 0}, "rules.limit"),
        ({"edition": "v9"}, "rules.edition"),
        ({"pattern_values": {"99.1": 3}}, "rules.pattern_values.99.1"),
        ({"furiten": True}, "rules.furiten"),
    ],
)
def test_resolve_errors_name_the_option(rules, field):
    with pytest.raises(SettlementError) as info:
        resolve({"preset": "zung-jung", **rules})
    assert info.value.field == field


def test_resolve_accepts_spec_aliases():
    opts = resolve({"preset": "zung-jung", "immunity": "precise", "payoff_scheme": "uniform"})
    assert opts["liability"] == "precise" and opts["scheme"] == "uniform"


@pytest.mark.parametrize(
    "result,field",
    [
        ({"type": "ron?", "winner": 0}, "result.type"),
        ({"type": "discard", "winner": 4, "from": 1, "value": 5}, "result.winner"),
        ({"type": "discard", "winner": 0, "value": 5}, "result.from"),
        ({"type": "discard", "winner": 0, "from": 0, "value": 5}, "result.from"),
        ({"type": "discard", "winner": 0, "from": 1}, "result.value"),
        ({"type": "discard", "winner": 0, "from": 1, "value": 0}, "result.value"),
        ({"type": "discard", "winner": 0, "from": 1, "value": 350}, "result.value"),
        ({"type": "discard", "winner": 0, "from": 1, "value": 5.5}, "result.value"),
        (
            {
                "type": "discard",
                "winner": 0,
                "from": 1,
                "value": 30,
                "tile": "1m",
                "earlier": [{"seat": 2, "tile": "1m"}, {"seat": 0, "tile": "1m"}],
            },
            "result.earlier[1].seat",
        ),
        (
            {"type": "discard", "winner": 0, "from": 1, "value": 30, "tile": "1m", "earlier": [{"seat": 2}]},
            "result.earlier[0].tile",
        ),
        (
            {
                "type": "discard",
                "winner": 0,
                "from": 1,
                "value": 30,
                "tile": "1m",
                "earlier": [{"seat": 2, "tile": "1m"}],
            },
            "result.earlier[0].value",
        ),
        (
            {
                "type": "discard",
                "winner": 0,
                "from": 1,
                "value": 30,
                "earlier": [{"seat": 2, "tile": "1m", "value": 5}],
            },
            "result.tile",
        ),
        (
            {"type": "discard", "winner": 0, "from": 1, "tile": "1m", "hand": {"concealed": "123m"}},
            "result.hand.concealed",
        ),
        (
            {"type": "discard", "winner": 0, "from": 1, "tile": "1z", "hand": {"concealed": "1112345678999m"}},
            "result.hand",
        ),
        (
            {
                "type": "discard",
                "winner": 0,
                "from": 1,
                "tile": "4m",
                "value": 85,
                "hand": {"concealed": "1112345678999m"},
            },
            "result.value",
        ),
        (
            {
                "type": "discard",
                "winner": 0,
                "from": 1,
                "tile": "4m",
                "kong_replacement": True,
                "hand": {"concealed": "1112345678999m"},
            },
            "result.kong_replacement",
        ),
    ],
)
def test_settle_errors_name_the_field(result, field):
    with pytest.raises(SettlementError) as info:
        run(result, liability="precise")
    assert info.value.field == field


def test_min_points_false_win_is_an_error():
    with pytest.raises(SettlementError) as info:
        run({"type": "self_draw", "winner": 0, "value": 1}, min_points=5)
    assert info.value.field == "result.value"
