"""Seed 004 (北京の「吃碰提」麻雀): the three worked examples, 16; 12; 24 (r = 1)."""

from scoring.engine.dispatch import settle as dispatch_settle

from tests.engine_beijing.helpers import bj, per_payer


def test_example1_dealer_selfdraw_long_with_wildcard_16():
    # 荘家·門清·提溜·龍 = 2^4 = 16 from each of the three
    out = bj({"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]})
    assert per_payer(out) == {1: 16, 2: 16, 3: 16}
    assert out["deltas"] == [48, -16, -16, -16]
    assert out["dealer_repeats"] is True and out["dealer_next"] == 0


def test_example2_dealer_open_kong_gangkai_12():
    # hand 荘家·提溜·槓開 = 8; kong: open 1 × dealer 2 × 槓開 2 = 4 → 12
    out = bj({"type": "tsumo", "winner": 0, "factors": ["gangkai"], "kongs": [{"type": "open"}]})
    assert per_payer(out) == {1: 12, 2: 12, 3: 12}
    assert out["deltas"] == [36, -12, -12, -12]
    assert [(s["hand"], s["kong"]) for s in out["winners"][0]["shares"]] == [(8, 4)] * 3


def test_example3_dealer_concealed_kong_gangkai_24():
    # hand 荘家·門清·提溜·槓開 = 16; kong: concealed 2 × 2 × 2 = 8 → 24
    out = bj({"type": "tsumo", "winner": 0, "factors": ["menqing", "gangkai"], "kongs": [{"type": "concealed"}]})
    assert per_payer(out) == {1: 24, 2: 24, 3: 24}
    assert out["deltas"] == [72, -24, -24, -24]
    assert [(s["hand"], s["kong"]) for s in out["winners"][0]["shares"]] == [(16, 8)] * 3


def test_examples_through_dispatch_and_contract_json():
    out = dispatch_settle(
        {"rules": "beijing", "dealer": 0, "result": {"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}}
    )
    assert out["deltas"] == [48, -16, -16, -16]


# The same three examples given as tiles (the engine derives the factors).


def test_example1_from_tiles():
    # 混 = 2p (indicator 1p) stands for 7m in 789m: concealed, 龍, not 没混
    out = bj(
        {"type": "tsumo", "winner": 0, "hand": {"concealed": "1234569m2p345s77z", "tile": "8m"}},
        wildcard_indicator="1p",
    )
    assert out["winners"][0]["factors"] == ["menqing", "long"]
    assert out["deltas"] == [48, -16, -16, -16]
    assert out["wildcard"] == "2p"


def test_example2_from_tiles_hunyou_on_replacement():
    # exposed kong, 混悠 wait (2p single), the replacement tile 9s completes it
    out = bj(
        {
            "type": "tsumo",
            "winner": 0,
            "factors": ["gangkai"],
            "hand": {"concealed": "123m456m789s2p", "tile": "9s", "melds": [{"type": "kan", "tiles": "5555p"}]},
        },
        wildcard_indicator="1p",
    )
    assert out["winners"][0]["factors"] == ["gangkai"]
    assert out["winners"][0]["kongs"] == ["open"]
    assert out["deltas"] == [36, -12, -12, -12]


def test_example3_from_tiles():
    out = bj(
        {
            "type": "tsumo",
            "winner": 0,
            "factors": ["gangkai"],
            "hand": {"concealed": "123m456m789s2p", "tile": "3z", "melds": [{"type": "ankan", "tiles": "5555p"}]},
        },
        wildcard_indicator="1p",
    )
    assert out["winners"][0]["factors"] == ["menqing", "gangkai"]
    assert out["deltas"] == [72, -24, -24, -24]


def test_claimed_factors_are_verified_against_tiles():
    out = bj(
        {
            "type": "tsumo",
            "winner": 0,
            "factors": ["menqing", "long"],
            "hand": {"concealed": "1234569m2p345s77z", "tile": "8m"},
        },
        wildcard_indicator="1p",
    )
    assert out["deltas"] == [48, -16, -16, -16]


def test_discard_win_from_tiles_nondealer():
    # seat 1 wins on seat 2's 8m: 門清·龍 = 4; dealer ×2 = 8, discarder ×2 = 8, seat 3 4
    out = bj(
        {"type": "ron", "winner": 1, "from": 2, "hand": {"concealed": "1234569m2p345s77z", "tile": "8m"}},
        wildcard_indicator="1p",
    )
    assert per_payer(out) == {0: 8, 2: 8, 3: 4}
    assert out["deltas"] == [-8, 20, -8, -4]
    assert out["dealer_next"] == 1
