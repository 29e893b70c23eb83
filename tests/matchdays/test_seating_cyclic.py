"""A base day turned round Z_q on four rows, with fixed transversal days
(matchdays.seating.cyclic): for 68 and 92 players it seats more repeat-free days than the
transversal design's 17 and 23, and every stored design meets each pair at most once."""

import itertools
import random

import pytest

from matchdays.seating import Day, cyclic, designs, generate, pair_meetings


@pytest.mark.parametrize("q", [5, 7, 17])
def test_each_class_holds_q_pairs_and_the_classes_are_8q_minus_2(q):
    table = cyclic.class_table(q)
    n = 4 * q
    sizes: dict = {}
    for a, b in itertools.combinations(range(n), 2):
        assert table[a][b] == table[b][a] >= 0
        sizes[table[a][b]] = sizes.get(table[a][b], 0) + 1
    assert sorted(sizes) == list(range(8 * q - 2)) and set(sizes.values()) == {q}
    # turning by Z_q keeps a pair's class
    assert table[0][q + 3] == table[1][q + 4] == table[q - 1][q + 2]
    assert table[0][2] == table[0][q - 2] == table[3][1] != table[q][q + 2]


def assert_repeat_free(v: int, days: list) -> None:
    for day in days:
        assert sorted(p for t in day for p in t) == list(range(v)) and all(len(t) == 4 for t in day)
    met = pair_meetings([Day(tables=t) for t in days])
    assert all(len(d) == 1 for d in met.values())
    assert len(met) == v * 3 * len(days) // 2


@pytest.mark.parametrize("v", sorted(cyclic.stored_designs()))
def test_stored_designs_meet_every_pair_at_most_once(v):
    q = cyclic.cyclic_shape(v)
    design = cyclic.stored_designs()[v]
    assert cyclic.cyclic_cost(q, design["base"], design["fixed"]) == 0
    days = cyclic.cyclic_days(v)
    assert len(days) == q + len(design["fixed"]) <= (v - 1) // 3
    assert_repeat_free(v, days)


@pytest.mark.parametrize("v", [68, 92])
def test_sixty_eight_and_ninety_two_players_go_past_the_transversal_design(v):
    # no rotational base day is stored for them; the transversal design gives v/4 days (17, 23)
    days = cyclic.cyclic_days(v)
    assert days is not None and len(days) > v // 4 == len(designs.transversal_days(v))
    assert len(designs.design_days(v, random.Random(0))) == len(days)
    n = len(days)
    players = [f"P{i}" for i in range(v)]
    result = generate(players, n, seed=3, fixed_table={"P5": 4}, apart=[("P0", "P1")])
    assert result.repeats == 0 and result.unmet == []
    assert result.wind_imbalance == result.wind_imbalance_min
    for day in result.days:
        assert "P5" in day.tables[3]
        assert not any({"P0", "P1"} <= set(t) for t in day.tables)


@pytest.mark.parametrize("q,n_fixed", [(5, 0), (11, 1)])
def test_the_annealing_finds_a_design(q, n_fixed):
    # 20 players: the 5 days of the base day alone; 44: 11 turned days and a fixed day
    design = cyclic.cyclic_anneal(q, n_fixed, seconds=120, seed=0)
    assert design is not None and len(design["fixed"]) == n_fixed
    assert cyclic.cyclic_cost(q, design["base"], design["fixed"]) == 0
    assert_repeat_free(4 * q, cyclic.developed_days(q, design["base"], design["fixed"]))


def test_a_repeated_class_is_counted_and_meets_twice():
    q, design = 17, cyclic.stored_designs()[68]
    fixed = design["fixed"] + design["fixed"][:1]  # a fixed day twice
    assert cyclic.cyclic_cost(q, design["base"], fixed) == 6
    met = pair_meetings([Day(tables=t) for t in cyclic.developed_days(q, design["base"], fixed)])
    assert sum(len(d) - 1 for d in met.values()) == 6 * q


@pytest.mark.parametrize("v", [24, 32, 16, 66, 12])
def test_only_four_rows_of_an_odd_q_of_at_least_five(v):
    assert cyclic.cyclic_shape(v) is None and cyclic.cyclic_days(v) is None
    assert cyclic.cyclic_shape(68) == 17 and cyclic.most_fixed_days(17) == 5
