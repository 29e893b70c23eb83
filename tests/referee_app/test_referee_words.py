"""The league's words for the referee desk (issue 20): "Incident" is 事件 in Traditional Chinese
(事故 is an accident) and 事案 in Japanese; a false win is one word everywhere, 錯和 / チョンボ,
the scorekeeper's chombo button included (it read 沖和); the procedure phases and the ruling and
appeal texts of the referee pages are translated in Japanese."""

from pathlib import Path

import polib
import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext

from kyoku.labels import label

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "lang,words",
    [
        (
            "zh-hant",
            {
                "Incident": "事件",
                "Chombo": "錯和",
                "False win": "錯和",
                "Chombo by": "錯和者",
                "Open incidents": "未處理事件",
            },
        ),
        (
            "ja",
            {
                "Incident": "事案",
                "Chombo": "チョンボ",
                "False win": "チョンボ",
                "Chombo by": "チョンボした人",
                "Close the incident (no appeal)": "事案を終了する(異議申立てなし)",
                "Appeal this ruling": "この裁定に異議を申し立てる",
                "File the appeal": "異議を申し立てる",
            },
        ),
    ],
)
def test_the_leagues_words(lang, words):
    with translation.override(lang):
        assert {en: gettext(en) for en in words} == words


def test_procedure_phases_and_numbered_rulings_in_japanese():
    with translation.override("ja"):
        assert [label(p, "phase") for p in ("DEAL", "PLAY", "SETTLEMENT")] == ["配牌手順", "ツモ打ち手順", "精算手順"]
        assert gettext("Ruling #%(n)s") % {"n": 3} == "裁定 #3"
    with translation.override("zh-hant"):
        assert pgettext("procedure phase", "Settlement") == "結算程序"
        assert gettext("Incident #%(n)s") % {"n": 2} == "事件 #2"


def test_no_other_word_for_incident_or_chombo_in_traditional_chinese():
    po = polib.pofile(str(ROOT / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"))
    wrong = [(e.msgid, e.msgstr) for e in po if any(w in e.msgstr for w in ("事故", "沖和", "詐和"))]
    assert not wrong, wrong
