"""A league with a played open season (players 1-4 in A, 5-8 in B: its members) and the draft
season after it, whose registration the office opens."""

import pytest

from kyoku.principals import SYSTEM
from league import services
from tests.league.conftest import mleague_rules  # noqa: F401
from tests.actors import open_season


@pytest.fixture
def season(league, mleague_rules, players):  # noqa: F811
    return open_season(league, mleague_rules, players)


@pytest.fixture
def draft(season, mleague_rules):  # noqa: F811
    return services.season_create(league=season.league, year=2026, number=2, rule_set=mleague_rules, actor=SYSTEM)
