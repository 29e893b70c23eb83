"""Property tests: zero-sum, payments explain the deltas, the winner's gain is the sum of payments,
and per-payer amounts follow the contract formula."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.beijing import resolve, settle


@st.composite
def win_records(draw):
    dealer = draw(st.integers(0, 3))
    winner = draw(st.integers(0, 3))
    kind = draw(st.sampled_from(["tsumo", "ron", "qianggang"]))
    frm = draw(st.sampled_from([s for s in range(4) if s != winner]))
    menqing = True if kind != "tsumo" else draw(st.booleans())
    qidui = menqing and draw(st.booleans())
    if qidui:
        kongs = []
    elif menqing:
        kongs = draw(st.lists(st.just("concealed"), max_size=3))
    else:
        kongs = draw(st.lists(st.sampled_from(["open", "concealed", "added"]), max_size=4))
    factors = []
    if menqing:
        factors.append("menqing")
    if draw(st.booleans()):
        factors.append("meihuar")
    if qidui:
        factors.append("qidui")
        factors += ["haohua"] * draw(st.integers(0, 3))
    elif draw(st.booleans()):
        factors.append("long")
    if draw(st.booleans()):
        factors.append("zhuowu")
    if kind == "tsumo" and kongs and draw(st.booleans()):
        factors.append("gangkai")
    result = {"type": kind, "winner": winner, "factors": factors, "kongs": [{"type": k} for k in kongs]}
    if kind != "tsumo":
        result["from"] = frm
    if not menqing and draw(st.booleans()):
        result["claims"] = [{"by": winner, "from": frm, "count": draw(st.integers(0, 4))}]
    if draw(st.integers(0, 9)) == 0:
        result = {"type": "tsumo", "winner": dealer, "special": "tianhu"}
    record = {"dealer": dealer, "result": result, "after_draw": draw(st.booleans()), "shaozhuang": draw(st.booleans())}
    rules = {
        "preset": "beijing",
        "base": draw(st.integers(1, 5)),
        "dealer_doubles_kong": draw(st.booleans()),
        "gangkai_doubles_kong": draw(st.booleans()),
        "discarder_pays_all": draw(st.booleans()),
        "pays_all_self_draw_double": draw(st.booleans()),
        "qianggang_pao": draw(st.booleans()),
        "hangzhou_pao": draw(st.booleans()),
        "shaozhuang": {"enabled": draw(st.booleans())},
        "shanglou": {"enabled": draw(st.booleans()), "scope": draw(st.sampled_from(["all", "hand_and_kong", "hand"]))},
    }
    record["rules"] = rules
    return record


@settings(max_examples=400, deadline=None)
@given(win_records())
def test_zero_sum_and_payments_explain_deltas(record):
    opts = resolve(record["rules"])
    out = settle(record, opts)
    assert sum(out["deltas"]) == 0
    rebuilt = [0, 0, 0, 0]
    for line in out["payments"]:
        assert line["points"] >= 0 and line["why"]
        rebuilt[line["from"]] -= line["points"]
        rebuilt[line["to"]] += line["points"]
    assert rebuilt == out["deltas"]
    (w,) = out["winners"]
    to_w = sum(line["points"] for line in out["payments"] if line["to"] == w["seat"] and "焼荘" not in line["why"])
    assert to_w == w["total"]
    # without 焼荘, the winner's gain is exactly the sum of the payments he receives
    if not (record["shaozhuang"] and opts["shaozhuang"]["enabled"]):
        assert out["deltas"][w["seat"]] == w["total"]
    # liability moves the money but never changes the total (except Hangzhou 包's multiples)
    base_total = sum(s["total"] for s in w["shares"])
    if not opts["hangzhou_pao"] or not record["result"].get("claims"):
        assert w["total"] == base_total
    else:
        assert w["total"] in (0, base_total, 2 * base_total)


def _reference(record, opts, payer):
    """The contract formula, written independently (no liability options)."""
    r = record["result"]
    dealer, w = record["dealer"], r["winner"]
    n = len(r["factors"])
    dealer_in = dealer in (w, payer)
    self_draw = r["type"] in ("tsumo", "qianggang")
    hand = opts["base"] * 2**n * (2 if dealer_in else 1) * (2 if self_draw or payer == r.get("from") else 1)
    kp = {"open": 1, "concealed": 2, "added": 1}
    kong = opts["base"] * sum(kp[k["type"]] for k in r["kongs"])
    kong *= 2 if dealer_in and opts["dealer_doubles_kong"] else 1
    kong *= 2 if "gangkai" in r["factors"] and opts["gangkai_doubles_kong"] else 1
    return hand + kong


@settings(max_examples=300, deadline=None)
@given(win_records())
def test_per_payer_amounts_follow_contract_formula(record):
    if "special" in record["result"]:
        return
    rules = dict(
        record["rules"],
        discarder_pays_all=False,
        qianggang_pao=False,
        hangzhou_pao=False,
        shaozhuang={"enabled": False},
        shanglou={"enabled": False},
    )
    opts = resolve(rules)
    out = settle(dict(record, rules=rules), opts)
    w = record["result"]["winner"]
    for p in range(4):
        if p != w:
            assert -out["deltas"][p] == _reference(record, opts, p)
