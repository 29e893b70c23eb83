"""Illegal combinations are SettlementErrors naming the field, not numbers."""

import pytest

from scoring.engine.dispatch import settle_many
from scoring.engine.errors import SettlementError
from tests.engine_beijing.helpers import bj


@pytest.mark.parametrize(
    "result,field,words",
    [
        ({"type": "ron", "winner": 1, "from": 2, "factors": ["meihuar"]}, "result.factors", "open hand"),
        (
            {"type": "ron", "winner": 1, "from": 2, "factors": ["menqing"], "wildcards": 3},
            "result.wildcards",
            "self-draw",
        ),
        (
            {"type": "ron", "winner": 1, "from": 2, "factors": ["menqing"], "winning_tile_wildcard": True},
            "result.winning_tile_wildcard",
            "discarded 混",
        ),
        ({"type": "tsumo", "winner": 1, "factors": ["qidui"]}, "result.factors", "menqing"),
        ({"type": "tsumo", "winner": 1, "factors": ["menqing", "haohua"]}, "result.factors", "qidui"),
        ({"type": "tsumo", "winner": 1, "factors": ["menqing", "qidui", "long"]}, "result.factors", "qidui"),
        (
            {"type": "tsumo", "winner": 1, "factors": ["menqing", "qidui"], "kongs": ["concealed"]},
            "result.kongs",
            "kong",
        ),
        ({"type": "tsumo", "winner": 1, "factors": ["menqing", "bogus"]}, "result.factors[1]", "unknown factor"),
        ({"type": "tsumo", "winner": 1, "factors": ["menqing", "menqing"]}, "result.factors[1]", "duplicate"),
        (
            {"type": "tsumo", "winner": 1, "factors": ["menqing", "qidui"] + ["haohua"] * 4},
            "result.factors[5]",
            "at most",
        ),
        (
            {"type": "ron", "winner": 1, "from": 2, "factors": ["menqing", "gangkai"], "kongs": ["concealed"]},
            "result.factors",
            "gangkai",
        ),
        (
            {"type": "qianggang", "winner": 1, "from": 2, "factors": ["menqing", "gangkai"], "kongs": ["concealed"]},
            "result.factors",
            "gangkai",
        ),
        ({"type": "tsumo", "winner": 1, "factors": ["gangkai"]}, "result.kongs", "kong"),
        ({"type": "tsumo", "winner": 1, "factors": ["menqing"], "kongs": ["open"]}, "result.kongs[0]", "menqing"),
        (
            {"type": "tsumo", "winner": 1, "factors": ["menqing"], "kongs": ["huge"]},
            "result.kongs[0].type",
            "kong type",
        ),
        ({"type": "tsumo", "winner": 1, "factors": ["zhuangjia"]}, "result.factors[0]", "engine"),
        ({"type": "ron", "winner": 1, "from": 2, "factors": ["menqing"], "hunyou": True}, "result.hunyou", "self-draw"),
        (
            {"type": "tsumo", "winner": 1, "factors": ["menqing"], "discarded_wildcard": True},
            "result.discarded_wildcard",
            "forfeit",
        ),
        ({"type": "tsumo", "winner": 1, "factors": [], "wildcards": 4}, "result.special", "混槓"),
        ({"type": "ron", "winner": 1, "from": 1, "factors": ["menqing"]}, "result.from", "himself"),
        ({"type": "ron", "winner": 1, "factors": ["menqing"]}, "result.from", "seat"),
        ({"type": "tsumo", "winner": 7, "factors": []}, "result.winner", "seat"),
        ({"type": "tsumo", "winner": 1, "special": "tianhu"}, "result.special", "dealer"),
        ({"type": "ron", "winner": 1, "from": 2, "special": "dihu"}, "result.special", "dealer's first discard"),
        ({"type": "tsumo", "winner": 0, "special": "tianhu", "factors": ["menqing"]}, "result.factors", "no factors"),
        ({"type": "tsumo", "winner": 0, "special": "jackpot"}, "result.special", "unknown"),
        ({"type": "sideways", "winner": 0}, "result.type", "unknown result type"),
        (
            {"type": "tsumo", "winner": 1, "factors": ["menqing"], "claims": [{"by": 1, "from": 2}]},
            "result.claims",
            "menqing",
        ),
        ({"type": "tsumo", "winner": 1, "factors": "menqing"}, "result.factors", "list"),
    ],
)
def test_illegal(result, field, words):
    with pytest.raises(SettlementError) as e:
        bj(result, rules={"hangzhou_pao": True})
    assert e.value.field == field, str(e.value)
    assert words in e.value.message, str(e.value)


def test_dealer_missing():
    with pytest.raises(SettlementError) as e:
        bj({"type": "draw"}, dealer=None)
    assert e.value.field == "dealer"


def test_open_hand_discard_from_tiles_names_type():
    with pytest.raises(SettlementError) as e:
        bj(
            {
                "type": "ron",
                "winner": 1,
                "from": 2,
                "hand": {"concealed": "123m456m789s9s", "tile": "9s", "melds": [{"type": "pon", "tiles": "555p"}]},
            },
            wildcard_indicator="1p",
        )
    assert e.value.field == "result.type"


def test_three_wildcards_discard_from_tiles():
    with pytest.raises(SettlementError) as e:
        bj(
            {"type": "ron", "winner": 1, "from": 2, "hand": {"concealed": "2p2p2p123456789m7z", "tile": "7z"}},
            wildcard_indicator="1p",
        )
    assert e.value.field == "result.wildcards"


def test_dispatch_error_in_list_keeps_other_records():
    out = settle_many(
        [
            {"rules": "beijing", "dealer": 0, "result": {"type": "ron", "winner": 1, "from": 2, "factors": []}},
            {"rules": "beijing", "dealer": 0, "result": {"type": "tsumo", "winner": 0, "factors": ["menqing", "long"]}},
        ]
    )
    assert "error" in out[0] and out[0]["error"].startswith("result.factors:")
    assert out[1]["deltas"] == [48, -16, -16, -16]


def test_no_django_import():
    import pathlib
    import re

    import scoring.engine.beijing as bjmod

    for path in pathlib.Path(bjmod.__file__).parent.glob("*.py"):
        src = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(import|from)\s+django", src, re.M), path
