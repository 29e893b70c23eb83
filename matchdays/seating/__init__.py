"""Seating for tables of four: a pure, Django-free generator.

Method (a documented local search, chosen over CP-SAT because the objective is a sum of pair
penalties over whole tables, which CP-SAT models with O(n^2 * tables) booleans per day and solves
slowly at 128 players, while swap moves evaluate in six look-ups each):

1. Build the season day by day.  For a day, the cost of seating two players together is
   the number of times they already met (each earlier meeting counts 1, plus ``consecutive_weight``
   if it was on an adjacent day), plus a large penalty if they must not meet.
2. Improve each day by swapping two players at different tables (players pinned to a table
   never move), alternating two moves: a conflict-directed move (a player who sits with someone
   they met before goes to the best swap partner anywhere, with a short tabu list, as in
   local-search solvers for the social golfer problem) and a random swap accepted by simulated
   annealing.
3. Re-optimise every day against all the other days (earlier *and* later) for a few passes,
   which repairs the greed of step 1.
   Then a tabu search over the whole season at once (:mod:`.tabu`, after Dotú and Van
   Hentenryck's social-golfer search) on the exact figures reported: repeats, meetings on
   adjacent days, pairs kept apart.
   (Step 0, for a power of two from 16 players, with nothing played and nobody pinned: the
   season starts from repeat-free match days built as designs, :mod:`.designs`.)
4. Assign seat winds.  With nothing played, exactly: an edge colouring of the players × tables
   graph gives every player counts that differ by at most one (:mod:`.winds`).  After played
   days, day by day: at each table, the one of the 24 orders that keeps each player's
   East/South/West/North counts most even, given the winds already played.

All randomness comes from ``random.Random(seed)`` and the work is bounded by a fixed move
budget, so a seed gives the same schedule; ``time_limit`` is a safety net that stops early with
the best schedule found (the result then says ``stopped_early``).  It never hangs.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass, field

from .designs import design_days
from .tabu import schedule_improve
from .winds import balanced_winds, winds_given_history

WINDS = ("E", "S", "W", "N")
TABU_STEPS_PER_EFFORT = 500
APART_PENALTY = 1000.0
BYE = "bye"
SUBSTITUTES = "substitutes"


class SeatingError(ValueError):
    """Input the generator cannot work with (too few players, unknown rule, duplicates)."""


@dataclass
class Day:
    tables: list[list]          # each table: four seats E, S, W, N; a player id or None (a substitute seat)
    byes: list = field(default_factory=list)


@dataclass
class Result:
    days: list[Day]
    repeats: int                # sum over pairs of (meetings - 1), counting history and new days
    consecutive_repeats: int    # repeats where the two meetings were on adjacent days
    wind_counts: dict           # player -> [E, S, W, N]
    wind_imbalance: int         # sum over players of (max - min) of their wind counts
    wind_imbalance_min: int     # the least possible: players whose seated days are not a multiple of 4
    unmet: list[str]            # constraints that could not be kept, in words
    stopped_early: bool
    seconds: float


def lower_bound_repeats(n_players: int, n_days: int, leftover: str = BYE) -> int:
    """A floor no schedule of ``n_days`` can beat, with byes or with substitute seats.

    Derivation.  Repeats = Σ over pairs (meetings − 1) = ½ Σ over players p of (m_p − u_p), where
    m_p counts p's meetings (with multiplicity) and u_p ≤ n − 1 the distinct players p met.  So

        repeats ≥ ½ Σ_p max(0, m_p − (n − 1)).

    m_p depends on how often p is short of three table-mates: with byes (r = n mod 4 players sit
    out each day) m_p = 3 (D − y_p) for y_p days out, Σ y_p = r·D; with substitutes (the last
    table seats only r players, each meeting r − 1 others) m_p = 3D − (4 − r) k_p for k_p days at
    the short table, Σ k_p = r·D.  Either way the term max(0, c − a·x_p) is convex in x_p, so
    its sum is least when the x_p are as equal as possible: r·D mod n players take
    ⌈r·D / n⌉ and the rest ⌊r·D / n⌋.  (The count over all pairs, meetings − C(n, 2), is half
    the sum of the same terms without the max, so it is never stronger.)  E.g. 22 players over 10 days
    with substitutes: 20 players meet 28 times, 2 meet 30 times, 21 others each:
    ½ (20·7 + 2·9) = 79; 30 players over 10 days with byes: 10 play all 10 days, meet 30 of 29:
    ½ · 10 = 5.
    """
    n, r = n_players, n_players % 4
    if n < 4 or n_days <= 0:
        return 0
    short = r * n_days                       # byes, or seats at the short table, over the season
    low, high_count = divmod(short, n)       # high_count players take low + 1 of them
    if leftover == BYE:
        def meetings(x: int) -> int:
            return 3 * (n_days - x)
    else:
        def meetings(x: int) -> int:
            return 3 * n_days - (4 - r) * x if r else 3 * n_days
    excess = (high_count * max(0, meetings(low + 1) - (n - 1))
              + (n - high_count) * max(0, meetings(low) - (n - 1)))
    return math.ceil(excess / 2)


def pair_meetings(days: list[Day]) -> dict:
    """(a, b) -> list of day indexes on which a and b shared a table."""
    met: dict = {}
    for d, day in enumerate(days):
        for table in day.tables:
            seated = [p for p in table if p is not None]
            for a, b in itertools.combinations(seated, 2):
                key = (a, b) if repr(a) <= repr(b) else (b, a)
                met.setdefault(key, []).append(d)
    return met


def schedule_figures(days: list[Day], players: list) -> dict:
    """Repeats, consecutive repeats and wind balance of a schedule, computed from the tables alone
    (the figures a reviewer sees; also used after a hand swap)."""
    met = pair_meetings(days)
    repeats = sum(len(v) - 1 for v in met.values())
    consecutive = sum(1 for v in met.values() for x, y in zip(v, v[1:]) if y - x == 1)
    counts = {p: [0, 0, 0, 0] for p in players}
    for day in days:
        for table in day.tables:
            for seat, p in enumerate(table):
                if p is not None:
                    counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    imbalance = sum(max(c) - min(c) for c in counts.values())
    least = sum(1 for c in counts.values() if sum(c) % 4)
    return {"repeats": repeats, "consecutive_repeats": consecutive, "wind_counts": counts,
            "wind_imbalance": imbalance, "wind_imbalance_min": least}


def generate(players: list, n_days: int, *, seed: int = 0, history: list[Day] | None = None,
             leftover: str = BYE, fixed_table: dict | None = None, apart: list | None = None,
             consecutive_weight: float = 1.0, time_limit: float = 10.0, effort: float = 4.0) -> Result:
    """Seat ``players`` for ``n_days`` new match days after the ``history`` days (already played,
    kept as they are).  ``fixed_table``: player -> table number (1-based) on every new day;
    ``apart``: pairs who must not meet.  ``leftover``: BYE (the odd players sit out, in turn) or
    SUBSTITUTES (the last table is filled up with substitute seats, shown as None)."""
    started = time.monotonic()
    deadline = started + max(0.05, float(time_limit))
    history = list(history or [])
    fixed_table = dict(fixed_table or {})
    apart = [tuple(p) for p in (apart or [])]
    if leftover not in (BYE, SUBSTITUTES):
        raise SeatingError(f"unknown leftover rule {leftover!r}: use 'bye' or 'substitutes'")
    if len(set(players)) != len(players):
        raise SeatingError("a player is listed twice")
    if len(players) < 4:
        raise SeatingError("at least four players are needed for a table")
    if n_days < 0:
        raise SeatingError("the number of match days cannot be negative")

    n = len(players)
    index = {p: i for i, p in enumerate(players)}
    rng = random.Random(seed)
    n_tables = n // 4 if leftover == BYE else math.ceil(n / 4)
    n_byes = n % 4 if leftover == BYE else 0
    size = [4] * n_tables
    if leftover == SUBSTITUTES and n % 4:
        size[-1] = n % 4
    unmet: list[str] = []

    # Pins: a player fixed to a table that does not exist, or to a full table, cannot be kept.
    pinned: dict[int, int] = {}
    load = [0] * n_tables
    for p, t in sorted(fixed_table.items(), key=lambda kv: index.get(kv[0], -1)):
        if p not in index:
            unmet.append(f"{p} must sit at table {t}: not among the players")
            continue
        if not isinstance(t, int) or not 1 <= t <= n_tables:
            unmet.append(f"{p} must sit at table {t}: there are only {n_tables} tables")
            continue
        if load[t - 1] >= size[t - 1]:
            unmet.append(f"{p} must sit at table {t}: the table is already full of fixed players")
            continue
        load[t - 1] += 1
        pinned[index[p]] = t - 1
    apart_idx = [(index[a], index[b]) for a, b in apart if a in index and b in index and a != b]
    for a, b in apart:
        if a not in index or b not in index:
            unmet.append(f"{a} and {b} must not meet: not both among the players")

    total_days = len(history) + n_days
    # meet[d] is a list of (a, b) index pairs on day d; history converted once.
    day_tables: list[list[list[int]]] = []   # per day: tables as lists of indexes (no None)
    day_byes: list[list[int]] = []
    for day in history:
        day_tables.append([[index[p] for p in t if p is not None and p in index] for t in day.tables])
        day_byes.append([index[p] for p in day.byes if p in index])
    byes_count = [0] * n
    for bl in day_byes:
        for i in bl:
            byes_count[i] += 1

    def weights_for(d: int, skip_self: bool = True) -> list[list[float]]:
        w = [[0.0] * n for _ in range(n)]
        for d2, tables in enumerate(day_tables):
            if d2 == d:
                continue
            extra = 1.0 + (consecutive_weight if abs(d2 - d) == 1 else 0.0)
            for t in tables:
                for a, b in itertools.combinations(t, 2):
                    w[a][b] += extra
                    w[b][a] += extra
        for a, b in apart_idx:
            w[a][b] += APART_PENALTY
            w[b][a] += APART_PENALTY
        return w

    moves_per_day = int(effort * max(2000, 60 * n))
    stopped = False

    def optimise(tables: list[list[int]], w: list[list[float]], moves: int) -> list[list[int]]:
        nonlocal stopped
        movable = [(ti, si) for ti, t in enumerate(tables) for si, p in enumerate(t) if p not in pinned]
        if len(movable) < 2 or len(tables) < 2:
            return tables

        def table_cost(t):
            return sum(w[a][b] for a, b in itertools.combinations(t, 2))

        cost = sum(table_cost(t) for t in tables)
        best_cost, best = cost, [list(t) for t in tables]
        temp0 = 0.6
        pos = {}
        for ti, si in movable:
            pos[tables[ti][si]] = (ti, si)
        movers = [tables[ti][si] for ti, si in movable]
        tabu: dict[int, int] = {}
        step = 0
        while step < moves:
            if step % 64 == 0 and time.monotonic() > deadline:
                stopped = True
                break
            if step % 2 == 0:
                # conflict-directed move: a player who shares a table with someone they met
                # before moves to the best other table (swap partner chosen over all players);
                # recently moved players are tabu for a few steps, which escapes plateaus
                step += 8
                a = movers[rng.randrange(len(movers))]
                ta, sa = pos[a]
                A = tables[ta]
                wa = w[a]
                if all(wa[x] == 0 for x in A if x != a):
                    continue
                base_a = sum(wa[x] for x in A if x != a)
                best_move, best_delta, ties = None, None, 0
                for b in movers:
                    tb, sb = pos[b]
                    if tb == ta or tabu.get(b, -1) > step:
                        continue
                    B = tables[tb]
                    wb = w[b]
                    delta = -base_a
                    for x in A:
                        if x != a:
                            delta += wb[x]
                    for y in B:
                        if y != b:
                            delta += wa[y] - wb[y]
                    if best_delta is None or delta < best_delta:
                        best_move, best_delta, ties = b, delta, 1
                    elif delta == best_delta:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best_move = b
                if best_move is None:
                    continue
                b = best_move
                tb, sb = pos[b]
                tables[ta][sa], tables[tb][sb] = b, a
                pos[a], pos[b] = (tb, sb), (ta, sa)
                tabu[a] = tabu[b] = step + 8 * 10
                cost += best_delta
                if cost < best_cost - 1e-9:
                    best_cost, best = cost, [list(t) for t in tables]
                continue
            step += 1
            a, b = rng.sample(movers, 2)
            (ta, sa), (tb, sb) = pos[a], pos[b]
            if ta == tb:
                continue
            A, B = tables[ta], tables[tb]
            wa, wb = w[a], w[b]
            delta = 0.0
            for x in A:
                if x != a:
                    delta += wb[x] - wa[x]
            for y in B:
                if y != b:
                    delta += wa[y] - wb[y]
            temp = temp0 * (1 - step / moves) + 1e-9
            if delta <= 0 or rng.random() < math.exp(-delta / temp):
                A[sa], B[sb] = b, a
                pos[a], pos[b] = (tb, sb), (ta, sa)
                cost += delta
                if cost < best_cost - 1e-9:
                    best_cost, best = cost, [list(t) for t in tables]
        return best

    def initial(d: int, byes: list[int]) -> list[list[int]]:
        tables: list[list[int]] = [[] for _ in range(n_tables)]
        for i, t in sorted(pinned.items()):
            if i not in byes:
                tables[t].append(i)
        rest = [i for i in range(n) if i not in pinned and i not in byes]
        rng.shuffle(rest)
        for t in range(n_tables):
            while len(tables[t]) < size[t] and rest:
                tables[t].append(rest.pop())
        return tables

    # Step 0: players numbering a power of two (16 or more), nobody pinned: repeat-free match
    # days by construction (.designs), as far as the design reaches. The design depends on the
    # seed alone, so a season seated one match day at a time (the match-day page) keeps following
    # it for as long as every played day was the design's day; any other history (a substitute,
    # a hand swap, another seed) leaves the days to the search.
    new_start = len(history)
    constructed = None
    if not pinned and n_days:
        design = design_days(n, random.Random(seed))
        if design and _follows(day_tables, design):
            constructed = design[len(history):len(history) + n_days] or None
    if constructed:
        day_tables.extend(constructed)
        day_byes.extend([] for _ in constructed)

    # Step 1+2: day by day.
    for d in range(len(day_tables), total_days):
        byes: list[int] = []
        if n_byes:
            last = set(day_byes[-1]) if day_byes else set()
            order = sorted((i for i in range(n) if i not in pinned),
                           key=lambda i: (byes_count[i], i in last, rng.random()))
            byes = order[:n_byes]
            for i in byes:
                byes_count[i] += 1
        day_byes.append(byes)
        day_tables.append(initial(d, byes))
        w = weights_for(d)
        day_tables[d] = optimise(day_tables[d], w, moves_per_day)

    # Step 3: re-optimise each new day against all the others.
    all_built = constructed is not None and len(constructed) == n_days and not apart_idx
    passes = int(6 * effort) if n_days > 1 and not all_built else 0
    for _ in range(passes):
        for d in range(new_start, total_days):
            if time.monotonic() > deadline:
                stopped = True
                break
            day_tables[d] = optimise(day_tables[d], weights_for(d), moves_per_day // 2)

    # Step 3b: the whole season at once (tabu search, see .tabu), where conflicts remain: the
    # day-by-day passes stall a few repeats short on the hard sizes (32 players over 8 days).
    if n_days and not stopped:
        day_tables[new_start:], stopped = schedule_improve(
            day_tables, first_new=new_start, n=n, pinned=pinned, apart_pairs=apart_idx,
            consecutive_weight=consecutive_weight, apart_penalty=APART_PENALTY, rng=rng,
            steps=int(effort * TABU_STEPS_PER_EFFORT), deadline=deadline)

    # Step 4: winds. Nothing played: exact (.winds, edge colouring). After played days: given
    # the winds already played, table by table.
    new_days = [day_tables[d] for d in range(new_start, total_days)]
    if not history:
        orders = balanced_winds(new_days)
    else:
        counts = [[0, 0, 0, 0] for _ in range(n)]
        for day in history:
            for t in day.tables:
                for s, p in enumerate(t):
                    if p is not None and p in index:
                        counts[index[p]][s] += 1
        orders, winds_stopped = winds_given_history(new_days, counts, rng, deadline)
        stopped = stopped or winds_stopped
    days_out: list[Day] = []
    for k, d in enumerate(range(new_start, total_days)):
        out_tables = [[players[p] if p is not None else None for p in order] for order in orders[k]]
        days_out.append(Day(tables=out_tables, byes=[players[i] for i in day_byes[d]]))

    # Report what could not be kept.
    for d, day in enumerate(days_out, start=1):
        where = {p: ti for ti, t in enumerate(day.tables) for p in t if p is not None}
        for a, b in apart:
            if a in where and b in where and where[a] == where[b]:
                unmet.append(f"match day {d}: {a} and {b} must not meet but share table {where[a] + 1}")
    figures = schedule_figures(history + days_out, players)
    return Result(days=days_out, repeats=figures["repeats"], consecutive_repeats=figures["consecutive_repeats"],
                  wind_counts=figures["wind_counts"], wind_imbalance=figures["wind_imbalance"],
                  wind_imbalance_min=figures["wind_imbalance_min"], unmet=unmet, stopped_early=stopped,
                  seconds=round(time.monotonic() - started, 3))


def _follows(played: list[list[list[int]]], design: list[list[list[int]]]) -> bool:
    """Whether the played days (tables of player indexes) are the design's first days, table for
    table (seat order aside)."""
    if len(played) > len(design):
        return False
    return all({frozenset(t) for t in day} == {frozenset(t) for t in design[d]} for d, day in enumerate(played))


def random_shuffle_baseline(players: list, n_days: int, *, seed: int = 0, tries: int = 200,
                            leftover: str = BYE) -> Result:
    """The common approach in other tools: for each day, shuffle ``tries`` times and keep the
    shuffle with the fewest repeat encounters so far; winds as seated."""
    started = time.monotonic()
    rng = random.Random(seed)
    days: list[Day] = []
    met: dict = {}
    n = len(players)
    n_byes = n % 4 if leftover == BYE else 0
    byes_count = {p: 0 for p in players}
    for _ in range(n_days):
        order = sorted(players, key=lambda p: (byes_count[p], rng.random()))
        byes = order[:n_byes]
        for p in byes:
            byes_count[p] += 1
        seated = [p for p in players if p not in byes]
        best, best_cost = None, None
        for _ in range(tries):
            rng.shuffle(seated)
            tables = [seated[i:i + 4] for i in range(0, len(seated), 4)]
            cost = sum(met.get(frozenset((a, b)), 0) for t in tables for a, b in itertools.combinations(t, 2))
            if best_cost is None or cost < best_cost:
                best, best_cost = [list(t) for t in tables], cost
        for t in best:
            for a, b in itertools.combinations(t, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        days.append(Day(tables=[t + [None] * (4 - len(t)) for t in best], byes=byes))
    figures = schedule_figures(days, players)
    return Result(days=days, repeats=figures["repeats"], consecutive_repeats=figures["consecutive_repeats"],
                  wind_counts=figures["wind_counts"], wind_imbalance=figures["wind_imbalance"],
                  wind_imbalance_min=figures["wind_imbalance_min"], unmet=[], stopped_early=False,
                  seconds=round(time.monotonic() - started, 3))
