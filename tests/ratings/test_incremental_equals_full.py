"""Property: ratings kept incrementally as results arrive (new, corrected, late, deleted) equal
a full recompute, and the full recompute does not depend on the order results were entered or
games created (games are rated by season, match day, table, game id)."""

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import services
from kyoku.models import League
from league.models import GameResult
from ratings.services import league_ratings_rebuild
from tests.actors import open_season
from tests.ratings.conftest import new_game, snapshot
from kyoku.principals import SYSTEM

PROPERTY = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)

# final scores that sum to 100,000 with varied places, ties included
SCORES = st.sampled_from(
    [
        [45000, 30000, 15000, 10000],
        [10000, 15000, 30000, 45000],
        [25000, 25000, 25000, 25000],
        [40000, 25000, 25000, 10000],
        [30000, 30000, 20000, 20000],
        [20000, 50000, 20000, 10000],
        [-5000, 60000, 30000, 15000],
        [35000, 35000, 35000, -5000],
    ]
)


@pytest.fixture
def schedule(season, season2, players):
    """Eight games over two seasons and both divisions; A and B share match days and tables."""
    games = []
    for s in (season, season2):
        for day in (1, 2):
            games.append(new_game(s, "A", day, 1, players[:4] if day == 1 else players[3::-1]))
            games.append(
                new_game(s, "B", day, 1, players[4:] if day == 1 else [players[5], players[7], players[4], players[6]])
            )
    return games


OPS = st.lists(
    st.tuples(st.sampled_from(["enter", "enter", "enter", "delete"]), st.integers(0, 7), SCORES),
    min_size=1,
    max_size=14,
)


@PROPERTY
@given(ops=OPS)
def test_incremental_updates_equal_a_full_recompute(ops, schedule, league, admin, django_capture_on_commit_callbacks):
    with transaction.atomic():
        for op, index, scores in ops:
            game = schedule[index]
            with django_capture_on_commit_callbacks(execute=True):
                if op == "enter":
                    services.game_result_record(game=game, scores=scores, actor=admin, replace=True)
                else:
                    GameResult.objects.filter(game=game).delete()
                    game.status = "scheduled"
                    game.save(update_fields=["status"])
        incremental = snapshot(league)
        assert len(incremental[0]) == 4 * GameResult.objects.filter(game__season__league=league).count()
        league_ratings_rebuild(league=league, actor=SYSTEM)
        assert snapshot(league) == incremental
        transaction.set_rollback(True)


def _league_played(slug, rules, players, create_order, entry_order, results):
    """A league of two seasons whose 8 games are created in ``create_order`` and whose results
    are entered in ``entry_order``; returns its ratings keyed by game position, not game id."""
    league = League.objects.create(name=slug, slug=slug)
    seasons = [open_season(league, rules, players, number=n) for n in (1, 2)]
    plan = [(seasons[i // 4], "AB"[i % 2], 1 + (i // 2) % 2) for i in range(8)]
    games = {}
    for i in create_order:
        s, code, day = plan[i]
        games[i] = new_game(s, code, day, 1, players[:4] if code == "A" else players[4:])
    for i in entry_order:
        services.game_result_record(game=games[i], scores=results[i], actor=SYSTEM)
    call_command("ratings_recompute", "--league", slug, stdout=open("/dev/null", "w"))
    return snapshot(league, by_id=False)


@PROPERTY
@given(
    create_order=st.permutations(range(8)),
    entry_order=st.permutations(range(8)),
    results=st.lists(SCORES, min_size=8, max_size=8),
)
def test_full_recompute_does_not_depend_on_the_order_of_entry(
    create_order, entry_order, results, mleague_rules, players
):
    with transaction.atomic():
        expected = _league_played("in-order", mleague_rules, players, range(8), range(8), results)
        shuffled = _league_played("shuffled", mleague_rules, players, create_order, entry_order, results)
        assert shuffled == expected
        assert len(expected[0]) == 32  # every seat of every game rated
        transaction.set_rollback(True)
