"""Seat winds for a whole schedule, as even as they can be: by edge colouring.

Take the bipartite graph of players and tables (a table on a given day), an edge for each seat.
Split each player's seats, in day order, into groups of four (the last group may be smaller) and
let each group be a node of its own.  Every node then has at most four edges, and a bipartite
graph of largest degree four can be coloured with four colours so that no two edges at one node
share a colour (König's theorem).  Read the colours as East, South, West and North: each table
gets four different winds, and each player sits every wind exactly once per full group of four
days, and at most once more in the last group.  So a player's wind counts differ by at most one,
and by none when their days are a multiple of four: the least imbalance possible.

The colouring is the classic alternating-path method: colour the edges one by one; when the
colour free at one end is taken at the other, swap two colours along the alternating path from
that end (in a bipartite graph that path never comes back to the first end).

After played days the counts already differ, so :func:`winds_given_history` seats each new
table with the best of its 24 orders given the winds played so far.
"""

from __future__ import annotations

import itertools
import time

WINDS = 4
ORDERS = list(itertools.permutations(range(WINDS)))


def edge_colouring(edges: list[tuple]) -> list[int]:
    """Colours 0..3 for the edges ``(left node, right node)`` of a bipartite graph whose nodes have
    at most four edges each, no two edges at one node alike."""
    at: dict = {}  # node -> {colour: edge index}
    colour: list[int | None] = [None] * len(edges)
    for i, (u, v) in enumerate(edges):
        at_u, at_v = at.setdefault(u, {}), at.setdefault(v, {})
        a = next(c for c in range(WINDS) if c not in at_u)
        b = next(c for c in range(WINDS) if c not in at_v)
        if a not in at_v:
            c = a
        elif b not in at_u:
            c = b
        else:
            _swap_along_path(edges, colour, at, v, a, b)
            c = a
        colour[i] = c
        at_u[c] = at_v[c] = i
    return colour  # type: ignore[return-value]


def _swap_along_path(edges, colour, at, start, a: int, b: int) -> None:
    """Swap colours a and b on the path from ``start`` that alternates a, b, a, …"""
    path, node, want = [], start, a
    while want in at[node]:
        j = at[node][want]
        path.append(j)
        x, y = edges[j]
        node = y if x == node else x
        want = b if want == a else a
    for j in path:
        for end in edges[j]:
            del at[end][colour[j]]
    for j in path:
        colour[j] = b if colour[j] == a else a
        for end in edges[j]:
            at[end][colour[j]] = j


def balanced_winds(days: list[list[list]]) -> list[list[list]]:
    """``days`` (tables of seated players, ``None`` for an empty seat) with every table's seats
    ordered East, South, West, North so that each player's wind counts differ by at most one."""
    seen: dict = {}
    edges, where = [], []
    for d, tables in enumerate(days):
        for t, table in enumerate(tables):
            for p in table:
                if p is None:
                    continue
                k = seen.get(p, 0)
                seen[p] = k + 1
                edges.append((("player", p, k // WINDS), ("table", d, t)))
                where.append((d, t, p))
    colours = edge_colouring(edges)
    out = [[[None] * WINDS for _ in tables] for tables in days]
    for (d, t, p), c in zip(where, colours):
        out[d][t][c] = p
    return out


def winds_given_history(
    days: list[list[list]], counts: list[list[int]], rng, deadline: float
) -> tuple[list[list[list]], bool]:
    """Seat orders for new ``days`` (tables of player indexes) after played days whose wind
    counts per player are ``counts`` (updated in place): each table takes the one of the 24 orders
    with the least sum of squared counts, first greedily day by day, then re-seated given all the
    others for a few passes. Returns the orders and whether ``deadline`` stopped the passes."""
    orders = [[list(t) + [None] * (WINDS - len(t)) for t in tables] for tables in days]

    def place(order, sign):
        for s, p in enumerate(order):
            if p is not None:
                counts[p][s] += sign

    def best_order(seats):
        # ties broken at random so that repeated passes wander across plateaus instead of
        # stopping at the first local optimum
        best, best_score, ties = None, None, 0
        for perm in ORDERS:
            order = [seats[k] for k in perm]
            score = sum(2 * counts[p][s] + 1 for s, p in enumerate(order) if p is not None)
            if best_score is None or score < best_score:
                best, best_score, ties = order, score, 1
            elif score == best_score:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = order
        return best

    for day in orders:
        for ti, seats in enumerate(day):
            day[ti] = best_order(seats)
            place(day[ti], 1)
    for _ in range(12):
        if time.monotonic() > deadline:
            return orders, True
        for day in orders:
            for ti, seats in enumerate(day):
                place(seats, -1)
                day[ti] = best_order(seats)
                place(day[ti], 1)
    return orders, False
