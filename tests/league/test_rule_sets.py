"""Rule settings are versioned data; a season keeps the exact copy it was created with."""

import pytest
from django.core.exceptions import ValidationError

from league import services
from league.models import RuleSet
from kyoku.principals import SYSTEM


def test_season_keeps_its_own_copy(league, mleague_rules):
    season = services.season_create(league=league, year=2026, number=1, rule_set=mleague_rules, actor=SYSTEM)
    assert season.rule_set.pk != mleague_rules.pk
    assert season.rule_set.options == mleague_rules.options
    services.rule_set_revise(rule_set=mleague_rules, overrides={"uma": [20, 10, -10, -20]}, actor=SYSTEM)
    season.rule_set.refresh_from_db()
    assert season.rule_set.options["uma"] == mleague_rules.options["uma"]


def test_revise_makes_a_new_version(mleague_rules):
    revised = services.rule_set_revise(rule_set=mleague_rules, overrides={"kiriage": True}, actor=SYSTEM)
    assert (revised.slug, revised.version) == ("mleague", 2)
    assert revised.options["kiriage"] is True
    assert RuleSet.objects.get(slug="mleague", version=1).overrides == {}


def test_unknown_option_is_an_error_naming_it(db):
    with pytest.raises(ValidationError) as err:
        services.rule_set_create(name="X", slug="x", preset="wrc", overrides={"no_such_option": 1}, actor=SYSTEM)
    assert any("no_such_option" in key or "no_such_option" in " ".join(v) for key, v in err.value.message_dict.items())
    assert not RuleSet.objects.exists()


def test_unknown_preset_names_the_preset_field(db):
    with pytest.raises(ValidationError) as err:
        services.rule_set_create(name="X", slug="x", preset="nonsense", actor=SYSTEM)
    assert "preset" in err.value.message_dict


def test_season_number_is_one_to_four(league, mleague_rules):
    with pytest.raises(ValidationError) as err:
        services.season_create(league=league, year=2026, number=5, rule_set=mleague_rules, actor=SYSTEM)
    assert "number" in err.value.message_dict


def test_duplicate_season_is_refused(league, mleague_rules):
    services.season_create(league=league, year=2026, number=1, rule_set=mleague_rules, actor=SYSTEM)
    with pytest.raises(ValidationError):
        services.season_create(league=league, year=2026, number=1, rule_set=mleague_rules, actor=SYSTEM)
