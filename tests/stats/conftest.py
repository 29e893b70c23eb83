"""An open M-League season (players 1-4 in division A, 5-8 in B); ``game`` seats players 1-4."""

import pytest

from kyoku.principals import SYSTEM
from league import services
from tests.actors import open_season


@pytest.fixture
def mleague(db):
    return services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, mleague, players):
    return open_season(league, mleague, players)
