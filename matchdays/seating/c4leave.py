"""Repeat-free seasons whose leave is a 4-cycle factor, so that one more match day meets the bound.

For v ≡ 0 (mod 12) players the most repeat-free days is (v − 3)/3, and each player then misses
exactly two others.  The rotational seasons of :mod:`.rotational` leave each player's two unmet
partners as a triangle; a day after them seats at most one leave triangle at a table (three new
pairs, three repeated), 3v/4 repeats.  The lower bound for that day is one repeat per player,
v/2.  If instead the unmet pairs form disjoint 4-cycles (a *C4-factor*), the extra day seats
each 4-cycle at one table: its four cycle edges are new and only its two diagonals are
repeated, v/2 repeats, the bound.

Construction (a cyclic group acting on the points, as in the 1-rotational method of
:mod:`.rotational`; here the group fixes no point).  Write v = 4n and the players as (x, i),
x in Z_n, i in {0, 1, 2, 3}, player number 4x + i; the 4-cycles are
(x, 0) − (x, 1) − (x, 2) − (x, 3) − (x, 0), i.e. players 4x … 4x + 3, invariant under
x ↦ x + 1.  The (4n − 3)/3 days are

* one *base day* B developed over Z_n (n days: B + g, g in Z_n);
* f = (n − 3)/3 *fixed* days, each a union of orbits of tables: a *transversal*
  {(a_0, 0), (a_1, 1), (a_2, 2), (a_3, 3)} developed over Z_n; and for n even one *half* day
  whose tables {(x, 0), (x + n/2, 0), (x + a, 2), (x + a + n/2, 2)} and the like on classes 1, 3
  (x < n/2) cover the pairs at difference n/2 inside a class, which B cannot (they would meet
  twice as B turns).

A pair (x, i), (y, j) has the *difference* y − x (i < j; inside a class ±(y − x)); each
difference other than the four leave ones (classes i, i + 1 mod 4 at difference 0) must be used
exactly once by B or a fixed day, and then every pair but the 4-cycles' meets exactly once.
The count is tight (n = 6: B's 36 pairs and the half day's; n = 9: 54 and two transversals'
six each).  The search is a SAT problem (:func:`c4_cnf`) for CaDiCaL, found offline
(``python -m matchdays.seating.c4leave 36``) and stored, the whole days, in
``c4_designs.json``; the tests check every pair.  B is also asked not to use the diagonals'
differences ((0, 2) and (1, 3) at difference 0), so that they meet on a fixed day and the
extra day can follow an orbit day without a pair meeting on adjacent days.

Found (CaDiCaL, Debian's ``cadical`` sc2021, on two shared cores): 36 players (n = 9, two
transversal days and B) in 85 s.  Not found:

* 24 players (n = 6): this form is unsatisfiable (CaDiCaL proves it at once), with either
  pairing of the classes on the half day, with the diagonals free or not, and also for the
  *twisted* leave (:func:`leave_keys`).  Without the cyclic form, as plain SAT (a variable per
  day and pair, "together" transitive, three table-mates a day, every pair but the 4-cycles'
  once; day 1 fixed, the days ordered by player 0's lowest table-mate): no answer in 5 minutes
  for either first day tried (every diagonal on day 1, or tables across four 4-cycles).  With
  an automorphism of order 3 permuting the 4-cycles in two triples (days fixed or in threes:
  1 + 3 + 3, 4 + 3 or all 7 fixed; 29 first days in all), or one of order 4 turning every
  4-cycle round (x ↦ x + 1 on each; five actions on the days, the first day a transversal
  orbit and a pair of diagonal tables): unsatisfiable at once every time.  With the involution
  x ↦ x + 2 on each 4-cycle (eight actions on the days and first days): six unsatisfiable, the
  others no answer in 1 and 7 minutes.  Whether 24 players
  have such a design at all is open here; a season of 8 days takes the covering of
  :mod:`.covering` instead (12 repeats, the bound, but five repeat-free days first, not seven).
* 48 players (n = 12, a half day, two transversals and B): no answer in 9 minutes.  (Not
  needed for seasons of up to 15 days.)
"""

from __future__ import annotations

import itertools
import os
import random

from .rotational import cnf_solve, cnf_tables, cnf_together
from .stored import stored_read, stored_search_main

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "c4_designs.json")


