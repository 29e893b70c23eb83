"""Codes the review queue, the rules page and the season page used to show raw read as words in
every language: platform ranks and rooms, Zung Jung pattern names, rule systems, incident kinds."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from kyoku.labels import LABELS, label, rank_label
from scoring.option_words import zung_jung_rows


@pytest.mark.parametrize(
    "lang, dan, celestial, throne",
    [
        ("en", "7-dan", "Celestial", "Throne room"),
        ("zh-hant", "7段", "魂天", "王座之間"),
        ("ja", "7段", "魂天", "王座の間"),
    ],
)
def test_ranks_and_rooms_in_words(lang, dan, celestial, throne):
    with translation.override(lang):
        assert rank_label("7-dan") == dan
        assert rank_label("celestial") == celestial
        assert label("throne", "room") == throne
        assert rank_label("typed by hand") == "typed by hand"  # an unknown rank stays as typed


def test_every_zung_jung_pattern_has_a_japanese_name():
    with translation.override("ja"):
        rows = zung_jung_rows()
    assert len(rows) == 45
    untranslated = [r["key"] for r in rows if r["name"] == r["en"]]
    assert untranslated == []
    assert next(r for r in rows if r["key"] == "seven_pairs")["name"] == "七対子"


def test_rule_systems_are_named():
    with translation.override("ja"):
        assert label("riichi", "rule_system") != "riichi"


@pytest.mark.django_db
def test_an_incident_kind_must_be_one_the_pages_can_name():
    from referee import services
    from tests.security.world import world_build

    world = world_build()
    events = [{"t": 0, "seat": 0, "act": "announce"}]
    with pytest.raises(ValidationError) as err:
        services.incident_log(
            game=world.game, hand_number=1, dealer=0, kind="my_own_kind", events=events, reporter=world.referee
        )
    assert "kind" in err.value.message_dict
    assert set(LABELS["incident_kind"]) >= {"deal_error", "false_win", "head_bump"}
