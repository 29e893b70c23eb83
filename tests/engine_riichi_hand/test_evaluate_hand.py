"""Tile-level riichi hand values, checked against standard (public) riichi tables.

Reference values: riichi.wiki / EMA & WRC rule books — e.g. closed pinfu tsumo = 20 fu,
chiitoitsu = 25 fu, closed ron 30 fu base (20 + 10 menzen kafu), open hand 20 fu base with a
"no fu" open hand rounded to 30, kanchan +2, open honor pon +4, yakuhai 1 han each.
"""

import pytest

from scoring.engine.errors import SettlementError
from scoring.engine.riichi.hand import evaluate_hand

TENHOU_LIKE = {
    "kuitan": True,
    "kazoe_yakuman": True,
    "aka_dora": 3,
    "double_yakuman": True,
    "max_yakuman_multiple": 6,
    "min_han": 1,
}
WRC_LIKE = {
    "kuitan": True,
    "kazoe_yakuman": False,
    "aka_dora": 0,
    "double_yakuman": False,
    "max_yakuman_multiple": 1,
    "min_han": 1,
}


def W(concealed, tile, melds=(), seat_wind="2z", round_wind="1z", **extra):
    winner = {
        "seat": 1,
        "hand": {"concealed": concealed, "tile": tile, "melds": [{"type": t, "tiles": s} for t, s in melds]},
        "seat_wind": seat_wind,
        "round_wind": round_wind,
    }
    winner.update(extra)
    return winner


def names(res):
    return sorted(y["romaji"] for y in res["yaku"])


def test_riichi_pinfu_tsumo_20_fu_3_han():
    res = evaluate_hand(
        W("234789m12345p66p", "6p", flags={"riichi": True}), TENHOU_LIKE, tsumo=True, field="result.winner"
    )
    assert (res["han"], res["fu"], res["yakuman"], res["dora"]) == (3, 20, 0, 0)
    assert names(res) == ["Menzen Tsumo", "Pinfu", "Riichi"]


def test_pinfu_ron_closed_is_30_fu():
    res = evaluate_hand(W("234789m12345p66p", "3p"), TENHOU_LIKE, tsumo=False, field="w")
    assert (res["han"], res["fu"]) == (1, 30)
    assert names(res) == ["Pinfu"]


def test_closed_ron_40_fu_vs_open_30_fu_kanchan():
    # closed: 30 (base incl. menzen kafu) + 2 kanchan = 32 -> 40; tanyao only (kanchan: no pinfu)
    closed = evaluate_hand(W("234m567p345s68s88m", "7s"), TENHOU_LIKE, tsumo=False, field="w")
    assert (closed["han"], closed["fu"], closed["open"]) == (1, 40, False)
    # open: 20 + 2 kanchan = 22 -> 30; kuitan
    opened = evaluate_hand(W("567p345s68s88m", "7s", melds=[("chi", "234m")]), TENHOU_LIKE, tsumo=False, field="w")
    assert (opened["han"], opened["fu"], opened["open"]) == (1, 30, True)
    assert names(opened) == ["Tanyao"]


def test_open_tanyao_depends_on_kuitan():
    w = W("567p345s67s88m", "8s", melds=[("chi", "234m")])
    res = evaluate_hand(w, dict(TENHOU_LIKE, kuitan=True), tsumo=False, field="w")
    assert (res["han"], res["fu"]) == (1, 30)  # open "pinfu" shape: 20 + 2 -> 30
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(w, dict(TENHOU_LIKE, kuitan=False), tsumo=False, field="result.winners[0]")
    assert exc.value.field == "result.winners[0].hand"
    assert "no yaku" in str(exc.value)


def test_closed_tanyao_needs_no_kuitan():
    res = evaluate_hand(W("234m567p345s68s88m", "7s"), dict(TENHOU_LIKE, kuitan=False), tsumo=False, field="w")
    assert names(res) == ["Tanyao"]


def test_chiitoitsu_25_fu_2_han():
    res = evaluate_hand(W("1133m5577p22s446z", "6z"), TENHOU_LIKE, tsumo=False, field="w")
    assert (res["han"], res["fu"]) == (2, 25)
    assert names(res) == ["Chiitoitsu"]


def test_kokushi_single_and_thirteen_sided():
    single = evaluate_hand(W("119m19p19s123456z", "7z"), TENHOU_LIKE, tsumo=False, field="w")
    assert single["yakuman"] == 1
    assert names(single) == ["Kokushi Musou"]
    thirteen = W("19m19p19s1234567z", "1m")
    assert evaluate_hand(thirteen, TENHOU_LIKE, tsumo=False, field="w")["yakuman"] == 2
    assert evaluate_hand(thirteen, dict(TENHOU_LIKE, double_yakuman=False), tsumo=False, field="w")["yakuman"] == 1
    assert evaluate_hand(thirteen, WRC_LIKE, tsumo=False, field="w")["yakuman"] == 1


