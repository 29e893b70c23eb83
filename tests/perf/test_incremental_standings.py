"""Incremental standings: every result (new or corrected) and every penalty (assigned or
cancelled) updates only its players' rows and the ranks, inside the change's transaction; any
sequence of them leaves exactly the table a full recompute gives (the audit)."""

from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import services
from league.models import Division, GameResult, Standing
from league.standings import standings_rows
from tests.actors import open_season
from kyoku.principals import SYSTEM

COLUMNS = (
    "player_id",
    "rank",
    "games",
    "game_points",
    "penalty_points",
    "total_points",
    "average_place",
    "firsts",
    "seconds",
    "thirds",
    "fourths",
)


@pytest.fixture
def season(league, players):
    rules = services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)
    # all eight players in division A, so games mix them and ranks move
    return open_season(league, rules, players, per_division=8)


def stored(division):
    return sorted(Standing.objects.filter(division=division).values_list(*COLUMNS))


def full(division):
    return sorted(tuple(row[c] for c in COLUMNS) for row in standings_rows(division=division))


def scores_strategy():
    # four final scores summing to 100,000 (M-League 25,000 start), in hundreds, ties allowed
    return st.lists(st.integers(-100, 600), min_size=3, max_size=3).map(
        lambda three: [s * 100 for s in three] + [100000 - 100 * sum(three)]
    )


OPERATION = st.one_of(
    st.tuples(st.just("result"), st.integers(0, 3), scores_strategy()),
    st.tuples(st.just("penalty"), st.integers(0, 7), st.sampled_from(["5", "10", "20.5"])),
    st.tuples(st.just("cancel"), st.integers(0, 5), st.just(None)),
)
TABLES = [[0, 1, 2, 3], [4, 5, 6, 7], [0, 2, 4, 6], [1, 3, 5, 7]]


class Rollback(Exception):
    pass


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=st.lists(OPERATION, min_size=1, max_size=12))
def test_any_sequence_of_changes_equals_the_full_recompute(season, players, admin, operations):
    division = season.divisions.get(code="A")
    try:
        with transaction.atomic():
            games = [
                services.game_create(
                    division=division,
                    match_day=1 + i // 2,
                    table=1 + i % 2,
                    players=[players[p] for p in seats],
                    actor=SYSTEM,
                )
                for i, seats in enumerate(TABLES)
            ]
            penalties = []
            for kind, which, value in operations:
                if kind == "result":
                    services.game_result_record(game=games[which], scores=value, actor=admin, replace=True)
                elif kind == "penalty":
                    penalties.append(
                        services.penalty_assign(
                            season=season,
                            player=players[which],
                            offence="false_win",
                            sanction="chombo",
                            points=Decimal(value),
                            actor=admin,
                        )
                    )
                elif penalties and which < len(penalties) and penalties[which].cancelled_at is None:
                    penalties[which] = services.penalty_cancel(penalty=penalties[which], reason="appeal", actor=admin)
                assert stored(division) == full(division), (kind, which, value)
            raise Rollback
    except Rollback:
        pass


def test_a_result_writes_its_standings_in_the_same_transaction(
    season, players, admin, django_capture_on_commit_callbacks
):
    division = season.divisions.get(code="A")
    game = services.game_create(division=division, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    version = Division.objects.get(pk=division.pk).standings_version
    with django_capture_on_commit_callbacks(execute=False):  # nothing left for after the commit
        services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    first = Standing.objects.get(division=division, rank=1)
    assert first.player_id == players[0].pk and first.total_points == Decimal("63.0")
    assert Division.objects.get(pk=division.pk).standings_version > version
    assert stored(division) == full(division)


def test_a_correction_moves_only_what_it_changes(season, players, admin, django_assert_max_num_queries):
    division = season.divisions.get(code="A")
    game = services.game_create(division=division, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    services.game_result_record(game=game, scores=[43000, 30800, 16000, 10200], actor=admin)
    # a bounded number of queries whatever the division's size: the four rows, the ranks, and the
    # four players' statistics rows (issue 36), in the same transaction
    with django_assert_max_num_queries(50):
        services.game_result_record(game=game, scores=[10200, 16000, 30800, 43000], actor=admin, replace=True)
    assert Standing.objects.get(division=division, player=players[3]).rank == 1
    assert GameResult.objects.get(game=game).points == [-49.8, -24.0, 10.8, 63.0]
    assert stored(division) == full(division)
