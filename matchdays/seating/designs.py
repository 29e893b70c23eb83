"""Repeat-free match days by construction, for player counts where a design is known.

- **4^k players (16, 64, 256): the affine space AG(k, 4).**  Its lines over the field of four
  elements are sets of four points; the lines sharing a direction split the 4^k points into
  tables, and two points lie on exactly one line.  So each direction is a match day and no two
  players ever meet twice: (4^k − 1) / 3 days (5 for 16 players, 21 for 64, 85 for 256).
- **2^j players otherwise (32, 128, 512): two copies of the vector space V = GF(2)^(j−1).**
  Split V into pairs {s, t} whose differences s + t are all distinct (a *starter*, found by a
  short backtracking search).  Each pair gives a day of tables {(0, a), (0, a + u), (1, a + s),
  (1, a + t)} with u = s + t: inside each copy the pairs differ by u, across the copies by s or
  t, so over the |V|/2 days every difference, hence every pair, is used at most once.  Each
  2-dimensional subspace W of V whose differences the starter left unused adds one more day:
  the cosets of W in both copies (8 days for 32 players, then one more when W exists).

- **32 players: a published solution of the social golfer instance 8-4-10** (:func:`published_days`),
  10 days where the doubled construction gives 9.
- **v = 4q players with q prime to 6 (20, 28, 44, 52, 68, 76, 92, 100, …): a resolvable transversal
  design RTD(4, q)** (:func:`transversal_days`): players (i, x), i in {0, 1, 2, 3}, x in Z_q; day
  a seats (0, b), (1, a + b), (2, 2a + b), (3, 3a + b) together for each b.  Players (i, x) and
  (j, y) of different rows meet on the day a with a(j − i) ≡ y − x, one day since j − i ∈ {1, 2,
  3} is a unit mod q; players of one row never meet.  So q days (the Riichi Wiki's "tournament
  blocks" formula is this design).  It serves where nothing longer is stored.
- **v = 4q players with q odd, as stored (68, 92): a base day turned round Z_q on the same four
  rows, and fixed transversal days** (:mod:`.cyclic`): q days and one more per fixed day, 19 for
  68 (a 4-RGDD of type 2^34 gives 22 and exists by Miller, Valkov and Abel 2026, Appendix B, but
  is not stored here) and 26 for 92 (30 would need a 4-RGDD of type 2^46, not known; see
  ``bench/seating.py``).
- **Other multiples of four with a stored base day (24, 28, 36, 40, 44, 48, 52, 56, 60, 72, 76, 80, 84, 88, 96, 100):
  a 1-rotational season** (:mod:`.rotational`): a stored base day turned round Z_q,
  ⌊(v − 1)/3⌋ days, the most possible.
- **24 players over 8 days or more: a resolvable minimum covering** (:mod:`.covering`,
  :func:`covering_design_days`): every pair meets over the 8 days and 12 pairs meet twice, the
  least possible (the rotational season and a day more repeat 18).
- **A day more for 36 (and other v ≡ 0 mod 12 with a stored design): a design whose unmet
  pairs form 4-cycles** (:mod:`.c4leave`, :func:`leave_design_days`), with the same number of
  repeat-free days, then a day seating each 4-cycle at a table: v/2 repeats, the least possible
  (the rotational season's unmet pairs are triangles, and a day after it repeats 3v/4).  The
  seating takes it when the season runs past the rotational one.

The design's points are the players' indexes after a random relabelling; :func:`design_relabel`
chooses that relabelling so that players pinned to a table, and pairs who must not meet, never
share a table on the days used (every table number is a label too, so a pinned player's table
is simply numbered as the pin asks).

Local search only approaches these (64 players over 16 days stalled at 1–4 repeats, 32 over 8 at
3); the constructions are exact and instant.  Days beyond them are left to the search.
"""

from __future__ import annotations

import itertools
import math

from .c4leave import c4_days
from .covering import covering_days
from .cyclic import cyclic_days, fixed_day
from .rotational import rotational_days

# GF(4) = {0, 1, x, x + 1} coded 0..3: addition is XOR; multiplication by the table below.
_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def dimension(n_players: int) -> int | None:
    """k when ``n_players`` is 4^k (k ≥ 2), else None."""
    k, n = 0, n_players
    while n > 1 and n % 4 == 0:
        n //= 4
        k += 1
    return k if n == 1 and k >= 2 else None


def _power_of_two(n: int) -> int | None:
    """j when ``n`` is 2^j (j ≥ 4), else None."""
    j = n.bit_length() - 1
    return j if n > 0 and n == 1 << j and j >= 4 else None


def affine_days(k: int) -> list[list[list[int]]]:
    """Every parallel class of AG(k, 4) as a match day: tables of four point indexes (a point's
    base-4 digits are its coordinates)."""
    n = 4**k
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


