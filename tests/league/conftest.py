"""A small league for the league tests: an M-League season with A (players 1-4) and B (5-8).
The named actors (admin, referee, member, outsider) come from tests/conftest.py."""

import pytest
from league import services
from tests.actors import open_season
from kyoku.principals import SYSTEM


@pytest.fixture
def mleague_rules(db):
    return services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)


@pytest.fixture
def ema_rules(db):
    return services.rule_set_create(name="EMA", slug="ema", preset="ema", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, mleague_rules, players):
    return open_season(league, mleague_rules, players)
