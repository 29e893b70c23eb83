"""Riichi false-win reasons (referee-rules.md §4; seed 001 on the three kinds of furiten)."""

from scoring.engine.riichi.win_check import waits, win_check
from scoring.engine.tiles import parse_tiles

OPTS = {
    "kuitan": True,
    "kazoe_yakuman": True,
    "aka_dora": 0,
    "double_yakuman": False,
    "max_yakuman_multiple": 1,
    "min_han": 1,
}

# 23m ryanmen + 777z (red dragon: a yaku): waits on 1m and 4m
TWO_SIDED = {"concealed": "23m456p789s55s777z", "tile": "4m"}
# 3456789m: waits on 3m, 6m and 9m
THREE_SIDED = {"concealed": "3456789m456p777z", "tile": "9m"}


def D(hand, type="ron", **extra):
    d = {
        "seat": 1,
        "type": type,
        "from": 3 if type == "ron" else None,
        "hand": dict(hand),
        "seat_wind": "2z",
        "round_wind": "1z",
    }
    d.update(extra)
    return d


def codes(reasons):
    return sorted(r["code"] for r in reasons)


def test_reason_shape():
    reasons = win_check(D(TWO_SIDED, discards=["1m"]), OPTS)
    assert reasons and all(set(r) == {"code", "message", "message_zh"} for r in reasons)
    assert all(r["message"] and r["message_zh"] for r in reasons)


def test_waits():
    assert waits(parse_tiles("23m456p789s55s777z")) == parse_tiles("14m")
    assert waits(parse_tiles("3456789m456p777z")) == parse_tiles("369m")
    assert waits(parse_tiles("1112345678999m")) == parse_tiles("123456789m")  # nine gates
    assert waits(parse_tiles("19m19p19s1234567z")) == parse_tiles("19m19p19s1234567z")
    # 1111m23m = 111m + 123m: only the 5s tanki; a fifth 1m is never a wait
    assert waits(parse_tiles("1111m23m456p789s5s")) == parse_tiles("5s")
    # 2222m3m: 1m (123 + 222) and 4m (222 + 234); 2m would be a fifth copy
    assert waits(parse_tiles("2222m3m456p789s55s")) == parse_tiles("14m")
    # a tanki on a tile held four times is no wait (karaten), also when the copies are in a pon
    assert waits(parse_tiles("1111m234p567p789s")) == []
    assert waits(parse_tiles("1m234p567p789s")) == parse_tiles("1m")
    assert waits(parse_tiles("1m234p567p789s"), parse_tiles("111m")) == []


def test_valid_ron_stands():
    assert win_check(D(TWO_SIDED, discards=["9p", "1z"], passed=["2p"]), OPTS) == []
    assert win_check(D(THREE_SIDED), OPTS) == []


def test_furiten_own_discard_other_wait():
    # discarded 1m earlier: ron on 4m is furiten (any waiting tile among one's discards)
    assert codes(win_check(D(TWO_SIDED, discards=["1m"]), OPTS)) == ["furiten_discards"]
    assert codes(win_check(D(THREE_SIDED, discards=["3m"]), OPTS)) == ["furiten_discards"]
    assert codes(win_check(D(THREE_SIDED, discards=["6m"]), OPTS)) == ["furiten_discards"]


def test_furiten_temporary():
    reasons = win_check(D(TWO_SIDED, passed=["1m"]), OPTS)
    assert codes(reasons) == ["furiten_temporary"]
    assert codes(win_check(D(THREE_SIDED, passed=["6m"]), OPTS)) == ["furiten_temporary"]
    # a non-waiting tile passed does not matter
    assert win_check(D(TWO_SIDED, passed=["5m", "2m"]), OPTS) == []


def test_furiten_after_riichi():
    d = D(TWO_SIDED, riichi=True, passed_after_riichi=["1m"])
    assert codes(win_check(d, OPTS)) == ["furiten_riichi"]
    d = D(TWO_SIDED, flags={"riichi": True}, passed_after_riichi=["4m"])
    assert codes(win_check(d, OPTS)) == ["furiten_riichi"]
    # not in riichi: the after-riichi list does not apply
    assert win_check(D(TWO_SIDED, passed_after_riichi=["1m"]), OPTS) == []


