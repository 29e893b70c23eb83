"""Whole-season tabu search: the seating's last step, on every new match day at once.

After Dotú and Van Hentenryck, "Scheduling Social Golfers Locally" (CPAIOR 2005), the local
search that solves the social golfer problem (the same problem: tables of four, nobody meeting
twice) where day-by-day methods stall a few repeats short.  The state is the whole schedule; a
move swaps two players at different tables of one match day; its cost change is exact and needs
twelve look-ups, because a swap only changes the eight pairs that the two players form with
their two tables:

    cost = Σ over pairs max(0, meetings − 1)                     (repeat encounters)
         + consecutive_weight × Σ pairs meeting on adjacent days
         + APART_PENALTY × Σ meetings of pairs who must not meet

Each step takes the best swap of a player in conflict on one match day (ties broken at random),
except swaps that recently moved either player on that day (tabu), unless the swap beats the best
schedule found (aspiration).  After a long run without improvement the search restarts from the
best schedule with a few random swaps.  The work is a fixed number of steps, so a seed always
gives the same schedule; it stops at once when no conflict is left, or at the deadline.
"""

from __future__ import annotations

import time

SAMPLE = 6


def _pairs(table):
    for i, a in enumerate(table):
        for b in table[i + 1 :]:
            yield a, b


class Schedule:
    """Match days as tables of player indexes (days before ``first_new`` are played and fixed)."""

    def __init__(
        self, days, first_new: int, n: int, pinned, apart_pairs, consecutive_weight: float, apart_penalty: float
    ):
        self.days = [[list(t) for t in tables] for tables in days]
        self.first_new = first_new
        self.n = n
        self.pinned = set(pinned)
        self.cw = consecutive_weight
        self.apart_penalty = apart_penalty
        self.apart = [[False] * n for _ in range(n)]
        for a, b in apart_pairs:
            self.apart[a][b] = self.apart[b][a] = True
        self.table_of = [[-1] * n for _ in self.days]
        self.meetings = [[0] * n for _ in range(n)]
        for d, tables in enumerate(self.days):
            for ti, table in enumerate(tables):
                for p in table:
                    self.table_of[d][p] = ti
                for a, b in _pairs(table):
                    self.meetings[a][b] += 1
                    self.meetings[b][a] += 1
        self.cost = self._cost()

    def _met(self, d: int, a: int, b: int) -> bool:
        if 0 <= d < len(self.days):
            t = self.table_of[d][a]
            return t >= 0 and t == self.table_of[d][b]
        return False

    def _cost(self) -> float:
        m, cost = self.meetings, 0.0
        for a in range(self.n):
            for b in range(a + 1, self.n):
                if m[a][b] > 1:
                    cost += m[a][b] - 1
                if self.apart[a][b]:
                    cost += self.apart_penalty * m[a][b]
        for d in range(len(self.days) - 1):
            for table in self.days[d]:
                for a, b in _pairs(table):
                    if self._met(d + 1, a, b):
                        cost += self.cw
        return cost

    def _pair_cost(self, d: int, a: int, b: int, adding: bool) -> float:
        """What the pair (a, b) sitting together on day d adds to the cost (``adding``: with the
        meeting counts as they are before it sits; otherwise as they are while it sits)."""
        already = self.meetings[a][b] - (0 if adding else 1)
        cost = 1.0 if already >= 1 else 0.0
        if self.cw:
            cost += self.cw * (self._met(d - 1, a, b) + self._met(d + 1, a, b))
        if self.apart[a][b]:
            cost += self.apart_penalty
        return cost

    def swap_delta(self, d: int, a: int, b: int) -> float:
        tables, tof = self.days[d], self.table_of[d]
        A, B = tables[tof[a]], tables[tof[b]]
        delta = 0.0
        for x in A:
            if x != a:
                delta += self._pair_cost(d, b, x, True) - self._pair_cost(d, a, x, False)
        for y in B:
            if y != b:
                delta += self._pair_cost(d, a, y, True) - self._pair_cost(d, b, y, False)
        return delta

    def swap(self, d: int, a: int, b: int, delta: float) -> None:
        tables, tof = self.days[d], self.table_of[d]
        ta, tb = tof[a], tof[b]
        A, B = tables[ta], tables[tb]
        for leaving, joining, mates in ((a, b, A), (b, a, B)):
            for x in mates:
                if x != leaving:
                    self._meet(leaving, x, -1)
                    self._meet(joining, x, +1)
        A[A.index(a)], B[B.index(b)] = b, a
        tof[a], tof[b] = tb, ta
        self.cost += delta

    def _meet(self, a: int, b: int, step: int) -> None:
        self.meetings[a][b] += step
        self.meetings[b][a] += step

    def in_conflict(self, d: int, a: int) -> bool:
        for x in self.days[d][self.table_of[d][a]]:
            if x != a and (
                self.meetings[a][x] > 1
                or self.apart[a][x]
                or (self.cw and (self._met(d - 1, a, x) or self._met(d + 1, a, x)))
            ):
                return True
        return False

    def snapshot(self):
        return [[list(t) for t in tables] for tables in self.days[self.first_new :]]


