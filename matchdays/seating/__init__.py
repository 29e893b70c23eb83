"""Seating for tables of four: a pure, Django-free generator.

Method (a documented local search, chosen over CP-SAT because the objective is a sum of pair
penalties over whole tables, which CP-SAT models with O(n^2 * tables) booleans per day and solves
slowly at 128 players, while swap moves evaluate in six look-ups each):

1. Build the season day by day.  For a day, the cost of seating two players together is
   the number of times they already met (each earlier meeting counts 1, plus ``consecutive_weight``
   if it was on an adjacent day), plus a large penalty if they must not meet.
   Byes, and the seats at a short table of substitutes, go in turn: to the players who had
   fewest so far (a day missed counts as a turn), then not to those who sat out the day before.
2. Improve each day by swapping two players at different tables (players pinned to a table,
   and the short table's players that day, never move), alternating two moves: a
   conflict-directed move (a player who sits with someone they met before goes to the best
   swap partner anywhere, with a short tabu list, as in
   local-search solvers for the social golfer problem) and a random swap accepted by simulated
   annealing.
3. Re-optimise every day against all the other days (earlier *and* later) for a few passes,
   which repairs the greed of step 1.
   Then a tabu search over the whole season at once (:mod:`.tabu`, after Dotú and Van
   Hentenryck's social-golfer search) on the exact figures reported: repeats, meetings on
   adjacent days, pairs kept apart.
   (Step 0, for a multiple of four with a known construction and nothing played that departs
   from it: the season starts from repeat-free match days built as designs, :mod:`.designs`
   (powers of two, a published schedule for 32) and :mod:`.rotational` (24, 28, 36 … 60, 72, 76, 80, 84, 88, 96, 100: ⌊(v − 1)/3⌋ days, the
   most possible) and :mod:`.cyclic` (68: 19 days, 92: 26), with the design's points renamed so
   that pins and pairs kept apart hold;
   with byes, the design of the players at tables, the others taking the seats of the day's byes.)
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

from .designs import design_relabel, whole_season_designs
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
    tables: list[list]  # each table: four seats E, S, W, N; a player id or None (a substitute seat)
    byes: list = field(default_factory=list)


@dataclass
class Result:
    days: list[Day]
    repeats: int  # sum over pairs of (meetings - 1), counting history and new days
    consecutive_repeats: int  # repeats where the two meetings were on adjacent days
    wind_counts: dict  # player -> [E, S, W, N]
    wind_imbalance: int  # sum over players of (max - min) of their wind counts
    wind_imbalance_min: int  # the least possible: players whose seated days are not a multiple of 4
    unmet: list[str]  # constraints that could not be kept, in words
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
    short = r * n_days  # byes, or seats at the short table, over the season
    low, high_count = divmod(short, n)  # high_count players take low + 1 of them
    if leftover == BYE:

        def meetings(x: int) -> int:
            return 3 * (n_days - x)
    else:

        def meetings(x: int) -> int:
            return 3 * n_days - (4 - r) * x if r else 3 * n_days

    excess = high_count * max(0, meetings(low + 1) - (n - 1)) + (n - high_count) * max(0, meetings(low) - (n - 1))
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


def schedule_figures(days: list[Day], players: list, played: int = 0) -> dict:
    """Repeats, consecutive repeats and wind balance of a schedule, computed from the tables alone
    (the figures a reviewer sees; also used after a hand swap).  The first ``played`` days are
    played already: the least possible wind imbalance is then the least the later days can
    reach given their winds (:func:`wind_imbalance_least`)."""
    met = pair_meetings(days)
    repeats = sum(len(v) - 1 for v in met.values())
    consecutive = sum(1 for v in met.values() for x, y in zip(v, v[1:]) if y - x == 1)
    counts = {p: [0, 0, 0, 0] for p in players}
    before: dict = {}
    for d, day in enumerate(days):
        for table in day.tables:
            for seat, p in enumerate(table):
                if p is not None:
                    counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
                    if d < played:
                        before.setdefault(p, [0, 0, 0, 0])[seat] += 1
    imbalance = sum(max(c) - min(c) for c in counts.values())
    least = sum(
        wind_imbalance_least(before.get(p, [0, 0, 0, 0]), sum(c) - sum(before.get(p, []))) for p, c in counts.items()
    )
    return {
        "repeats": repeats,
        "consecutive_repeats": consecutive,
        "wind_counts": counts,
        "wind_imbalance": imbalance,
        "wind_imbalance_min": least,
    }


def wind_imbalance_least(played: list[int], more: int) -> int:
    """The least max − min of a player's wind counts after ``more`` seats on top of the
    ``played`` counts: each seat goes to a wind the player has had least (nothing played: 1 when
    the seats are not a multiple of four, else 0)."""
    counts = sorted(played)
    for _ in range(more):
        counts[0] += 1
        counts.sort()
    return counts[-1] - counts[0]


@dataclass
class _Season:
    """The working state of one call to :func:`generate`: players as indexes 0 … n − 1."""

    n: int
    n_tables: int
    size: list[int]  # seats per table (the last is short with substitutes)
    pinned: dict[int, int]  # player -> table index, every new day
    apart: list[tuple[int, int]]
    day_tables: list[list[list[int]]]
    day_byes: list[list[int]]
    held: dict[int, set]  # day -> players who stay at their table that day
    rng: random.Random
    deadline: float
    consecutive_weight: float
    stopped: bool = False


def generate(
    players: list,
    n_days: int,
    *,
    seed: int = 0,
    history: list[Day] | None = None,
    leftover: str = BYE,
    fixed_table: dict | None = None,
    apart: list | None = None,
    consecutive_weight: float = 1.0,
    time_limit: float = 10.0,
    effort: float = 4.0,
) -> Result:
    """Seat ``players`` for ``n_days`` new match days after the ``history`` days (already played,
    kept as they are).  ``fixed_table``: player -> table number (1-based) on every new day;
    ``apart``: pairs who must not meet.  ``leftover``: BYE (the odd players sit out, in turn) or
    SUBSTITUTES (the last table is filled up with substitute seats, shown as None; who sits
    there rotates like byes)."""
    started = time.monotonic()
    history = list(history or [])
    apart = [tuple(p) for p in (apart or [])]
    players_check(players, n_days, leftover)
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    n_tables = n // 4 if leftover == BYE else math.ceil(n / 4)
    size = [4] * n_tables
    if leftover == SUBSTITUTES and n % 4:
        size[-1] = n % 4
    pinned, unmet = pins_check(dict(fixed_table or {}), index, size)
    apart_idx = [(index[a], index[b]) for a, b in apart if a in index and b in index and a != b]
    unmet += [
        f"{a} and {b} must not meet: not both among the players" for a, b in apart if a not in index or b not in index
    ]
    day_tables = [[[index[p] for p in t if p is not None and p in index] for t in day.tables] for day in history]
    day_byes = [[index[p] for p in day.byes if p in index] for day in history]
    season = _Season(
        n=n,
        n_tables=n_tables,
        size=size,
        pinned=pinned,
        apart=apart_idx,
        day_tables=day_tables,
        day_byes=day_byes,
        held={},
        rng=random.Random(seed),
        deadline=started + max(0.05, float(time_limit)),
        consecutive_weight=consecutive_weight,
    )
    new_start, total_days = len(history), len(history) + n_days

    constructed = season_construct(season, n_days, seed)  # step 0
    season_build(season, total_days, leftover, effort)  # steps 1, 2
    if n_days > 1 and not (constructed == n_days and not apart_idx):
        season_repass(season, new_start, total_days, effort)  # step 3
    if n_days and not season.stopped:  # step 3b
        season.day_tables[new_start:], season.stopped = schedule_improve(
            season.day_tables,
            first_new=new_start,
            n=n,
            pinned=pinned,
            apart_pairs=apart_idx,
            consecutive_weight=consecutive_weight,
            apart_penalty=APART_PENALTY,
            rng=season.rng,
            steps=int(effort * TABU_STEPS_PER_EFFORT),
            deadline=season.deadline,
            held=season.held,
        )
    days_out = season_winds(season, history, index, players, new_start)  # step 4
    unmet += apart_broken(days_out, apart)
    figures = schedule_figures(history + days_out, players, played=len(history))
    return Result(
        days=days_out,
        repeats=figures["repeats"],
        consecutive_repeats=figures["consecutive_repeats"],
        wind_counts=figures["wind_counts"],
        wind_imbalance=figures["wind_imbalance"],
        wind_imbalance_min=figures["wind_imbalance_min"],
        unmet=unmet,
        stopped_early=season.stopped,
        seconds=round(time.monotonic() - started, 3),
    )


def players_check(players: list, n_days: int, leftover: str) -> None:
    """Input the generator refuses (SeatingError)."""
    if leftover not in (BYE, SUBSTITUTES):
        raise SeatingError(f"unknown leftover rule {leftover!r}: use 'bye' or 'substitutes'")
    if len(set(players)) != len(players):
        raise SeatingError("a player is listed twice")
    if len(players) < 4:
        raise SeatingError("at least four players are needed for a table")
    if n_days < 0:
        raise SeatingError("the number of match days cannot be negative")


def pins_check(fixed_table: dict, index: dict, size: list[int]) -> tuple[dict[int, int], list[str]]:
    """Player index -> table index for the pins that can be kept; the others in words (a player
    fixed to a table that does not exist, or to a table already full of fixed players)."""
    pinned: dict[int, int] = {}
    unmet: list[str] = []
    load = [0] * len(size)
    for p, t in sorted(fixed_table.items(), key=lambda kv: index.get(kv[0], -1)):
        if p not in index:
            unmet.append(f"{p} must sit at table {t}: not among the players")
        elif not isinstance(t, int) or not 1 <= t <= len(size):
            unmet.append(f"{p} must sit at table {t}: there are only {len(size)} tables")
        elif load[t - 1] >= size[t - 1]:
            unmet.append(f"{p} must sit at table {t}: the table is already full of fixed players")
        else:
            load[t - 1] += 1
            pinned[index[p]] = t - 1
    return pinned, unmet


def season_construct(season: _Season, n_days: int, seed: int) -> int:
    """Step 0: repeat-free days by construction (.designs), relabelled so that pins and pairs
    kept apart hold, as far as the design reaches.  The design depends on the seed alone, so a
    season seated one match day at a time keeps following it while every played day was the
    design's; any other history leaves the days to the search.  Returns the days added.
    A season longer than the rotational design at 36 … players (as stored) takes the design whose unmet
    pairs are 4-cycles (:func:`.designs.leave_design_days`) and its day more; at 24 players, the
    covering (:func:`.designs.covering_design_days`, :func:`.designs.whole_season_designs`).

    With byes (n = 4t + r players, r > 0, no pins and no pairs kept apart) the design is the one
    for 4t players: each day r of its players sit out and the r others take their seats
    (:func:`design_byes`), so 45 players over 12 days meet nobody twice."""
    extra = season.n - season.n_tables * 4
    if not n_days or extra < 0 or (extra and (season.pinned or season.apart)):
        return 0
    played = len(season.day_tables)
    for build in whole_season_designs(season.n_tables * 4, played + n_days):
        design_rng = random.Random(seed)
        design = build(season.n_tables * 4, design_rng)
        if not design:
            continue
        if extra:
            design, byes = design_byes(design, season.n, design_rng, played + n_days)
        else:
            design = design_relabel(design, played + n_days, season.pinned, season.apart, design_rng)
            byes = [[] for _ in design or []]
        if design is not None and _follows(season.day_tables, design):
            break
    else:
        return 0
    constructed = design[played : played + n_days]
    season.day_tables.extend(constructed)
    season.day_byes.extend(byes[played : played + n_days])
    return len(constructed)


def design_byes(
    design: list[list[list[int]]], n: int, rng: random.Random, horizon: int, tries: int = 200
) -> tuple[list[list[list[int]]], list[list[int]]]:
    """A design for m = 4t of n players, and the days with the other n − m players seated: each
    day every extra player takes the seat of a design player who has not had a bye yet (so byes
    go in turn), at a table of their own.  The extras are drawn at random.  When a depth-first
    search (:func:`byes_backtrack`) keeps every extra's table-mates new over the season's first
    ``horizon`` days (or all the days the byes allow), those days are kept; the seats of any
    other days are chosen greedily so that an extra's table-mates are new to them, the greedy
    repeated ``tries`` times (late days have few seats left to choose from) and the draw with
    the fewest repeats kept.  Returns the days and each day's byes (player indexes)."""
    m = sum(len(t) for t in design[0])
    label = list(range(n))
    rng.shuffle(label)
    # the search draws from a stream of its own, so that the greedy's draws stay as they were
    prefix = byes_backtrack(design, label, m, random.Random(n))
    if len(prefix[0]) < min(horizon, len(design), m // (n - m)):
        prefix = ([], [])
    best: tuple[int, list, list] | None = None
    for _ in range(tries):
        repeats, days, byes = _byes_greedy(design, label, m, rng, prefix)
        if best is None or repeats < best[0]:
            best = (repeats, days, byes)
        if repeats == 0:
            break
    return best[1], best[2]


def _byes_state(
    extras: list[int], prefix: tuple[list[list[list[int]]], list[list[int]]]
) -> tuple[dict[int, set[int]], set[int]]:
    """Whom each extra has met and who has had a bye over the days ``prefix`` seated."""
    met: dict[int, set[int]] = {e: set() for e in extras}
    for tables in prefix[0]:
        for t in tables:
            for e in extras:
                if e in t:
                    met[e].update(p for p in t if p != e)
    return met, {p for out in prefix[1] for p in out}


def byes_backtrack(
    design: list[list[list[int]]], label: list[int], m: int, rng: random.Random, nodes: int = 20_000
) -> tuple[list[list[list[int]]], list[list[int]]]:
    """The longest run of days from the start of ``design`` (as :func:`design_byes` seats them)
    on which no extra meets anyone twice, found by a depth-first search over the extras' seats
    within ``nodes`` seats tried: (days, byes), possibly empty."""
    extras = label[m:]
    met, had_bye = _byes_state(extras, ([], []))
    n_days = min(len(design), m // len(extras)) if extras else 0
    days: list[list[list[int]]] = []
    byes: list[list[int]] = []
    best: list = [[], []]
    budget = [nodes]

    def seat(d: int, k: int, tables: list[list[int]], out: list[int], taken: set[int]) -> bool | None:
        """Extras k … seated on day d; True when every day to n_days is, None out of budget."""
        if k == len(extras):
            days.append([list(t) for t in tables])
            byes.append(list(out))
            if len(days) > len(best[0]):
                best[:] = [[list(map(list, t)) for t in days], [list(b) for b in byes]]
            found = (
                True if d + 1 == n_days else seat(d + 1, 0, [[label[x] for x in t] for t in design[d + 1]], [], set())
            )
            days.pop()
            byes.pop()
            return found
        e = extras[k]
        seats = [
            (ti, si)
            for ti, t in enumerate(tables)
            if ti not in taken
            for si, p in enumerate(t)
            if p not in had_bye and not met[e].intersection(q for q in t if q != p)
        ]
        rng.shuffle(seats)
        for ti, si in seats:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            p = tables[ti][si]
            mates = [q for q in tables[ti] if q != p]
            tables[ti][si] = e
            had_bye.add(p)
            met[e].update(mates)
            taken.add(ti)
            out.append(p)
            found = seat(d, k + 1, tables, out, taken)
            out.pop()
            taken.discard(ti)
            met[e].difference_update(mates)
            had_bye.discard(p)
            tables[ti][si] = p
            if found is not False:
                return found
        return False

    if extras and n_days:
        seat(0, 0, [[label[x] for x in t] for t in design[0]], [], set())
    return best[0], best[1]


def _byes_greedy(
    design: list[list[list[int]]],
    label: list[int],
    m: int,
    rng: random.Random,
    prefix: tuple[list[list[list[int]]], list[list[int]]] = ([], []),
) -> tuple[int, list[list[list[int]]], list[list[int]]]:
    """One greedy draw of :func:`design_byes` after the days of ``prefix`` (which have none):
    (repeats of the extras, days, byes)."""
    extras = label[m:]
    met, had_bye = _byes_state(extras, prefix)
    days, byes = [list(t) for t in prefix[0]], [list(b) for b in prefix[1]]
    repeats = 0
    for day in design[len(days) :]:
        tables = [[label[x] for x in t] for t in day]
        out, taken = [], set()
        for e in extras:
            seats = [
                (ti, si) for ti, t in enumerate(tables) if ti not in taken for si, p in enumerate(t) if p not in had_bye
            ]
            if not seats:
                break

            def again(seat: tuple[int, int]) -> int:
                ti, si = seat
                return sum(1 for i, p in enumerate(tables[ti]) if i != si and p in met[e])

            rng.shuffle(seats)
            ti, si = min(seats, key=again)
            repeats += again((ti, si))
            out.append(tables[ti][si])
            had_bye.add(tables[ti][si])
            tables[ti][si] = e
            met[e].update(p for p in tables[ti] if p != e)
            taken.add(ti)
        if len(out) < len(extras):
            break  # every design player has had a bye: the search goes on
        days.append(tables)
        byes.append(out)
    return repeats, days, byes


def season_build(season: _Season, total_days: int, leftover: str, effort: float) -> None:
    """Steps 1 and 2: each remaining day from a random seating, improved against the days before
    it.  Byes and short-table seats go to those who had fewest (then not the day before)."""
    n, rng = season.n, season.rng
    short = n % 4 if leftover == SUBSTITUTES else 0
    n_byes = n % 4 if leftover == BYE else 0
    byes_count = [0] * n
    short_count = [0] * n
    for bl in season.day_byes:
        for i in bl:
            byes_count[i] += 1
    for tables in season.day_tables:
        for t in tables:
            if short and len(t) == short:
                for i in t:
                    short_count[i] += 1
    moves = int(effort * max(2000, 60 * n))
    for d in range(len(season.day_tables), total_days):
        last_byes = set(season.day_byes[-1]) if season.day_byes else set()
        byes = turns_take(byes_count, n_byes, season.pinned, last_byes, rng)
        season.day_byes.append(byes)
        pinned_short = sum(1 for t in season.pinned.values() if t == season.n_tables - 1)
        at_short = turns_take(short_count, max(0, short - pinned_short), season.pinned, set(), rng)
        tables = tables_initial(season, byes, at_short)
        season.held[d] = set(at_short)
        season.day_tables.append(tables)
        season.day_tables[d] = day_optimise(season, d, moves)


def turns_take(count: list[int], k: int, pinned: dict, last: set, rng) -> list[int]:
    """The k players (never a pinned one) whose turn it is: fewest turns so far, then not the
    day before, then at random; their counts go up."""
    if not k:
        return []
    order = sorted((i for i in range(len(count)) if i not in pinned), key=lambda i: (count[i], i in last, rng.random()))
    chosen = order[:k]
    for i in chosen:
        count[i] += 1
    return chosen


def tables_initial(season: _Season, byes: list[int], at_short: list[int]) -> list[list[int]]:
    """Pinned players at their tables, the short table's players at the last, the rest at random."""
    tables: list[list[int]] = [[] for _ in range(season.n_tables)]
    if at_short:
        tables[-1] = list(at_short)
    for i, t in sorted(season.pinned.items()):
        if i not in byes:
            tables[t].append(i)
    placed = set(byes) | set(at_short) | set(season.pinned)
    rest = [i for i in range(season.n) if i not in placed]
    season.rng.shuffle(rest)
    for t in range(season.n_tables):
        while len(tables[t]) < season.size[t] and rest:
            tables[t].append(rest.pop())
    return tables


def season_repass(season: _Season, new_start: int, total_days: int, effort: float) -> None:
    """Step 3: re-optimise every new day against all the others (earlier and later)."""
    moves = int(effort * max(2000, 60 * season.n)) // 2
    for _ in range(int(6 * effort)):
        for d in range(new_start, total_days):
            if time.monotonic() > season.deadline:
                season.stopped = True
                return
            season.day_tables[d] = day_optimise(season, d, moves)


def day_weights(season: _Season, d: int) -> list[list[float]]:
    """What seating two players together on day d costs, given every other day."""
    n = season.n
    w = [[0.0] * n for _ in range(n)]
    for d2, tables in enumerate(season.day_tables):
        if d2 == d:
            continue
        extra = 1.0 + (season.consecutive_weight if abs(d2 - d) == 1 else 0.0)
        for t in tables:
            for a, b in itertools.combinations(t, 2):
                w[a][b] += extra
                w[b][a] += extra
    for a, b in season.apart:
        w[a][b] += APART_PENALTY
        w[b][a] += APART_PENALTY
    return w


def day_optimise(season: _Season, d: int, moves: int) -> list[list[int]]:
    """Day d improved by swaps of two players at different tables (pinned and short-table
    players stay), alternating a conflict-directed move (a player sitting with someone they met
    goes to the best swap partner, recently moved players tabu) and a random swap accepted by
    simulated annealing.  Returns the best tables found."""
    tables = season.day_tables[d]
    stay = set(season.pinned) | season.held.get(d, set())
    movers = [p for t in tables for p in t if p not in stay]
    if len(movers) < 2 or len(tables) < 2:
        return tables
    w = day_weights(season, d)
    rng = season.rng
    pos = {p: (ti, si) for ti, t in enumerate(tables) for si, p in enumerate(t)}
    cost = sum(w[a][b] for t in tables for a, b in itertools.combinations(t, 2))
    best_cost, best = cost, [list(t) for t in tables]
    tabu: dict[int, int] = {}
    step = 0
    while step < moves:
        if step % 64 == 0 and time.monotonic() > season.deadline:
            season.stopped = True
            break
        if step % 2 == 0:
            step += 8
            a = movers[rng.randrange(len(movers))]
            b, delta = swap_directed(tables, pos, w, a, movers, tabu, step, rng)
            if b is None:
                continue
            tabu[a] = tabu[b] = step + 8 * 10
        else:
            step += 1
            a, b = rng.sample(movers, 2)
            if pos[a][0] == pos[b][0]:
                continue
            delta = swap_delta(tables, pos, w, a, b)
            temp = 0.6 * (1 - step / moves) + 1e-9
            if delta > 0 and rng.random() >= math.exp(-delta / temp):
                continue
        (ta, sa), (tb, sb) = pos[a], pos[b]
        tables[ta][sa], tables[tb][sb] = b, a
        pos[a], pos[b] = (tb, sb), (ta, sa)
        cost += delta
        if cost < best_cost - 1e-9:
            best_cost, best = cost, [list(t) for t in tables]
    return best


def swap_delta(tables: list[list[int]], pos: dict, w: list[list[float]], a: int, b: int) -> float:
    """Cost change of swapping a and b (at different tables)."""
    A, B = tables[pos[a][0]], tables[pos[b][0]]
    wa, wb = w[a], w[b]
    return sum(wb[x] - wa[x] for x in A if x != a) + sum(wa[y] - wb[y] for y in B if y != b)


def swap_directed(
    tables: list[list[int]], pos: dict, w: list[list[float]], a: int, movers: list[int], tabu: dict, step: int, rng
) -> tuple[int | None, float]:
    """The best swap partner for a player who sits with someone they met (ties at random), or
    None when a meets nobody again."""
    A = tables[pos[a][0]]
    if all(w[a][x] == 0 for x in A if x != a):
        return None, 0.0
    best, best_delta, ties = None, 0.0, 0
    for b in movers:
        if pos[b][0] == pos[a][0] or tabu.get(b, -1) > step:
            continue
        delta = swap_delta(tables, pos, w, a, b)
        if best is None or delta < best_delta:
            best, best_delta, ties = b, delta, 1
        elif delta == best_delta:
            ties += 1
            if rng.randrange(ties) == 0:
                best = b
    return best, best_delta


def season_winds(season: _Season, history: list[Day], index: dict, players: list, new_start: int) -> list[Day]:
    """Step 4: seat winds.  Nothing played: exact (.winds, edge colouring).  After played days:
    given the winds already played, table by table."""
    new_days = season.day_tables[new_start:]
    if not history:
        orders = balanced_winds(new_days)
    else:
        counts = [[0, 0, 0, 0] for _ in range(season.n)]
        for day in history:
            for t in day.tables:
                for s, p in enumerate(t):
                    if p is not None and p in index:
                        counts[index[p]][s] += 1
        orders, winds_stopped = winds_given_history(new_days, counts, season.rng, season.deadline)
        season.stopped = season.stopped or winds_stopped
    return [
        Day(
            tables=[[players[p] if p is not None else None for p in order] for order in orders[k]],
            byes=[players[i] for i in season.day_byes[new_start + k]],
        )
        for k in range(len(new_days))
    ]


def apart_broken(days: list[Day], apart: list) -> list[str]:
    """The pairs kept apart who share a table anyway, in words."""
    unmet = []
    for d, day in enumerate(days, start=1):
        where = {p: ti for ti, t in enumerate(day.tables) for p in t if p is not None}
        for a, b in apart:
            if a in where and b in where and where[a] == where[b]:
                unmet.append(f"match day {d}: {a} and {b} must not meet but share table {where[a] + 1}")
    return unmet


def _follows(played: list[list[list[int]]], design: list[list[list[int]]]) -> bool:
    """Whether the played days (tables of player indexes) are the design's first days, table for
    table (seat order aside)."""
    if len(played) > len(design):
        return False
    return all({frozenset(t) for t in day} == {frozenset(t) for t in design[d]} for d, day in enumerate(played))
