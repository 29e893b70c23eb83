"""win_check: reasons a declared Beijing win is false."""

import pytest

from scoring.engine.beijing import resolve, win_check

OPTS = resolve({"preset": "beijing"})


def codes(decl, **opts):
    reasons = win_check(decl, dict(OPTS, **opts))
    for r in reasons:
        assert r["message"] and r["message_zh"]
    return [r["code"] for r in reasons]


def decl(concealed, tile, type_="tsumo", melds=(), ind="1p", **kw):
    return {
        "seat": 1,
        "type": type_,
        "from": 3 if type_ in ("ron", "discard", "qianggang") else None,
        "hand": {"concealed": concealed, "melds": list(melds), "tile": tile},
        "wildcard_indicator": ind,
        **kw,
    }


def test_valid_concealed_discard_win():
    assert codes(decl("1234569m2p345s77z", "8m", "ron")) == []
    assert codes(decl("1234569m2p345s77z", "8m")) == []


def test_open_hand_discard_win_is_false_but_self_draw_stands():
    d = decl("123m456m789s9s", "9s", "ron", melds=[{"type": "pon", "tiles": "555p"}])
    assert codes(d) == ["open_hand_discard"]
    d["type"] = "tsumo"
    assert codes(d) == []


def test_concealed_kong_keeps_discard_wins():
    d = decl("123m456m789s9s", "9s", "ron", melds=[{"type": "ankan", "tiles": "5555p"}])
    assert codes(d) == []


def test_three_wildcards_self_draw_only():
    d = decl("2p2p2p123456789m7z", "7z", "ron")
    assert "three_wildcards_discard" in codes(d)
    d["type"] = "tsumo"
    assert codes(d) == []


def test_no_win_on_discarded_wildcard_but_drawn_one_is_fine():
    d = decl("123456789m345s7z", "2p", "ron")
    assert codes(d) == ["discarded_wildcard_win"]
    d["type"] = "tsumo"
    assert codes(d) == []


def test_hunyou_self_draw_only():
    d = decl("123456789m2p345s", "7z", "ron")
    assert codes(d) == ["hunyou_discard"]
    d["type"] = "tsumo"
    assert codes(d) == []


def test_discarding_a_wildcard_forfeits():
    assert codes(decl("1234569m2p345s77z", "8m", discards=["1z", "2p"])) == ["wildcard_discarded"]
    assert codes(decl("1234569m2p345s77z", "8m", discarded_wildcard=True)) == ["wildcard_discarded"]


def test_not_complete_and_tile_count():
    assert codes(decl("1234569m3p345s77z", "1z")) == ["not_complete"]
    assert codes(decl("123456m3p345s77z", "1z"))[0] == "tile_count"


def test_wildcard_in_exposed_meld():
    d = decl("123m456m789s9s", "9s", melds=[{"type": "pon", "tiles": "222p"}])
    assert codes(d) == ["wildcard_in_meld"]


def test_furiten_after_passing_a_winnable_discard():
    # 23m waits on 1m-4m: having passed a 4m, no discard win (on any tile) until the next turn
    d = decl("23m456m789p123s77z", "1m", "ron", ind="1z", passed=["4m"])
    assert codes(d) == ["furiten_passed"]
    d["passed"] = ["9s"]
    assert codes(d) == []
    d["type"] = "tsumo"
    d["passed"] = ["4m"]
    assert codes(d) == []


def test_qianggang_follows_discard_rules_and_robbable_kongs():
    d = decl("1234569m2p345s77z", "8m", "qianggang")
    assert codes(d) == []
    d = decl("123m456m789s9s", "9s", "qianggang", melds=[{"type": "pon", "tiles": "555p"}])
    assert codes(d) == ["open_hand_discard"]
    # a concealed kong can be robbed only when the wait is in one of a 龍's melds
    assert codes(decl("1234569m2p345s77z", "8m", "qianggang", robbed_kong="concealed")) == []
    assert codes(decl("11123m456m789s22z", "1m", "qianggang", ind="9p", robbed_kong="concealed")) == [
        "qianggang_not_added"
    ]


def test_hungang_always_stands():
    assert codes(decl("2222m13579p1357s", "1z", "ron", ind="1m")) == []


def test_duanmen_option():
    d = decl("1234569m2p345s77z", "8m")
    assert codes(d) == []
    # 混 (2p) stands for 7m; the hand has m and s, no p → lacks a suit
    assert codes(d, duanmen=True) == []
    d2 = decl("123m456p789s111z2z", "2z", ind="9p")
    assert codes(d2, duanmen=True) == ["duanmen"]


def test_claim_limit_option():
    d = decl("123m456m9s", "9s", melds=[{"type": "pon", "tiles": "555p"}, {"type": "chi", "tiles": "789s"}])
    assert codes(d) == []
    assert codes(d, claim_limit=True) == ["claim_limit"]
    d3 = decl("123m456m9s", "9s", melds=[{"type": "kan", "tiles": "5555p"}, {"type": "chi", "tiles": "789s"}])
    assert codes(d3, claim_limit=True) == []


def test_declarations_without_tiles():
    assert codes({"type": "ron", "from": 2, "factors": ["meihuar"]}) == ["open_hand_discard"]
    assert codes({"type": "ron", "from": 2, "factors": ["menqing"], "wildcards": 3}) == ["three_wildcards_discard"]
    assert codes({"type": "ron", "from": 2, "factors": ["menqing"], "winning_tile_wildcard": True}) == [
        "discarded_wildcard_win"
    ]
    assert codes({"type": "tsumo", "factors": ["qidui"]}) == ["qidui_not_concealed"]
    assert codes({"type": "ron", "from": 2, "factors": ["menqing", "gangkai"]}) == ["gangkai_discard"]
    assert codes({"type": "tsumo", "factors": ["menqing"], "dead_hand": True}) == ["dead_hand"]


def test_options_spec_accepted():
    assert win_check({"type": "tsumo", "factors": ["menqing"]}, {"preset": "beijing"}) == []


@pytest.mark.parametrize("t", ["ron", "discard", "tsumo", "self_draw"])
def test_type_aliases(t):
    assert isinstance(win_check(decl("1234569m2p345s77z", "8m", t), OPTS), list)