def test_daisangen_tsuuiisou_stack_or_cap():
    # ron on the shanpon 1z: daisangen + all honors (not suuankou: ron-completed triplet)
    w = W("555666777z1122z", "1z")
    stacked = evaluate_hand(w, TENHOU_LIKE, tsumo=False, field="w")
    assert stacked["yakuman"] == 2
    assert names(stacked) == ["Daisangen", "Tsuu Iisou"]
    assert stacked["han"] == 26 and stacked["dora"] == 0
    capped = evaluate_hand(w, WRC_LIKE, tsumo=False, field="w")
    assert capped["yakuman"] == 1


def test_kazoe_13_han_reported_with_flag():
    # 123 456 789 234 55m: chinitsu 6 + ittsu 2 + riichi 1 + tsumo 1 + dora 3 (indicator 4m -> 5m x3)
    w = W("1234567892345m", "5m", flags={"riichi": True}, dora_indicators=["4m"])
    on = evaluate_hand(w, TENHOU_LIKE, tsumo=True, field="w")
    assert (on["han"], on["yakuman"], on["kazoe"], on["dora"]) == (13, 0, True, 3)
    assert on["yaku_han"] == 10
    off = evaluate_hand(w, WRC_LIKE, tsumo=True, field="w")
    assert (off["han"], off["yakuman"], off["kazoe"]) == (13, 0, False)


def test_plain_five_is_never_aka():
    # three 5p in hand and 5555s as a kan: no red five unless "aka" says so
    w = W("234m555p678s8m", "8m", melds=[("kan", "5555s")])
    res = evaluate_hand(w, TENHOU_LIKE, tsumo=False, field="w")
    assert res["dora_detail"] == {"dora": 0, "aka": 0, "ura": 0}
    assert res["han"] == 1  # open tanyao only
    res = evaluate_hand(dict(w, aka=2), TENHOU_LIKE, tsumo=False, field="w")
    assert res["dora_detail"]["aka"] == 2 and res["han"] == 3 and res["yaku_han"] == 1


def test_aka_count_is_validated():
    w = W("234m555p678s8m", "8m", melds=[("kan", "5555s")], aka=1)
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(w, WRC_LIKE, tsumo=False, field="result.winners[0]")
    assert exc.value.field == "result.winners[0].aka"
    with pytest.raises(SettlementError):
        evaluate_hand(dict(w, aka=9), TENHOU_LIKE, tsumo=False, field="w")


def test_dora_counts_but_is_not_a_yaku():
    # tanyao + 3 dora (indicator 7s -> 8s; hand 88s... use 4m indicator -> 5m)
    res = evaluate_hand(W("234m555m345s68s88p", "7s", dora_indicators=["4m"]), TENHOU_LIKE, tsumo=False, field="w")
    assert res["yaku_han"] == 1 and res["dora"] == 3 and res["han"] == 4


@pytest.mark.parametrize("seat,rnd,han", [("1z", "1z", 2), ("2z", "1z", 1), ("1z", "2z", 1)])
def test_seat_and_round_wind_yakuhai(seat, rnd, han):
    res = evaluate_hand(
        W("234m567p34s88s", "2s", melds=[("pon", "111z")], seat_wind=seat, round_wind=rnd),
        TENHOU_LIKE,
        tsumo=False,
        field="w",
    )
    # open: 20 + 4 (open honor pon) = 24 -> 30 fu
    assert (res["han"], res["fu"]) == (han, 30)


def test_guest_wind_is_no_yaku():
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(
            W("234m567p34s88s", "2s", melds=[("pon", "333z")], seat_wind="2z", round_wind="1z"),
            TENHOU_LIKE,
            tsumo=False,
            field="result.winners[1]",
        )
    assert exc.value.field == "result.winners[1].hand" and "no yaku" in exc.value.message


def test_seat_wind_derived_from_dealer():
    w = W("234m567p34s88s", "2s", melds=[("pon", "111z")], seat_wind=None)
    w["seat"] = 2
    res = evaluate_hand(w, TENHOU_LIKE, tsumo=False, field="w", dealer=2)  # seat 2 deals: East
    assert res["han"] == 2
    res = evaluate_hand(w, TENHOU_LIKE, tsumo=False, field="w", dealer=1)  # seat 2 is South
    assert res["han"] == 1
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(w, TENHOU_LIKE, tsumo=False, field="w")
    assert exc.value.field == "w.seat_wind"


