"""Zung Jung and Beijing options on the rules page: each with a label and meaning written for
readers (translated through the glossary), never the engine's snake_case key."""

import json
import re
from pathlib import Path

from django.test import Client

from scoring.engine.beijing import OPTION_DOCS as BEIJING
from scoring.engine.zung_jung import OPTION_DOCS as ZUNG_JUNG
from scoring.option_words import SYSTEM_OPTIONS

GLOSSARY = Path(__file__).resolve().parents[2] / "locale" / "glossary.d"


def test_every_zung_jung_and_beijing_option_has_words_and_a_translation():
    assert set(SYSTEM_OPTIONS) == set(ZUNG_JUNG) | set(BEIJING)
    glossary = {}
    for path in GLOSSARY.glob("*.json"):
        glossary.update(json.loads(path.read_text()))
    from django.utils import translation

    with translation.override("en"):  # the msgids, whatever language an earlier test left active
        for label, meaning in SYSTEM_OPTIONS.values():
            for msgid in (str(label), str(meaning)):
                assert glossary.get(msgid, {}).get("zh_Hant"), msgid


def test_rules_page_shows_system_options_by_label_not_key(db):
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/scoring/rules/").content.decode()
    tables = re.findall(r'(?s)<table class="grid options">.*?</table>', page)
    assert len(tables) >= 2
    cells = [c for t in tables for c in re.findall(r"(?s)<tr><td>([^<]*)</td>", t)]
    assert "Same-turn immunity" in cells and "Discarder pays all" in cells and "Base rate" in cells
    assert not [c for c in cells if re.fullmatch(r"[a-z]+(_[a-z]+)+", c.strip())]
    assert "Who pays when the winning tile was discarded earlier in the same turn" in page


def test_system_values_in_words_not_codes(db):
    from scoring.selectors import system_options

    zj = {label: value for label, _, value in system_options("zung-jung")}
    assert zj["Same-turn immunity"] == "official rule"
    assert zj["Payoff scheme"] == "competition (中庸競技制)"
    bj = {label: value for label, _, value in system_options("beijing")}
    assert bj["Several winners on one discard"] == "head bump (only the first winner)"
    assert bj["Kong points"] == "open: 1; concealed: 2; added: 1"
