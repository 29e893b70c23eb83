"""A season in which every pair meets and the repeats are the fewest possible: a resolvable
minimum covering, stored for 24 players (8 match days, 12 repeats).

Over r match days a player sits with 3r others; with r = 8 and 24 players that is 24 seats for
23 opponents, so every player meets someone twice: at least v/2 = 12 repeats over 8 days, and
exactly 12 means every pair meets and the repeated pairs form a perfect matching (*couples*).
The rotational season (:mod:`.rotational`, 7 repeat-free days) leaves each player's two unmet
opponents as triangles; an eighth day seats at most one triangle at a table, 18 repeats.  A
design whose unmet pairs are 4-cycles would give 7 repeat-free days and then 12 (:mod:`.c4leave`),
but none is known for 24.  The covering gives the 12: a season of 8 days or more takes it; a
season of 7 or fewer keeps the rotational design.

Construction (a group acting on the points, as in :mod:`.c4leave`).  Players are (x, r), x in
Z_3 and r in 0 … v/3 − 1, numbered 3r + x; x ↦ x + 1 fixes no player.  The couples are
(x, 2k) and (x, 2k + 1).  A *class* is an orbit of pairs under the group: two players of one row
at difference ±1, or rows r < s at difference y − x (three pairs each).  The days are

* ``f`` *fixed* days, each invariant under the group: its tables come in orbits of three, and a
  table's four players are in four different rows (else the orbit would seat a player twice);
  a fixed day covers each class it touches whole;
* (r − f) / 3 *base* days, each turned round Z_3 (three days each); a pair of a base day covers
  its class once over the three days.

Every class is covered exactly once, a couple class exactly twice.  The count is tight for 24
players (f = 2, two base days): 8 + 84 classes, four of them couples, 96 covers; the fixed days
give 2 × 2 × 6 and the base days 2 × 36.  The search is a SAT problem (:func:`covering_cnf`,
CaDiCaL answers in a second or two), found offline (``python -m matchdays.seating.covering 24``)
and stored, the whole days, in ``coverings.json``; the tests check every pair.

The stored days are in an order where no pair meets on two adjacent days, and of those the one
whose first repeat comes latest: five repeat-free days.  (Six are possible, but then four pairs
meet on two adjacent days in every covering the solver gave; seven would need one day holding a
meeting of every couple, which is the 4-cycle design.)  Also tried and not found: the fixed day holding
every couple (which would be the 4-cycle design), and every couple meeting once on a fixed day —
no answer from CaDiCaL in 60–240 s each.
"""

from __future__ import annotations

import itertools
import os
import random

from .rotational import cnf_solve, cnf_tables, cnf_together, cnf_totalizer
from .stored import stored_read, stored_search_main

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "coverings.json")


def lower_bound(v: int, n_days: int) -> int:
    """The fewest repeats of v players over n_days (the seating's own bound, read when called:
    the package imports this module first)."""
    from . import lower_bound_repeats

    return lower_bound_repeats(v, n_days)


def covering_shape(v: int) -> tuple[int, int] | None:
    """(fixed days, base days) for v players, or None when the form does not apply (v = 3m
    with m even, and each player needs exactly one repeat: 3r = v)."""
    if v % 12 or v < 24:
        return None
    r = v // 3
    fixed = r % 3
    return fixed, (r - fixed) // 3


def covering_cnf(v: int) -> tuple[int, list[list[int]], list[tuple[str, dict]]]:
    """The covering for v players as CNF (DIMACS literals).  Variables: a pair sits together
    on a fixed or base day.  Clauses: "together" is transitive with three table-mates each
    (totalizer counters); a fixed day is invariant and seats no two players of one row; each
    class is covered once, a couple class twice.  Returns (variable count, clauses, the days'
    kinds with their pair -> variable maps)."""
    shape = covering_shape(v)
    if shape is None:
        raise ValueError("the covering form is for v ≡ 0 (mod 12), v ≥ 24")
    n_fixed, n_base = shape
    count = [0]
    clauses: list[list[int]] = []

    def new() -> int:
        count[0] += 1
        return count[0]

    by_class: dict = {}
    days: list[tuple[str, dict]] = []
    for _ in range(n_fixed):
        pair = cnf_together(v, new, clauses)
        days.append(("fixed", pair))
        for a, b in itertools.combinations(range(v), 2):
            if a // 3 == b // 3:
                clauses.append([-pair[a, b]])
                continue
            turned = pair[turn(a), turn(b)]
            clauses.extend([[-pair[a, b], turned], [pair[a, b], -turned]])
            if a % 3 == 0:  # one pair stands for its class
                by_class.setdefault(pair_class(a, b), []).append(pair[a, b])
    for _ in range(n_base):
        pair = cnf_together(v, new, clauses)
        days.append(("base", pair))
        for a, b in itertools.combinations(range(v), 2):
            by_class.setdefault(pair_class(a, b), []).append(pair[a, b])
    for key, lits in by_class.items():
        need = 2 if is_couple_class(key) else 1
        out = cnf_totalizer(lits, need + 1, new, clauses)
        clauses.append([out[need - 1]])
        if len(out) > need:
            clauses.append([-out[need]])
    return count[0], clauses, days


