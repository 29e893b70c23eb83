"""Zung Jung v3.3 pattern evaluation from tiles: every pattern of the table, limits, Freedom of Count."""

import pytest

from scoring.engine.errors import SettlementError
from scoring.engine.zung_jung import PATTERNS, evaluate_hand, resolve, waits

OPT = resolve({"preset": "zung-jung"})


def M(kind, tiles):
    return {"type": kind, "tiles": tiles}


def ev(concealed, tile, melds=(), **kw):
    options = kw.pop("options", OPT)
    return evaluate_hand({"concealed": concealed, "melds": list(melds), "tile": tile}, options, **kw)


def ids(res):
    return sorted(p["id"] for p in res["patterns"])


# (label, concealed, winning tile, melds, keywords, expected value, expected counted pattern ids)
CASES = [
    ("chicken", "456p789s34s11z", "5s", [M("pung", "222m")], {}, 1, ["0"]),
    ("1.1 all sequences", "456p789s34s55m", "5s", [M("chow", "123m")], {}, 5, ["1.1"]),
    ("1.2 concealed hand", "222m456p789s34s11z", "5s", [], {}, 5, ["1.2"]),
    ("1.3 no terminals", "456p678s34s55p", "5s", [M("pung", "222m")], {}, 5, ["1.3"]),
    ("2.1.1 mixed one-suit", "456m789m34m11z", "5m", [M("pung", "222m")], {}, 40, ["2.1.1"]),
    ("2.1.2 pure one-suit", "456m789m34m11m", "5m", [M("pung", "222m")], {}, 80, ["2.1.2"]),
    ("2.2 nine gates", "1112345678999m", "4m", [], {}, 480, ["2.2"]),
    ("3.1 value honor (dragon)", "456p789s34s55m", "5s", [M("pung", "777z")], {}, 10, ["3.1"]),
    ("3.1 value honor (seat wind)", "456p789s34s55m", "5s", [M("pung", "222z")], {"seat_wind": "2z"}, 10, ["3.1"]),
    (
        "3.2.1 small three dragons",
        "123m45p77z",
        "6p",
        [M("pung", "555z"), M("pung", "666z")],
        {},
        60,
        ["3.1", "3.1", "3.2.1"],
    ),
    (
        "3.2.2 big three dragons",
        "123m4p",
        "4p",
        [M("pung", "555z"), M("pung", "666z"), M("pung", "777z")],
        {},
        160,
        ["3.1", "3.1", "3.1", "3.2.2"],
    ),
    ("3.3.1 small three winds", "123m456p4z", "4z", [M("pung", "222z"), M("pung", "333z")], {}, 30, ["3.3.1"]),
    (
        "3.3.2 big three winds",
        "123m5p",
        "5p",
        [M("pung", "222z"), M("pung", "333z"), M("pung", "444z")],
        {},
        120,
        ["3.3.2"],
    ),
    (
        "3.3.3 small four winds",
        "11z23m",
        "1m",
        [M("pung", "222z"), M("pung", "333z"), M("pung", "444z")],
        {},
        320,
        ["3.3.3"],
    ),
    (
        "3.3.4 big four winds",
        "5p",
        "5p",
        [M("pung", "111z"), M("pung", "222z"), M("pung", "333z"), M("pung", "444z")],
        {},
        400,
        ["3.3.4"],
    ),
    ("3.4 all honors", "1122333z", "2z", [M("pung", "555z"), M("pung", "666z")], {}, 320, ["3.4"]),
    ("4.1 all triplets", "888s99m11p", "1p", [M("pung", "222m"), M("pung", "555p")], {}, 30, ["4.1"]),
    ("4.2.1 two concealed triplets", "444p777s56s99m", "4s", [M("chow", "123m")], {}, 5, ["4.2.1"]),
    ("4.2.2 three concealed triplets", "444p777s222s9m", "9m", [M("chow", "123m")], {}, 30, ["4.2.2"]),
    ("4.2.3 four concealed triplets", "222m444p777s222z9m", "9m", [], {}, 160, ["1.2", "4.1", "4.2.3"]),
    ("4.3.1 one kong", "456p789s34s55m", "5s", [M("kong", "2222m")], {}, 5, ["4.3.1"]),
    ("4.3.2 two kong", "789s34s11z", "5s", [M("kong", "2222m"), M("kong", "5555p")], {}, 20, ["4.3.2"]),
    (
        "4.3.3 three kong",
        "34s11z",
        "5s",
        [M("kong", "2222m"), M("kong", "5555p"), M("kong", "8888s")],
        {},
        120,
        ["4.3.3"],
    ),
    (
        "4.3.4 four kong",
        "1z",
        "1z",
        [M("kong", "2222m"), M("kong", "5555p"), M("kong", "8888s"), M("kong", "3333z")],
        {},
        480,
        ["4.3.4"],
    ),
    ("5.1.1 two identical sequences", "123m123m789s5s", "5s", [M("pung", "222p")], {}, 10, ["5.1.1"]),
    ("5.1.2 two identical sequences twice", "112233m445566p7s", "7s", [], {}, 70, ["1.1", "1.2", "5.1.2"]),
    (
        "5.1.3 three identical sequences",
        "678p5s",
        "5s",
        [M("chow", "234m"), M("chow", "234m"), M("chow", "234m")],
        {},
        130,
        ["1.1", "1.3", "5.1.3"],
    ),
    (
        "5.1.4 four identical sequences",
        "5s",
        "5s",
        [M("chow", "234m"), M("chow", "234m"), M("chow", "234m"), M("chow", "234m")],
        {},
        480,
        ["5.1.4"],
    ),
    ("6.1 three similar sequences", "123p123s333z5s", "5s", [M("chow", "123m")], {}, 35, ["6.1"]),
    (
        "6.2.1 small three similar triplets",
        "22s456m78s",
        "9s",
        [M("pung", "222m"), M("pung", "222p")],
        {},
        30,
        ["6.2.1"],
    ),
    (
        "6.2.2 three similar triplets",
        "456m9s",
        "9s",
        [M("pung", "222m"), M("pung", "222p"), M("pung", "222s")],
        {},
        120,
        ["6.2.2"],
    ),
    ("7.1 nine-tile straight", "123m456m789m5s", "5s", [M("pung", "222p")], {}, 40, ["7.1"]),
    (
        "7.2.1 three consecutive triplets",
        "789p5s",
        "5s",
        [M("pung", "222m"), M("pung", "333m"), M("pung", "444m")],
        {},
        100,
        ["7.2.1"],
    ),
    (
        "7.2.2 four consecutive triplets",
        "9p",
        "9p",
        [M("pung", "222m"), M("pung", "333m"), M("pung", "444m"), M("pung", "555m")],
        {},
        230,
        ["4.1", "7.2.2"],
    ),
    ("8.1.1 mixed lesser terminals", "789p999s123s1z", "1z", [M("chow", "123m")], {}, 40, ["8.1.1"]),
    ("8.1.2 pure lesser terminals", "789p999s123s1m", "1m", [M("chow", "123m")], {}, 50, ["8.1.2"]),
    (
        "8.1.3 mixed greater terminals",
        "111s22z33z",
        "2z",
        [M("pung", "111m"), M("pung", "999p")],
        {},
        130,
        ["4.1", "8.1.3"],
    ),
    ("8.1.4 pure greater terminals", "111s99s99m", "9m", [M("pung", "111m"), M("pung", "999p")], {}, 400, ["8.1.4"]),
    (
        "9.1.1 final draw",
        "456p789s34s11z",
        "5s",
        [M("pung", "222m")],
        {"self_draw": True, "final_tile": True},
        10,
        ["9.1.1"],
    ),
    ("9.1.2 final discard", "456p789s34s11z", "5s", [M("pung", "222m")], {"final_tile": True}, 10, ["9.1.2"]),
    (
        "9.2 win on kong",
        "456p789s34s11z",
        "5s",
        [M("kong", "2222m")],
        {"self_draw": True, "kong_replacement": True},
        15,
        ["4.3.1", "9.2"],
    ),
    ("9.3 robbing a kong", "456p789s34s11z", "5s", [M("pung", "222m")], {"robbing_kong": True}, 10, ["9.3"]),
    (
        "9.4.1 blessing of heaven",
        "222m456p789s34s11z",
        "5s",
        [],
        {"self_draw": True, "heaven": True},
        160,
        ["1.2", "9.4.1"],
    ),
    ("9.4.2 blessing of earth", "222m456p789s34s11z", "5s", [], {"earth": True}, 160, ["1.2", "9.4.2"]),
    ("10.1 thirteen terminals", "19m19p19s1234567z", "1m", [], {}, 160, ["10.1"]),
    ("10.2 seven pairs", "1133m5577p2299s1z", "1z", [], {}, 30, ["10.2"]),
]


