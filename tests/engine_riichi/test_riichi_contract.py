"""Every worked figure of shared/spec/settlement-contract.md (riichi part)."""

from riichi_helpers import check_payments, ron, run, tsumo
from scoring.engine.riichi import PRESETS, game_end, resolve


def test_non_dealer_ron_30fu_1han_1000():
    out = ron(3, {"seat": 1, "han": 1, "fu": 30})
    assert out["deltas"] == [0, 1000, 0, -1000]
    check_payments(out)


def test_non_dealer_tsumo_30fu_1han_300_500():
    out = tsumo({"seat": 1, "han": 1, "fu": 30}, dealer=0)
    assert out["deltas"] == [-500, 1100, -300, -300]
    check_payments(out)


def test_30fu_4han_7700_and_kiriage_8000():
    assert ron(3, {"seat": 1, "han": 4, "fu": 30}, kiriage=False)["deltas"][1] == 7700
    assert ron(3, {"seat": 1, "han": 4, "fu": 30}, kiriage=True)["deltas"][1] == 8000
    assert ron(3, {"seat": 1, "han": 3, "fu": 60}, kiriage=True)["deltas"][1] == 8000
    assert ron(3, {"seat": 1, "han": 3, "fu": 60}, kiriage=False)["deltas"][1] == 7700


def test_limits():
    nd = lambda han: ron(3, {"seat": 1, "han": han})["deltas"][1]  # noqa: E731
    d = lambda han: ron(3, {"seat": 0, "han": han})["deltas"][0]  # noqa: E731
    assert nd(5) == 8000 and d(5) == 12000
    assert nd(6) == 12000 and nd(7) == 12000
    assert nd(8) == 16000 and nd(10) == 16000
    assert nd(11) == 24000 and nd(12) == 24000
    assert ron(3, {"seat": 1, "yakuman": 1})["deltas"][1] == 32000
    assert ron(3, {"seat": 0, "yakuman": 1})["deltas"][0] == 48000


def test_kazoe():
    assert ron(3, {"seat": 1, "han": 13})["deltas"][1] == 24000  # wrc: sanbaiman cap
    out = ron(3, {"seat": 1, "han": 14}, preset="tenhou")  # tenhou counts kazoe; M.League does not
    assert out["deltas"][1] == 32000 and out["winners"][0]["limit"] == "kazoe yakuman"


def test_honba():
    assert ron(3, {"seat": 1, "han": 1, "fu": 30}, honba=2)["deltas"] == [0, 1600, 0, -1600]
    out = tsumo({"seat": 1, "han": 1, "fu": 30}, dealer=0, honba=2)
    assert out["deltas"] == [-700, 1700, -500, -500]
    check_payments(out)


def test_exhaustive_draw_one_ready():
    out = run({"dealer": 0, "result": {"type": "draw", "tenpai": [1]}})
    assert out["deltas"] == [-1000, 3000, -1000, -1000]
    assert out["dealer_repeats"] is False and out["honba_next"] == 1
    check_payments(out)


def test_contract_example_record_wrc_head_bump():
    rec = {
        "dealer": 0,
        "honba": 1,
        "deposits": 1,
        "riichi": [2],
        "result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 3, "fu": 40}, {"seat": 2, "yakuman": 1}]},
    }
    out = run(rec, "wrc")
    # seat 0 is first after discarder 3 but did not win; seat 1 is next → head bump keeps seat 1
    assert out["bumped"] == [2]
    assert out["deltas"] == [0, 5200 + 300 + 2000, -1000, -5500]
    assert sum(out["deltas"]) == 1000 * (1 - out["deposits_after"])
    check_payments(out)


def test_game_end_mleague():
    g = run({"game_end": {"scores": [43000, 30800, 16000, 10200], "deposits_left": 0}}, "mleague")
    assert g["points"] == [63.0, 10.8, -24.0, -49.8]
    assert g["places"] == [1, 2, 3, 4]


def test_game_end_ema_split_tie():
    g = game_end(resolve("ema"), [28000, 28000, 37000, 27000])
    assert g["points"] == [-2, -2, 22, -18]
    assert g["places"] == [2, 2, 1, 4]


def test_presets_present():
    for name in ("wrc", "ema", "mleague", "tenhou", "jpml"):
        assert name in PRESETS
        full = resolve(name)
        assert full["preset"] == name
