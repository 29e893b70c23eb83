"""Payment rules and every option on/off, with figures derived by hand from beijing.md §2.5-2.9."""

import pytest

from scoring.engine.beijing import OPTION_DOCS, PRESETS, resolve
from scoring.engine.errors import SettlementError
from tests.engine_beijing.helpers import bj, per_payer

# ---- basic payer-side doublings (dealer 0 throughout) -------------------------------------------


def test_nondealer_discard_win_discarder_and_dealer_double():
    # seat 1 wins on seat 2's discard, 門清 (2): dealer 2×2=4, discarder 2×2=4, seat 3 2
    out = bj({"type": "ron", "winner": 1, "from": 2, "factors": ["menqing"]})
    assert per_payer(out) == {0: 4, 2: 4, 3: 2}
    assert out["deltas"] == [-4, 10, -4, -2]
    assert out["dealer_next"] == 1 and out["dealer_repeats"] is False


def test_dealer_discards_to_nondealer_both_doublings_stack():
    # dealer is also the discarder: 2 × 荘家 × 放銃 = 8
    out = bj({"type": "ron", "winner": 3, "from": 0, "factors": ["menqing", "meihuar"]})
    assert per_payer(out) == {0: 16, 1: 4, 2: 4}


def test_dealer_discard_win():
    out = bj({"type": "ron", "winner": 0, "from": 2, "factors": ["menqing"]})
    assert per_payer(out) == {1: 4, 2: 8, 3: 4}
    assert out["dealer_repeats"] is True


def test_nondealer_self_draw():
    out = bj({"type": "tsumo", "winner": 1, "factors": ["menqing", "meihuar"]})
    assert out["deltas"] == [-16, 32, -8, -8]


def test_no_factor_open_hand_self_draw_is_one_point_doubled():
    out = bj({"type": "tsumo", "winner": 2, "factors": []})
    assert per_payer(out) == {0: 4, 1: 2, 3: 2}


def test_qidui_haohua_per_four_of_a_kind():
    # 門清·七対·豪華·豪華 + 提溜 = 2^5 = 32 (non-dealer), dealer 64
    out = bj({"type": "tsumo", "winner": 1, "factors": ["menqing", "qidui", "haohua", "haohua"]})
    assert per_payer(out) == {0: 64, 2: 32, 3: 32}


