"""Full 1-4 han × 20-110 fu tables against an independent derivation, and published values."""

import pytest
from riichi_helpers import check_payments, ron, tsumo


def up100(x):
    return (x + 99) // 100 * 100


def expected(han, fu, dealer, is_tsumo, kiriage=False):
    base = fu * 2 ** (han + 2)
    if base > 2000 or (kiriage and ((han, fu) in ((4, 30), (3, 60)))):
        base = 2000
    if is_tsumo:
        if dealer:
            return (up100(2 * base),) * 3
        return (up100(2 * base), up100(base), up100(base))  # dealer, non-dealer, non-dealer
    return up100(base * (6 if dealer else 4))


CELLS = [(h, f) for h in range(1, 5) for f in [20, 25] + list(range(30, 120, 10)) if not (f == 25 and h == 1)]


@pytest.mark.parametrize("kiriage", [False, True])
def test_ron_table(kiriage):
    for han, fu in CELLS:
        if fu == 20:
            continue
        # non-dealer winner seat 1 from seat 3, dealer 0
        out = ron(3, {"seat": 1, "han": han, "fu": fu}, dealer=0, kiriage=kiriage)
        assert out["deltas"][1] == expected(han, fu, False, False, kiriage), (han, fu)
        out = ron(3, {"seat": 0, "han": han, "fu": fu}, dealer=0, kiriage=kiriage)
        assert out["deltas"][0] == expected(han, fu, True, False, kiriage), (han, fu)
        check_payments(out)


@pytest.mark.parametrize("kiriage", [False, True])
def test_tsumo_table(kiriage):
    for han, fu in CELLS:
        out = tsumo({"seat": 2, "han": han, "fu": fu}, dealer=0, kiriage=kiriage)
        d, n1, n2 = expected(han, fu, False, True, kiriage)
        assert out["deltas"] == [-d, -n1, d + n1 + n2, -n2], (han, fu)
        out = tsumo({"seat": 0, "han": han, "fu": fu}, dealer=0, kiriage=kiriage)
        e = expected(han, fu, True, True, kiriage)[0]
        assert out["deltas"] == [3 * e, -e, -e, -e], (han, fu)
        check_payments(out)


def test_published_values():
    assert ron(3, {"seat": 1, "han": 3, "fu": 30})["deltas"][1] == 3900
    t = tsumo({"seat": 1, "han": 2, "fu": 40}, dealer=0)
    assert t["deltas"] == [-1300, 2700, -700, -700]
    assert ron(3, {"seat": 0, "han": 4, "fu": 30}, kiriage=False)["deltas"][0] == 11600
    assert ron(3, {"seat": 0, "han": 4, "fu": 30}, kiriage=True)["deltas"][0] == 12000
    assert ron(3, {"seat": 1, "han": 1, "fu": 110})["deltas"][1] == 3600
    assert ron(3, {"seat": 1, "han": 2, "fu": 25})["deltas"][1] == 1600
    assert ron(3, {"seat": 0, "han": 1, "fu": 30})["deltas"][0] == 1500
    t = tsumo({"seat": 0, "han": 1, "fu": 30}, dealer=0)
    assert t["deltas"] == [1500, -500, -500, -500]
    t = tsumo({"seat": 1, "han": 3, "fu": 20}, dealer=0)  # pinfu tsumo 3 han: 700/1300
    assert t["deltas"] == [-1300, 2700, -700, -700]
    t = tsumo({"seat": 1, "han": 5}, dealer=0)
    assert t["deltas"] == [-4000, 8000, -2000, -2000]
    t = tsumo({"seat": 1, "yakuman": 2}, dealer=0, preset="tenhou")
    assert t["deltas"] == [-32000, 64000, -16000, -16000]
    assert t["winners"][0]["limit"] == "double yakuman"
    # wrc counts every yakuman single
    assert tsumo({"seat": 1, "yakuman": 2}, dealer=0)["deltas"][1] == 32000


def test_winner_detail():
    w = ron(3, {"seat": 1, "han": 4, "fu": 40})["winners"][0]
    assert w == {"seat": 1, "han": 4, "fu": 40, "yakuman": 0, "base": 2000, "limit": "mangan", "value": 8000}
