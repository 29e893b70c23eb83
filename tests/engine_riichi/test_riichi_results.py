"""Multiple ron, EMA split, pao, chombo, abortive, nagashi, draws, tile-level winners."""

import sys
import types

import pytest
from riichi_helpers import check_payments, opts, ron, run, tsumo
from scoring.engine.errors import SettlementError


def conserve(out, deposits):
    assert sum(out["deltas"]) == 1000 * (deposits - out["deposits_after"])
    check_payments(out)


def test_double_ron_honba_and_deposits_to_first_after_discarder_tenhou():
    out = ron(
        2,
        {"seat": 1, "han": 2, "fu": 30},
        {"seat": 0, "han": 1, "fu": 30},
        dealer=3,
        honba=2,
        deposits=1,
        riichi=[0],
        preset="tenhou",
    )
    # order after discarder 2: 3, 0, 1 → seat 0 first
    assert [w["seat"] for w in out["winners"]] == [0, 1]
    assert out["deltas"] == [-1000 + 1000 + 600 + 2000, 2000, -(1000 + 600 + 2000), 0]
    assert out["dealer_repeats"] is False and out["honba_next"] == 0
    conserve(out, 1)


def test_double_ron_dealer_among_winners_repeats():
    out = ron(2, {"seat": 1, "han": 2, "fu": 30}, {"seat": 0, "han": 1, "fu": 30}, dealer=1, honba=1, preset="tenhou")
    assert out["dealer_repeats"] is True and out["honba_next"] == 2
    assert out["deltas"][1] == 2900  # dealer 2 han 30 fu = 2900, no honba (seat 0 is first)


def test_head_bump_keeps_first_after_discarder():
    out = ron(1, {"seat": 0, "yakuman": 1}, {"seat": 2, "han": 1, "fu": 30}, dealer=3, preset="mleague")
    assert out["bumped"] == [0]
    assert out["deltas"] == [0, -1000, 1000, 0]
    # same with multiple_ron overridden on
    out = ron(
        1, {"seat": 0, "yakuman": 1}, {"seat": 2, "han": 1, "fu": 30}, dealer=3, preset="mleague", multiple_ron=True
    )
    assert out["deltas"] == [32000, -33000, 1000, 0]


def test_triple_ron_aborts_under_tenhou_and_pays_under_ema():
    ws = [{"seat": s, "han": 1, "fu": 30} for s in (0, 1, 2)]
    out = ron(3, *ws, dealer=0, honba=1, deposits=2, riichi=[1], preset="tenhou")
    assert out["type"] == "abortive" and out["reason"] == "triple_ron"
    assert out["deltas"] == [0, -1000, 0, 0] and out["deposits_after"] == 3
    assert out["dealer_repeats"] is True and out["honba_next"] == 2
    out = ron(3, *ws, dealer=0, honba=1, deposits=2, riichi=[1], preset="ema")
    assert len(out["winners"]) == 3
    conserve(out, 2)


def test_ema_split():
    # discarder 3; winners 1 and 2 (order after 3: 0, 1, 2 → first = 1); riichi by 2 and 3; 1 on table
    out = ron(
        3,
        {"seat": 2, "han": 1, "fu": 30},
        {"seat": 1, "han": 1, "fu": 30},
        dealer=0,
        honba=2,
        deposits=1,
        riichi=[2, 3],
        preset="ema",
    )
    # each winner: 1000 + 600 honba; seat 2 takes back its stick; seat 1 gets table stick + seat 3's
    assert out["deltas"] == [0, 1600 + 2000, 1600 - 1000 + 1000, -3200 - 1000]
    conserve(out, 1)
    whys = {(p["to"], p["why"]) for p in out["payments"] if p["from"] is None}
    assert (2, "own riichi deposit back") in whys


def test_pao_ron_half_each_discarder_pays_honba():
    out = ron(3, {"seat": 1, "yakuman": 1, "pao": 2}, dealer=0, honba=1)
    assert out["deltas"] == [0, 32300, -16000, -16300]
    assert out["winners"][0]["pao"] == 2
    conserve(out, 0)


def test_pao_ron_liable_is_discarder():
    out = ron(3, {"seat": 1, "yakuman": 1, "pao": 3}, dealer=0)
    assert out["deltas"] == [0, 32000, 0, -32000]


def test_pao_tsumo_liable_pays_all_incl_honba():
    out = tsumo({"seat": 1, "yakuman": 1, "pao": 2}, dealer=0, honba=2)
    assert out["deltas"] == [0, 32600, -32600, 0]
    out = tsumo({"seat": 0, "yakuman": 1, "pao": 3}, dealer=0)
    assert out["deltas"] == [48000, 0, 0, -48000]
    conserve(out, 0)


def test_pao_errors():
    with pytest.raises(SettlementError) as e:
        ron(3, {"seat": 1, "yakuman": 1, "pao": 1})
    assert e.value.field == "result.winners[0].pao"
    with pytest.raises(SettlementError) as e:
        ron(3, {"seat": 1, "han": 5, "pao": 2})
    assert e.value.field == "result.winners[0].pao"