def starter(m: int, rng, budget: int = 200_000) -> list[tuple[int, int]] | None:
    """GF(2)^m split into pairs with distinct differences (XOR), or None past ``budget`` steps."""
    left, used, pairs, steps = set(range(1 << m)), set(), [], [0]

    def extend() -> bool:
        steps[0] += 1
        if not left:
            return True
        if steps[0] > budget:
            return False
        a = min(left)
        partners = [b for b in left if b != a and a ^ b not in used]
        rng.shuffle(partners)
        for b in partners:
            left.difference_update((a, b))
            used.add(a ^ b)
            pairs.append((a, b))
            if extend():
                return True
            pairs.pop()
            used.discard(a ^ b)
            left.update((a, b))
        return False

    return pairs if extend() else None


def doubled_days(j: int, rng) -> list[list[list[int]]] | None:
    """Repeat-free days for 2^j players: a day per starter pair, then a day per unused subspace
    (player (c, a) of copy c is numbered c·2^(j−1) + a)."""
    m = j - 1
    half = 1 << m
    pairs = starter(m, rng)
    if pairs is None:
        return None
    days = []
    for s, t in pairs:
        u, seen, tables = s ^ t, set(), []
        for a in range(half):
            if a not in seen:
                seen.update((a, a ^ u))
                tables.append([a, a ^ u, half + (a ^ s), half + (a ^ t)])
        days.append(tables)
    free = set(range(1, half)) - {s ^ t for s, t in pairs}
    for x in sorted(free):
        for y in sorted(free):
            if x in free and x < y and x ^ y in free:  # the subspace {0, x, y, x + y}: its cosets in both copies
                free.difference_update((x, y, x ^ y))
                cosets = {frozenset((a, a ^ x, a ^ y, a ^ x ^ y)) for a in range(half)}
                days.append(
                    [sorted(c) for c in sorted(cosets, key=min)]
                    + [sorted(half + p for p in c) for c in sorted(cosets, key=min)]
                )
                break
    return days


# Published schedules, one day a line, players A–P then a–p.  32: the social golfer instance
# 8-4-10 (CSPLib problem 010), Ed Pegg Jr.'s "Social Golfer Problem" (Wolfram Demonstrations
# Project; CSPLib's results page links the same 10-week solution in his MAA Math Games column of
# 14 August 2007), as transcribed in the fpvandoorn/Dagstuhl-tables repository's literature.md
# (T(32, 4): its eleventh line, which repeats pairs, left out).  The tests check every pair.
_PUBLISHED = {
    32: """ABCD EFGH IJKL MNOP abcd efgh ijkl mnop
           AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO
           Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn
           AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN
           AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn
           AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP
           AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp
           AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm
           AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp
           AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo""",
}
_LETTERS = "ABCDEFGHIJKLMNOPabcdefghijklmnop"


def published_days(n_players: int) -> list[list[list[int]]] | None:
    """The published schedule for ``n_players`` (player i is the i-th letter), or None."""
    text = _PUBLISHED.get(n_players)
    if text is None:
        return None
    return [[[_LETTERS.index(c) for c in table] for table in line.split()] for line in text.splitlines()]


def transversal_days(n_players: int) -> list[list[list[int]]] | None:
    """The q days of the resolvable transversal design RTD(4, q) for n_players = 4q, q ≥ 5 prime
    to 6 (player i·q + x is (i, x)), or None."""
    q, rest = divmod(n_players, 4)
    if rest or q < 5 or math.gcd(q, 6) != 1:
        return None
    # day a is the fixed day with offsets a, 2a, 3a: table b seats (i, a·i + b)
    return [fixed_day(q, [a, 2 * a % q, 3 * a % q]) for a in range(q)]


def design_days(n_players: int, rng) -> list[list[list[int]]] | None:
    """Every repeat-free match day of the design for players 0..n-1, in a random order and a
    random labelling from ``rng``, or None when no construction applies to this number.  Of
    several constructions for one number the one with most days serves."""
    k = dimension(n_players)
    j = _power_of_two(n_players)
    days = affine_days(k) if k else doubled_days(j, rng) if j else None
    for other in (
        rotational_days(n_players),
        published_days(n_players),
        transversal_days(n_players),
        cyclic_days(n_players),
    ):
        if other and (not days or len(other) > len(days)):
            days = other
    if not days:
        return None
    rng.shuffle(days)
    return relabelled(days, n_players, rng)


