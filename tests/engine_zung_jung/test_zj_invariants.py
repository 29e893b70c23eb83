"""Property tests (Hypothesis) for Zung Jung settlement and hand evaluation."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.tiles import tile_name
from scoring.engine.zung_jung import evaluate_hand, resolve, settle

MODES = ("none", "ordinary", "precise", "precise_multiwait")
VALUES = st.one_of(st.integers(1, 320), st.sampled_from([400, 480]))
H_VALUES = st.one_of(st.integers(0, 320), st.sampled_from([400, 480]))
TILES = st.sampled_from(["1m", "4m", "7m"])
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def discard_records(draw):
    winner = draw(st.integers(0, 3))
    discarder = draw(st.sampled_from([s for s in range(4) if s != winner]))
    value = draw(VALUES)
    tile = draw(TILES)
    earlier = []
    if draw(st.booleans()):
        earlier.append({"seat": winner, "tile": draw(TILES), "value": draw(H_VALUES)})
    for _ in range(draw(st.integers(0, 4))):
        earlier.append(
            {
                "seat": draw(st.sampled_from([s for s in range(4) if s != winner])),
                "tile": draw(TILES),
                "value": draw(H_VALUES),
            }
        )
    rules = {
        "preset": "zung-jung",
        "liability": draw(st.sampled_from(MODES)),
        "scheme": draw(st.sampled_from(["competition", "full_discard", "uniform"])),
    }
    return {
        "rules": rules,
        "result": {
            "type": "discard",
            "winner": winner,
            "from": discarder,
            "tile": tile,
            "value": value,
            "earlier": earlier,
        },
    }


def _settle(record):
    return settle(record, resolve(record["rules"]))


def _paid(out, winner):
    return {s: -d for s, d in enumerate(out["deltas"]) if s != winner}


@SETTINGS
@given(discard_records())
def test_opponents_pay_three_times_the_value(record):
    out = _settle(record)
    r = record["result"]
    assert sum(out["deltas"]) == 0
    assert out["deltas"][r["winner"]] == 3 * r["value"]
    paid = _paid(out, r["winner"])
    assert all(p >= 0 for p in paid.values())
    by_payer = {}
    for line in out["payments"]:
        assert line["to"] == r["winner"] and line["points"] > 0
        by_payer[line["from"]] = by_payer.get(line["from"], 0) + line["points"]
    assert {s: by_payer.get(s, 0) for s in paid} == paid


@SETTINGS
@given(discard_records())
def test_hands_at_or_below_par_are_paid_equally(record):
    record["rules"]["scheme"] = "competition"
    r = record["result"]
    r["value"] = min(r["value"], 25)
    out = _settle(record)
    assert set(_paid(out, r["winner"]).values()) == {r["value"]}


@SETTINGS
@given(discard_records())
def test_liability_never_makes_anyone_pay_more_than_the_hand_is_worth(record):
    opts = resolve(record["rules"])
    par = 0 if opts["scheme"] == "full_discard" else opts["par"]
    r = record["result"]
    v = r["value"]
    out = _settle(record)
    paid = _paid(out, r["winner"])
    shared = min(v, par)
    own = [e["value"] for e in r["earlier"][:1] if e["seat"] == r["winner"]]
    if (
        opts["liability"] in ("precise", "precise_multiwait")
        and own
        and (opts["liability"] == "precise_multiwait" or r["earlier"][0]["tile"] == r["tile"])
    ):
        shared = max(shared, min(own[0], v))  # the winner's declined self-draw is split equally
    elif (
        opts["liability"] == "ordinary"
        and r["tile"] in [e["tile"] for e in r["earlier"]]
        and next(e for e in r["earlier"] if e["tile"] == r["tile"])["seat"] == r["winner"]
    ):
        shared = v  # settled as a self-draw
    for seat, p in paid.items():
        # never more than a fully liable discarder of this hand pays, never less than the shared part
        assert shared <= p <= 3 * v - 2 * min(v, par)
        if opts["scheme"] == "uniform":
            assert p == v
        elif seat != r["from"] and opts["liability"] in ("precise", "precise_multiwait"):
            # an earlier discarder is liable at most for what winning on his own tile was worth
            hs = [e["value"] for e in r["earlier"] if e["seat"] == seat]
            cap = min(max(hs, default=0), v)
            assert p <= shared + 3 * max(0, cap - par)


@SETTINGS
@given(discard_records())
def test_liability_none_ignores_earlier_discards(record):
    record["rules"]["liability"] = "none"
    with_earlier = _settle(record)
    record["result"]["earlier"] = []
    assert _settle(record)["deltas"] == with_earlier["deltas"]


# ------------------------------------------------------------------ random complete hands


@st.composite
def complete_hands(draw):
    counts = [0] * 34
    sets = []
    for _ in range(4):
        if draw(st.booleans()):
            s = draw(st.integers(0, 2))
            t = s * 9 + draw(st.integers(0, 6))
            tiles = [t, t + 1, t + 2]
            kind = "chow"
        else:
            t = draw(st.integers(0, 33))
            kind = draw(st.sampled_from(["pung", "pung", "kong", "concealed_kong"]))
            tiles = [t] * (4 if "kong" in kind else 3)
        for x in tiles:
            counts[x] += 1
        sets.append((kind, tiles))
    pair = draw(st.integers(0, 33))
    counts[pair] += 2
    if max(counts) > 4:
        from hypothesis import assume

        assume(False)
    melds, concealed = [], [pair, pair]
    for kind, tiles in sets:
        if draw(st.booleans()):
            melds.append({"type": kind, "tiles": "".join(tile_name(x) for x in tiles)})
        else:
            concealed.extend(tiles if "kong" not in kind else tiles[:3])
    win = draw(st.sampled_from(sorted(set(concealed))))
    concealed.remove(win)
    return {
        "concealed": "".join(tile_name(x) for x in concealed),
        "melds": melds,
        "tile": tile_name(win),
        "seat_wind": draw(st.sampled_from(["1z", "2z", "3z", "4z"])),
    }


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(complete_hands(), st.booleans())
def test_random_hands_evaluate_consistently(hand, final):
    discard = evaluate_hand(hand, final_tile=final)
    self_drawn = evaluate_hand(hand, self_draw=True, final_tile=final)
    for res in (discard, self_drawn):
        v = res["value"]
        assert 1 <= v <= 320 or v in (400, 480)
        series = [
            p["id"].rsplit(".", 1)[0] if p["id"].count(".") == 2 else p["id"]
            for p in res["patterns"]
            if p["id"] != "3.1"
        ]
        assert len(series) == len(set(series))
        if res["limit"] is None:
            assert v == sum(p["value"] for p in res["patterns"])
    # a self-drawn winning tile only ever adds concealed triplets
    assert self_drawn["value"] >= discard["value"]
