"""An open M-League season (players 1-4 in division A, 5-8 in B); ``game`` seats players 1-4."""

import pytest

from kyoku.principals import SYSTEM
from league import services
from scoring import services as hands
from tests.actors import open_season
from tests.riichi_game import HANDS


@pytest.fixture
def mleague(db):
    return services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, mleague, players):
    return open_season(league, mleague, players)


@pytest.fixture
def played(game):
    """``game`` played hand by hand (tests.riichi_game.HANDS) and finished."""
    for record in HANDS:
        hands.hand_record_add(game=game, record=record, actor=SYSTEM)
    hands.game_hands_finish(game=game, actor=SYSTEM)
    return game