@pytest.mark.parametrize("label,concealed,tile,melds,kw,value,expected", CASES, ids=[c[0] for c in CASES])
def test_pattern_table_hands(label, concealed, tile, melds, kw, value, expected):
    res = ev(concealed, tile, melds, **kw)
    assert res["value"] == value
    assert ids(res) == sorted(expected)


def test_every_pattern_of_the_table_is_exercised():
    covered = {pid for c in CASES for pid in c[6]}
    assert {p["id"] for p in PATTERNS} <= covered
    assert len(PATTERNS) == 44


def test_table_values_match_the_spec():
    values = {p["id"]: p["value"] for p in PATTERNS}
    assert values == {
        "1.1": 5,
        "1.2": 5,
        "1.3": 5,
        "2.1.1": 40,
        "2.1.2": 80,
        "2.2": 480,
        "3.1": 10,
        "3.2.1": 40,
        "3.2.2": 130,
        "3.3.1": 30,
        "3.3.2": 120,
        "3.3.3": 320,
        "3.3.4": 400,
        "3.4": 320,
        "4.1": 30,
        "4.2.1": 5,
        "4.2.2": 30,
        "4.2.3": 125,
        "4.3.1": 5,
        "4.3.2": 20,
        "4.3.3": 120,
        "4.3.4": 480,
        "5.1.1": 10,
        "5.1.2": 60,
        "5.1.3": 120,
        "5.1.4": 480,
        "6.1": 35,
        "6.2.1": 30,
        "6.2.2": 120,
        "7.1": 40,
        "7.2.1": 100,
        "7.2.2": 200,
        "8.1.1": 40,
        "8.1.2": 50,
        "8.1.3": 100,
        "8.1.4": 400,
        "9.1.1": 10,
        "9.1.2": 10,
        "9.2": 10,
        "9.3": 10,
        "9.4.1": 155,
        "9.4.2": 155,
        "10.1": 160,
        "10.2": 30,
    }
    for p in PATTERNS:
        assert p["zh"] and p["en"] and p["series"] in p["id"]


