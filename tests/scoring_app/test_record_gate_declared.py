"""The record gate is built from the engines' own declarations (scoring/engine/<system>/record_keys.py):
every documented example passes it, and Beijing hands with a 混 tile or a fixed-value special, refused
as "unknown field" before, are stored and settled with the figures beijing.md gives."""

import ast
import json
import re
from pathlib import Path

import pytest

from scoring import services
from scoring.engine.beijing import record_keys as beijing_keys
from scoring.engine.riichi import record_keys as riichi_keys
from scoring.engine.zung_jung import record_keys as zung_jung_keys
from scoring.record_gate import record_gate

ROOT = Path(__file__).resolve().parents[2]


def test_the_engines_declare_their_own_keys():
    assert riichi_keys.RECORD_KEYS != zung_jung_keys.RECORD_KEYS
    assert {"flags", "aka"} <= riichi_keys.RESULT_KEYS  # the flat tsumo form: the winner's keys in result
    assert {"wildcard_indicator", "wildcard", "shaozhuang"} <= beijing_keys.RECORD_KEYS
    assert {"special", "hunyou", "winning_tile_wildcard", "discarded_wildcard"} <= beijing_keys.RESULT_KEYS


def test_every_example_in_docs_passes_the_gate():
    hands = [r for r in json.loads((ROOT / "docs/examples/hands.json").read_text()) if "result" in r]
    assert hands
    for record in hands:
        record_gate({k: v for k, v in record.items()})


def _docstring_records(module_path: Path) -> list[dict]:
    """The JSON-like record literals of an engine's docstring examples (``settle({...}, ...)``)."""
    text = module_path.read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r"settle\((\{.*?\}),\s*(?:\.\.\.\s*)?resolve", text, re.S):
        literal = re.sub(r"\n\s*\.\.\.\s*", " ", m[1])
        try:
            found.append(ast.literal_eval(literal.replace("true", "True").replace("false", "False")))
        except (SyntaxError, ValueError):
            continue
    return found


@pytest.mark.parametrize("path", ["scoring/engine/beijing/__init__.py", "scoring/engine/riichi/__init__.py"])
def test_engine_docstring_examples_pass_the_gate(path):
    records = _docstring_records(ROOT / path)
    assert records
    for record in records:
        record_gate(record)


def test_beijing_hand_with_wildcard_indicator_and_fixed_special_is_stored(beijing_game, admin):
    # beijing.md §2.6: 天和 has a fixed value, each of the other three pays it (the preset: 20)
    hand, _ = services.hand_record_add(
        game=beijing_game,
        actor=admin,
        record={
            "wildcard_indicator": "1p",
            "shaozhuang": False,
            "result": {
                "type": "tsumo",
                "winner": 0,
                "special": "tianhu",
                "hunyou": False,
                "winning_tile_wildcard": False,
            },
        },
    )
    assert hand.settlement["deltas"] == [60, -20, -20, -20]
