"""Hypothesis properties: conservation, monotonicity in han, seat rotation."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from riichi_helpers import check_payments, opts
from riichi_strategies import PRESETS, records
from scoring.engine.riichi import settle

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(records())
def test_conservation_and_payments_explain_deltas(pr):
    preset, rec = pr
    out = settle(rec, opts(preset))
    assert sum(out["deltas"]) == 1000 * (rec["deposits"] - out["deposits_after"])
    check_payments(out)
    assert out["deposits_after"] >= 0
    assert (
        out["honba_next"]
        == (rec["honba"] + 1 if out["dealer_repeats"] or rec["result"]["type"] in ("draw", "abortive") else 0)
        or rec["result"]["type"] == "chombo"
    )


def rotate(rec, k):
    r = dict(rec)
    r["dealer"] = (rec["dealer"] + k) % 4
    r["riichi"] = [(s + k) % 4 for s in rec["riichi"]]
    res = dict(rec["result"])
    for key in ("from", "seat"):
        if key in res:
            res[key] = (res[key] + k) % 4
    for key in ("tenpai", "nagashi"):
        if key in res:
            res[key] = [(s + k) % 4 for s in res[key]]
    if "winners" in res:
        res["winners"] = [dict(w, seat=(w["seat"] + k) % 4) for w in res["winners"]]
    if "winner" in res:
        res["winner"] = dict(res["winner"], seat=(res["winner"]["seat"] + k) % 4)
    r["result"] = res
    return r


@FAST
@given(records(), st.integers(1, 3))
def test_rotating_seats_rotates_deltas(pr, k):
    preset, rec = pr
    a = settle(rec, opts(preset))["deltas"]
    b = settle(rotate(rec, k), opts(preset))["deltas"]
    assert b == [a[(i - k) % 4] for i in range(4)]


@FAST
@given(
    st.sampled_from(PRESETS),
    st.booleans(),
    st.integers(0, 3),
    st.integers(1, 3),
    st.integers(0, 3),
    st.integers(1, 14),
    st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]),
    st.booleans(),
)
def test_more_han_never_pays_less(preset, tsumo, dealer, winner_off, frm_off, han, fu, kiri):
    if fu == 20 and not tsumo:
        fu = 30
    if fu == 25 and han == 1:
        han = 2
    winner = (dealer + winner_off) % 4 if winner_off != 3 else dealer
    o = opts(preset, kiriage=kiri)

    def gain(h):
        w = {"seat": winner, "han": h, "fu": fu}
        if tsumo:
            res = {"type": "tsumo", "winner": w}
        else:
            frm = (winner + 1 + frm_off % 3) % 4
            res = {"type": "ron", "from": frm, "winners": [w]}
        return settle({"dealer": dealer, "result": res}, o)["deltas"][winner]

    assert gain(han + 1) >= gain(han)
