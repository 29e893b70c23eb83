"""Benchmark: Kyoku's seating against MahjongPantheon's ``shuffledSeating`` and a random shuffle.

    .venv/bin/python bench/seating.py [--sizes 12-100] [--days 8,12] [--seed 0] [--time-limit 20]
                                      [--iterations 1000] [--tries 200]

For each number of players (12 to 100 in steps of 4, and a few that are not multiples of four,
with byes) and each season length it prints:

- ``best``: the most repeat-free match days known for that many players (⌊(v − 1)/3⌋ from 24
  on, 5 at 16 and 20, 1 at 12: Hanani, Ray-Chaudhuri and Wilson 1972 for v ≡ 4 (mod 12); Ge,
  Lam, Ling and Shen 2005 for v ≡ 0, 8 (mod 12); the social golfer instances 5-4-5, 8-4-10;
  OEIS A107431), ``reached``: how many days Kyoku seats without a repeat.  For v ≡ 8 (mod 12)
  the ⌊(v − 1)/3⌋ days need a 4-RGDD of type 2^(v/2), which is not known for every v: Miller,
  Valkov and Abel, "Combinatorial solutions to the Social Golfer Problem …" (Symmetry 18 (2026)
  269, arXiv:2507.23376), list it as unknown for v = 92, 140, 164, 188, 200, 236, 260, 404, 428
  (and impossible for 8, 20), and give 68 its 22 days (their Appendix B: RGDD(68,4,2)), as
  transcribed in guwidoe/GroupMixer (``backend/core/src/solver5/catalog/p4.rs`` and
  ``targets/solver5_supplementary_literature_targets.v1.json``).  For 92 the ``best`` here is
  therefore the 26 days of this project's own design (:mod:`matchdays.seating.cyclic`: a base
  day turned round Z_23 and three fixed days; the resolvable transversal design RTD(4, 23) gives
  23); the paper's own Appendix B figure for 92 was not read and may be higher;
- ``bound`` and Kyoku's ``repeats`` (sum over pairs of meetings − 1) over the season, the gap to
  the bound, and the wind imbalance (sum over players of max − min of their E/S/W/N counts) with
  the least possible in brackets;
- the same repeats and wind imbalance for ``pantheon`` (a port of ``Seating::shuffledSeating``
  with its ``_updatePlacesAtEachTable`` winds, MahjongPantheon/pantheon,
  Mimir/src/helpers/Seating.php) and for ``shuffle`` (each day, the best of TRIES shuffles).

Pure Python, no database.  ``--sizes 16 --days 4 --iterations 20`` runs in a second (the test
suite runs it so).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from matchdays.seating import (  # noqa: E402
    BYE,
    Day,
    Result,
    generate,
    lower_bound_repeats,
    pair_meetings,
    schedule_figures,
)
from matchdays.seating.designs import design_days  # noqa: E402

SIZES = tuple(range(12, 101, 4)) + (22, 30, 45)
DAYS = (8, 12)
# 12: the second day must seat two of a table together; 92: no 4-RGDD of type 2^46 known, the
# most known here is matchdays.seating.cyclic's 26 days
BEST_KNOWN = {12: 1, 16: 5, 20: 5, 92: 26}


def best_known_days(n: int) -> int:
    """Most repeat-free days known for n players at tables of four (byes aside)."""
    if n % 4:
        return 0
    return BEST_KNOWN.get(n, (n - 1) // 3)


def repeat_free_days(days: list[Day]) -> int:
    """How many match days from the first pass before some pair meets a second time."""
    for k in range(1, len(days) + 1):
        if any(len(v) > 1 for v in pair_meetings(days[:k]).values()):
            return k - 1
    return len(days)


def days_reached(players: list, best: int, seed: int, time_limit: float) -> int:
    """The longest season Kyoku seats without a repeat, as far as the best known: a season of
    the best known length, else of its construction's length, else that season's repeat-free
    first days."""
    if not best:
        return 0
    season = generate(players, best, seed=seed, time_limit=time_limit)
    if season.repeats == 0:
        return best
    design = design_days(len(players), random.Random(seed)) or []
    if 0 < len(design) < best and generate(players, len(design), seed=seed, time_limit=time_limit).repeats == 0:
        return max(len(design), repeat_free_days(season.days))
    return repeat_free_days(season.days)


def _result(days: list[Day], players: list, started: float) -> Result:
    figures = schedule_figures(days, players)
    return Result(
        days=days,
        repeats=figures["repeats"],
        consecutive_repeats=figures["consecutive_repeats"],
        wind_counts=figures["wind_counts"],
        wind_imbalance=figures["wind_imbalance"],
        wind_imbalance_min=figures["wind_imbalance_min"],
        unmet=[],
        stopped_early=False,
        seconds=round(time.monotonic() - started, 3),
    )


def byes_rotating(players: list, n_days: int, rng: random.Random) -> list[list]:
    """Each day's byes (n mod 4 players), fewest byes first, ties at random: the fair rule both
    baselines are given (Pantheon itself seats only multiples of four)."""
    count = {p: 0 for p in players}
    out = []
    for _ in range(n_days):
        order = sorted(players, key=lambda p: (count[p], rng.random()))
        byes = order[: len(players) % 4]
        for p in byes:
            count[p] += 1
        out.append(byes)
    return out


def random_shuffle_baseline(
    players: list, n_days: int, *, seed: int = 0, tries: int = 200, leftover: str = BYE
) -> Result:
    """The common approach in other tools: for each day, shuffle ``tries`` times and keep the
    shuffle with the fewest repeat encounters so far; winds as seated."""
    started = time.monotonic()
    rng = random.Random(seed)
    days: list[Day] = []
    met: dict = {}
    all_byes = byes_rotating(players, n_days, rng) if leftover == BYE else [[] for _ in range(n_days)]
    for byes in all_byes:
        seated = [p for p in players if p not in byes]
        best, best_cost = None, None
        for _ in range(tries):
            rng.shuffle(seated)
            tables = [seated[i : i + 4] for i in range(0, len(seated), 4)]
            cost = sum(met.get(frozenset((a, b)), 0) for t in tables for a, b in itertools.combinations(t, 2))
            if best_cost is None or cost < best_cost:
                best, best_cost = [list(t) for t in tables], cost
        for t in best:
            for a, b in itertools.combinations(t, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        days.append(Day(tables=[t + [None] * (4 - len(t)) for t in best], byes=byes))
    return _result(days, players, started)


# --- MahjongPantheon's shuffledSeating, ported from Mimir/src/helpers/Seating.php -------------


def pantheon_shuffle(keys: list, rng: random.Random) -> list:
    """``Seating::shuffle``: Fisher-Yates from the last index down to 1, j = rand(0, i)."""
    keys = list(keys)
    i = len(keys) - 1
    while i > 0:
        j = rng.randint(0, i)
        keys[i], keys[j] = keys[j], keys[i]
        i -= 1
    return keys


def pantheon_crossings(previous: list[list], tables_count: int) -> dict:
    """Ordered pair -> the sessions it met in: previous tables chunked into sessions of
    ``tables_count`` tables, as ``_calculateIntersectionFactor`` chunks them."""
    crossings: dict = {}
    for i in range(0, len(previous), tables_count):
        for game in previous[i : i + tables_count]:
            for a in game:
                for b in game:
                    if a != b:
                        crossings.setdefault((a, b), []).append(i // tables_count)
    return crossings


def pantheon_pair_factor(games: list[int]) -> int:
    """One ordered pair's share: 1 if it met more than once, plus 10 per two meetings in
    consecutive sessions."""
    if len(games) <= 1:
        return 0
    games = sorted(games)
    return 1 + 10 * sum(1 for x, y in zip(games, games[1:]) if y - x == 1)


def pantheon_intersection_factor(
    seating: list, previous: list[list], crossings: dict | None = None, base: float | None = None
) -> float:
    """``_calculateIntersectionFactor``: previous tables chunked into sessions of n/4 tables,
    the candidate appended as the last session; summed over ordered pairs, halved for the
    symmetric count.  (Computed as the previous sessions' factor plus the change the candidate
    makes to its own pairs: the same number, without recounting every session 1,000 times.)"""
    tables_count = len(seating) // 4
    if crossings is None:
        crossings = pantheon_crossings(previous, tables_count)
    if base is None:
        base = sum(pantheon_pair_factor(g) for g in crossings.values())
    idx = -(-len(previous) // tables_count)
    factor = base
    for i in range(0, len(seating), 4):
        game = seating[i : i + 4]
        for a in game:
            for b in game:
                if a != b:
                    games = crossings.get((a, b), [])
                    factor += pantheon_pair_factor(games + [idx]) - pantheon_pair_factor(games)
    return factor / 2


PANTHEON_PLACEMENTS = [
    "0123",
    "1023",
    "2013",
    "3012",
    "0132",
    "1032",
    "2031",
    "3021",
    "0213",
    "1203",
    "2103",
    "3102",
    "0231",
    "1230",
    "2130",
    "3120",
    "0312",
    "1302",
    "2301",
    "3201",
    "0321",
    "1320",
    "2310",
    "3210",
]


def pantheon_sub_sums(table: list, previous: list[list]) -> int:
    """``_calcSubSums``: for each player, wind buckets (this seat + previous seats), summed
    pairwise absolute differences.  Faithful to PHP: ``array_search`` of a player absent from a
    previous table returns false, which indexes bucket 0, so every table a player did not sit
    at counts as an East."""
    total = 0
    for idx, player in enumerate(table):
        buckets = [0, 0, 0, 0]
        buckets[idx] += 1
        for prev in previous:
            buckets[prev.index(player) if player in prev else 0] += 1
        total += sum(abs(x - y) for x, y in itertools.combinations(buckets, 2))
    return total


def pantheon_places(seating: list, previous: list[list]) -> list:
    """``_updatePlacesAtEachTable``: each table in the first of the 24 orders with the least
    sub-sum."""
    out = []
    for i in range(0, len(seating), 4):
        table = seating[i : i + 4]
        best, best_score = None, 10005000
        for placement in PANTHEON_PLACEMENTS:
            order = [table[int(c)] for c in placement]
            score = pantheon_sub_sums(order, previous)
            if score < best_score:
                best, best_score = order, score
        out += best
    return out


def pantheon_shuffled_seating(
    seated: list, previous: list[list], groups_count: int, rand_factor: int, iterations: int = 1000
) -> list:
    """``Seating::shuffledSeating`` for one session: the rating table split into groups, each
    iteration re-seeds the generator with rand_factor + 17 i and reshuffles every group (the
    groups keep the last shuffle), keeping the order with the least intersection factor."""
    size = -(-len(seated) // groups_count)
    groups = [seated[i : i + size] for i in range(0, len(seated), size)]
    best, factor = [], 100500
    crossings = pantheon_crossings(previous, len(seated) // 4)
    base = sum(pantheon_pair_factor(g) for g in crossings.values())
    for i in range(iterations):
        rng = random.Random(rand_factor + i * 17)
        groups = [pantheon_shuffle(g, rng) for g in groups]
        flattened = [p for g in groups for p in g]
        new_factor = pantheon_intersection_factor(flattened, previous, crossings, base)
        if new_factor < factor:
            factor, best = new_factor, flattened
    return pantheon_places(best, previous)


def pantheon_baseline(
    players: list, n_days: int, *, seed: int = 0, iterations: int = 1000, groups_count: int = 1
) -> Result:
    """A season seated session by session with Pantheon's shuffledSeating (byes, where the
    count is not a multiple of four, rotate as in :func:`byes_rotating`; Pantheon's previous
    seatings are then only the tables of the players seated, as its sessions are)."""
    started = time.monotonic()
    rng = random.Random(seed)
    previous: list[list] = []
    days: list[Day] = []
    for d, byes in enumerate(byes_rotating(players, n_days, rng)):
        seated = [p for p in players if p not in byes]
        seating = pantheon_shuffled_seating(seated, previous, groups_count, seed * 1000 + d, iterations)
        tables = [seating[i : i + 4] for i in range(0, len(seating), 4)]
        previous += tables
        days.append(Day(tables=tables, byes=byes))
    return _result(days, players, started)


def sizes_parse(text: str) -> tuple[int, ...]:
    """'12-100' (steps of 4, plus the extra sizes), or '16,22,32'."""
    if "-" in text:
        lo, hi = (int(x) for x in text.split("-"))
        return tuple(n for n in SIZES if lo <= n <= hi)
    return tuple(int(x) for x in text.split(","))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="12-100")
    ap.add_argument("--days", default=",".join(map(str, DAYS)))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tries", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--time-limit", type=float, default=20.0)
    args = ap.parse_args()
    head = (
        f"{'players':>7} {'days':>4} | {'best':>4} {'reached':>7} | {'bound':>5} {'repeats':>7} {'gap':>6} "
        f"{'winds':>9} {'secs':>6} | {'pantheon':>8} {'winds':>5} | {'shuffle':>7} {'winds':>5} | goal"
    )
    print(head)
    print("-" * len(head))
    for n in sizes_parse(args.sizes):
        best = best_known_days(n)
        players = list(range(n))
        reached = days_reached(players, best, args.seed, args.time_limit)
        for d in (int(x) for x in args.days.split(",")):
            ours = generate(players, d, seed=args.seed, time_limit=args.time_limit)
            pan = pantheon_baseline(players, d, seed=args.seed, iterations=args.iterations)
            base = random_shuffle_baseline(players, d, seed=args.seed, tries=args.tries)
            bound = lower_bound_repeats(n, d)
            gap = "-" if bound == 0 else f"{100 * (ours.repeats - bound) / bound:+.1f}%"
            goals = []
            if reached < best:
                goals.append("short of best known")
            if ours.repeats > bound * 1.10:
                goals.append("not within 10%")
            if ours.wind_imbalance > ours.wind_imbalance_min:
                goals.append("winds")
            if ours.stopped_early:
                goals.append("stopped at the time limit")
            print(
                f"{n:>7} {d:>4} | {best:>4} {reached:>7} | {bound:>5} {ours.repeats:>7} {gap:>6} "
                f"{ours.wind_imbalance:>4} ({ours.wind_imbalance_min:>2}) {ours.seconds:>6.2f} | "
                f"{pan.repeats:>8} {pan.wind_imbalance:>5} | {base.repeats:>7} {base.wind_imbalance:>5} | "
                f"{', '.join(goals) or 'ok'}",
                flush=True,
            )


if __name__ == "__main__":
    main()
