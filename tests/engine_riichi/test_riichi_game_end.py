import pytest
from riichi_helpers import opts, run
from scoring.engine.errors import SettlementError
from scoring.engine.riichi import game_end


def test_mleague_and_ema():
    assert game_end(opts("mleague"), [43000, 30800, 16000, 10200])["points"] == [63.0, 10.8, -24.0, -49.8]
    assert game_end(opts("ema"), [28000, 28000, 37000, 27000])["points"] == [-2, -2, 22, -18]


def test_seat_order_ties_tenhou():
    g = game_end(opts("tenhou"), [30000, 20000, 30000, 20000])
    assert g["places"] == [1, 3, 2, 4]
    assert g["points"] == [40.0, -20.0, 10.0, -30.0]


def test_split_tie_for_first_shares_oka_and_uma():
    g = game_end(opts("mleague"), [35000, 35000, 20000, 10000])
    assert g["places"] == [1, 1, 3, 4]
    assert g["points"] == [35.0, 35.0, -20.0, -50.0]
    assert sum(g["points"]) == 0


def test_three_way_split_rounds_to_one_decimal_and_still_sums_to_zero():
    # 10 + (10 + 5 − 5) / 3 = 13.33… each: 13.3 × 3 − 40.0 leaves −0.1, which the tied player
    # nearest the first dealer (seat 0) absorbs
    g = game_end(opts("wrc", uma=[10, 5, -5, -10]), [40000, 40000, 40000, 0])
    assert g["points"] == [13.4, 13.3, 13.3, -40.0]
    assert round(sum(g["points"]), 6) == 0


def test_leftover_deposits():
    g = game_end(opts("mleague"), [42000, 30800, 16000, 10200], deposits_left=1)
    assert g["points"] == [63.0, 10.8, -24.0, -49.8]
    assert g["final_scores"][0] == 43000
    g = game_end(opts("mleague", leftover_deposits="lost"), [42000, 30800, 16000, 10200], deposits_left=1)
    assert g["points"] == [62.0, 10.8, -24.0, -49.8]


def test_jpml_variable_uma():
    o = opts("jpml")
    assert game_end(o, [50000, 28000, 22000, 20000])["points"] == [32.0, -3.0, -11.0, -18.0]
    assert game_end(o, [40000, 35000, 25000, 20000])["points"] == [18.0, 9.0, -9.0, -18.0]
    assert game_end(o, [33000, 32000, 31000, 24000])["points"] == [11.0, 5.0, 2.0, -18.0]


def test_rounding_negative_and_halves():
    g = game_end(opts("wrc"), [30100, 29900, 30000, 30000])
    assert g["points"] == [15.1, -15.1, 0.0, 0.0]


def test_game_end_errors():
    with pytest.raises(SettlementError) as e:
        game_end(opts("mleague"), [43000, 30800, 16000, 10300])
    assert e.value.field == "game_end.scores"
    with pytest.raises(SettlementError) as e:
        game_end(opts("mleague"), [43000, 30800, 16000])
    assert e.value.field == "game_end.scores"
    with pytest.raises(SettlementError) as e:
        game_end(opts("mleague"), [43000, 30800, 16000, "x"])
    assert e.value.field == "game_end.scores[3]"
    with pytest.raises(SettlementError) as e:
        run({"game_end": {"scores": [25000] * 4, "deposits_left": -1}}, "mleague")
    assert e.value.field == "game_end.deposits_left"


def test_game_end_record():
    g = run({"game_end": {"scores": [43000, 30800, 16000, 10200], "deposits_left": 0}}, "mleague")
    assert g["points"] == [63.0, 10.8, -24.0, -49.8] and g["places"] == [1, 2, 3, 4]
