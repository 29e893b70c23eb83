"""Invalid records and options raise SettlementError naming the field."""

import pytest
from riichi_helpers import run
from scoring.engine.errors import SettlementError
from scoring.engine.riichi import OPTION_DOCS, PRESETS, resolve

W = {"seat": 1, "han": 1, "fu": 30}


def ron_rec(**kw):
    rec = {"dealer": 0, "result": {"type": "ron", "from": 3, "winners": [dict(W)]}}
    rec.update(kw)
    return rec


CASES = [
    ({"dealer": 4}, "dealer"),
    ({"dealer": None}, "dealer"),
    ({"honba": -1}, "honba"),
    ({"deposits": -2}, "deposits"),
    ({"deposits": 1.5}, "deposits"),
    ({"riichi": [5]}, "riichi[0]"),
    ({"riichi": [1, 1]}, "riichi"),
    ({"result": {"type": "ron", "winners": [W]}}, "result.from"),
    ({"result": {"type": "ron", "from": 1, "winners": [W]}}, "result.winners[0].seat"),
    ({"result": {"type": "ron", "from": 3, "winners": [W, W]}}, "result.winners[1].seat"),
    ({"result": {"type": "ron", "from": 3, "winners": []}}, "result.winners"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 1, "fu": 35}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 1, "fu": 120}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 2, "fu": 20}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 1, "fu": 25}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 0, "fu": 30}]}}, "result.winners[0].han"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 3}]}}, "result.winners[0].fu"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"seat": 1}]}}, "result.winners[0]"),
    ({"result": {"type": "ron", "from": 3, "winners": [W, {"seat": 2, "yakuman": -1}]}}, "result.winners[1].yakuman"),
    ({"result": {"type": "ron", "from": 3, "winners": [{"han": 1, "fu": 30}]}}, "result.winners[0].seat"),
    ({"result": {"type": "tsumo", "winner": {"seat": 7, "han": 1, "fu": 30}}}, "result.winner.seat"),
    ({"result": {"type": "tsumo"}}, "result.winner"),
    ({"result": {"type": "draw", "tenpai": [0, 9]}}, "result.tenpai[1]"),
    ({"result": {"type": "chombo"}}, "result.seat"),
    ({"result": {"type": "explode"}}, "result.type"),
    ({"result": {}}, "result.type"),
    ({"result": None}, "result"),
    ({"result": 3}, "result"),
]


@pytest.mark.parametrize("change,field", CASES)
def test_record_errors_name_field(change, field):
    with pytest.raises(SettlementError) as e:
        run(ron_rec(**change))
    assert e.value.field == field
    assert str(e.value).startswith(field + ": ")


def test_missing_dealer():
    rec = ron_rec()
    del rec["dealer"]
    with pytest.raises(SettlementError) as e:
        run(rec)
    assert e.value.field == "dealer"


def test_130_fu_when_allowed():
    rec = ron_rec(result={"type": "ron", "from": 3, "winners": [{"seat": 1, "han": 1, "fu": 130}]})
    assert run(rec, "wrc", max_fu=130)["deltas"][1] == 4200


@pytest.mark.parametrize(
    "spec,field",
    [
        ({"preset": "wrc", "bogus": 1}, "rules.bogus"),
        ({"preset": "wrc", "uma": [15, 5, -5]}, "rules.uma"),
        ({"preset": "wrc", "uma": [5, 15, -5, -15]}, "rules.uma"),
        ({"preset": "wrc", "kiriage": "yes"}, "rules.kiriage"),
        ({"preset": "wrc", "ties": "coin"}, "rules.ties"),
        ({"preset": "wrc", "leftover_deposits": "dealer"}, "rules.leftover_deposits"),
        ({"preset": "wrc", "chombo": {"mode": "fine"}}, "rules.chombo.mode"),
        ({"preset": "wrc", "chombo": {"mode": "deduction", "points": -5}}, "rules.chombo.points"),
        ({"preset": "wrc", "pao": ["kokushi"]}, "rules.pao"),
        ({"preset": "wrc", "abortive_draws": ["rain"]}, "rules.abortive_draws"),
        ({"preset": "wrc", "max_yakuman_multiple": 0}, "rules.max_yakuman_multiple"),
        ({"preset": "wrc", "start_points": 25050}, "rules.start_points"),
        ({"preset": "wrc", "reaction_time_ms": -1}, "rules.reaction_time_ms"),
        ({"preset": "wrc", "max_fu": 120}, "rules.max_fu"),
        ({"preset": "nope"}, "rules.preset"),
    ],
)
def test_resolve_errors(spec, field):
    with pytest.raises(SettlementError) as e:
        resolve(spec)
    assert e.value.field == field


def test_every_preset_complete_and_documented():
    for name, p in PRESETS.items():
        assert set(p) == set(OPTION_DOCS), name
        assert resolve({"preset": name, **p})["preset"] == name  # its own values validate
    assert resolve({"preset": "wrc", "abortive_draws": True})["abortive_draws"][0] == "nine_terminals"


def test_resolve_does_not_share_mutable_state():
    a = resolve("wrc")
    a["uma"].append(99)
    assert resolve("wrc")["uma"] == [15, 5, -5, -15]
    assert PRESETS["wrc"]["uma"] == [15, 5, -5, -15]
