"""Two seasons of the test league (M-League rules: equal scores share a place), 8 players:
players 1-4 in division A and 5-8 in B of each season. ``record`` enters a result the way the
result form does, with the on-commit hooks run (so ratings follow as they do in production)."""

import pytest

from league import services
from tests.actors import open_season
from kyoku.principals import SYSTEM


@pytest.fixture
def mleague_rules(db):
    return services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, mleague_rules, players):
    return open_season(league, mleague_rules, players)


@pytest.fixture
def season2(league, mleague_rules, players, season):
    return open_season(league, mleague_rules, players, number=2)


@pytest.fixture
def record(admin, django_capture_on_commit_callbacks):
    def enter(game, scores, replace=False):
        with django_capture_on_commit_callbacks(execute=True):
            return services.game_result_record(game=game, scores=scores, actor=admin, replace=replace)[0]

    return enter


def new_game(season, code, day, table, players):
    return services.game_create(
        division=season.divisions.get(code=code), match_day=day, table=table, players=players, actor=SYSTEM
    )


def snapshot(league, by_id=True):
    """Every stored rating number of ``league``: events and current ratings."""
    from ratings.models import PlayerRating, RatingEvent

    def game_of(e):
        g = e.game
        return (g.season.year, g.season.number, g.division.code, g.match_day, g.table)

    events = sorted(
        (
            (e.game_id if by_id else game_of(e)),
            e.player.membership_number,
            e.place,
            e.mu_before,
            e.sigma_before,
            e.mu_after,
            e.sigma_after,
            e.ordinal_before,
            e.ordinal,
        )
        for e in RatingEvent.objects.filter(league=league).select_related("game__season", "game__division", "player")
    )
    ratings = sorted(
        (r.player.membership_number, r.mu, r.sigma, r.ordinal, r.games)
        for r in PlayerRating.objects.filter(league=league).select_related("player")
    )
    return events, ratings
