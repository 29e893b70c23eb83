"""A repeat-free season by construction when the players number a power of four (16, 64, 256).

The lines of the affine space AG(k, 4) over the field of four elements are sets of four points;
the lines sharing a direction split the 4^k points into tables, and two points lie on exactly
one line.  So each direction is a match day and no two players ever meet twice: (4^k − 1) / 3
match days (5 for 16 players, 21 for 64, 85 for 256), the resolvable design behind the social
golfer problem's known solutions.  Local search only approaches it at these sizes (64 players
over 16 days stalled at 1–4 repeats); the construction is exact and instant.
"""

from __future__ import annotations

import itertools

# GF(4) = {0, 1, x, x + 1} coded 0..3: addition is XOR; multiplication by the table below.
_MUL = [[0, 0, 0, 0],
        [0, 1, 2, 3],
        [0, 2, 3, 1],
        [0, 3, 1, 2]]


def dimension(n_players: int) -> int | None:
    """k when ``n_players`` is 4^k (k ≥ 2), else None."""
    k, n = 0, n_players
    while n > 1 and n % 4 == 0:
        n //= 4
        k += 1
    return k if n == 1 and k >= 2 else None


def days_available(n_players: int) -> int:
    k = dimension(n_players)
    return 0 if k is None else (n_players - 1) // 3


def affine_days(k: int) -> list[list[list[int]]]:
    """Every parallel class of AG(k, 4) as a match day: tables of four point indexes (a point's
    base-4 digits are its coordinates)."""
    n = 4 ** k
    points = list(itertools.product(range(4), repeat=k))
    index = {p: i for i, p in enumerate(points)}
    directions = [v for v in points if any(v) and v[next(i for i, c in enumerate(v) if c)] == 1]
    days = []
    for v in directions:
        seen, tables = set(), []
        for i in range(n):
            if i in seen:
                continue
            line = [index[tuple(p ^ _MUL[t][c] for p, c in zip(points[i], v))] for t in range(4)]
            seen.update(line)
            tables.append(line)
        days.append(tables)
    return days


def repeat_free_days(n_players: int, n_days: int, rng) -> list[list[list[int]]] | None:
    """``n_days`` repeat-free match days for players 0..n-1 (a random choice of the parallel
    classes and a random labelling, from ``rng``), or None when the construction does not
    reach: the player count is not a power of four, or more days are asked than it has."""
    k = dimension(n_players)
    if k is None or not 0 < n_days <= days_available(n_players):
        return None
    classes = affine_days(k)
    rng.shuffle(classes)
    label = list(range(n_players))
    rng.shuffle(label)
    return [[[label[p] for p in table] for table in day] for day in classes[:n_days]]
