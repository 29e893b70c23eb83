"""Named actors and a small league (the pattern of tests/league/conftest.py), plus helpers for
hand-by-hand games: admin (league admin), referee, member (a player with a login), outsider."""

import pytest
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


def make_game(season, players, table=1):
    return services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=table, players=players[:4], actor=SYSTEM
    )


@pytest.fixture
def season(league, players):
    return make_season(league, players, preset="mleague")


@pytest.fixture
def zj_game(league, players):
    return make_game(make_season(league, players, preset="zung-jung", number=2), players)


@pytest.fixture
def beijing_game(league, players):
    return make_game(make_season(league, players, preset="beijing", number=3), players)


@pytest.fixture
def finished(game, admin):
    """The worked game of tests/riichi_game.py entered hand by hand and finished from its hands."""
    from scoring import services
    from tests.riichi_game import HANDS

    for record in HANDS:
        services.hand_record_add(game=game, record=record, actor=admin)
    services.game_hands_finish(game=game, actor=admin)
    return game