def test_base_rate():
    out = bj({"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}, rules={"base": 2})
    assert per_payer(out) == {1: 32, 2: 32, 3: 32}


def test_factor_aliases_chinese():
    out = bj({"type": "tsumo", "winner": 0, "factors": ["門清", "一条龍"]})
    assert out["deltas"] == [48, -16, -16, -16]


# ---- kong points ----------------------------------------------------------------------------------


def test_kong_points_open_and_concealed_dealer_doubled():
    # seat 2 self-draw, open hand: hand 2 (dealer 4); kongs 1+2=3 (dealer 6)
    out = bj({"type": "tsumo", "winner": 2, "factors": [], "kongs": [{"type": "open"}, {"type": "concealed"}]})
    assert per_payer(out) == {0: 10, 1: 5, 3: 5}


def test_dealer_doubles_kong_off():
    out = bj(
        {"type": "tsumo", "winner": 2, "factors": [], "kongs": ["open", "concealed"]},
        rules={"dealer_doubles_kong": False},
    )
    assert per_payer(out) == {0: 7, 1: 5, 3: 5}


def test_added_kong_counts_as_open():
    out = bj({"type": "tsumo", "winner": 2, "factors": [], "kongs": [{"type": "added"}]})
    assert per_payer(out) == {0: 4 + 2, 1: 2 + 1, 3: 2 + 1}


def test_kong_point_values_configurable():
    out = bj(
        {"type": "tsumo", "winner": 2, "factors": [], "kongs": ["open", "concealed"]},
        rules={"kong_points": {"open": 2, "concealed": 4}},
    )
    assert per_payer(out) == {0: 4 + 12, 1: 2 + 6, 3: 2 + 6}


def test_gangkai_doubles_kong_points_and_option_off():
    # seat 2 槓開 on an open kong: hand 2^1·提溜 = 4 (dealer 8); kong 1×槓開 2 = 2 (dealer 4)
    out = bj({"type": "tsumo", "winner": 2, "factors": ["gangkai"], "kongs": ["open"]})
    assert per_payer(out) == {0: 12, 1: 6, 3: 6}
    out = bj(
        {"type": "tsumo", "winner": 2, "factors": ["gangkai"], "kongs": ["open"]}, rules={"gangkai_doubles_kong": False}
    )
    assert per_payer(out) == {0: 10, 1: 5, 3: 5}


def test_no_other_factor_touches_kong_points():
    out = bj({"type": "tsumo", "winner": 1, "factors": ["menqing", "meihuar"], "kongs": ["concealed"]})
    # hand 2^3=8 (dealer 16); kong 2 (dealer 4)
    assert per_payer(out) == {0: 20, 2: 10, 3: 10}


# ---- fixed-value hands ------------------------------------------------------------------------


def test_tianhu_fixed_20_each():
    out = bj({"type": "tsumo", "winner": 0, "special": "tianhu"})
    assert out["deltas"] == [60, -20, -20, -20]


def test_dihu_paid_equally_by_all_three():
    out = bj({"type": "ron", "winner": 1, "from": 0, "special": "dihu"})
    assert out["deltas"] == [-20, 60, -20, -20]


def test_hungang_fixed_and_configurable():
    out = bj({"type": "tsumo", "winner": 3, "special": "hungang"}, rules={"fixed_hands": {"hungang": 8}})
    assert out["deltas"] == [-8, -8, -8, 24]


def test_four_wildcards_in_tiles_is_hungang():
    out = bj(
        {"type": "tsumo", "winner": 1, "hand": {"concealed": "2222m13579p1357s", "tile": "1z"}}, wildcard_indicator="1m"
    )
    assert out["winners"][0]["special"] == "hungang"
    assert out["deltas"] == [-20, 60, -20, -20]


# ---- chombo ---------------------------------------------------------------------------------------


def test_chombo_fixed_default_20_each():
    out = bj({"type": "chombo", "seat": 2})
    assert out["deltas"] == [20, 20, -60, 20]
    assert out["dealer_repeats"] is True


def test_chombo_fixed_amount_option():
    out = bj({"type": "chombo", "seat": 1}, rules={"chombo": {"points": 5}})
    assert out["deltas"] == [5, -15, 5, 5]


def test_chombo_reverse_self_draw():
    # seat 2 claimed a concealed self-draw: would collect 4 each, 8 from the dealer
    out = bj(
        {"type": "chombo", "seat": 2, "claimed": {"type": "tsumo", "factors": ["menqing"]}},
        rules={"chombo": {"mode": "reverse"}},
    )
    assert out["deltas"] == [8, 4, -16, 4]


def test_chombo_reverse_discard_discarder_gets_doubled_share():
    out = bj(
        {"type": "chombo", "seat": 1, "claimed": {"type": "ron", "from": 3, "factors": ["menqing"]}},
        rules={"chombo": {"mode": "reverse"}},
    )
    assert out["deltas"] == [4, -10, 2, 4]


def test_chombo_reverse_needs_claimed_hand():
    with pytest.raises(SettlementError) as e:
        bj({"type": "chombo", "seat": 1}, rules={"chombo": {"mode": "reverse"}})
    assert e.value.field == "result.claimed"


# ---- draw ----------------------------------------------------------------------------------------


def test_draw_no_payment_dealer_repeats():
    out = bj({"type": "draw"}, dealer=2)
    assert out["deltas"] == [0, 0, 0, 0] and out["payments"] == []
    assert out["dealer_next"] == 2 and out["dealer_repeats"] is True


# ---- 焼荘 ----------------------------------------------------------------------------------------


def test_shaozhuang_on_dealer_pays_10_each_on_a_win():
    out = bj(
        {"type": "tsumo", "winner": 1, "factors": ["menqing"]}, shaozhuang=True, rules={"shaozhuang": {"enabled": True}}
    )
    # win: dealer 8, others 4 → [-8, 16, -4, -4]; penalty: dealer −30, others +10
    assert out["deltas"] == [-38, 26, 6, 6]


def test_shaozhuang_also_when_dealer_wins():
    out = bj(
        {"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]},
        shaozhuang=True,
        rules={"shaozhuang": {"enabled": True, "points": 5}},
    )
    assert out["deltas"] == [48 - 15, -16 + 5, -16 + 5, -16 + 5]


def test_shaozhuang_waived_on_draw_and_off_by_default():
    out = bj({"type": "draw"}, shaozhuang=True, rules={"shaozhuang": {"enabled": True}})
    assert out["deltas"] == [0, 0, 0, 0]
    out = bj({"type": "tsumo", "winner": 1, "factors": ["menqing"]}, shaozhuang=True)
    assert out["deltas"] == [-8, 16, -4, -4]


# ---- 上楼 ----------------------------------------------------------------------------------------


def test_shanglou_after_draw_doubles_hand_and_kong():
    rules = {"shanglou": {"enabled": True}}
    out = bj({"type": "tsumo", "winner": 0, "factors": ["gangkai"], "kongs": ["open"]}, rules=rules, after_draw=True)
    assert out["shanglou"] is True
    assert per_payer(out) == {1: 24, 2: 24, 3: 24}
    out = bj({"type": "tsumo", "winner": 0, "factors": ["gangkai"], "kongs": ["open"]}, rules=rules)
    assert out["shanglou"] is False and per_payer(out) == {1: 12, 2: 12, 3: 12}


def test_shanglou_off_by_default():
    out = bj({"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}, after_draw=True)
    assert out["deltas"] == [48, -16, -16, -16]


def test_shanglou_scopes():
    r = {"type": "tsumo", "winner": 0, "factors": ["gangkai"], "kongs": ["open"]}
    out = bj(r, rules={"shanglou": {"enabled": True, "scope": "hand"}}, after_draw=True)
    assert per_payer(out) == {1: 16 + 4, 2: 20, 3: 20}
    fixed = {"type": "tsumo", "winner": 0, "special": "tianhu"}
    assert bj(fixed, rules={"shanglou": {"enabled": True}}, after_draw=True)["deltas"] == [120, -40, -40, -40]
    assert bj(fixed, rules={"shanglou": {"enabled": True, "scope": "hand_and_kong"}}, after_draw=True)["deltas"] == [
        60,
        -20,
        -20,
        -20,
    ]


def test_shanglou_does_not_double_penalties():
    out = bj(
        {"type": "tsumo", "winner": 1, "factors": ["menqing"]},
        after_draw=True,
        shaozhuang=True,
        rules={"shanglou": {"enabled": True}, "shaozhuang": {"enabled": True}},
    )
    assert out["deltas"] == [-16 - 30, 32 + 10, -8 + 10, -8 + 10]
    out = bj({"type": "chombo", "seat": 1}, after_draw=True, rules={"shanglou": {"enabled": True}})
    assert out["deltas"] == [20, -60, 20, 20]


def test_shanglou_dealer_streak_variant_and_next():
    rules = {"shanglou": {"enabled": True, "after_draw": False, "dealer_streak": 3}}
    r = {"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}
    assert bj(r, rules=rules, dealer_streak=2)["deltas"] == [48, -16, -16, -16]
    out = bj(r, rules=rules, dealer_streak=3)
    assert out["deltas"] == [96, -32, -32, -32] and out["dealer_streak_next"] == 4
    assert bj(r, rules=rules, dealer_streak=2)["shanglou_next"] is True
    assert bj({"type": "draw"}, rules={"shanglou": {"enabled": True}})["shanglou_next"] is True


def test_shanglou_explicit_flag_for_rotation_variant():
    out = bj({"type": "tsumo", "winner": 1, "factors": []}, shanglou=True, rules={"shanglou": {"enabled": True}})
    assert per_payer(out) == {0: 8, 2: 4, 3: 4}


# ---- 点炮包荘 -------------------------------------------------------------------------------------


def test_discarder_pays_all_without_discarder_double():
    # shares without 放銃 ×2: dealer 2×2=4, seat 2 2, seat 3 2 → discarder seat 2 pays 8
    out = bj({"type": "ron", "winner": 1, "from": 2, "factors": ["menqing"]}, rules={"discarder_pays_all": True})
    assert out["deltas"] == [0, 8, -8, 0]


def test_discarder_pays_all_self_draw_keeps_tiliu_by_default():
    r = {"type": "tsumo", "winner": 1, "factors": ["menqing", "meihuar"]}
    assert bj(r, rules={"discarder_pays_all": True})["deltas"] == [-16, 32, -8, -8]
    out = bj(r, rules={"discarder_pays_all": True, "pays_all_self_draw_double": False})
    assert out["deltas"] == [-8, 16, -4, -4]


def test_discarder_pays_all_includes_kong_points():
    out = bj(
        {"type": "ron", "winner": 3, "from": 1, "factors": ["menqing"], "kongs": ["concealed"]},
        rules={"discarder_pays_all": True},
    )
    # shares: dealer (4 + 4), seat 1 (2 + 2), seat 2 (2 + 2) → 16 from seat 1
    assert out["deltas"] == [0, -16, 0, 16]


def test_discarder_pays_all_not_for_dihu():
    out = bj({"type": "ron", "winner": 1, "from": 0, "special": "dihu"}, rules={"discarder_pays_all": True})
    assert out["deltas"] == [-20, 60, -20, -20]


# ---- 搶槓 ----------------------------------------------------------------------------------------


def test_qianggang_scored_as_self_draw():
    out = bj({"type": "qianggang", "winner": 1, "from": 3, "factors": ["menqing"]})
    assert out["deltas"] == [-8, 16, -4, -4]
    out = bj({"type": "ron", "qianggang": True, "winner": 1, "from": 3, "factors": ["menqing"]})
    assert out["deltas"] == [-8, 16, -4, -4]


def test_qianggang_pao_robbed_pays_all():
    out = bj({"type": "qianggang", "winner": 1, "from": 3, "factors": ["menqing"]}, rules={"qianggang_pao": True})
    assert out["deltas"] == [0, 16, 0, -16]


# ---- Hangzhou 3-claim 包 ---------------------------------------------------------------------------


def test_hangzhou_pao_claimer_wins_liable_pays_everything():
    r = {"type": "tsumo", "winner": 1, "factors": [], "claims": [{"by": 1, "from": 2, "count": 3}]}
    assert bj(r)["deltas"] == [-4, 8, -2, -2]  # option off
    assert bj(r, rules={"hangzhou_pao": True})["deltas"] == [0, 8, -8, 0]


def test_hangzhou_pao_other_side_wins():
    r = {"type": "tsumo", "winner": 2, "factors": ["menqing"], "claims": [{"by": 1, "from": 2, "count": 3}]}
    assert bj(r, rules={"hangzhou_pao": True})["deltas"] == [0, -16, 16, 0]


def test_hangzhou_pao_with_two_players_receives_double():
    r = {
        "type": "tsumo",
        "winner": 1,
        "factors": [],
        "claims": [{"by": 1, "from": 2, "count": 3}, {"by": 1, "from": 3, "count": 4}],
    }
    assert bj(r, rules={"hangzhou_pao": True})["deltas"] == [0, 16, -8, -8]


def test_hangzhou_double_pao_pays_twice():
    r = {
        "type": "tsumo",
        "winner": 1,
        "factors": [],
        "claims": [{"by": 1, "from": 2, "count": 3}, {"by": 2, "from": 1, "count": 3}],
    }
    assert bj(r, rules={"hangzhou_pao": True})["deltas"] == [0, 16, -16, 0]


def test_hangzhou_pao_includes_kong_points_and_needs_three_claims():
    r = {"type": "tsumo", "winner": 1, "factors": [], "kongs": ["open"], "claims": [{"by": 1, "from": 0, "count": 3}]}
    # shares: dealer 4+2, seat 2 2+1, seat 3 2+1 = 12 → all from seat 0
    assert bj(r, rules={"hangzhou_pao": True})["deltas"] == [-12, 12, 0, 0]
    r["claims"][0]["count"] = 2
    assert bj(r, rules={"hangzhou_pao": True})["deltas"] == [-6, 12, -3, -3]


# ---- several winners on one discard ---------------------------------------------------------------


def _two_winners():
    return {
        "type": "ron",
        "from": 0,
        "winners": [{"seat": 3, "factors": ["menqing"]}, {"seat": 1, "factors": ["menqing"]}],
    }


def test_head_bump_default_first_after_discarder():
    out = bj(_two_winners())
    assert out["head_bumped"] == [3]
    assert out["deltas"] == [-8, 12, -2, -2]
    assert out["dealer_next"] == 1


def test_multiple_winners_all():
    out = bj(_two_winners(), rules={"multiple_winners": "all"})
    assert out["deltas"] == [-16, 12 - 2, -4, 12 - 2]


# ---- extra factors --------------------------------------------------------------------------------


def test_extra_factor_option():
    out = bj(
        {"type": "tsumo", "winner": 0, "factors": ["menqing", "qingyise"]}, rules={"extra_factors": {"qingyise": 1}}
    )
    assert out["deltas"] == [48, -16, -16, -16]
    with pytest.raises(SettlementError) as e:
        bj({"type": "tsumo", "winner": 0, "factors": ["menqing", "qingyise"]})
    assert e.value.field == "result.factors[1]"


# ---- presets / resolve -----------------------------------------------------------------------------


def test_preset_defaults_match_contract():
    p = PRESETS["beijing"]
    assert p["base"] == 1 and p["kong_points"]["open"] == 1 and p["kong_points"]["concealed"] == 2
    assert p["dealer_doubles_kong"] is True and p["discarder_pays_all"] is False
    assert p["chombo"] == {"mode": "fixed", "points": 20}
    assert p["fixed_hands"] == {"tianhu": 20, "dihu": 20, "hungang": 20}
    assert p["shaozhuang"]["points"] == 10
    assert set(OPTION_DOCS) == set(p)


@pytest.mark.parametrize(
    "spec,field",
    [
        ({"base": 0}, "rules.base"),
        ({"bogus": 1}, "rules.bogus"),
        ({"kong_points": {"open": -1}}, "rules.kong_points.open"),
        ({"kong_points": {"big": 1}}, "rules.kong_points.big"),
        ({"chombo": {"mode": "weird"}}, "rules.chombo.mode"),
        ({"dealer_doubles_kong": "yes"}, "rules.dealer_doubles_kong"),
        ({"shanglou": {"scope": "everything"}}, "rules.shanglou.scope"),
        ({"multiple_winners": "some"}, "rules.multiple_winners"),
        ({"extra_factors": {"long": 1}}, "rules.extra_factors.long"),
    ],
)
def test_resolve_rejects_bad_options(spec, field):
    with pytest.raises(SettlementError) as e:
        resolve({"preset": "beijing", **spec})
    assert e.value.field == field


def test_resolve_merges_nested_overrides():
    o = resolve({"preset": "beijing", "kong_points": {"open": 3}})
    assert o["kong_points"] == {"open": 3, "concealed": 2, "added": 1}
    assert PRESETS["beijing"]["kong_points"]["open"] == 1
