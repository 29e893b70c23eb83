"""The resolvable minimum covering for 24 players (matchdays.seating.covering): over its 8 days
every pair meets and exactly 12 pairs meet twice, the least possible; a season of 8 days or
more takes it, a shorter one keeps the 7 repeat-free days of the rotational design."""

import itertools
import random
import shutil

import pytest

from matchdays.seating import Day, covering, designs, generate, lower_bound_repeats, pair_meetings


def test_the_stored_covering_meets_every_pair_and_repeats_the_least():
    days = covering.covering_days(24)
    assert days is not None and len(days) == 8
    for day in days:
        assert sorted(p for t in day for p in t) == list(range(24)) and all(len(t) == 4 for t in day)
    met = pair_meetings([Day(tables=t) for t in days])
    assert {frozenset(p) for p in met} == {frozenset(p) for p in itertools.combinations(range(24), 2)}
    twice = [p for p, d in met.items() if len(d) == 2]
    assert all(len(d) <= 2 for d in met.values())
    # one repeat per player: the pairs met twice are a perfect matching ("couples")
    assert len(twice) == 12 == lower_bound_repeats(24, 8) == covering.lower_bound(24, 8)
    assert sorted(p for pair in twice for p in pair) == list(range(24))
    # in the stored order no pair meets on two adjacent days, and the first five are repeat-free
    for a, b in itertools.pairwise(days):
        assert not {frozenset(e) for t in a for e in itertools.combinations(t, 2)} & {
            frozenset(e) for t in b for e in itertools.combinations(t, 2)
        }
    assert covering.order_score(days) == (0, 5)
    assert covering.covering_check(24, days)


def test_a_broken_covering_is_refused():
    days = covering.covering_days(24)
    days[0][0][0], days[0][1][0] = days[0][1][0], days[0][0][0]
    assert not covering.covering_check(24, days)
    assert not covering.covering_check(24, covering.covering_days(24)[1:])
    assert covering.covering_days(28) is None and covering.covering_shape(28) is None


def test_the_form_is_tight_for_twenty_four_players():
    """Two fixed days and two base days turned round Z_3; 92 classes, the four couple classes
    covered twice: 96 covers, exactly the fixed days' 2 × 2 × 6 and the base days' 2 × 36."""
    assert covering.covering_shape(24) == (2, 2)
    keys = {covering.pair_class(a, b) for a, b in itertools.combinations(range(24), 2)}
    assert len(keys) == 92 and sum(covering.is_couple_class(k) for k in keys) == 4
    assert len(keys) + 4 == 2 * 2 * 6 + 2 * 36
    # each class is an orbit of three pairs under x -> x + 1
    a, b = 0, 7
    assert covering.pair_class(a, b) == covering.pair_class(covering.turn(a), covering.turn(b))
    n_vars, clauses, kinds = covering.covering_cnf(24)
    assert [k for k, _ in kinds] == ["fixed", "fixed", "base", "base"] and n_vars > 0 and clauses


@pytest.mark.skipif(shutil.which("cadical") is None, reason="CaDiCaL not installed")
def test_the_sat_search_finds_a_covering():
    days = covering.covering_sat(24, seconds=120, seed=0)
    assert days is not None and covering.covering_check(24, days)


def test_eight_days_for_twenty_four_players_meet_the_bound():
    result = generate(list(range(24)), 8, seed=0)
    assert result.repeats == lower_bound_repeats(24, 8) == 12
    assert result.consecutive_repeats == 0
    assert result.wind_imbalance == result.wind_imbalance_min
    # a day past it: every pair has met, so each table repeats six pairs, still the bound
    assert generate(list(range(24)), 9, seed=1).repeats == lower_bound_repeats(24, 9)


def test_seven_days_keep_the_repeat_free_design():
    assert generate(list(range(24)), 7, seed=0).repeats == 0
    assert designs.whole_season_designs(24, 7)[0] is designs.design_days
    assert designs.whole_season_designs(24, 8)[0] is designs.covering_design_days


@pytest.mark.parametrize("seed", [0, 3])
def test_a_pinned_player_relabels_the_covering(seed):
    players = [f"p{i}" for i in range(24)]
    result = generate(players, 8, seed=seed, fixed_table={"p3": 2})
    assert result.repeats == 12
    assert all("p3" in day.tables[1] for day in result.days)


def test_a_pair_kept_apart_cannot_use_the_covering_and_still_holds():
    """In the covering every pair meets, so a pair kept apart (or two players pinned to different
    tables) sends the season to the repeat-free design and the search; the constraint holds."""
    players = [f"p{i}" for i in range(24)]
    result = generate(players, 8, seed=0, fixed_table={"p3": 2, "p9": 5}, apart=[("p1", "p2")])
    assert result.repeats >= 12 and not result.unmet
    for day in result.days:
        assert "p3" in day.tables[1] and "p9" in day.tables[4]
        assert not any({"p1", "p2"} <= set(t) for t in day.tables)


def test_the_covering_is_relabelled_per_seed():
    a = designs.covering_design_days(24, random.Random(1))
    b = designs.covering_design_days(24, random.Random(2))
    assert a != b and covering.covering_check(24, [[sorted(t) for t in d] for d in a])