def fixed_days(n: int) -> tuple[int, bool] | None:
    """(transversal days, whether a half day) for v = 4n players, or None when v ≢ 0 (mod 12)."""
    if n % 3 or n < 6:
        return None
    f = (n - 3) // 3
    return (f - 1, True) if n % 2 == 0 else (f, False)


def leave_keys(n: int, twisted: bool = False) -> set[tuple]:
    """The differences of the unmet pairs: classes i, i + 1 (mod 4) at difference 0 (the
    4-cycles (x, 0) − (x, 1) − (x, 2) − (x, 3)), or, ``twisted`` (n even), classes 0, 1 and
    2, 3 at differences 0 and n/2 (the 4-cycles (x, 0) − (x, 1) − (x + n/2, 0) − (x + n/2, 1)
    and the like on classes 2, 3)."""
    if twisted:
        return {("x", i, i + 1, d) for i in (0, 2) for d in (0, n // 2)}
    return {("x", i, (i + 1) % 4, 0) if i < 3 else ("x", 0, 3, 0) for i in range(4)}


def _keys(n: int, twisted: bool = False) -> list[tuple]:
    """Every difference that must be used exactly once (the leave and n/2 inside a class left out)."""
    keys: list[tuple] = [("in", i, d) for i in range(4) for d in range(1, (n + 1) // 2)]
    keys += [("x", i, j, d) for i, j in itertools.combinations(range(4), 2) for d in range(n)]
    return [key for key in keys if key not in leave_keys(n, twisted)]


def pair_key(n: int, a: int, b: int) -> tuple | None:
    """The difference of players a, b (numbered 4x + i); None for a pair at difference 0 or
    n/2 inside a class."""
    (xa, ia), (xb, ib) = divmod(a, 4), divmod(b, 4)
    if ia == ib:
        d = (xb - xa) % n
        d = min(d, n - d)
        return None if 2 * d == n or d == 0 else ("in", ia, d)
    if ia > ib:
        xa, ia, xb, ib = xb, ib, xa, ia
    return ("x", ia, ib, (xb - xa) % n)


HALF_PAIRINGS = (((0, 2), (1, 3)), ((0, 1), (2, 3)))


def c4_cnf(
    v: int, diagonals_fixed: bool = True, pairing: tuple = HALF_PAIRINGS[0], twisted: bool = False
) -> tuple[int, list[list[int]], dict, dict]:
    """The design for v = 4n players as CNF (DIMACS literals).  Variables: a pair of players
    sits together in B; a transversal's class-i point is (x, i) (one of n; class 0 at x = 0, as
    a fixed day may be translated); the half day's a (mod n/2) for classes 0, 2 and 1, 3.
    Clauses: "together in B" is transitive with three table-mates each (totalizer counters), and
    every difference of :func:`_keys` is used by exactly one pair of B or fixed day.  Returns
    (variable count, clauses, pair -> variable, ("t", k, i, x) / ("h", c, a) -> variable)."""
    n = v // 4
    shape = fixed_days(n)
    if v % 4 or shape is None:
        raise ValueError("the C4-leave form is for v ≡ 0 (mod 12), v ≥ 24")
    n_trans, half = shape
    count = [0]
    clauses: list[list[int]] = []

    def new() -> int:
        count[0] += 1
        return count[0]

    def exactly_one(lits: list[int]) -> None:
        clauses.append(list(lits))
        clauses.extend([-x, -y] for x, y in itertools.combinations(lits, 2))

    pair = cnf_together(v, new, clauses)
    by_key: dict = {key: [] for key in _keys(n, twisted)}
    diagonals: list[tuple] = [("in", i, n // 2) for i in range(4)] if twisted else [("x", 0, 2, 0), ("x", 1, 3, 0)]
    for a, b in itertools.combinations(range(v), 2):
        key = pair_key(n, a, b)
        if key not in by_key or (diagonals_fixed and key in diagonals):
            clauses.append([-pair[a, b]])
        else:
            by_key[key].append(pair[a, b])
    fixed: dict = {}
    for k in range(n_trans):
        for i in range(4):
            lits = [new() for _ in range(n)]
            for x, lit in enumerate(lits):
                fixed["t", k, i, x] = lit
            exactly_one(lits)
        clauses.append([fixed["t", k, 0, 0]])
        for i, j in itertools.combinations(range(4), 2):
            for d in range(n):
                key = ("x", i, j, d)
                z = new()
                for x in range(n):
                    xi, xj = fixed["t", k, i, x], fixed["t", k, j, (x + d) % n]
                    clauses += [[-xi, -xj, z], [-z, -xi, xj]]
                if key in by_key:
                    by_key[key].append(z)
                else:
                    clauses.append([-z])
    if half:
        m = n // 2
        for c, (i, j) in enumerate(pairing):
            lits = [new() for _ in range(m)]
            for a, lit in enumerate(lits):
                fixed["h", c, a] = lit
            exactly_one(lits)
            for a, lit in enumerate(lits):
                for d in (a, a + m):
                    if ("x", i, j, d) in by_key:
                        by_key["x", i, j, d].append(lit)
                    else:
                        clauses.append([-lit])
    for lits in by_key.values():
        exactly_one(lits)
    return count[0], clauses, pair, fixed


def c4_sat(v: int, seconds: float = 600.0, seed: int = 0, solver: str = "cadical") -> list[list[list[int]]] | None:
    """The days of the design (:func:`c4_cnf`) from an external SAT solver, or None."""
    import shutil

    if shutil.which(solver) is None:
        return None
    n = v // 4
    n_vars, clauses, pair, fixed = c4_cnf(v)
    if seed:
        random.Random(seed).shuffle(clauses)
    true = cnf_solve(n_vars, clauses, seconds=seconds, seed=seed, solver=solver)
    if true is None:
        return None
    base = cnf_tables(v, pair, true)

    def point(x: int, i: int) -> int:
        return 4 * (x % n) + i

    days = []
    for key, lit in sorted(fixed.items()):
        if key[0] == "h" and lit in true and key[1] == 0:
            a = key[2]
            b = next(k[2] for k, lt in fixed.items() if k[:2] == ("h", 1) and lt in true)
            m = n // 2
            days.append(
                [[point(x, 0), point(x + m, 0), point(x + a, 2), point(x + a + m, 2)] for x in range(m)]
                + [[point(x, 1), point(x + m, 1), point(x + b, 3), point(x + b + m, 3)] for x in range(m)]
            )
    n_trans, _ = fixed_days(n) or (0, False)
    for k in range(n_trans):
        start = [next(x for x in range(n) if fixed["t", k, i, x] in true) for i in range(4)]
        days.append([[point(x + start[i], i) for i in range(4)] for x in range(n)])
    for g in range(n):
        days.append([[point(p // 4 + g, p % 4) for p in t] for t in base])
    return days if design_check(v, days) else None


def leave(v: int) -> list[tuple[int, int]]:
    """The 4-cycles' edges: 4x + i with 4x + (i + 1 mod 4)."""
    return [(4 * x + i, 4 * x + (i + 1) % 4) for x in range(v // 4) for i in range(4)]


def design_check(v: int, days: list[list[list[int]]]) -> bool:
    """Every day a partition of 0 … v − 1 into tables of four, and over the days every pair met
    exactly once except the 4-cycles' edges, never met."""
    met: set[frozenset] = set()
    for day in days:
        if sorted(p for t in day for p in t) != list(range(v)) or any(len(t) != 4 for t in day):
            return False
        for t in day:
            for a, b in itertools.combinations(t, 2):
                if frozenset((a, b)) in met:
                    return False
                met.add(frozenset((a, b)))
    unmet = {frozenset(p) for p in itertools.combinations(range(v), 2)} - met
    return unmet == {frozenset(e) for e in leave(v)}


def stored_c4_designs() -> dict[int, list[list[list[int]]]]:
    """v -> the design's days (players 0 … v − 1), as found offline and stored."""
    return stored_read(DATA)


def extra_day(v: int) -> list[list[int]]:
    """The day after the design: each 4-cycle at a table."""
    return [[4 * x + i for i in range(4)] for x in range(v // 4)]


def c4_days(v: int) -> list[list[list[int]]] | None:
    """The stored design's (v − 3)/3 days, the fixed days first and an orbit day last (no
    diagonal of a 4-cycle meets there), then :func:`extra_day`; None when none is stored."""
    days = stored_c4_designs().get(v)
    return [*days, extra_day(v)] if days else None


def main(argv: list[str]) -> None:
    """Search the designs for the sizes given (``--seconds S`` per size, 600 by default) and
    store each found in ``c4_designs.json`` at once."""
    stored_search_main(argv, DATA, lambda v, seconds: c4_sat(v, seconds=seconds, seed=0), 600.0)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
