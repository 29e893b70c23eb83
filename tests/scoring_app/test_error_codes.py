"""Errors carry a code and parameters and are said in the reader's language where they are shown
(issue 21): the engine's SettlementError by its code (kyoku.errors.ENGINE_WORDS), a service's
ValidationError translated where it is raised. No message is read back through a pattern."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kyoku.errors import ENGINE_WORDS, engine_error
from scoring.engine import SettlementError, settle

ROOT = Path(__file__).resolve().parents[2]
RON_35_FU = {
    "rules": "wrc",
    "dealer": 0,
    "result": {"type": "ron", "from": 1, "winners": [{"seat": 2, "han": 2, "fu": 35}]},
}


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", "fu must be 20, 25 or a multiple of 10 from 30 to 110"),
        ("zh-hant", "符數須為20、25或30至110之間10的倍數"),
        ("ja", None),
    ],
)
def test_an_engine_error_answers_its_code_and_words_in_the_readers_language(as_user, game, admin, lang, words):
    client = as_user(admin)
    response = client.post(
        f"/api/games/{game.pk}/hands/",
        {"record": {k: v for k, v in RON_35_FU.items() if k != "rules"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    body = response.json()
    field = "result.winners[0].fu"
    assert body["codes"][field] == ["fu_invalid"]
    said = body["errors"][field][0]
    if words:
        assert said == words
    assert "110" in said and "got" not in said  # the parameter is in the words, the engine's English is not


def test_a_service_error_is_coded_and_translated_where_raised(as_user, game, admin):
    client = as_user(admin)
    response = client.post(
        f"/api/games/{game.pk}/hands/",
        {"record": {"dealer": 0, "result": {"type": "draw", "tenpai": []}}, "sequence": 5},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 400
    assert response.json()["codes"]["sequence"] == ["sequence_gap"]
    assert (
        "1" in response.json()["errors"]["sequence"][0] and "next hand" not in response.json()["errors"]["sequence"][0]
    )


def test_every_worded_code_is_raised_by_an_engine_and_has_its_parameters():
    engine = "\n".join(p.read_text() for p in (ROOT / "scoring" / "engine").rglob("*.py"))
    # a code is the last argument of the raise, or followed by its parameters (formatted on one
    # line or one argument per line, with a trailing comma)
    raised = set(re.findall(r'"([a-z_0-9]+)",?\s*(?:\{[^}]*\},?\s*)?\)', engine))
    assert sorted(set(ENGINE_WORDS) - raised) == []  # no words for a code nothing raises
    for code, words in ENGINE_WORDS.items():
        for name in re.findall(r"%\((\w+)\)s", str(words)):
            assert re.search(rf'"{code}",\s*\{{[^}}]*"{name}"', engine, re.S), (code, name)


def test_an_error_without_words_keeps_the_engines_message():
    exc = SettlementError("result.type", "must be one of ron, tsumo; got 'x'")
    assert exc.code == "invalid"
    assert engine_error(exc).message_dict == {"result.type": ["must be one of ron, tsumo; got 'x'"]}
    with pytest.raises(SettlementError) as err:
        settle(
            {
                "rules": "wrc",
                "dealer": 0,
                "result": {"type": "ron", "from": 1, "winners": [{"seat": 1, "han": 1, "fu": 30}]},
            }
        )
    assert err.value.code == "ron_own_discard"


def test_no_message_is_matched_by_a_pattern():
    display = (ROOT / "scoring" / "display.py").read_text()
    errors = (ROOT / "kyoku" / "errors.py").read_text()
    assert "_ERRORS" not in display and "error_message(" not in display
    assert "type(exc).__name__" not in errors  # conflicts are recognised by their class, not by a name string
