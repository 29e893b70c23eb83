"""Hypothesis strategies for riichi hand records (no Django)."""

from hypothesis import strategies as st

PRESETS = ["wrc", "ema", "mleague", "tenhou", "jpml"]


@st.composite
def hand_value(draw, tsumo):
    kind = draw(st.sampled_from(["hanfu", "limit", "yakuman"]))
    if kind == "yakuman":
        return {"yakuman": draw(st.integers(1, 3))}
    if kind == "limit":
        return {"han": draw(st.integers(5, 15))}
    han = draw(st.integers(1, 4))
    fus = [30, 40, 50, 60, 70, 80, 90, 100, 110]
    if han >= 2:
        fus.append(25)
    if tsumo:
        fus.append(20)
    return {"han": han, "fu": draw(st.sampled_from(fus))}


@st.composite
def records(draw):
    preset = draw(st.sampled_from(PRESETS))
    rec = {
        "dealer": draw(st.integers(0, 3)),
        "honba": draw(st.integers(0, 5)),
        "deposits": draw(st.integers(0, 4)),
        "riichi": draw(st.lists(st.integers(0, 3), unique=True, max_size=4)),
    }
    kind = draw(st.sampled_from(["ron", "tsumo", "draw", "chombo", "abortive"]))
    if kind == "ron":
        frm = draw(st.integers(0, 3))
        seats = draw(st.lists(st.sampled_from([s for s in range(4) if s != frm]), unique=True, min_size=1, max_size=3))
        winners = [dict(seat=s, **draw(hand_value(False))) for s in seats]
        rec["result"] = {"type": "ron", "from": frm, "winners": winners}
    elif kind == "tsumo":
        w = dict(seat=draw(st.integers(0, 3)), **draw(hand_value(True)))
        rec["result"] = {"type": "tsumo", "winner": w}
    elif kind == "draw":
        res = {"type": "draw", "tenpai": draw(st.lists(st.integers(0, 3), unique=True, max_size=4))}
        if preset == "tenhou":
            res["nagashi"] = draw(st.lists(st.integers(0, 3), unique=True, max_size=1))
        rec["result"] = res
    elif kind == "chombo":
        rec["result"] = {"type": "chombo", "seat": draw(st.integers(0, 3))}
    else:
        preset = "tenhou"
        rec["result"] = {"type": "abortive", "reason": draw(st.sampled_from(["four_winds", "nine_terminals"]))}
    return preset, rec