def test_names_are_reported_in_chinese_and_english():
    res = ev("1112345678999m", "4m")
    assert res["patterns"] == [{"id": "2.2", "key": "nine_gates", "en": "Nine Gates", "zh": "九蓮寶燈", "value": 480}]


# ------------------------------------------------------------------ seed 000 hands


def test_seed_example_1_hands():
    assert ev("1112345678999m", "4m")["value"] == 480
    # the declined self-draw (14 tiles 11123445678999m) is never Nine Gates: 清一色 + 門前清
    declined = ev("1112345678999m", "4m", self_draw=True, nine_gates_allowed=False)
    assert declined["value"] == 85 and ids(declined) == ["1.2", "2.1.2"]


def test_seed_example_2_hands():
    melds = [M("chow", "567s")]
    assert ev("234s567m56p33p", "7p", melds)["value"] == 45
    assert ids(ev("234s567m56p33p", "7p", melds)) == ["1.1", "1.3", "6.1"]
    assert ev("234s567m56p33p", "4p", melds)["value"] == 10


def test_seed_example_3_hands():
    melds = [M("pung", "444z"), M("chow", "456m")]
    assert ev("23m789m77z", "1m", melds)["value"] == 80
    assert ids(ev("23m789m77z", "1m", melds)) == ["2.1.1", "7.1"]
    assert ev("23m789m77z", "4m", melds)["value"] == 40


def test_seed_example_4_hands():
    melds = [M("chow", "789s"), M("chow", "789m")]
    assert ev("789p23s11m", "4s", melds, final_tile=True)["value"] == 50
    assert ev("789p23s11m", "4s", melds, self_draw=True)["value"] == 40
    assert ev("789p23s11m", "1s", melds)["value"] == 90
    assert ids(ev("789p23s11m", "1s", melds)) == ["1.1", "6.1", "8.1.2"]


# ------------------------------------------------------------------ rules of combination


def test_value_honor_counts_per_set():
    melds = [M("pung", "555z"), M("pung", "777z"), M("pung", "222z")]
    res = ev("123m4p", "4p", melds, seat_wind="2z")
    assert res["value"] == 30
    assert [p.get("tile") for p in res["patterns"]] == ["2z", "5z", "7z"]
    # prevailing wind is not recognised; another player's wind is worth nothing
    assert ev("123m4p", "4p", melds, seat_wind="1z")["value"] == 20


