"""The designs whose unmet pairs form 4-cycles (matchdays.seating.c4leave), and the day after
them: every pair at most once over the design, the unmet pairs exactly the 4-cycles, and a
season one day longer than the design at exactly the lower bound, v/2 repeats."""

import itertools
import random
import shutil

import pytest

from matchdays.seating import Day, c4leave, designs, generate, lower_bound_repeats, pair_meetings, rotational

STORED = sorted(c4leave.stored_c4_designs())


def test_the_sizes_of_the_issue_are_stored():
    assert 36 in STORED


@pytest.mark.parametrize("v", STORED)
def test_a_stored_design_meets_every_pair_once_but_the_four_cycles(v):
    days = c4leave.stored_c4_designs()[v]
    assert len(days) == (v - 3) // 3 == len(rotational.rotational_days(v))
    for day in days:
        assert sorted(p for t in day for p in t) == list(range(v)) and all(len(t) == 4 for t in day)
    met = pair_meetings([Day(tables=t) for t in days])
    assert all(len(d) == 1 for d in met.values())
    unmet = {frozenset(p) for p in itertools.combinations(range(v), 2)} - {frozenset(p) for p in met}
    # the 4-cycles 4x - 4x+1 - 4x+2 - 4x+3 - 4x, disjoint, every player on one
    cycles = {frozenset((4 * x + i, 4 * x + (i + 1) % 4)) for x in range(v // 4) for i in range(4)}
    assert unmet == cycles and len(unmet) == v
    assert c4leave.design_check(v, days)


@pytest.mark.parametrize("v", STORED)
def test_the_day_after_the_design_repeats_only_the_diagonals(v):
    days = c4leave.c4_days(v)
    met = pair_meetings([Day(tables=t) for t in days])
    assert sum(len(d) - 1 for d in met.values()) == v // 2
    # the last design day meets no diagonal (so no pair meets on two adjacent days)
    laid = designs.leave_design_days(v, random.Random(3))
    last = {frozenset(e) for t in laid[-2] for e in itertools.combinations(t, 2)}
    assert not last & {frozenset(e) for t in laid[-1] for e in itertools.combinations(t, 2)}


def test_a_broken_design_is_refused():
    days = [list(map(list, day)) for day in c4leave.stored_c4_designs()[36]]
    days[0][0][0], days[0][1][0] = days[0][1][0], days[0][0][0]
    assert not c4leave.design_check(36, days)
    assert not c4leave.design_check(36, days[1:])


@pytest.mark.parametrize("v", STORED)
def test_a_season_one_day_past_the_design_meets_the_bound(v):
    n_days = (v - 3) // 3 + 1
    result = generate(list(range(v)), n_days, seed=0)
    assert result.repeats == lower_bound_repeats(v, n_days) == v // 2
    assert result.consecutive_repeats == 0
    assert result.wind_imbalance == result.wind_imbalance_min


def test_a_season_within_the_design_still_meets_nobody_twice():
    for v in STORED:
        assert generate(list(range(v)), (v - 3) // 3, seed=2).repeats == 0


def test_a_season_seated_one_day_at_a_time_keeps_to_its_design():
    """Seated a day at a time, the first days follow the rotational design (asked for one day);
    the day past it then goes to the search, still valid; a season asked for whole keeps the
    4-cycle design's bound."""
    v, players, history = 36, list(range(36)), []
    for _ in range(12):
        history += generate(players, 1, seed=5, history=history).days
    assert all(len(d) == 1 for d in pair_meetings(history[:11]).values())
    assert sum(len(d) - 1 for d in pair_meetings(history).values()) >= v // 2
    whole = generate(players, 12, seed=5)
    assert whole.repeats == v // 2


def test_a_pin_holds_past_the_design_and_pairs_kept_apart_fall_back():
    """One pinned player: the 4-cycle design is relabelled and reaches the bound.  Over the
    design and its day more every pair meets, so a pair kept apart (or two players pinned to
    different tables) cannot be kept by it: the season is the rotational design's, as before."""
    v = 36
    result = generate(list(range(v)), 12, seed=1, fixed_table={0: 1})
    assert result.unmet == [] and all(0 in day.tables[0] for day in result.days)
    assert result.repeats == v // 2
    apart = generate(list(range(v)), 12, seed=1, fixed_table={0: 1, 5: 2}, apart=[(1, 2), (3, 4)])
    assert apart.unmet == []
    assert all(0 in day.tables[0] and 5 in day.tables[1] for day in apart.days)
    assert all(len(d) == 1 for d in pair_meetings(apart.days[:11]).values())


def test_the_cnf_form_holds_for_a_stored_design():
    """The SAT form (:func:`c4leave.c4_cnf`), for 36: the clauses hold when the pairs of the
    stored design's base day (an orbit day) and its fixed days are set (a small check of the
    encoding without a solver): the keys of the pairs of the last day are all distinct."""
    days = c4leave.stored_c4_designs()[36]
    keys = [c4leave.pair_key(9, a, b) for t in days[-1] for a, b in itertools.combinations(t, 2)]
    assert None not in keys and len(set(keys)) == len(keys)
    assert not set(keys) & c4leave.leave_keys(9)


@pytest.mark.skipif(shutil.which("cadical") is None, reason="the offline search's SAT solver is not installed")
def test_the_sat_call_reads_a_model_and_says_none_when_unsatisfiable():
    from matchdays.seating.rotational import cnf_solve

    model = cnf_solve(2, [[1], [-2]], seconds=5, seed=0, solver="cadical")
    assert model is not None and 1 in model and -2 in model
    assert cnf_solve(1, [[1], [-1]], seconds=5, seed=0, solver="cadical") is None
