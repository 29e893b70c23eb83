"""The seating bench: its baselines count as their sources do, and it runs at a toy size."""

import subprocess
import sys

from bench.seating import (
    best_known_days,
    pantheon_baseline,
    pantheon_intersection_factor,
    pantheon_sub_sums,
    random_shuffle_baseline,
    repeat_free_days,
)
from matchdays.seating import Day


def test_pantheon_factor_counts_pairs_met_again_and_consecutive_sessions():
    # session 0: {1,2,3,4} {5,6,7,8}; the candidate session 1: {1,2,5,6} {3,4,7,8}.  Pairs 12, 34,
    # 56, 78 meet again on the very next session: 1 + 10 each (Seating.php), four pairs: 44
    previous = [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert pantheon_intersection_factor([1, 2, 5, 6, 3, 4, 7, 8], previous) == 44
    # sessions 0, 1 = {1,2,3,4} {5,6,7,8}, {1,5,3,7} {2,6,4,8}: 13, 24, 57, 68 met on adjacent
    # sessions (4 * 11); the candidate {1,2,7,8} {3,4,5,6} meets 12, 78, 34, 56 again two sessions
    # later (4 * 1) and 17, 28, 35, 46 on the next session (4 * 11): 44 + 4 + 44 = 92
    previous += [[1, 5, 3, 7], [2, 6, 4, 8]]
    assert pantheon_intersection_factor([1, 2, 7, 8, 3, 4, 5, 6], previous) == 92


def test_pantheon_winds_count_tables_not_sat_at_as_east():
    # PHP's array_search gives false for a table the player did not sit at, and $buckets[false]
    # is bucket 0: player 9 sat at no previous table, so two tables count as two Easts
    # is bucket 0: players 9-12 sat at neither previous table, so each counts two Easts.
    # East: buckets [3, 0, 0, 0] -> 3 + 3 + 3 = 9; South: [2, 1, 0, 0] -> 1 + 2 + 2 + 1 + 1 = 7;
    # West and North likewise 7: 30 (without the quirk, 4 * 3 = 12)
    previous = [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert pantheon_sub_sums([9, 10, 11, 12], previous) == 30


def test_baselines_seat_everyone():
    for result in (pantheon_baseline(list(range(18)), 3, iterations=20), random_shuffle_baseline(list(range(18)), 3)):
        for day in result.days:
            seated = [p for t in day.tables for p in t if p is not None]
            assert sorted(seated + day.byes) == list(range(18)) and len(day.byes) == 2


def test_best_known_days():
    # issue 23's table: 24: 7, 28: 9, 32: 10, 36: 11, 40: 13, 48: 15, 52: 17, 60: 19, 100: 33
    assert [best_known_days(n) for n in (16, 20, 24, 28, 32, 36, 40, 48, 52, 60, 100)] == [
        5,
        5,
        7,
        9,
        10,
        11,
        13,
        15,
        17,
        19,
        33,
    ]
    days = [
        Day(tables=[[0, 1, 2, 3], [4, 5, 6, 7]]),
        Day(tables=[[0, 4, 2, 6], [1, 5, 3, 7]]),
        Day(tables=[[0, 1, 4, 5], [2, 3, 6, 7]]),
    ]
    assert repeat_free_days(days) == 1


def test_the_bench_runs_at_a_toy_size():
    out = subprocess.run(
        [
            sys.executable,
            "bench/seating.py",
            "--sizes",
            "16,18",
            "--days",
            "4",
            "--iterations",
            "20",
            "--tries",
            "20",
            "--time-limit",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    rows = [line for line in out.splitlines() if line.strip().startswith(("16", "18"))]
    assert len(rows) == 2 and "pantheon" in out
