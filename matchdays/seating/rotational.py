"""Repeat-free seasons of ⌊(v − 1)/3⌋ match days from one base day turned round a cyclic group.

The construction (the "1-rotational" method of design theory: Anderson, *Combinatorial Designs
and Tournaments*, ch. 7; Buratti, "1-rotational Steiner 2-designs", and Abel, Buratti and Ge's
tables of resolvable designs in the CRC Handbook of Combinatorial Designs, 2nd ed., §II.7):

* Write the number of players v as 3q + k with k ∈ {1, 2, 3} ∞ players: v ≡ 4 (mod 12) gives
  k = 1 (28 = 3·9 + 1, 40 = 3·13 + 1, 100 = 3·33 + 1), v ≡ 8 gives k = 2 (32 = 3·10 + 2),
  v ≡ 0 gives k = 3 (24 = 3·7 + 3, 36 = 3·11 + 3).  The other 3q players are the pairs
  (x, c): x in Z_q, c in three classes {0, 1, 2}.
* A *base day* seats everyone: each ∞ player with one player of each class, the rest in fours.
* Day g (g = 0 … q − 1) adds g to every x and leaves the ∞ players where they are.  That gives
  q = ⌊(v − 1)/3⌋ days, the most any season can have without a repeat (a player meets three
  others a day and there are v − 1 others).
* Two players of classes c ≤ c' meet on day g when a pair of the base day with the same
  *difference* (x' − x mod q, up to sign inside one class) is shifted by g.  So if all the base
  day's differences are distinct (per pair of classes), no pair ever meets twice; an ∞ player
  meets each (x, c) once, and ∞ players never meet.  Inside a class the difference q/2 (q even)
  is its own negative: such a pair would meet twice, so it is not allowed.

So the whole season is its base day, a few dozen numbers, which a seeded search finds offline:
:func:`base_day_backtrack` (tables filled player by player, each new difference unused, restarted
every few thousand steps) or :func:`base_day_search` (swaps between tables, cost = repeated
differences, tabu); for a prime q, :func:`base_day_orbits` looks only for base days fixed by
multiplying by a small group of units (40 players: by {1, 3, 9} mod 13; 88: by the 7th powers
mod 29), a far smaller search.  The search that reaches most sizes is :func:`base_day_columns`:
base days also fixed by σ: (x, c) ↦ (μx, c + 1) (μ³ ≡ 1 mod q), so a third of the tables is
chosen and the rest are their images, optionally with a multiplier group as well (44, 48, 52,
56, 60, 72, 76, 84, 96 players).  ``python -m matchdays.seating.rotational 28 40 …`` searches and stores the
base days in ``base_days.json``; the tests develop every stored day and count the meetings.
When the differences are exactly as many as the base day uses (v ≡ 4, 8 mod 12), the tightest
search is an exact cover, :func:`base_day_cover`: columns (or points) and differences are the
items, every admissible table an option, and Knuth's Algorithm X branches on the item with
fewest options left; it found 80 (σ with μ = 3 mod 26) and 100 (σ, μ = 1, q = 33).

Not reached yet (the season then takes the search's days): 32 (q = 10), 68 (22), 92 (30): v ≡ 8
(mod 12) with no μ of order 3 mod q, where σ cannot fix the two ∞ tables (nor can a multiplier
group of odd order: mod 22 the order-5 group fixes only x = 0, 11, and two ∞ tables on those
points repeat their differences; mod 30 there is none), so only the plain exact cover is left,
three times larger: a compiled solver of it found nothing for 68 in ten minutes.  (32 takes a
published schedule instead: :func:`.designs.published_days`.)

Issue 23 then tried, for 68 (q = 22), with no base day found:

* the plain base day as SAT (:func:`base_day_cnf`; CaDiCaL 1.5.3, on two shared cores at about
  40 % of one): 15 minutes' wall time, then 12 with ∞2's table restricted to the 156 classes
  of triples up to multipliers, class permutations and exchanging the ∞ players, then 11.5 so
  with CaDiCaL's ``--sat`` options; no answer either way (the same form finds 44 in half a
  minute and shows in 16 s that 32, q = 10, has no base day);
* Z_11 with two base days (six orbits of 11 and the two ∞ players), as SAT: not even 44
  (Z_7, six orbits) came out in 150 s, so less symmetry is no easier.
* Other automorphisms are ruled out by hand.  A group of order 22 regular on the days is Z_22
  or D_11, and in D_11 each point would miss the 11 points at an involution's "difference".
  Anything fixing the base day besides the translations is (x, c) -> (λx + b_c, π(c)): λ = 1
  forces the σ above (no two σ-fixed ∞ tables), λ = -1 covers only the differences of one
  parity inside a class π fixes (with π of order 3 its square is σ), λ of order 5 leaves only
  x = 0, 11 for the ∞ tables.  A day stabiliser of order 3 (a group of order 66) is normal, so both ∞ tables would be cosets of it
  with the same differences; ∞ players swapped by the odd translations give only a special
  case of the plain base day.  Over Z_11 with two base days, a multiplier of order 5 puts the
  fixed points (0, o) of the six orbits with the ∞ players on both base days and repeats a
  pair; one swapping the two base days (x, o) -> (±x, π(o)) either fixes 33 differences
  (λ = -1) or, with the order-5 multiplier, cannot give ∞1 every orbit once.
* 92 (q = 30) has the same plain form only (units mod 30 have no element of odd order): SAT
  with ∞2's table among 556 classes and ``--sat``, 11 minutes, no answer.
* A later session, for 68 again (CaDiCaL, one core each): the plain base day 10 and 40 minutes;
  fixed by x ↦ −x, unsatisfiable at once; fixed by (x, c) ↦ (λx + b_c, π(c)) exchanging the ∞
  players, 123 choices of λ, b and π, each unsatisfiable within a second; Z_11 with two base
  days 30 minutes, and with the first fixed by x ↦ 3x 10 minutes: no answer.  The literature's
  4-RGDD of type 2^34 (Miller, Valkov and Abel 2026, Appendix B) is not stored here.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import random
import time

from .stored import stored_read, stored_search_main

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "base_days.json")


def shape(v: int) -> tuple[int, int] | None:
    """(q, k): v = 3q + k players, k ∞ players, ⌊(v − 1)/3⌋ = q days; None when v is not a
    multiple of four or too small."""
    if v % 4 or v < 12:
        return None
    k = {4: 1, 8: 2, 0: 3}[v % 12]
    return (v - k) // 3, k


def _key(q: int, a: int, b: int) -> int | None:
    """The difference class of the finite pair (a, b) (point = c·q + x), or None for a pair that
    would meet twice (difference q/2 inside a class)."""
    ca, xa = divmod(a, q)
    cb, xb = divmod(b, q)
    if ca == cb:
        d = (xb - xa) % q
        d = min(d, q - d)
        if 2 * d == q:
            return None
        return ca * q + d
    if ca > cb:
        ca, cb, xa, xb = cb, ca, xb, xa
    return 3 * q + (ca + cb - 1) * q + (xb - xa) % q


def base_day_cost(q: int, tables: list[list[int]]) -> int:
    """Repeated differences of a base day (tables of finite points; an ∞ player's table lists
    its three finite players): 0 means no pair meets twice over the q days."""
    count: dict = {}
    cost = 0
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1 :]:
                key = _key(q, a, b)
                if key is None:
                    cost += 1
                    continue
                count[key] = count.get(key, 0) + 1
                if count[key] > 1:
                    cost += 1
    return cost


def base_day_search(v: int, seed: int = 0, seconds: float = 60.0) -> list[list[int]] | None:
    """A base day without a repeated difference for v players, or None when ``seconds`` pass.
    Tables 0 … k − 1 are the ∞ players' (three finite players, one per class)."""
    q, k = shape(v)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pts = list(range(3 * q))
        rng.shuffle(pts)
        by_class = [[p for p in pts if p // q == c] for c in range(3)]
        tables = [[by_class[c].pop() for c in range(3)] for _ in range(k)]
        rest = [p for c in range(3) for p in by_class[c]]
        rng.shuffle(rest)
        tables += [rest[i : i + 4] for i in range(0, len(rest), 4)]
        found = _descend(q, k, tables, rng, deadline, steps=200_000)
        if found is not None:
            return found
    return None


def _descend(q: int, k: int, tables: list[list[int]], rng, deadline: float, steps: int):
    """Tabu search on swaps of two players between tables (an ∞ table swaps within a class)."""
    size = 6 * q
    count = [0] * (size + 1)
    where = {}
    for ti, t in enumerate(tables):
        for p in t:
            where[p] = ti

    def key(a, b):
        kk = _key(q, a, b)
        return size if kk is None else kk

    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1 :]:
                count[key(a, b)] += 1

    def cost_of():
        return sum(max(0, c - 1) for c in count[:size]) + count[size]

    cost = cost_of()
    tabu: dict = {}
    points = list(where)
    for step in range(steps):
        if cost == 0:
            return [list(t) for t in tables]
        if step % 256 == 0 and time.monotonic() > deadline:
            return None
        # a player in a repeated difference
        conflicted = []
        for t in tables:
            for i, a in enumerate(t):
                for b in t[i + 1 :]:
                    kk = key(a, b)
                    if kk == size or count[kk] > 1:
                        conflicted.append(a)
                        conflicted.append(b)
        a = rng.choice(conflicted)
        ta = where[a]
        best, best_delta, ties = None, None, 0
        for b in points:
            tb = where[b]
            if tb == ta or tabu.get(b, -1) > step:
                continue
            if (ta < k or tb < k) and a // q != b // q:
                continue
            delta = _swap_delta(tables[ta], tables[tb], a, b, key, count, size)
            if best_delta is None or delta < best_delta:
                best, best_delta, ties = b, delta, 1
            elif delta == best_delta:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = b
        if best is None:
            continue
        if best_delta > 0 and rng.random() < 0.5:
            best = rng.choice(
                [b for b in points if where[b] != ta and not ((ta < k or where[b] < k) and a // q != b // q)]
            )
        b = best
        tb = where[b]
        _apply(tables[ta], tables[tb], a, b, key, count)
        where[a], where[b] = tb, ta
        tabu[a] = tabu[b] = step + 3 + rng.randrange(6)
        cost = cost_of()
    return None


def _swap_delta(A, B, a, b, key, count, size) -> int:
    """Cost change of swapping a (in A) and b (in B), from the eight pairs it changes."""
    change: dict = {}
    for x in A:
        if x != a:
            ka, kb = key(a, x), key(b, x)
            change[ka] = change.get(ka, 0) - 1
            change[kb] = change.get(kb, 0) + 1
    for y in B:
        if y != b:
            kb, ka = key(b, y), key(a, y)
            change[kb] = change.get(kb, 0) - 1
            change[ka] = change.get(ka, 0) + 1
    delta = 0
    for kk, c in change.items():
        if kk == size:
            delta += c
        else:
            delta += max(0, count[kk] + c - 1) - max(0, count[kk] - 1)
    return delta


def _apply(A, B, a, b, key, count) -> None:
    """Move a from A to B and b from B to A, updating the difference counts."""
    for x in A:
        if x != a:
            count[key(a, x)] -= 1
            count[key(b, x)] += 1
    for y in B:
        if y != b:
            count[key(b, y)] -= 1
            count[key(a, y)] += 1
    A[A.index(a)] = b
    B[B.index(b)] = a


def developed_days(v: int, base: list[list[int]]) -> list[list[list[int]]]:
    """The q days of the base day, players numbered 0 … v − 1 (finite c·q + x first, then the
    ∞ players 3q …)."""
    q, k = shape(v)
    days = []
    for g in range(q):
        tables = []
        for ti, t in enumerate(base):
            moved = [(p // q) * q + (p % q + g) % q for p in t]
            tables.append(moved + [3 * q + ti] if ti < k else moved)
        days.append(tables)
    return days


def stored_base_days() -> dict[int, list[list[int]]]:
    """v -> base day, as found offline and stored in ``base_days.json``."""
    return stored_read(DATA)


def rotational_days(v: int) -> list[list[list[int]]] | None:
    """Every day of the stored rotational season for v players, or None."""
    base = stored_base_days().get(v)
    return developed_days(v, base) if base else None


def days_bound(v: int) -> int:
    """⌊(v − 1)/3⌋: no season of tables of four has more days without a repeat."""
    return math.floor((v - 1) / 3)


def base_day_backtrack(v: int, seed: int = 0, seconds: float = 60.0, nodes: int = 20_000) -> list[list[int]] | None:
    """A base day by randomised backtracking with restarts: tables filled one player at a time
    (the lowest player not yet seated opens the next table), every new pair's difference unused.
    Each ∞ table takes one player per class; the first may be (0, 0), (0, 1), (0, 2), since
    shifting one class by a constant keeps differences distinct.  Restarts after ``nodes``
    steps (the running time of such searches is heavy-tailed)."""
    q, k = shape(v)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    size = 6 * q
    while time.monotonic() < deadline:
        used = bytearray(size + 1)
        used[size] = 1  # the forbidden difference q/2 inside a class
        free = set(range(3 * q))
        tables: list[list[int]] = []
        budget = [nodes]

        def fits(p: int, table: list[int]) -> list[int] | None:
            keys = []
            for x in table:
                kk = _key(q, x, p)
                kk = size if kk is None else kk
                if used[kk] or kk in keys:
                    return None
                keys.append(kk)
            return keys

        def fill(table: list[int], want: int, classes: bool) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if len(table) == want:
                tables.append(list(table))
                if opened():
                    return True
                tables.pop()
                return False
            if classes:
                options = [p for p in free if p // q == len(table)]
            else:  # increasing, so each table is tried once, not 6 times
                options = [p for p in free if p > table[-1]]
            rng.shuffle(options)
            for p in options:
                keys = fits(p, table)
                if keys is None:
                    continue
                for kk in keys:
                    used[kk] = 1
                free.discard(p)
                table.append(p)
                if fill(table, want, classes):
                    return True
                table.pop()
                free.add(p)
                for kk in keys:
                    used[kk] = 0
            return False

        def opened() -> bool:
            if not free:
                return True
            if len(tables) < k:
                if not tables:
                    start = [0, q, 2 * q]
                    free.difference_update(start)
                    for a_i, a in enumerate(start):
                        for b in start[a_i + 1 :]:
                            used[_key(q, a, b)] = 1
                    tables.append(start)
                    if opened():
                        return True
                    return False
                return fill([], 3, True)
            first = min(free)
            free.discard(first)
            if fill([first], 4, False):
                return True
            free.add(first)
            return False

        if opened():
            return tables
    return None


def exact_cover(
    n_primary: int, options: list[list[int]], rng: random.Random, nodes: int, deadline: float
) -> list[int] | None:
    """Indexes of options that cover every primary item (0 … n_primary − 1) exactly once and
    every other item at most once (Knuth's Algorithm X: branch on the primary item with fewest
    options left, ties at random), or None past ``nodes`` branchings or the deadline."""
    holders: dict[int, set[int]] = {}
    for i, option in enumerate(options):
        for item in option:
            holders.setdefault(item, set()).add(i)
    for item in range(n_primary):
        holders.setdefault(item, set())
    primary = set(range(n_primary))
    chosen: list[int] = []
    budget = [nodes]

    def select(i: int) -> list[tuple[int, set[int]]]:
        removed = []
        for item in options[i]:
            for j in holders[item]:
                for other in options[j]:
                    if other != item:
                        holders[other].discard(j)
            removed.append((item, holders.pop(item)))
        return removed

    def deselect(i: int, removed: list[tuple[int, set[int]]]) -> None:
        for item, held in reversed(removed):
            holders[item] = held
            for j in held:
                for other in options[j]:
                    if other != item:
                        holders[other].add(j)

    def search() -> bool | None:
        open_items = [item for item in primary if item in holders]
        if not open_items:
            return True
        budget[0] -= 1
        if budget[0] < 0 or (budget[0] % 1024 == 0 and time.monotonic() > deadline):
            return None
        fewest = min(len(holders[item]) for item in open_items)
        item = rng.choice([it for it in open_items if len(holders[it]) == fewest])
        candidates = list(holders[item])
        rng.shuffle(candidates)
        for i in candidates:
            removed = select(i)
            chosen.append(i)
            found = search()
            if found:
                return True
            chosen.pop()
            deselect(i, removed)
            if found is None:
                return None
        return False

    return chosen if search() else None


def cover_options_columns(q: int, mu: int, infinite: list[list[tuple[int, int]]]) -> tuple[int, list, list]:
    """The σ-fixed base day (:func:`base_day_columns`) as an exact cover: items are the free
    columns and the differences (up to σ) not taken by the ∞ tables; an option is a table of
    four columns with classes (the lowest in class 0) and six new, distinct differences.  When
    the differences are exactly as many as the tables use (v ≡ 4 or 8 mod 12, q odd or μ ≠ 1)
    they are primary too: each must be used.  Returns (primary count, options, tables)."""
    used = {key for table in infinite for key in _column_keys(q, mu, table)}
    taken = {x for table in infinite for x, _ in table}
    free = sorted(set(range(q)) - taken)
    keys = [("in", d) for d in range(1, (q - 1) // 2 + 1)] + [("to", t) for t in range(q)]
    keys = [key for key in keys if key not in used]
    item = {("col", x): i for i, x in enumerate(free)}
    for key in keys:
        item[key] = len(item)
    options, tables = [], []
    for xs in itertools.combinations(free, 4):
        for cs in itertools.product(range(3), repeat=3):
            table = [(xs[0], 0), *zip(xs[1:], cs)]
            table_keys = _column_keys(q, mu, table)
            if len(set(table_keys)) < 6 or any(key not in item for key in table_keys):
                continue
            options.append([item[("col", x)] for x in xs] + [item[key] for key in table_keys])
            tables.append(table)
    tight = len(keys) == 6 * (len(free) // 4)
    return len(free) + (len(keys) if tight else 0), options, tables


def cover_options_plain(q: int, infinite: list[list[int]]) -> tuple[int, list, list]:
    """A base day without σ (q with no μ of order three: 10, 22, 30) as an exact cover: items
    the free points and the differences (:func:`_key`) the ∞ tables left, options the tables of
    four free points with six new, distinct differences.  Returns (primary count, options,
    tables)."""
    used = {_key(q, a, b) for table in infinite for a, b in itertools.combinations(table, 2)}
    taken = {p for table in infinite for p in table}
    free = sorted(set(range(3 * q)) - taken)
    keys = sorted({_key(q, a, b) for a, b in itertools.combinations(range(3 * q), 2)} - {None} - used)
    item = {("point", x): i for i, x in enumerate(free)}
    for key in keys:
        item[("key", key)] = len(item)
    options, tables = [], []
    for table in itertools.combinations(free, 4):
        table_keys = [_key(q, a, b) for a, b in itertools.combinations(table, 2)]
        if None in table_keys or len(set(table_keys)) < 6 or any(("key", key) not in item for key in table_keys):
            continue
        options.append([item[("point", x)] for x in table] + [item[("key", key)] for key in table_keys])
        tables.append(list(table))
    tight = len(keys) == 6 * (len(free) // 4)
    return len(free) + (len(keys) if tight else 0), options, tables


def base_day_cover(
    v: int, seed: int = 0, seconds: float = 60.0, nodes: int = 200_000, mu: int | None = None
) -> list[list[int]] | None:
    """A base day as an exact cover (:func:`exact_cover`), restarted with a new random ∞ draw
    and branching order every ``nodes`` branchings: σ-fixed with multiplier ``mu`` (the ∞
    tables as in :func:`_columns_infinite`), or with ``mu`` None a plain base day whose first
    ∞ table is (0, 0), (0, 1), (0, 2) (shifting each class keeps differences distinct) and the
    others drawn.  Branching on the item with fewest options is what finds the tight sizes the
    table-by-table searches miss: 80 (μ = 3), 100 (μ = 1).  A compiled solver of the same cover
    found those two in seconds and a minute; this one is slower by a large factor."""
    q, k = shape(v)
    if mu is not None and (pow(mu, 3, q) != 1 % q or (k == 2 and mu % q == 1)):
        return None
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if mu is not None:
            infinite = _columns_infinite(q, k, mu, rng)
            if infinite is None:
                continue
            primary, options, tables = cover_options_columns(q, mu, infinite)
        else:
            infinite = [[0, q, 2 * q]] + [
                [a, q + b, 2 * q + c] for a, b, c in (rng.sample(range(q), 3) for _ in range(k - 1))
            ]
            if base_day_cost(q, infinite):
                continue
            primary, options, tables = cover_options_plain(q, infinite)
        found = exact_cover(primary, options, rng, nodes, deadline)
        if found is not None:
            chosen = [tables[i] for i in found]
            return _columns_day(q, mu, infinite, chosen) if mu is not None else infinite + chosen
    return None


def cnf_solve(n_vars: int, clauses: list[list[int]], *, seconds: float, seed: int, solver: str) -> set[int] | None:
    """Run the external SAT solver ``solver`` (CaDiCaL's command line) on the clauses for at most
    ``seconds``: the variables true in its model, or None (unsatisfiable, or no answer in time)."""
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as fh:
        fh.write(f"p cnf {n_vars} {len(clauses)}\n")
        fh.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
    try:
        out = subprocess.run(
            [solver, "-q", f"--seed={seed}", "-t", str(int(seconds)), fh.name], capture_output=True, text=True
        ).stdout
    finally:
        os.unlink(fh.name)
    if "s SATISFIABLE" not in out:
        return None
    return {int(x) for line in out.splitlines() if line.startswith("v ") for x in line[2:].split()}


def cnf_together(v: int, new, clauses: list[list[int]]) -> dict:
    """One day's seating of v players as CNF: a variable per pair "at one table" (made by
    ``new()``), "at one table" transitive, and every player with exactly three table-mates
    (totalizer counters); clauses appended to ``clauses``.  Returns pair -> variable (both
    orders)."""
    pair: dict = {}
    for a, b in itertools.combinations(range(v), 2):
        pair[a, b] = pair[b, a] = new()
    for a, b, c in itertools.combinations(range(v), 3):
        x, y, z = pair[a, b], pair[b, c], pair[a, c]
        clauses.extend([[-x, -y, z], [-x, -z, y], [-y, -z, x]])
    for p in range(v):
        out = cnf_totalizer([pair[p, b] for b in range(v) if b != p], 4, new, clauses)
        clauses.extend([[out[2]], [-out[3]]])
    return pair


def cnf_tables(n: int, pair: dict, true: set[int], tables: list[list[int]] | None = None) -> list[list[int]]:
    """The tables a model (``true``: the variables set) seats: ``tables`` already known, then each
    player 0 … n − 1 not yet seated with the players its pair variables put with it."""
    tables = [list(t) for t in tables or []]
    seated = {p for t in tables for p in t}
    for p in range(n):
        if p not in seated:
            tables.append([p] + [b for b in range(n) if b != p and pair[p, b] in true])
            seated.update(tables[-1])
    return tables


def cnf_totalizer(lits: list[int], most: int, new, clauses: list[list[int]]) -> list[int]:
    """A totalizer (Bailleux and Boufkhad 2003) over ``lits``, its clauses appended to ``clauses``
    and its variables made by ``new()``: outputs o_1 … o_m (m ≤ most), o_j true exactly when at
    least j of lits are."""
    if len(lits) == 1:
        return lits
    left = cnf_totalizer(lits[: len(lits) // 2], most, new, clauses)
    right = cnf_totalizer(lits[len(lits) // 2 :], most, new, clauses)
    out = [new() for _ in range(min(most, len(left) + len(right)))]
    for i in range(len(left) + 1):
        for j in range(len(right) + 1):
            if 1 <= i + j <= len(out):
                clauses.append([out[i + j - 1]] + ([-left[i - 1]] if i else []) + ([-right[j - 1]] if j else []))
            if i + j + 1 <= len(out):
                clauses.append(
                    [-out[i + j]] + ([left[i]] if i < len(left) else []) + ([right[j]] if j < len(right) else [])
                )
    return out


def base_day_cnf(v: int) -> tuple[int, list[list[int]], dict, dict]:
    """A plain base day for v = 3q + 2 players (k = 2) as a SAT problem in conjunctive normal
    form (DIMACS literals), for an external solver (:func:`base_day_sat`): a variable per pair
    of finite points (same table) and per point (at ∞2's table); ∞1's table is (0, 0), (0, 1),
    (0, 2) (shifting each class keeps differences distinct).  Clauses: "same table" is
    transitive, every point has three table-mates (two at an ∞ table; totalizer counters),
    ∞2's table takes one point per class and is a triangle, the pairs of difference q/2 inside
    a class never sit together, and each of the other differences is used by exactly one pair
    (the tight case).  Returns (variable count, clauses, pair -> variable, point -> variable)."""
    q, k = shape(v)
    if k != 2:
        raise ValueError("the CNF form is for v = 8 (mod 12)")
    n = 3 * q
    count = [0]
    clauses: list[list[int]] = []

    def new() -> int:
        count[0] += 1
        return count[0]

    pair = {}
    for a, b in itertools.combinations(range(n), 2):
        pair[a, b] = pair[b, a] = new()
    inf2 = {p: new() for p in range(n)}
    inf1 = [0, q, 2 * q]
    for a, b in itertools.combinations(inf1, 2):
        clauses.append([pair[a, b]])
    for p in inf1:
        clauses.append([-inf2[p]])
        clauses.extend([-pair[p, b]] for b in range(n) if b not in inf1)
    for c in range(3):
        lits = [inf2[c * q + x] for x in range(1, q)]
        clauses.append(lits)
        clauses.extend([-x, -y] for x, y in itertools.combinations(lits, 2))
    for a, b in itertools.combinations(range(n), 2):
        clauses += [
            [-inf2[a], -inf2[b], pair[a, b]],
            [-inf2[a], -pair[a, b], inf2[b]],
            [-inf2[b], -pair[a, b], inf2[a]],
        ]
    for a, b, c in itertools.combinations(range(n), 3):
        x, y, z = pair[a, b], pair[b, c], pair[a, c]
        clauses += [[-x, -y, z], [-x, -z, y], [-y, -z, x]]

    for p in set(range(n)) - set(inf1):
        out = cnf_totalizer([pair[p, b] for b in range(n) if b != p] + [inf2[p]], 4, new, clauses)
        clauses += [[out[2]], [-out[3]]]
    by_key: dict = {}
    for a, b in itertools.combinations(range(n), 2):
        key = _key(q, a, b)
        if key is None:
            clauses.append([-pair[a, b]])
        else:
            by_key.setdefault(key, []).append(pair[a, b])
    for lits in by_key.values():
        clauses.append(lits)
        clauses.extend([-x, -y] for x, y in itertools.combinations(lits, 2))
    return count[0], clauses, pair, inf2


def base_day_sat(v: int, seconds: float = 600.0, seed: int = 0, solver: str = "cadical") -> list[list[int]] | None:
    """A plain base day (:func:`base_day_cnf`) from an external SAT solver (CaDiCaL by default,
    Debian's ``cadical``), or None when it is missing, gives up after ``seconds`` or proves
    that there is none.  It found 44 players' base day in half a minute (on a shared machine);
    it proves in 16 s that 32 players (q = 10) have none."""
    import shutil

    if shutil.which(solver) is None:
        return None
    q, _ = shape(v)
    n_vars, clauses, pair, inf2 = base_day_cnf(v)
    random.Random(seed).shuffle(clauses)
    true = cnf_solve(n_vars, clauses, seconds=seconds, seed=seed, solver=solver)
    if true is None:
        return None
    n = 3 * q
    tables = cnf_tables(n, pair, true, [[0, q, 2 * q], [p for p in range(n) if inf2[p] in true]])
    return tables if base_day_cost(q, tables) == 0 else None


def main(argv: list[str]) -> None:
    """Search base days for the sizes given and add each found to ``base_days.json`` at once
    (``--seconds S``: per attempt, 60 by default)."""
    stored_search_main(argv, DATA, base_day_found, 60.0)


def base_day_found(v: int, seconds: float) -> list[list[int]] | None:
    """The first base day :func:`_attempts` finds for v players that meets nobody twice, or None."""
    if shape(v) is None:
        return None
    q, _ = shape(v)
    return next(
        (found for attempt in _attempts(v, seconds) if (found := attempt()) and base_day_cost(q, found) == 0), None
    )


def _attempts(v: int, seconds: float) -> list:
    """The searches to try for v players, the smallest search spaces first: σ-fixed base days
    (each μ) with multiplier groups, without, the exact cover, multiplier orbits (prime q),
    plain backtracking."""
    q, k = shape(v)
    groups = odd_multiplier_groups(q)
    tries = [
        lambda mu=mu, group=group: base_day_columns(v, seed=1, seconds=min(seconds, 10), mu=mu, mults=group)
        for mu in order_three(q)
        for group in groups
    ]
    tries += [
        lambda mu=mu, nodes=nodes: base_day_columns(v, seed=1, seconds=seconds, nodes=nodes, mu=mu)
        for nodes in (2000, 20_000)
        for mu in order_three(q)
    ]
    # the exact cover: σ-fixed where some μ serves (k = 2 needs μ ≠ 1), else plain
    mus: list[int | None] = [mu for mu in order_three(q) if not (k == 2 and mu == 1)] or [None]
    tries += [lambda mu=mu: base_day_cover(v, seed=1, seconds=seconds, mu=mu) for mu in mus]
    if k == 2:
        tries.append(lambda: base_day_sat(v, seconds=seconds, seed=1))
    orbit_sizes = [m for m in range(2, q) if (q - 1) % m == 0]
    tries += [lambda m=m: base_day_orbits(v, m, seed=1, seconds=seconds) for m in reversed(orbit_sizes)]
    tries += [
        lambda nodes=nodes: base_day_backtrack(v, seed=1, seconds=seconds, nodes=nodes) for nodes in (2000, 500, 8000)
    ]
    return tries


def _multipliers(q: int, m: int) -> list[int] | None:
    """The subgroup of order m of the units mod a prime q, or None."""
    if q < 3 or any(q % d == 0 for d in range(2, int(q**0.5) + 1)) or (q - 1) % m:
        return None
    for g in range(2, q):
        if len({pow(g, e, q) for e in range(q - 1)}) == q - 1:
            mu = pow(g, (q - 1) // m, q)
            return [pow(mu, e, q) for e in range(m)]
    return None


def base_day_orbits(v: int, m: int, seed: int = 0, seconds: float = 60.0, nodes: int = 2000) -> list[list[int]] | None:
    """A base day for v ≡ 4 (mod 12) invariant under multiplying every x by a subgroup M of
    order m of the units mod q (q prime): tables come in orbits of m, so the backtracking
    chooses a ninth as many tables (after Buratti's multiplier method for 1-rotational
    designs).  M must not hold −1, which would repeat every difference inside a class."""
    q, k = shape(v)
    mults = _multipliers(q, m)
    if k != 1 or not mults or (q - 1) in mults or ((3 * q - 3) // 4) % m:
        return None
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    size = 6 * q

    def image(p: int, mu: int) -> int:
        return (p // q) * q + (p % q) * mu % q

    while time.monotonic() < deadline:
        used = bytearray(size + 1)
        used[size] = 1
        start = [0, q, 2 * q]
        for i, a in enumerate(start):
            for b in start[i + 1 :]:
                used[_key(q, a, b)] = 1
        free = set(range(3 * q)) - set(start)
        tables: list[list[int]] = [start]
        budget = [nodes]

        def orbit_keys(block: list[int]) -> tuple[list[list[int]], list[int]] | None:
            blocks = [[image(p, mu) for p in block] for mu in mults]
            points = [p for b in blocks for p in b]
            if len(set(points)) != len(points) or not free.issuperset(points):
                return None
            keys = []
            for b in blocks:
                for i, a in enumerate(b):
                    for c in b[i + 1 :]:
                        kk = _key(q, a, c)
                        if kk is None or used[kk] or kk in keys:
                            return None
                        keys.append(kk)
            return blocks, keys

        def fill(table: list[int]) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if len(table) == 4:
                found = orbit_keys(table)
                if found is None:
                    return False
                blocks, keys = found
                for kk in keys:
                    used[kk] = 1
                for b in blocks:
                    free.difference_update(b)
                tables.extend(blocks)
                if not free or fill([min(free)]):
                    return True
                del tables[-len(blocks) :]
                for b in blocks:
                    free.update(b)
                for kk in keys:
                    used[kk] = 0
                return False
            options = [p for p in free if p > table[-1]]
            rng.shuffle(options)
            for p in options:
                if any(used[_key(q, x, p) if _key(q, x, p) is not None else size] for x in table):
                    continue
                table.append(p)
                if fill(table):
                    return True
                table.pop()
            return False

        if fill([min(free)]):
            return tables
    return None


def base_day_columns(
    v: int, seed: int = 0, seconds: float = 60.0, nodes: int = 20_000, mu: int = 1, mults: tuple[int, ...] = (1,)
) -> list[list[int]] | None:
    """A base day fixed by σ: (x, c) ↦ (μx, c + 1 mod 3), μ³ ≡ 1 (mod q) (μ = 1 serves when q is
    odd; q even needs μ ≠ 1, below).

    σ maps a base day's difference ±d inside class c to ±μd inside c + 1, and a difference d
    between classes c → c + 1 to μd between c + 1 → c + 2, so a σ-fixed base day is three
    copies of a third of it (after the 1-rotational designs over Z_3 × Z_q in Buratti's and in
    Abel, Buratti and Ge's surveys).  Points are written by their *column* x: (x, c) stands for
    the player (μ^c x, c), and σ keeps x.  A table of four and its two images cover four columns,
    one point of each from the table; so the search only splits the columns into fours and gives
    each point a class: (q − 1)/4 tables at 52 players instead of 12.  In columns a difference
    inside a class is ±(y − x), and between (x, c) and (y, c + 1) it is μy − x (:func:`_column_keys`).
    ∞ tables: a whole column {(x, 0), (x, 1), (x, 2)} is fixed by σ (k = 1: the column 0; k = 2:
    also a column x with μx ≠ x, so its difference (μ − 1)x is not 0; no such μ when q is
    10, 22, 30); k = 3: one orbit {(a, 0), (b, 1), (c, 2)}, {(c, 0), (a, 1), (b, 2)},
    {(b, 0), (c, 1), (a, 2)}, its ∞ players permuted by σ.

    ``mults``: a group M of units of odd order (so without −1, which would repeat the
    differences inside a class); the base day is then also fixed by x ↦ λx, λ in M, and the
    search places a table with its images under M at once (Buratti's multiplier method, as in
    :func:`base_day_orbits`).  At 76 players (q = 25) M = {1, 6, 11, 16, 21} fixes the columns
    5, 10, 15, 20 and moves the others in fives: two tables to choose instead of six."""
    q, k = shape(v)
    if pow(mu, 3, q) != 1 % q or (k == 2 and mu % q == 1):
        return None
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        infinite = _columns_infinite(q, k, mu, rng)
        if infinite is None:
            continue
        # (the three tables of an orbit share their differences: a set keeps them once)
        used = {key for table in infinite for key in _column_keys(q, mu, table)}
        taken = {x for table in infinite for x, _ in table}
        found = _columns_fill(q, mu, set(range(q)) - taken, used, rng, [nodes], mults)
        if found is not None:
            return _columns_day(q, mu, infinite, found)
    return None


def order_three(q: int) -> list[int]:
    """Every μ with μ³ ≡ 1 (mod q), 1 first (the σ multipliers of :func:`base_day_columns`)."""
    return [mu for mu in range(1, q) if pow(mu, 3, q) == 1 and math.gcd(mu, q) == 1]


def _columns_infinite(q: int, k: int, mu: int, rng: random.Random) -> list[list[tuple[int, int]]] | None:
    """The ∞ tables in columns (see :func:`base_day_columns`), or None for a bad random draw.
    With μ ≠ 1 the k ∞ tables may also be k whole columns, each fixed by σ (their differences
    (μ − 1)x differ when the x do): half the draws take that shape, for k = 3 too."""
    if mu % q != 1 and (k != 3 or rng.random() < 0.5):
        xs = [0] + rng.sample([x for x in range(1, q) if (mu - 1) * x % q], k - 1)
        if len({(mu - 1) * x % q for x in xs}) < k:
            return None
        return [[(x, 0), (x, 1), (x, 2)] for x in xs]
    if k == 3:
        a, b, c = 0, *rng.sample(range(1, q), 2)
        table = [(a, 0), (b, 1), (c, 2)]
        keys = _column_keys(q, mu, table)
        if len(set(keys)) < 3:
            return None
        return [table, [(c, 0), (a, 1), (b, 2)], [(b, 0), (c, 1), (a, 2)]]
    return [[(0, 0), (0, 1), (0, 2)]]


def _column_keys(q: int, mu: int, table: list[tuple[int, int]]) -> list[tuple[str, int]]:
    """The differences (up to σ) the pairs of a table in columns use: ('in', d) for two points
    of one class (d ≤ q/2 up to sign; d = q/2 would meet twice, 'half'), ('to', μy − x) for
    (x, c), (y, c + 1)."""
    return [_column_key(q, mu, a, b) for i, a in enumerate(table) for b in table[i + 1 :]]


@functools.lru_cache(maxsize=1 << 16)
def _column_key(q: int, mu: int, a: tuple[int, int], b: tuple[int, int]) -> tuple[str, int]:
    """The difference of one pair of :func:`_column_keys` (cached: the backtracking asks for
    the same few thousand pairs millions of times)."""
    (x, cx), (y, cy) = a, b
    if cx == cy:
        d = (y - x) % q
        d = min(d, q - d)
        return ("half", 0) if 2 * d == q else ("in", d)
    if cy == (cx + 1) % 3:
        return ("to", (mu * y - x) % q)
    return ("to", (mu * x - y) % q)


def _columns_fill(
    q: int, mu: int, free: set[int], used: set, rng: random.Random, budget: list[int], mults: tuple[int, ...] = (1,)
) -> list[list[tuple[int, int]]] | None:
    """The remaining columns in fours with classes, every difference new (backtracking; the
    lowest free column opens each table in class 0, which σ allows; columns rise within a table
    so each table is tried once)."""
    if not free:
        return []
    first = min(free)

    def extend(table: list[tuple[int, int]]) -> list[list[tuple[int, int]]] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if len(table) == 4:
            return _columns_orbit(q, mu, table, free, used, rng, budget, mults)
        options = [(y, cy) for y in free if y > table[-1][0] for cy in range(3)]
        rng.shuffle(options)
        for point in options:
            keys = [_column_key(q, mu, x, point) for x in table]
            if len(set(keys)) < len(keys) or ("half", 0) in keys or used.intersection(keys):
                continue
            used.update(keys)
            found = extend(table + [point])
            if found is not None:
                return found
            used.difference_update(keys)
            if budget[0] < 0:
                return None
        return None

    return extend([(first, 0)])


def _columns_orbit(
    q: int,
    mu: int,
    table: list[tuple[int, int]],
    free: set[int],
    used: set,
    rng: random.Random,
    budget: list[int],
    mults: tuple[int, ...],
) -> list[list[tuple[int, int]]] | None:
    """A finished table (its keys already in ``used``) with its images under the multipliers,
    if they take free columns and new differences, then the tables for the rest."""
    images = []
    for lam in mults:
        image = sorted((lam * x % q, c) for x, c in table)
        if image not in images:
            images.append(image)
    columns = [x for image in images for x, _ in image]
    extra = [key for image in images if image != sorted(table) for key in _column_keys(q, mu, image)]
    if (
        len(set(columns)) < len(columns)
        or not free.issuperset(columns)
        or len(set(extra)) < len(extra)
        or used.intersection(extra)
    ):
        return None
    used.update(extra)
    rest = _columns_fill(q, mu, free - set(columns), used, rng, budget, mults)
    if rest is None:
        used.difference_update(extra)
        return None
    return images + rest


def odd_multiplier_groups(q: int) -> list[tuple[int, ...]]:
    """The cyclic groups of units mod q of odd order > 1 (none holds −1)."""
    groups: list[tuple[int, ...]] = []
    for lam in range(2, q):
        if math.gcd(lam, q) != 1:
            continue
        powers = [1]
        while (powers[-1] * lam) % q != 1:
            powers.append(powers[-1] * lam % q)
        group = tuple(sorted(powers))
        if len(group) % 2 and group not in groups:
            groups.append(group)
    return groups


def _columns_day(
    q: int, mu: int, infinite: list[list[tuple[int, int]]], tables: list[list[tuple[int, int]]]
) -> list[list[int]]:
    """The whole base day (points c·q + x) from the ∞ tables and the tables' σ-orbits."""

    def player(x: int, c: int) -> int:
        return c * q + pow(mu, c, q) * x % q

    def turned(table: list[tuple[int, int]], s: int) -> list[int]:
        return [player(x, (c + s) % 3) for x, c in table]

    return [turned(t, 0) for t in infinite] + [turned(t, s) for t in tables for s in range(3)]


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