def test_chombo_deduction():
    out = run({"dealer": 0, "honba": 1, "deposits": 2, "riichi": [1], "result": {"type": "chombo", "seat": 2}})
    assert out["deltas"] == [0, 0, 0, 0] and out["payments"] == []
    assert out["penalties"] == [{"seat": 2, "points": 20000, "why": "chombo", "reason": {"code": "chombo"}}]
    assert out["deposits_after"] == 2 and out["dealer_repeats"] is True and out["honba_next"] == 1


def test_chombo_reverse_mangan():
    out = run({"dealer": 0, "result": {"type": "chombo", "seat": 2}}, "tenhou")
    assert out["deltas"] == [4000, 2000, -8000, 2000] and out["penalties"] == []
    out = run({"dealer": 2, "result": {"type": "chombo", "seat": 2}}, "tenhou")
    assert out["deltas"] == [4000, 4000, -12000, 4000]
    check_payments(out)
    out = run(
        {"dealer": 0, "result": {"type": "chombo", "seat": 1}}, "wrc", chombo={"mode": "deduction", "points": 8000}
    )
    assert out["penalties"][0]["points"] == 8000


def test_abortive():
    out = run(
        {
            "dealer": 1,
            "honba": 0,
            "deposits": 1,
            "riichi": [0, 1, 2, 3],
            "result": {"type": "abortive", "reason": "four_riichi"},
        },
        "tenhou",
    )
    assert out["deltas"] == [-1000] * 4 and out["deposits_after"] == 5
    assert out["dealer_repeats"] is True and out["honba_next"] == 1
    with pytest.raises(SettlementError) as e:
        run({"dealer": 0, "result": {"type": "abortive", "reason": "four_winds"}}, "wrc")
    assert e.value.field == "result.type"
    with pytest.raises(SettlementError) as e:
        run({"dealer": 0, "result": {"type": "abortive", "reason": "bored"}}, "tenhou")
    assert e.value.field == "result.reason"


def test_draw_variants():
    r = lambda t, **kw: run(  # noqa: E731
        {
            "dealer": 0,
            "honba": 3,
            "deposits": 1,
            "riichi": [2],
            "result": {"type": "draw", "tenpai": t, **kw},
        },
        kw.pop("preset", "wrc") if False else "tenhou",
    )
    out = r([0, 2])
    assert out["deltas"] == [1500, -1500, 1500 - 1000, -1500]
    assert out["dealer_repeats"] is True and out["honba_next"] == 4 and out["deposits_after"] == 2
    out = r([1, 2, 3])
    assert out["deltas"] == [-3000, 1000, 0, 1000] and out["dealer_repeats"] is False
    assert r([])["deltas"] == [0, 0, -1000, 0]
    assert r([0, 1, 2, 3])["deltas"] == [0, 0, -1000, 0]


def test_nagashi_replaces_tenpai_payments_tenhou():
    out = run({"dealer": 0, "honba": 1, "result": {"type": "draw", "tenpai": [0, 1], "nagashi": [3]}}, "tenhou")
    assert out["deltas"] == [-4000, -2000, -2000, 8000]
    assert out["dealer_repeats"] is True and out["honba_next"] == 2
    out = run(
        {"dealer": 0, "result": {"type": "draw", "tenpai": [1], "nagashi": [0]}},
        "tenhou",
        nagashi_tenpai_payments="also",
    )
    assert out["deltas"] == [12000 - 1000, -4000 + 3000, -4000 - 1000, -4000 - 1000]
    check_payments(out)
    with pytest.raises(SettlementError) as e:
        run({"dealer": 0, "result": {"type": "draw", "tenpai": [], "nagashi": [3]}}, "wrc")
    assert e.value.field == "result.nagashi"


def test_renchan_option():
    rec = {"dealer": 0, "result": {"type": "draw", "tenpai": [1]}}
    assert run(rec, "wrc", renchan_on_draw="always")["dealer_repeats"] is True
    rec = {"dealer": 0, "result": {"type": "draw", "tenpai": [0]}}
    assert run(rec, "wrc", renchan_on_draw="never")["dealer_repeats"] is False


def test_tile_level_winner_uses_hand_module(monkeypatch):
    calls = []

    def fake(winner, options, *, tsumo, field, dealer=None):
        calls.append((tsumo, field))
        return {"han": 3, "fu": 40, "yakuman": 0, "yaku": ["riichi", "pinfu", "tanyao"]}

    mod = types.ModuleType("scoring.engine.riichi.hand")
    mod.evaluate_hand = fake
    monkeypatch.setitem(sys.modules, "scoring.engine.riichi.hand", mod)
    out = ron(3, {"seat": 1, "hand": {"concealed": "234m", "tile": "5m"}})
    assert out["deltas"][1] == 5200
    assert out["winners"][0]["yaku"] == ["riichi", "pinfu", "tanyao"]
    assert calls == [(False, "result.winners[0]")]


def test_tsumo_flat_and_list_forms():
    a = run({"dealer": 0, "result": {"type": "tsumo", "winner": 1, "han": 1, "fu": 30}})
    b = run({"dealer": 0, "result": {"type": "tsumo", "winners": [{"seat": 1, "han": 1, "fu": 30}]}})
    assert a["deltas"] == b["deltas"] == [-500, 1100, -300, -300]


def test_options_are_not_mutated():
    o = opts("ema")
    before = repr(o)
    ron(3, {"seat": 1, "han": 1, "fu": 30}, {"seat": 2, "han": 1, "fu": 30}, preset="ema")
    assert repr(o) == before