def leave_design_days(n_players: int, rng) -> list[list[list[int]]] | None:
    """For 36 … players (v ≡ 0 mod 12, as stored): the stored design of :mod:`.c4leave`, as many
    repeat-free days as :func:`design_days` but with the unmet pairs in 4-cycles, and after it
    the day that seats each 4-cycle at a table (v/2 repeats, the least a day past the design can
    have).  Days in a random order (a day where no 4-cycle's diagonal meets just before the last)
    and a random labelling from ``rng``; None when no design is stored for ``n_players``."""
    days = c4_days(n_players)
    if not days:
        return None
    design, extra = days[:-1], days[-1]
    rng.shuffle(design)
    diagonals = {frozenset(t[i : i + 3 : 2]) for t in extra for i in (0, 1)}
    clean = [
        d
        for d, day in enumerate(design)
        if not any(frozenset(e) in diagonals for t in day for e in itertools.combinations(t, 2))
    ]
    if clean:
        design.append(design.pop(clean[-1]))
    return relabelled([*design, extra], n_players, rng)


def covering_design_days(n_players: int, rng) -> list[list[list[int]]] | None:
    """For 24 players (as stored): the resolvable minimum covering of :mod:`.covering`, 8 days in
    which every pair meets and 12 pairs meet twice (the bound), in its stored order (no pair on
    two adjacent days) and a random labelling from ``rng``; None when none is stored."""
    days = covering_days(n_players)
    return relabelled(days, n_players, rng) if days else None


def relabelled(days: list[list[list[int]]], n_players: int, rng) -> list[list[list[int]]]:
    """The days with the players 0 … n − 1 renamed by a random permutation from ``rng`` (a
    design's points carry no meaning of their own)."""
    label = list(range(n_players))
    rng.shuffle(label)
    return [[[label[p] for p in table] for table in day] for day in days]


def whole_season_designs(n_players: int, horizon: int) -> list:
    """The builders of a season's designed days, in the order to try: the repeat-free design
    (:func:`design_days`) first, unless the season reaches the end of a longer stored design
    whose last day repeats the least possible (the 4-cycle design and its day more, or the
    covering), which then goes first; a longer one the season does not reach goes after (a
    season seated one day at a time that took it goes on with it)."""
    builders: list = [design_days]
    for build, days in (
        (leave_design_days, c4_days(n_players)),
        (covering_design_days, covering_days(n_players)),
    ):
        if days:
            builders.insert(0 if horizon >= len(days) else len(builders), build)
    return builders


def repeat_free_days(n_players: int, n_days: int, rng) -> list[list[list[int]]] | None:
    """Up to ``n_days`` of :func:`design_days`, or None."""
    days = design_days(n_players, rng) if n_days > 0 else None
    return days[:n_days] if days else None


def design_relabel(
    days: list[list[list[int]]],
    horizon: int,
    pinned: dict[int, int],
    apart: list[tuple[int, int]],
    rng,
    budget: int = 50_000,
) -> list[list[list[int]]] | None:
    """The design's days with its points renamed so that, over the first ``horizon`` days, no
    two players pinned to different tables and no pair kept apart share a table, and each day's
    tables numbered so that every pinned player sits at their table (player -> table index in
    ``pinned``); None when no renaming is found (two players pinned to one table would meet every
    day) within ``budget`` steps."""
    if not pinned and not apart:
        return days
    if len(pinned) > len(set(pinned.values())) and min(horizon, len(days)) > 1:
        return None
    n = sum(len(t) for t in days[0])
    met = [set() for _ in range(n)]
    for day in days[:horizon]:
        for t in day:
            for a in t:
                met[a].update(t)
    avoid: dict[int, set] = {}
    pairs = list(apart) + [(a, b) for a, b in itertools.combinations(sorted(pinned), 2)]
    for a, b in pairs:
        avoid.setdefault(a, set()).add(b)
        avoid.setdefault(b, set()).add(a)
    constrained = sorted(avoid, key=lambda p: -len(avoid[p]))
    point_of: dict[int, int] = {}
    steps = [0]

    def place(k: int) -> bool:
        if k == len(constrained):
            return True
        steps[0] += 1
        if steps[0] > budget:
            return False
        p = constrained[k]
        taken = set(point_of.values())
        options = [
            x for x in range(n) if x not in taken and all(point_of[o] not in met[x] for o in avoid[p] if o in point_of)
        ]
        rng.shuffle(options)
        for x in options:
            point_of[p] = x
            if place(k + 1):
                return True
            del point_of[p]
        return False

    if not place(0):
        return None
    free_points = [x for x in range(n) if x not in set(point_of.values())]
    rng.shuffle(free_points)
    free_players = [p for p in range(n) if p not in point_of]
    point_of.update(zip(free_players, free_points))
    player_at = {x: p for p, x in point_of.items()}
    out = []
    for day in days:
        tables = [[player_at[x] for x in t] for t in day]
        slots: list = [None] * len(tables)
        rest = []
        for t in tables:
            want = next((pinned[p] for p in t if p in pinned), None)
            if want is not None and slots[want] is None:
                slots[want] = t
            else:
                rest.append(t)
        for i in range(len(slots)):
            if slots[i] is None:
                slots[i] = rest.pop(0)
        out.append(slots)
    return out