def test_one_pattern_per_series():
    # four concealed triplets excludes three and two concealed triplets
    res = ev("222m444p777s222z9m", "9m", self_draw=True)
    assert [p["id"] for p in res["patterns"] if p["id"].startswith("4.2")] == ["4.2.3"]
    # small four winds excludes big three winds
    res = ev("11z23m", "1m", [M("pung", "222z"), M("pung", "333z"), M("pung", "444z")])
    assert "3.3.2" not in ids(res) and "3.3.2" not in [p["id"] for p in res["other_patterns"]]


def test_concealed_hand_allows_concealed_kong_but_not_irregular_hands():
    res = ev("456p789s34s55m", "5s", [M("concealed_kong", "2222m")])
    assert ids(res) == ["1.2", "4.3.1"]
    assert "1.2" not in ids(ev("1133m5577p2299s1z", "1z"))
    assert "1.2" not in ids(ev("19m19p19s1234567z", "1m"))


def test_concealed_kong_counts_as_concealed_triplet():
    res = ev("444p56s99m", "4s", [M("concealed_kong", "8888s"), M("chow", "123m")])
    assert ids(res) == ["4.2.1", "4.3.1"]
    res = ev("444p56s99m", "4s", [M("kong", "8888s"), M("chow", "123m")])
    assert ids(res) == ["4.3.1"]


# ------------------------------------------------------------------ concealed triplets


def test_discard_completed_triplet_is_exposed():
    hand = "222m444p777s99m22z"
    assert ev(hand, "2z")["value"] == 5 + 30 + 30  # 門前清, 對對和, 三暗刻
    assert ids(ev(hand, "2z")) == ["1.2", "4.1", "4.2.2"]
    assert ev(hand, "2z", self_draw=True)["value"] == 160  # self-drawn tile counts as concealed: 四暗刻


def test_winning_tile_may_complete_a_chow_instead_of_the_triplet():
    # 1111m 23m: the discarded 1m can be read into 123m, keeping 111m concealed
    res = ev("11123m999p456s77s", "1m")
    assert ids(res) == ["1.2", "4.2.1"]


# ------------------------------------------------------------------ Freedom of Count


def test_freedom_of_count_takes_the_best_arrangement():
    # 111 222 333m: three consecutive triplets (100) + three concealed (30) beats three identical sequences (120)
    res = ev("111222333m456p5s", "5s", self_draw=True)
    assert res["value"] == 135 and ids(res) == ["1.2", "4.2.2", "7.2.1"]
    # on a discard of 3m the 333m triplet would be exposed (100+5+5=110): the sequences reading wins
    res = ev("11122233m456p55s", "3m")
    assert res["value"] == 130 and ids(res) == ["1.1", "1.2", "5.1.3"]


def test_freedom_of_count_patterns_from_different_arrangements_do_not_combine():
    res = ev("112233m445566p7s", "7s")
    assert res["shape"] == "regular" and "10.2" not in ids(res)
    # the seven-pairs reading is better when the sequences give little
    res = ev("1133m5577p2299s1z", "1z")
    assert res["shape"] == "seven_pairs"


def test_seven_pairs_with_other_patterns():
    res = ev("1122334455667m", "7m")  # pure one-suit: seven pairs 30 + 80 vs 123 123 456 456 77 regular
    assert res["value"] == 5 + 5 + 80 + 60 and res["shape"] == "regular"
    res = ev("2233m5566p4488s9s", "9s")  # seven pairs only
    assert res["value"] == 30 and res["shape"] == "seven_pairs"
    res = ev("2233m5566p4488s7s", "7s")  # seven pairs + no terminals
    assert res["value"] == 35 and ids(res) == ["1.3", "10.2"]
    res = ev("1199m1199p11s2z77z", "2z")
    assert ids(res) == ["10.2", "8.1.3"] and res["value"] == 130
    res = ev("1122z3344z5566z7z", "7z")
    assert res["value"] == 320 and ids(res) == ["3.4"]


def test_seven_pairs_with_four_identical_tiles_is_an_option():
    hand = "1111m3355p7799s1z"
    assert ev(hand, "1z")["value"] == 30
    no_quads = resolve({"preset": "zung-jung", "seven_pairs_quad": False})
    with pytest.raises(SettlementError, match="not a complete hand"):
        ev(hand, "1z", options=no_quads)


# ------------------------------------------------------------------ limits


