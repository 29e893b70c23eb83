"""More repeat-free days for v = 4q players, q odd: a base day turned round Z_q, and fixed days.

The resolvable transversal design (:func:`.designs.transversal_days`) seats 4q players in four
rows of q for q days, and then stops: every pair from different rows has met, and a row of q (q
odd) cannot be seated in fours by itself.  Where no 1-rotational base day is stored (68 players:
⌊67/3⌋ = 22 days would need a 4-RGDD of type 2^34; 92: of type 2^46, not known), this form
goes further:

* Players (r, x): row r in {0, 1, 2, 3}, x in Z_q; player r·q + x.
* A **base day** seats everyone, and day g (g = 0 … q − 1) adds g to every x: q days.
* A **fixed day** is a transversal table {(0, 0), (1, c1), (2, c2), (3, c3)} with its q shifts,
  which seat everyone at once: each is one day more.
* Two players meet on these days once per *class* of their pair: inside a row the difference
  ±(x' − x), across rows r < r' the difference x' − x.  A base day's table covers the classes
  of its six pairs on the q turned days, a fixed day the six across-row classes c_r' − c_r.  So
  the days are repeat-free exactly when no class is covered twice (:func:`cyclic_cost` = 0).
* Counting: 2(q − 1) classes inside rows and 6q across, 8q − 2 in all; the base day covers 6q
  of them, each fixed day 6 more.  So at most ⌊(q − 1)/3⌋ fixed days and q + ⌊(q − 1)/3⌋ days
  in all, which is ⌊(v − 1)/3⌋, the most any season has (68: 17 + 5 = 22).  When every class
  but two is covered the unmet pairs form a perfect matching: the design is then a 4-RGDD of
  type 2^(2q).

A seeded annealing search (:func:`cyclic_anneal`: swaps between the base day's tables, and
moves of a fixed day's offsets, cost = classes covered twice) finds a base day with no fixed
day in seconds.  ``python -m matchdays.seating.cyclic 68 92`` searches with more and more fixed
days and stores the longest design found in ``cyclic.json``; the tests develop every stored
design and count the meetings.  Found (issue 23, two shared cores): 68, two fixed days (19
days), three not in 4 × 150 s nor in a further 25 minutes; 92, three fixed days (26 days)
within 45 s, four not in 4 × 150 s nor in a further 10 minutes.  For 68 with all five fixed
days, the form as SAT gave CaDiCaL no answer in 30 minutes, and annealing stalled at 5 classes
covered twice.  With the base day also fixed by (r, x) ↦ (π(r), λx), π keeping the row pairs
{0, 1}, {2, 3}: 37 of the 39 choices are unsatisfiable within 16 s; the two with λ = 1 that
exchange the pairs (one is x ↦ x + 17 on Z_34) gave no answer in 60 s and 25 minutes.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import random
import time

from .stored import stored_read, stored_search_main

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cyclic.json")
ROWS = 4


def cyclic_shape(v: int) -> int | None:
    """q for v = 4q players with q odd and at least 5, else None."""
    q, rest = divmod(v, ROWS)
    return q if not rest and q % 2 and q >= 5 else None


def most_fixed_days(q: int) -> int:
    """The most fixed days the classes leave room for: ⌊(q − 1)/3⌋."""
    return (q - 1) // 3


@functools.cache
def class_table(q: int) -> tuple[tuple[int, ...], ...]:
    """[a][b] -> the index of the class of the pair of players a, b (a ≠ b): inside row r the
    difference d = min(±(x' − x)) at r·(q − 1)/2 + d − 1; across rows r < r' the difference
    x' − x after the 2(q − 1) classes inside rows."""
    half = (q - 1) // 2
    across = {pair: ROWS * half + k * q for k, pair in enumerate(itertools.combinations(range(ROWS), 2))}
    table = []
    for a in range(ROWS * q):
        (ra, xa), row = divmod(a, q), []
        for b in range(ROWS * q):
            rb, xb = divmod(b, q)
            if a == b:
                row.append(-1)
            elif ra == rb:
                d = (xb - xa) % q
                row.append(ra * half + min(d, q - d) - 1)
            elif ra < rb:
                row.append(across[ra, rb] + (xb - xa) % q)
            else:
                row.append(across[rb, ra] + (xa - xb) % q)
        table.append(tuple(row))
    return tuple(table)


def fixed_classes(q: int, offsets: list[int]) -> list[int]:
    """The six classes a fixed day with offsets (c1, c2, c3) covers."""
    c = [0, *offsets]
    table = class_table(q)
    return [table[i * q + c[i]][j * q + c[j]] for i, j in itertools.combinations(range(ROWS), 2)]


def class_counts(q: int, base: list[list[int]], fixed: list[list[int]]) -> list[int]:
    """How often the design covers each class."""
    table = class_table(q)
    counts = [0] * (8 * q - 2)
    for t in base:
        for a, b in itertools.combinations(t, 2):
            counts[table[a][b]] += 1
    for offsets in fixed:
        for k in fixed_classes(q, offsets):
            counts[k] += 1
    return counts


def cyclic_cost(q: int, base: list[list[int]], fixed: list[list[int]]) -> int:
    """Classes covered more than once, with multiplicity: 0 exactly when the days are
    repeat-free."""
    return sum(max(0, c - 1) for c in class_counts(q, base, fixed))


def developed_days(q: int, base: list[list[int]], fixed: list[list[int]]) -> list[list[list[int]]]:
    """The q turned base days, then one day per fixed day."""

    def shifted(p: int, g: int) -> int:
        return p - p % q + (p % q + g) % q

    days = [[[shifted(p, g) for p in t] for t in base] for g in range(q)]
    return days + [fixed_day(q, offsets) for offsets in fixed]


def fixed_day(q: int, offsets: list[int]) -> list[list[int]]:
    """The q tables {(0, g), (1, c1 + g), (2, c2 + g), (3, c3 + g)} of a fixed day."""
    c = [0, *offsets]
    return [[i * q + (c[i] + g) % q for i in range(ROWS)] for g in range(q)]


def stored_designs() -> dict[int, dict]:
    """v -> {"base": tables, "fixed": offsets}, as found offline and stored."""
    return stored_read(DATA)


def cyclic_days(v: int) -> list[list[list[int]]] | None:
    """The stored design's days for v players, or None when none is stored."""
    q, design = cyclic_shape(v), stored_designs().get(v)
    return developed_days(q, design["base"], design["fixed"]) if q and design else None


def cyclic_anneal(q: int, n_fixed: int, seconds: float, seed: int = 0) -> dict | None:
    """A base day and ``n_fixed`` fixed days with no class covered twice, or None when the
    annealing does not reach one within ``seconds``.  The temperature falls from 1 to 0.1 by
    0.5 % every thousand moves, then starts again at 1."""
    rng = random.Random(seed)
    table, n = class_table(q), ROWS * q
    players = list(range(n))
    rng.shuffle(players)
    base = [players[i : i + ROWS] for i in range(0, n, ROWS)]
    fixed = [[rng.randrange(q) for _ in range(ROWS - 1)] for _ in range(n_fixed)]
    counts = class_counts(q, base, fixed)
    cost = sum(max(0, c - 1) for c in counts)
    where = {p: i for i, t in enumerate(base) for p in t}
    deadline = time.monotonic() + seconds
    steps, temperature = 0, 1.0

    def change(classes: list[int], by: int) -> int:
        delta = 0
        for k in classes:
            before = counts[k]
            counts[k] += by
            delta += max(0, counts[k] - 1) - max(0, before - 1)
        return delta

    while cost:
        steps += 1
        if steps % 1000 == 0:
            if time.monotonic() > deadline:
                return None
            temperature = temperature * 0.995 if temperature > 0.1 else 1.0
        if n_fixed and rng.random() < 0.1:
            f, j = rng.randrange(n_fixed), rng.randrange(ROWS - 1)
            new = fixed[f].copy()
            new[j] = rng.randrange(q)
            out, into = fixed_classes(q, fixed[f]), fixed_classes(q, new)
            delta = change(out, -1) + change(into, 1)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                fixed[f], cost = new, cost + delta
            else:
                change(into, -1)
                change(out, 1)
            continue
        a, b = rng.randrange(n), rng.randrange(n)
        ta, tb = where[a], where[b]
        if ta == tb:
            continue
        rest_a = [p for p in base[ta] if p != a]
        rest_b = [p for p in base[tb] if p != b]
        out = [table[a][p] for p in rest_a] + [table[b][p] for p in rest_b]
        into = [table[b][p] for p in rest_a] + [table[a][p] for p in rest_b]
        delta = change(out, -1) + change(into, 1)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            base[ta], base[tb] = [*rest_a, b], [*rest_b, a]
            where[a], where[b] = tb, ta
            cost += delta
        else:
            change(into, -1)
            change(out, 1)
    return {"base": base, "fixed": fixed}


def cyclic_search(v: int, seconds: float) -> dict | None:
    """The design with most fixed days found, trying 0, 1, 2 … fixed days (``seconds`` each,
    seeds 0 … 3 in turn) and stopping at the first count none of the seeds reaches."""
    q = cyclic_shape(v)
    if not q:
        return None
    best = None
    for n_fixed in range(most_fixed_days(q) + 1):
        found = next((d for d in (cyclic_anneal(q, n_fixed, seconds / 4, seed) for seed in range(4)) if d), None)
        if not found:
            break
        best = found
    return best


def main(argv: list[str]) -> None:
    """Search the designs for the sizes given (``--seconds S`` per count of fixed days, 600 by
    default) and store each found in ``cyclic.json`` at once."""
    stored_search_main(argv, DATA, cyclic_search, 600.0)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
