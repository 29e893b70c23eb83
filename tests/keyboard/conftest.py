"""The keyboard's world: an M-League season (division A: players 1-4, B: 5-8) from
tests/league's set-up, so the root ``game`` fixture (match day 1, table 1) has a season."""

import pytest

from league import services
from kyoku.principals import SYSTEM
from tests.actors import open_season


@pytest.fixture
def season(league, players):
    rules = services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)
    return open_season(league, rules, players)