def test_compound_limit_caps_at_320():
    # 大三元 130 + 番牌 30 + 對對和 30 + 四暗刻 125 + 門前清 5 = 320
    res = ev("555z666z777z222m9p", "9p")
    assert res["value"] == 320 and res["limit"] == "compound" and res["sum"] == 320
    # + 混一色 40 = 360 → 320
    res = ev("555z666z777z222m9m", "9m")
    assert res["sum"] == 360 and res["value"] == 320 and res["limit"] == "compound"
    # just below: 大三元 160 + 對對和 30 + 三暗刻 30 (discard-completed triplet exposed) + 門前清 5 = 225
    res = ev("555z666z777z22m99p", "2m")
    assert res["value"] == 225 and res["limit"] is None


def test_listed_limits_score_the_single_highest_listed_pattern():
    res = ev("5p", "5p", [M("pung", "111z"), M("pung", "222z"), M("pung", "333z"), M("pung", "444z")])
    assert res["value"] == 400 and res["limit"] == "listed"
    assert {p["id"] for p in res["other_patterns"]} >= {"3.1", "4.1"}
    # 大四喜 400 and 字一色 320 together: only the highest, 400
    res = ev("5z", "5z", [M("pung", "111z"), M("pung", "222z"), M("pung", "333z"), M("pung", "444z")])
    assert res["value"] == 400 and ids(res) == ["3.3.4"]
    assert "3.4" in [p["id"] for p in res["other_patterns"]]
    # 四槓 480 with 清么九 400
    res = ev("1m", "1m", [M("kong", "9999m"), M("kong", "1111p"), M("kong", "9999p"), M("kong", "1111s")])
    assert res["value"] == 480 and ids(res) == ["4.3.4"]


def test_limit_option():
    opt = resolve({"preset": "zung-jung", "limit": 500})
    res = ev("11z23m", "1m", [M("pung", "222z"), M("pung", "333z"), M("pung", "444z")], options=opt)
    # 小四喜 320 is no longer a listed limit: 320 + 混一色 40 + 混全帶么 40
    assert res["value"] == 400 and res["limit"] is None and ids(res) == ["2.1.1", "3.3.3", "8.1.1"]
    res = ev("555z666z777z222m9m", "9m", options=opt)
    assert res["value"] == res["sum"] > 320


def test_pattern_value_override_swaps_values():
    opt = resolve({"preset": "zung-jung", "pattern_values": {"6.1": 30, "0": 2}})
    assert ev("123p123s333z5s", "5s", [M("chow", "123m")], options=opt)["value"] == 30
    assert ev("456p789s34s11z", "5s", [M("pung", "222m")], options=opt)["value"] == 2


# ------------------------------------------------------------------ input handling


def test_chinese_input_and_meld_aliases():
    res = evaluate_hand(
        {
            "concealed": "二三萬七八九萬中中",
            "tile": "一萬",
            "melds": [{"type": "pon", "tiles": "北北北"}, {"type": "chi", "tiles": "四五六萬"}],
        }
    )
    assert res["value"] == 80


def test_waits():
    assert waits({"concealed": "1112345678999m"}) == [f"{n}m" for n in range(1, 10)]
    assert waits({"concealed": "23m789m77z", "melds": [M("pung", "444z"), M("chow", "456m")]}) == ["1m", "4m"]


@pytest.mark.parametrize(
    "hand,field",
    [
        ({"concealed": "123m", "tile": "1m"}, "hand.concealed"),
        ({"concealed": "1234m", "tile": "1m", "melds": [M("chow", "135m")] * 3}, "hand.melds[0].tiles"),
        ({"concealed": "1111234567899m", "tile": "1m"}, "hand"),
        ({"concealed": "1112345678999x", "tile": "1m"}, "hand.concealed"),
        ({"concealed": "1112345678999m"}, "hand.tile"),
        (
            {"concealed": "1112345678999m", "tile": "1m", "melds": [{"type": "set", "tiles": "111m"}]},
            "hand.melds[0].type",
        ),
        ({"concealed": "1357m2468p1357s9s", "tile": "1z"}, "hand"),
    ],
)
def test_errors_name_the_field(hand, field):
    with pytest.raises(SettlementError) as info:
        evaluate_hand(hand)
    assert info.value.field == field


def test_flags_are_checked():
    with pytest.raises(SettlementError) as info:
        ev("456p789s34s11z", "5s", [M("kong", "2222m")], kong_replacement=True)
    assert info.value.field == "hand.kong_replacement"
    with pytest.raises(SettlementError) as info:
        ev("456p789s34s11z", "5s", [M("pung", "222m")], robbing_kong=True, self_draw=True)
    assert info.value.field == "hand.robbing_kong"