def test_tsumo_is_never_furiten():
    d = D(TWO_SIDED, type="tsumo", discards=["1m"], passed=["4m"], riichi=True, passed_after_riichi=["1m"])
    assert win_check(d, OPTS) == []
    d = D(TWO_SIDED, type="self_draw", discards=["1m"])
    assert win_check(d, OPTS) == []


def test_all_furiten_kinds_together():
    d = D(THREE_SIDED, riichi=True, discards=["3m"], passed=["6m"], passed_after_riichi=["9m"])
    assert codes(win_check(d, OPTS)) == ["furiten_discards", "furiten_riichi", "furiten_temporary"]


def test_dead_hand():
    assert codes(win_check(D(TWO_SIDED, dead_hand=True), OPTS)) == ["dead_hand"]
    assert codes(win_check(D(TWO_SIDED, type="tsumo", dead_hand=True), OPTS)) == ["dead_hand"]


def test_incomplete():
    reasons = win_check(D({"concealed": "23m456p789s55s777z", "tile": "5m"}), OPTS)
    assert codes(reasons) == ["incomplete"]
    assert "not a complete hand" in reasons[0]["message"]


def test_no_yaku_and_min_han():
    # closed ron on a kanchan, terminals: no yaku
    reasons = win_check(D({"concealed": "123m456p789s13s99m", "tile": "2s"}), OPTS)
    assert codes(reasons) == ["no_yaku"]
    # the same hand by self-draw has menzen tsumo
    assert win_check(D({"concealed": "123m456p789s13s99m", "tile": "2s"}, type="tsumo"), OPTS) == []
    # dora alone are not a yaku; tanyao 1 + dora 3 fails a 2-han minimum
    d = D({"concealed": "234m555m345s68s88p", "tile": "7s"}, dora_indicators=["4m"])
    assert win_check(d, OPTS) == []
    assert codes(win_check(d, dict(OPTS, min_han=2))) == ["no_yaku"]


def test_open_hand_kuitan_off_is_no_yaku():
    d = D({"concealed": "567p345s67s88m", "tile": "8s", "melds": [{"type": "chi", "tiles": "234m"}]})
    assert win_check(d, OPTS) == []
    assert codes(win_check(d, dict(OPTS, kuitan=False))) == ["no_yaku"]


def test_invalid_tiles():
    assert codes(win_check(D({"concealed": "23m456p789s55s777q", "tile": "4m"}), OPTS)) == ["invalid_tiles"]
    assert codes(win_check(D({"concealed": "23m456p789s5s777z", "tile": "4m"}), OPTS)) == ["invalid_tiles"]
    assert codes(win_check(D(TWO_SIDED, discards=["1x"]), OPTS)) == ["invalid_tiles"]


def test_structural():
    assert codes(win_check(D(TWO_SIDED, **{"from": 1}), OPTS)) == ["ron_from_self"]
    assert "bad_declaration" in codes(win_check(D(TWO_SIDED, type="chombo"), OPTS))
    assert "bad_declaration" in codes(win_check(D(TWO_SIDED, seat=7), OPTS))
    assert codes(win_check("nonsense", OPTS)) == ["bad_declaration"]
    # riichi on an open hand
    d = D({"concealed": "567p345s67s88m", "tile": "8s", "melds": [{"type": "chi", "tiles": "234m"}]}, riichi=True)
    assert codes(win_check(d, OPTS)) == ["bad_declaration"]


def test_chiitoitsu_waits_and_furiten():
    hand = {"concealed": "1133m5577p22s446z", "tile": "6z"}
    assert win_check(D(hand), OPTS) == []
    assert codes(win_check(D(hand, discards=["6z"]), OPTS)) == ["furiten_discards"]