def schedule_improve(
    days,
    *,
    first_new: int,
    n: int,
    pinned,
    apart_pairs,
    consecutive_weight: float,
    apart_penalty: float,
    rng,
    steps: int,
    deadline: float,
    stall: int = 400,
    kick: int = 3,
    held: dict | None = None,
) -> tuple[list, bool]:
    """The new days (``days[first_new:]``) improved by the tabu search; returns them and whether
    the deadline stopped the search.  ``held``: day -> players who stay at their table that day
    (the short table's, whose turn it is)."""
    s = Schedule(days, first_new, n, pinned, apart_pairs, consecutive_weight, apart_penalty)
    new_days = range(first_new, len(s.days))
    held = held or {}
    movers = {d: [p for t in s.days[d] for p in t if p not in s.pinned and p not in held.get(d, ())] for d in new_days}
    best_cost, best = s.cost, s.snapshot()
    tabu: dict[tuple[int, int], int] = {}
    since_best, stopped = 0, False
    for step in range(steps):
        if best_cost <= 1e-9:
            break
        if step % 32 == 0 and time.monotonic() > deadline:
            stopped = True
            break
        conflicted = [(d, a) for d in new_days for a in movers[d] if s.in_conflict(d, a)]
        if not conflicted:
            break
        move, move_delta, ties = None, None, 0
        for d, a in rng.sample(conflicted, min(len(conflicted), SAMPLE)):
            ta = s.table_of[d][a]
            for b in movers[d]:
                if s.table_of[d][b] == ta:
                    continue
                delta = s.swap_delta(d, a, b)
                if (tabu.get((d, a), -1) > step or tabu.get((d, b), -1) > step) and s.cost + delta >= best_cost - 1e-9:
                    continue
                if move_delta is None or delta < move_delta - 1e-9:
                    move, move_delta, ties = (d, a, b), delta, 1
                elif abs(delta - move_delta) <= 1e-9:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        move = (d, a, b)
        if move is not None:
            d, a, b = move
            s.swap(d, a, b, move_delta)
            tenure = step + 4 + rng.randrange(8)
            tabu[(d, a)] = tabu[(d, b)] = tenure
        if s.cost < best_cost - 1e-9:
            best_cost, best, since_best = s.cost, s.snapshot(), 0
            continue
        since_best += 1
        if since_best >= stall:  # stuck: start again from the best schedule, shaken a little
            s = Schedule(days[:first_new] + best, first_new, n, pinned, apart_pairs, consecutive_weight, apart_penalty)
            for _ in range(kick):
                d = rng.choice(list(new_days))
                if len(movers[d]) < 2:
                    continue
                a, b = rng.sample(movers[d], 2)
                if s.table_of[d][a] != s.table_of[d][b]:
                    s.swap(d, a, b, s.swap_delta(d, a, b))
            tabu.clear()
            since_best = 0
    return best, stopped