def test_incomplete_hand_names_field():
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(W("123m456p789s1234z", "5z"), TENHOU_LIKE, tsumo=False, field="result.winners[0]")
    assert exc.value.field == "result.winners[0].hand"
    assert "not a complete hand" in str(exc.value)


def test_no_yaku_names_field():
    # closed ron, kanchan, terminals: no yaku at all
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(W("123m456p789s13s99m", "2s"), TENHOU_LIKE, tsumo=False, field="result.winners[0]")
    assert exc.value.field == "result.winners[0].hand" and "no yaku" in str(exc.value)


def test_min_han_counts_yaku_only():
    w = W("234m555m345s68s88p", "7s", dora_indicators=["4m"])  # tanyao 1 + dora 3
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(w, dict(TENHOU_LIKE, min_han=2), tsumo=False, field="w")
    assert "no yaku" in exc.value.message and exc.value.field == "w.hand"


@pytest.mark.parametrize(
    "concealed,melds",
    [
        ("234789m12345p6p", []),  # 12 + 1
        ("234789m12345p666p", []),  # 14 + 1
        ("789m12345p66p", [("chi", "234m"), ("pon", "777z")]),  # 10 + 6 + 1
    ],
)
def test_wrong_tile_count(concealed, melds):
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(W(concealed, "6p", melds=melds), TENHOU_LIKE, tsumo=True, field="result.winner")
    assert exc.value.field == "result.winner.hand"
    assert "tiles" in exc.value.message


def test_kan_counts_as_three():
    # closed kan keeps the hand closed: riichi tsumo; 4 + 3 concealed sets etc.
    res = evaluate_hand(
        W("234m567p345s6s", "6s", melds=[("ankan", "9999p")], flags={"riichi": True}),
        TENHOU_LIKE,
        tsumo=True,
        field="w",
    )
    assert res["open"] is False
    assert "Riichi" in names(res) and "Menzen Tsumo" in names(res)
    # 20 base + 2 tsumo + 2 tanki + 32 closed terminal kan = 56 -> 60
    assert res["fu"] == 60


def test_bad_meld_and_tiles_name_field():
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(W("567p345s67s88m", "8s", melds=[("chi", "135m")]), TENHOU_LIKE, tsumo=False, field="w")
    assert exc.value.field == "w.hand.melds[0].tiles"
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(W("567p345s67s88x", "8s"), TENHOU_LIKE, tsumo=False, field="w")
    assert exc.value.field == "w.hand.concealed"


def test_ura_dora_only_with_riichi():
    w = W("234789m12345p66p", "6p", flags={"riichi": True}, ura_indicators=["5p"])  # ura = 6p x3
    res = evaluate_hand(w, TENHOU_LIKE, tsumo=True, field="w")
    assert res["dora_detail"]["ura"] == 3 and res["han"] == 6
    assert evaluate_hand(w, dict(TENHOU_LIKE, ura_dora=False), tsumo=True, field="w")["han"] == 3


def test_double_wind_pair_fu_option():
    # closed ron, pair 11z for an East seat in an East round; 234m567p345s + 77m? use shanpon-free ryanmen
    w = W("234m567p345s67s11z", "8s", seat_wind="1z", round_wind="1z", flags={"riichi": True})
    four = evaluate_hand(w, TENHOU_LIKE, tsumo=False, field="w")
    assert four["fu"] == 40  # 30 + 4 -> 34 -> 40
    two = evaluate_hand(w, dict(TENHOU_LIKE, double_wind_fu=2), tsumo=False, field="w")
    assert two["fu"] == 40  # 30 + 2 -> 32 -> 40


def test_renhou_options():
    w = W("234789m12345p66p", "3p", flags={"renhou": True})
    assert evaluate_hand(w, dict(TENHOU_LIKE, renhou="yakuman"), tsumo=False, field="w")["yakuman"] == 1
    mangan = evaluate_hand(w, dict(TENHOU_LIKE, renhou="mangan"), tsumo=False, field="w")
    assert mangan["yakuman"] == 0 and mangan["han"] == 6  # renhou 5 + pinfu 1
    none = evaluate_hand(w, dict(TENHOU_LIKE, renhou="none"), tsumo=False, field="w")
    assert none["han"] == 1


def test_library_flag_conflict_names_flag():
    with pytest.raises(SettlementError) as exc:
        evaluate_hand(
            W("567p345s67s88m", "8s", melds=[("chi", "234m")], flags={"riichi": True}),
            TENHOU_LIKE,
            tsumo=False,
            field="w",
        )
    assert exc.value.field == "w.flags.riichi"
