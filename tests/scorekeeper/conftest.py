"""The scorekeeper's world: a season under M.League rules with a house rule adding the four common abortive draws
(M.League itself plays none; no triple ron one), a game in its division A,
and the worked game of tests/riichi_game.py entered hand by hand and finished."""

import pytest
from django.test import Client

from league import services
from tests.actors import open_season
from kyoku.principals import SYSTEM


def make_season(league, players, *, preset, number=1, overrides=None):
    rules = services.rule_set_create(
        name=preset,
        slug=f"{preset}-{number}",
        preset=preset,
        overrides=overrides or {},
        is_template=True,
        actor=SYSTEM,
    )
    return open_season(league, rules, players[:4], number=number)


@pytest.fixture
def season(league, players):
    return make_season(
        league,
        players,
        preset="mleague",
        overrides={"abortive_draws": ["nine_terminals", "four_winds", "four_riichi", "four_kans"]},
    )


@pytest.fixture
def wrc_game(league, players):
    """A season under WRC rules, which play no abortive draw."""
    season = make_season(league, players, preset="wrc", number=2)
    return services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )


@pytest.fixture
def finished(game, admin):
    from scoring import services as scoring
    from tests.riichi_game import HANDS

    for record in HANDS:
        scoring.hand_record_add(game=game, record=record, actor=admin)
    scoring.game_hands_finish(game=game, actor=admin)
    return game


@pytest.fixture
def client_for():
    def make(user=None, lang="en"):
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        if user is not None:
            client.force_login(user)
        return client

    return make
