"""Presets and game end to the letter of their sources (issue: rule fidelity II).

Sources, each quoted beside the figures it gives:
- WRC: worldriichi.org "WRC rules" summary — "Kiriage (4-han 30-fu is rounded up to mangan)",
  renhou as mangan, no red fives, no kazoe (sanbaiman cap), no double yakuman, no nagashi, no
  abortive draws, atamahane, liability for daisangen and daisuushii.
- M.League: 途中流局なし (九種九牌・四風子連打・四開槓・四人リーチ play on), ダブロンなし (majannavi.com
  "Mリーグ公式ルールまとめ"; mahjong-space.com "Mリーグルール").
- Tenhou final points: a real game's final scores 10,500 / 42,500 / 5,500 / 40,500 with one
  riichi stick left give −29 / +52 / −44 / +21 (non-first scores to the nearest 1,000, uma
  +20/+10/−10/−20, first place minus the sum of the others).
- Pao with several yakuman: riichi.wiki "Sekinin barai", worked example (1 honba; West liable
  for South's daisangen; South wins daisangen + tsuuiisou).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from riichi_helpers import check_payments, opts, ron, run, tsumo

from scoring.engine.errors import SettlementError
from scoring.engine.riichi import PRESETS, game_end

EAST, SOUTH, WEST, NORTH = range(4)


# --- WRC -------------------------------------------------------------------------------------


def test_wrc_kiriage_rounds_4_han_30_fu_and_3_han_60_fu_up_to_mangan():
    assert ron(NORTH, {"seat": SOUTH, "han": 4, "fu": 30}, preset="wrc")["deltas"][SOUTH] == 8000
    assert ron(NORTH, {"seat": SOUTH, "han": 3, "fu": 60}, preset="wrc")["deltas"][SOUTH] == 8000
    assert ron(NORTH, {"seat": EAST, "han": 4, "fu": 30}, preset="wrc")["deltas"][EAST] == 12000
    # 3 han 50 fu is not rounded: 6,400
    assert ron(NORTH, {"seat": SOUTH, "han": 3, "fu": 50}, preset="wrc")["deltas"][SOUTH] == 6400


def test_wrc_caps_at_sanbaiman_and_counts_every_yakuman_single():
    assert ron(NORTH, {"seat": SOUTH, "han": 13}, preset="wrc")["deltas"][SOUTH] == 24000
    assert ron(NORTH, {"seat": SOUTH, "yakuman": 2}, preset="wrc")["deltas"][SOUTH] == 32000


def test_wrc_other_options_as_the_summary_lists_them():
    wrc = PRESETS["wrc"]
    assert wrc["aka_dora"] == 0 and wrc["renhou"] == "mangan" and not wrc["nagashi_mangan"]
    assert wrc["abortive_draws"] == [] and not wrc["multiple_ron"]
    assert set(wrc["pao"]) == {"daisangen", "daisuushii"}
    with pytest.raises(SettlementError):
        run({"dealer": 0, "result": {"type": "abortive", "reason": "nine_terminals"}}, "wrc")


def test_wrc_head_bump_pays_only_the_first_winner_after_the_discarder():
    out = ron(EAST, {"seat": WEST, "han": 2, "fu": 30}, {"seat": SOUTH, "han": 1, "fu": 30}, preset="wrc")
    assert out["deltas"] == [-1000, 1000, 0, 0] and out["bumped"] == [WEST]


# --- M.League --------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", ["nine_terminals", "four_winds", "four_riichi", "four_kans"])
def test_mleague_has_no_abortive_draws(reason):
    with pytest.raises(SettlementError) as err:
        run({"dealer": 0, "result": {"type": "abortive", "reason": reason}}, "mleague")
    assert err.value.field.startswith("result")


def test_mleague_three_way_tie_larger_shares_nearest_the_first_dealer():
    # 30,000 × 3 / 10,000: uma 30 + 10 − 10 and oka 20 shared three ways = 50/3 each. In 0.1
    # units that is 16.7 / 16.7 / 16.6, and "3名が同点だった場合の端数は起家に近い方が大きいポイント
    # を取得する": the larger shares go to the tied seats nearest the first dealer (seat 0).
    out = game_end(opts("mleague"), [30000, 30000, 30000, 10000])
    assert out["points"] == [16.7, 16.7, 16.6, -50.0]
    assert out["places"] == [1, 1, 1, 4]
    # the same tie seated differently: the tied seats nearest the first dealer are seats 1 and 2
    out = game_end(opts("mleague"), [10000, 30000, 30000, 30000])
    assert out["points"] == [-50.0, 16.7, 16.7, 16.6]
    # seat 0 fourth, the tie at seats 0, 2, 3 (seat 0 is the first dealer)
    out = game_end(opts("mleague"), [30000, 10000, 30000, 30000])
    assert out["points"] == [16.7, -50.0, 16.7, 16.6]


def test_mleague_three_way_tie_for_second():
    # 40,000 first: 10 + 30 + 20 = +60.0; the three at 20,000 share 10 − 10 − 30 = −30 → −10 each,
    # minus 10 for the score: −20.0 each, exact: no tenth to place.
    out = game_end(opts("mleague"), [40000, 20000, 20000, 20000])
    assert out["points"] == [60.0, -20.0, -20.0, -20.0]


def test_mleague_two_and_four_way_ties_are_exact():
    # two tied for first share 30 + 10 + 20 = 60 → 30 each, plus (35,000 − 30,000) / 1000 = 5
    out = game_end(opts("mleague"), [35000, 35000, 20000, 10000])
    assert out["points"] == [35.0, 35.0, -20.0, -50.0]
    # all four tied at 25,000: (30 + 10 − 10 − 30 + 20) / 4 = 5, minus 5 for the score: 0 each
    out = game_end(opts("mleague"), [25000, 25000, 25000, 25000])
    assert out["points"] == [0.0, 0.0, 0.0, 0.0]


def test_mleague_negative_three_way_share_keeps_the_order():
    # 70,000 first (+40 + 30 + 20 = +90.0); three tied at 10,000 share 10 − 10 − 30 = −30 → −10,
    # −20 for the score: −30.0 each. A share that is not whole in tenths: 4 players, 3 tied at
    # 10,100 (−19.9 − 10 = −29.9 each), first 69,700 (+39.7 + 50 = +89.7): exact, still zero.
    out = game_end(opts("mleague"), [70000, 10000, 10000, 10000])
    assert out["points"] == [90.0, -30.0, -30.0, -30.0]
    out = game_end(opts("mleague"), [69700, 10100, 10100, 10100])
    assert out["points"] == [89.7, -29.9, -29.9, -29.9]


# --- Tenhou final points -----------------------------------------------------------------------


def test_tenhou_final_points_of_a_real_game():
    out = game_end(opts("tenhou"), [10500, 42500, 5500, 40500], deposits_left=1)
    assert out["points"] == [-29.0, 52.0, -44.0, 21.0]
    assert out["places"] == [3, 1, 4, 2]


def test_tenhou_rounding_is_to_the_nearest_thousand_and_first_takes_the_rest():
    # 25,400 → 25,000: −5 + 10; 22,700 → 23,000: −7 − 10; 17,300 → 17,000: −13 − 20;
    # first place (34,600) takes minus the sum of the others: +45 (its own 4.6 + 20 uma + 20 oka
    # and what the rounding moved)
    out = game_end(opts("tenhou"), [25400, 34600, 17300, 22700])
    assert out["points"] == [5.0, 45.0, -33.0, -17.0]


def test_five_down_rounding_rounds_500_down_and_600_up():
    # 五捨六入: 40,500 → 40,000, 30,600 → 31,000, 29,400 → 29,000, 19,500 → 19,000:
    # +25 / +6 / −6 / −26 leaves +1, taken by the rounded seat nearest the first dealer (seat 0)
    o = opts("wrc", final_rounding="thousand_five_down")
    assert game_end(o, [40500, 30600, 29400, 19500])["points"] == [26.0, 6.0, -6.0, -26.0]
    # 四捨五入: 41,000 / 31,000 / 29,000 / 20,000: +26 / +6 / −6 / −25 is 1 over; the rounded seat
    # farthest from the first dealer (seat 3) gives it, as the nearer seat keeps the larger share
    o = opts("wrc", final_rounding="thousand_half_up")
    assert game_end(o, [40500, 30600, 29400, 19500])["points"] == [26.0, 6.0, -6.0, -26.0]


def test_negative_final_scores_round_by_their_size():
    o = opts("wrc", final_rounding="thousand_half_up", remainder_to="first_place")
    # −1,500 → −2,000 (四捨五入 on the size): −32 − 15 = −47
    out = game_end(o, [61500, 30000, 30000, -1500])
    assert out["points"][3] == -47.0 and sum(out["points"]) == 0


def test_tenhou_east_only_games_use_their_own_uma():
    east = opts("tenhou", game_length="tonpuusen")
    out = game_end(east, [10500, 42500, 5500, 40500], deposits_left=1)
    # −19 − 5, −24 − 10, +11 + 5, first place the rest
    assert out["points"] == [-24.0, 42.0, -34.0, 16.0]
    # a hanchan under the same preset keeps +20/+10/−10/−20
    assert game_end(opts("tenhou"), [10500, 42500, 5500, 40500], deposits_left=1)["points"][3] == 21.0


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    three=st.lists(st.integers(-300, 800).map(lambda x: x * 100), min_size=3, max_size=3),
    deposits=st.integers(0, 4),
    length=st.sampled_from(["hanchan", "tonpuusen"]),
    rounding=st.sampled_from(["none", "thousand_half_up", "thousand_five_down"]),
    remainder=st.sampled_from(["nearest_first_dealer", "first_place"]),
)
def test_league_points_always_sum_to_zero(preset, three, deposits, length, rounding, remainder):
    # every preset's oka balances start and return, and leftover sticks go to first place: the
    # oka and uma net to zero, so the league points of a game sum to exactly zero
    options = opts(preset, game_length=length, final_rounding=rounding, remainder_to=remainder)
    total = 4 * options["start_points"] - 1000 * deposits
    out = game_end(options, [*three, total - sum(three)], deposits)
    assert round(sum(out["points"]) * 10) == 0


# --- pao with several yakuman ------------------------------------------------------------------

DOUBLE_WITH_PAO = {"seat": SOUTH, "yakuman": 2, "pao": WEST, "pao_yakuman": 1}


def test_pao_on_the_liable_yakuman_only_tsumo_riichi_wiki_example():
    # "On certain yakuman only": East 16,000, West 32,300 + 8,000, North 8,000
    out = tsumo(DOUBLE_WITH_PAO, dealer=EAST, honba=1, preset="mleague")
    assert out["deltas"] == [-16000, 64300, -40300, -8000]
    check_payments(out)


def test_pao_on_the_whole_hand_tsumo_riichi_wiki_example_and_tenhou():
    # "On all yakuman yaku": West 64,300 — Tenhou's records show the liable player paying it all
    out = tsumo(DOUBLE_WITH_PAO, dealer=EAST, honba=1, preset="tenhou")
    assert out["deltas"] == [0, 64300, -64300, 0]
    out = tsumo(DOUBLE_WITH_PAO, dealer=EAST, honba=1, preset="mleague", pao_scope="whole_hand")
    assert out["deltas"] == [0, 64300, -64300, 0]


def test_pao_on_the_liable_yakuman_only_ron():
    # East deals in: East pays tsuuiisou whole (32,000) and half of daisangen (16,000) plus the
    # honba; West the other half of daisangen
    out = ron(EAST, DOUBLE_WITH_PAO, dealer=EAST, honba=1, preset="mleague")
    assert out["deltas"] == [-48300, 64300, -16000, 0]
    check_payments(out)
    # the liable player pays the honba where the rules say so
    out = ron(EAST, DOUBLE_WITH_PAO, dealer=EAST, honba=1, preset="mleague", pao_ron_honba="liable")
    assert out["deltas"] == [-48000, 64300, -16300, 0]


def test_pao_on_the_whole_hand_ron_splits_it_in_half():
    out = ron(EAST, DOUBLE_WITH_PAO, dealer=EAST, honba=1, preset="tenhou")
    assert out["deltas"] == [-32300, 64300, -32000, 0]


def test_pao_yakuman_cannot_exceed_the_hand():
    with pytest.raises(SettlementError) as err:
        tsumo({**DOUBLE_WITH_PAO, "pao_yakuman": 3}, preset="mleague")
    assert err.value.field == "result.winner.pao_yakuman"
    with pytest.raises(SettlementError) as err:
        tsumo({"seat": SOUTH, "yakuman": 1, "pao_yakuman": 1}, preset="mleague")
    assert err.value.field == "result.winner.pao_yakuman"


# --- sources checked again (issue 12, second pass) ----------------------------------------------
# M.League: k-bys.work "Mリーグルール" (切り上げ満貫; 数え役満なし; 役満の複合あり, but 四暗刻単騎 and
# 国士無双13面待ち are not double); majyan-item.com/m-rule ("7700は切り上げ"; チョンボは20000点相当の罰符;
# 同着の場合は順位点は分け); majannavi.com (1本場300点).
# WRC: riichi.wiki "World Riichi Championship rules" (30,000 start and target, oka 0, uma +15/+5/−5/−15
# modified for ties).


def test_mleague_kiriage_rounds_7700_up_to_mangan():
    assert ron(NORTH, {"seat": SOUTH, "han": 4, "fu": 30}, preset="mleague")["deltas"][SOUTH] == 8000
    assert ron(NORTH, {"seat": SOUTH, "han": 3, "fu": 60}, preset="mleague")["deltas"][SOUTH] == 8000
    assert ron(NORTH, {"seat": EAST, "han": 4, "fu": 30}, preset="mleague")["deltas"][EAST] == 12000


def test_mleague_has_no_kazoe_yakuman_but_stacks_real_yakuman():
    assert ron(NORTH, {"seat": SOUTH, "han": 13}, preset="mleague")["deltas"][SOUTH] == 24000
    assert ron(NORTH, {"seat": SOUTH, "yakuman": 2}, preset="mleague")["deltas"][SOUTH] == 64000
    assert not PRESETS["mleague"]["double_yakuman"]


def test_mleague_other_confirmed_options():
    ml = PRESETS["mleague"]
    assert ml["chombo"] == {"mode": "deduction", "points": 20000}
    assert ml["ties"] == "split" and ml["honba_points"] == 300
    # tied second places share the uma (+10 − 10) / 2 = 0 each: −5 on the score, no placement points
    out = game_end(opts("mleague"), [40000, 25000, 25000, 10000])
    assert out["points"] == [60.0, -5.0, -5.0, -50.0] and out["places"] == [1, 2, 2, 4]


def test_wrc_game_end_figures_from_the_summary():
    wrc = PRESETS["wrc"]
    assert (wrc["start_points"], wrc["return_points"], wrc["oka"]) == (30000, 30000, 0)
    assert wrc["uma"] == [15, 5, -5, -15] and wrc["ties"] == "split"
    from scoring.engine.riichi.presets import OPTION_SOURCES

    assert all(OPTION_SOURCES["wrc"][k] for k in ("uma", "oka", "ties", "kiriage"))
    assert not any(
        v.startswith("unconfirmed")
        for k, v in OPTION_SOURCES["mleague"].items()
        if k in ("kiriage", "kazoe_yakuman", "chombo", "abortive_draws")
    )
