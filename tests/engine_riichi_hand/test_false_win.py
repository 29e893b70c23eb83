"""referee.engine.false_win.check_win: resolve the rules, dispatch to the system's win_check."""

import sys
import types

import pytest

from referee.engine import false_win
from referee.engine.false_win import check_win

HAND = {"concealed": "23m456p789s55s777z", "tile": "4m"}  # waits 1m / 4m, red dragon pung


def decl(**extra):
    d = {"seat": 1, "type": "ron", "from": 3, "hand": dict(HAND), "seat_wind": "2z", "round_wind": "1z"}
    d.update(extra)
    return d


def test_riichi_win_stands():
    assert check_win("wrc", decl()) == {"false": False, "reasons": [], "system": "riichi"}


def test_riichi_furiten_is_false_and_repeatable():
    for _ in range(2):  # the second call must not trip over the riichi package's lazy import
        out = check_win("wrc", decl(discards=["1m"]))
        assert out["false"] is True and out["system"] == "riichi"
        assert [r["code"] for r in out["reasons"]] == ["furiten_discards"]


def test_rules_overrides_reach_win_check():
    d = {
        "seat": 1,
        "type": "ron",
        "from": 3,
        "seat_wind": "2z",
        "round_wind": "1z",
        "hand": {"concealed": "567p345s67s88m", "tile": "8s", "melds": [{"type": "chi", "tiles": "234m"}]},
    }
    assert check_win("tenhou", d)["false"] is False
    out = check_win({"preset": "tenhou", "kuitan": False}, d)
    assert [r["code"] for r in out["reasons"]] == ["no_yaku"]


def test_dispatch_to_system_and_missing_win_check(monkeypatch):
    calls = []
    stub = types.ModuleType("kyoku_test_stub_system")
    stub.win_check = lambda declaration, options: calls.append((declaration, options)) or [
        {"code": "x", "message": "m", "message_zh": "z"}
    ]
    monkeypatch.setitem(sys.modules, "kyoku_test_stub_system", stub)
    monkeypatch.setitem(false_win.SYSTEMS, "stub", "kyoku_test_stub_system")
    monkeypatch.setattr(false_win, "resolve_rules", lambda spec: ("stub", {"opt": 1}))
    out = check_win("anything", {"seat": 0})
    assert out == {"false": True, "reasons": [{"code": "x", "message": "m", "message_zh": "z"}], "system": "stub"}
    assert calls == [({"seat": 0}, {"opt": 1})]

    bare = types.ModuleType("kyoku_test_bare_system")
    monkeypatch.setitem(sys.modules, "kyoku_test_bare_system", bare)
    monkeypatch.setitem(false_win.SYSTEMS, "stub", "kyoku_test_bare_system")
    with pytest.raises(NotImplementedError, match="win_check"):
        check_win("anything", {"seat": 0})


def test_no_django_import():
    import importlib
    import re

    for name in ("scoring.engine.riichi.hand", "scoring.engine.riichi.win_check", "referee.engine.false_win"):
        mod = importlib.import_module(name)
        src = open(mod.__file__, encoding="utf-8").read()
        assert not re.search(r"^\s*(import|from)\s+django", src, re.M), name
