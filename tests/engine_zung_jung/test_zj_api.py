"""Zung Jung module API: presets, option docs, win_check, purity."""

import subprocess
import sys

import scoring.engine.zung_jung as zj
from scoring.engine.dispatch import presets

HAND_OK = {
    "concealed": "23m789m中中",
    "melds": [{"type": "pon", "tiles": "4z4z4z"}, {"type": "chi", "tiles": "456m"}],
    "tile": "1m",
}


def test_module_interface():
    assert zj.SYSTEM == "zung-jung"
    opts = zj.PRESETS["zung-jung"]
    assert opts["liability"] == "ordinary" and opts["scheme"] == "competition"
    assert opts["par"] == 25 and opts["min_points"] == 0 and opts["limit"] == 320
    assert set(opts) <= set(zj.OPTION_DOCS)
    assert zj.resolve({"preset": "zung-jung"}) == opts
    assert presets()["zung-jung"]["system"] == "zung-jung"
    assert len(zj.PATTERNS) == 44


def test_win_check_stands():
    assert zj.win_check({"seat": 0, "type": "discard", "from": 3, "hand": HAND_OK}, zj.resolve("zung-jung")) == []


def test_win_check_has_no_furiten():
    decl = {
        "seat": 0,
        "type": "ron",
        "from": 3,
        "hand": HAND_OK,
        "discards": ["1m", "4m"],
        "passed": ["1m"],
        "passed_after_riichi": ["1m"],
    }
    assert zj.win_check(decl, zj.resolve("zung-jung")) == []


def test_win_check_incomplete():
    hand = dict(HAND_OK, tile="2m")
    reasons = zj.win_check({"seat": 0, "type": "discard", "hand": hand}, zj.resolve("zung-jung"))
    assert [r["code"] for r in reasons] == ["incomplete_hand"]
    assert reasons[0]["message"] and reasons[0]["message_zh"]


def test_win_check_min_points():
    chicken = {"concealed": "456p789s34s11z", "melds": [{"type": "pung", "tiles": "222m"}], "tile": "5s"}
    assert zj.win_check({"type": "discard", "hand": chicken}, zj.resolve("zung-jung")) == []
    opts = zj.resolve({"preset": "zung-jung", "min_points": 5})
    assert [r["code"] for r in zj.win_check({"type": "discard", "hand": chicken}, opts)] == ["below_min_points"]
    # the same tiles self-drawn on the last tile reach 10 points
    assert zj.win_check({"type": "self_draw", "hand": chicken, "final_tile": True}, opts) == []


def test_win_check_invalid_tiles():
    for hand in (
        {"concealed": "123m", "tile": "1m"},
        {"concealed": "11112345678999m"},
        "nonsense",
        {"concealed": "1111234567899m", "tile": "1m"},
    ):
        reasons = zj.win_check({"type": "discard", "hand": hand}, zj.resolve("zung-jung"))
        assert [r["code"] for r in reasons] == ["invalid_tiles"], hand


def test_engine_imports_without_django():
    code = (
        "import sys; import scoring.engine.zung_jung as z; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django imported'"
    )
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