def turn(p: int) -> int:
    """Player (x, r) -> (x + 1, r)."""
    return 3 * (p // 3) + (p % 3 + 1) % 3


def pair_class(a: int, b: int) -> tuple:
    """The orbit of the pair a, b: ("in", row) or ("x", row, row', difference)."""
    (ra, xa), (rb, xb) = divmod(a, 3), divmod(b, 3)
    if ra == rb:
        return ("in", ra)
    if ra > rb:
        ra, xa, rb, xb = rb, xb, ra, xa
    return ("x", ra, rb, (xb - xa) % 3)


def is_couple_class(key: tuple) -> bool:
    """The couples (x, 2k), (x, 2k + 1)."""
    return key[0] == "x" and key[1] % 2 == 0 and key[2] == key[1] + 1 and key[3] == 0


def covering_sat(
    v: int, seconds: float = 600.0, seed: int = 0, solver: str = "cadical"
) -> list[list[list[int]]] | None:
    """The covering's days (:func:`covering_cnf`) from an external SAT solver, in the order of
    :func:`covering_order`, or None."""
    import shutil

    if shutil.which(solver) is None:
        return None
    n_vars, clauses, kinds = covering_cnf(v)
    if seed:
        random.Random(seed).shuffle(clauses)
    true = cnf_solve(n_vars, clauses, seconds=seconds, seed=seed, solver=solver)
    if true is None:
        return None
    days: list[list[list[int]]] = []
    for kind, pair in kinds:
        days.append(cnf_tables(v, pair, true))
        if kind == "base":
            for _ in range(2):
                days.append([[turn(p) for p in t] for t in days[-1]])
    ordered = covering_order(days)
    return ordered if covering_check(v, ordered) else None


def order_score(days: list[list[list[int]]]) -> tuple[int, int]:
    """(− pairs meeting on two adjacent days, repeat-free days from the first): higher is better."""
    return _score([_meetings(day) for day in days])


def _score(met: list[set[frozenset]]) -> tuple[int, int]:
    """:func:`order_score` from each day's meetings."""
    seen: set[frozenset] = set()
    free = 0
    for pairs in met:
        if seen & pairs:
            break
        seen |= pairs
        free += 1
    return -sum(len(a & b) for a, b in itertools.pairwise(met)), free


def _meetings(day: list[list[int]]) -> set[frozenset]:
    return {frozenset(e) for t in day for e in itertools.combinations(t, 2)}


def covering_order(days: list[list[list[int]]]) -> list[list[list[int]]]:
    """The days in the order where fewest pairs meet on two adjacent days (none, for the stored
    one), and of those one whose first repeat comes latest; every order is tried, so only up to
    nine days (the order given beyond)."""
    if len(days) > 9:
        return days
    met = [_meetings(day) for day in days]
    best = max(itertools.permutations(range(len(days))), key=lambda order: _score([met[d] for d in order]))
    return [days[d] for d in best]


def covering_check(v: int, days: list[list[list[int]]]) -> bool:
    """Every day a partition of 0 … v − 1 into tables of four, every pair met, and the repeats
    exactly the least possible over these days."""
    counts: dict[frozenset, int] = {}
    for day in days:
        if sorted(p for t in day for p in t) != list(range(v)) or any(len(t) != 4 for t in day):
            return False
        for e in _meetings(day):
            counts[e] = counts.get(e, 0) + 1
    if len(counts) != v * (v - 1) // 2:
        return False
    return sum(c - 1 for c in counts.values()) == lower_bound(v, len(days))


def stored_coverings() -> dict[int, list[list[list[int]]]]:
    """v -> the covering's days (players 0 … v − 1), as found offline and stored."""
    return stored_read(DATA)


def covering_days(v: int) -> list[list[list[int]]] | None:
    """The stored covering for v players, its days in their stored order; None when none is."""
    days = stored_coverings().get(v)
    return [[list(t) for t in day] for day in days] if days else None


def covering_search(v: int, seconds: float) -> list[list[list[int]]] | None:
    """The solver's first eight seeds (``seconds`` each), the covering with the best order."""
    found = [d for d in (covering_sat(v, seconds=seconds, seed=seed) for seed in range(8)) if d]
    return max(found, key=order_score) if found else None


def main(argv: list[str]) -> None:
    """Search the coverings for the sizes given (``--seconds S`` per seed, 600 by default) and
    store each found in ``coverings.json`` at once."""
    stored_search_main(argv, DATA, covering_search, 600.0)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
