"""An event's standings, the cut to the final, and team standings (pure: no Django).

Each finished game gives every seated player a line (round, league points with uma, place, raw
score). Qualifying: players rank by total points (penalties deducted), then by the event's
tiebreaks in order, each applied completely before the next; players still level share the rank.
Then each stage (a semi-final, the final): the top ``cut`` of the order before it play on, their
points carried in full, halved or reset; the stage's order is carried points plus the stage's
points, ties broken by the event's tiebreaks counted over the games its points count (every game so
far when points are carried in full or halved, the stage's games when they are reset), then by the
rank before the stage. Everyone else keeps their place. A tie at a cut
that no tiebreak separates is never settled here: the director's decision is an input."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable

# Tiebreaks an event may list, in the order it applies them. Each gives a key where more is better.
TIEBREAKS = ("firsts", "places", "best_game", "fewest_fourths")


@dataclass(frozen=True)
class Line:
    player: int
    round: int
    points: Decimal
    place: int
    raw_score: int


@dataclass
class Row:
    player: int
    rank: int = 0
    points: Decimal = Decimal("0")
    game_points: Decimal = Decimal("0")
    penalty: Decimal = Decimal("0")
    games: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    best_game: int | None = None
    shared: bool = False
    carried: Decimal | None = None  # a stage's players: the points brought into the stage
    final_points: Decimal | None = None  # a stage's players: the points of the stage's games
    finalist: bool = False  # played a stage after the qualifying rounds
    stage: str = ""  # the last stage played ("semi_final", "final"); "" for qualifying only
    withdrawn: bool = False  # left the event after playing: ranked with the games played
    # the games the row's points count, which its tiebreaks count over (None: every game played)
    counted_places: list[int] | None = None
    counted_games: int | None = None
    counted_best: int | None = None
    stage_places: list[int] | None = None  # a stage's players: their places in the stage's games
    tie_note: dict[str, Any] | None = None  # how a tie on points with the row above was broken


@dataclass
class Tally:
    """Places, games and best raw score over a set of games."""

    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    games: int = 0
    best: int | None = None

    def add(self, line: Line) -> None:
        self.games += 1
        if 1 <= line.place <= 4:
            self.places[line.place - 1] += 1
        self.best = line.raw_score if self.best is None else max(self.best, line.raw_score)

    def plus(self, places: list[int], games: int, best: int | None) -> Tally:
        bests = [b for b in (self.best, best) if b is not None]
        return Tally([a + b for a, b in zip(self.places, places)], self.games + games, max(bests) if bests else None)


def _counted(row: Row) -> tuple[list[int], int, int | None]:
    if row.counted_places is None:
        return row.places, row.games, row.best_game
    return row.counted_places, row.counted_games or 0, row.counted_best


def tiebreak_value(row: Row, name: str) -> int | float | None:
    """The figure a tiebreak compares, over the games the row's points count, as people read it:
    first places, average place, best raw score, fourth places (None: no game)."""
    places, games, best = _counted(row)
    if name == "firsts":
        return places[0]
    if name == "places":
        return sum((i + 1) * n for i, n in enumerate(places)) / games if games else None
    if name == "best_game":
        return best
    if name == "fewest_fourths":
        return places[3]
    raise ValueError(f"unknown tiebreak {name!r}")


def tiebreak_key(row: Row, name: str) -> tuple[float, ...]:
    """A sort key where a larger value ranks higher."""
    value = tiebreak_value(row, name)
    if name == "firsts":
        return (float(value or 0),)  # the number of firsts only: seconds are not compared
    if name == "places":
        return (-value if value is not None else float("-inf"),)  # better average place
    if name == "best_game":
        return (value if value is not None else float("-inf"),)
    return (-(value or 0),)  # fewest fourths


def tie_notes(ordered: list[Row], names: list[str], before: dict[int, int] | None = None) -> None:
    """For each row level on points with the row above but ranked below it, how the tie was broken:
    the first tiebreak (in the event's order) that separates them, else the rank before the stage."""
    for upper, row in zip(ordered, ordered[1:]):
        row.tie_note = None
        if row.points != upper.points or row.rank == upper.rank:
            continue
        note = {"above": upper.player, "below": row.player, "points": row.points}
        for name in names:
            if tiebreak_key(upper, name) != tiebreak_key(row, name):
                note.update(by=name, above_value=tiebreak_value(upper, name), below_value=tiebreak_value(row, name))
                break
        else:
            if before is not None:
                note.update(by="before", above_value=before[upper.player], below_value=before[row.player])
        if "by" in note:
            row.tie_note = note


def tiebreaks_check(names: list[str]) -> list[str]:
    if not isinstance(names, list) or any(n not in TIEBREAKS for n in names) or len(set(names)) != len(names):
        raise ValueError("tiebreaks: a list of distinct names among " + ", ".join(TIEBREAKS))
    return list(names)


def rows_rank(rows: list[Row], key: Callable[[Row], tuple[Any, ...]]) -> list[Row]:
    """Sort by ``key`` (larger first) and give ranks; equal keys share the rank (1, 2, 2, 4)."""
    ordered = sorted(rows, key=lambda r: (key(r), -r.player), reverse=True)
    # the player id only fixes the listing order among players who share a rank
    previous, rank = None, 0
    for i, row in enumerate(ordered):
        k = key(row)
        if k != previous:
            rank, previous = i + 1, k
        row.rank = rank
    counts: dict[int, int] = {}
    for row in ordered:
        counts[row.rank] = counts.get(row.rank, 0) + 1
    for row in ordered:
        row.shared = counts[row.rank] > 1
    return ordered


def qualifying_rank(
    lines: list[Line], players: list[int], penalties: dict[int, Decimal], tiebreaks: list[str]
) -> list[Row]:
    rows = {p: Row(player=p) for p in players}
    for line in lines:
        row = rows.setdefault(line.player, Row(player=line.player))
        row.game_points += line.points
        row.games += 1
        if 1 <= line.place <= 4:
            row.places[line.place - 1] += 1
        row.best_game = line.raw_score if row.best_game is None else max(row.best_game, line.raw_score)
    for row in rows.values():
        row.counted_places, row.counted_games, row.counted_best = list(row.places), row.games, row.best_game
    for player, points in penalties.items():
        if player in rows:
            rows[player].penalty += points
    for row in rows.values():
        row.points = row.game_points - row.penalty
    names = tiebreaks_check(tiebreaks)
    ordered = rows_rank(list(rows.values()), lambda r: (r.points, *[tiebreak_key(r, n) for n in names]))
    tie_notes(ordered, names)
    return ordered


def carried_points(points: Decimal, rule: str) -> Decimal:
    if rule == "carry":
        return points
    if rule == "half":
        return (points / 2).quantize(Decimal("0.1"))
    if rule == "reset":
        return Decimal("0")
    raise ValueError(f"unknown final points rule {rule!r}")


@dataclass(frozen=True)
class Stage:
    """A stage after the qualifying rounds (a semi-final, the final): the top ``cut`` of the stage
    before play on, bringing their points in full, at half or none (``points``), over ``rounds``."""

    name: str
    cut: int
    points: str
    rounds: tuple[int, ...]


class CutUndecided(Exception):
    """Players level at the cut that no tiebreak separates: the director decides (a playoff hand, a
    draw of lots), never the listing order."""

    def __init__(self, tied: list[int], places: int) -> None:
        super().__init__(f"{len(tied)} players tied for {places} places at the cut")
        self.tied = tied
        self.places = places


def cut_tie(rows: list[Row], cut: int) -> tuple[list[int], int]:
    """The players sharing the rank that straddles the cut, in listing order, and how many of them
    go through; ([], 0) when the cut falls between two ranks."""
    if cut <= 0 or cut >= len(rows) or rows[cut - 1].rank != rows[cut].rank:
        return [], 0
    rank = rows[cut - 1].rank
    tied = [r.player for r in rows if r.rank == rank]
    above = sum(1 for r in rows if r.rank < rank)
    return tied, cut - above


def entrants(rows: list[Row], cut: int, decided: list[int] | None = None) -> list[int]:
    """Who goes through the cut, in the order of ``rows``. A tie at the cut is settled by
    ``decided`` (the tied players in the order the director's playoff or draw gave); a decision for
    another set of players (the standings changed since) does not apply: ``CutUndecided``."""
    tied, places = cut_tie(rows, cut)
    if not tied:
        return [r.player for r in rows[:cut]]
    if decided is None or sorted(decided) != sorted(tied):
        raise CutUndecided(tied, places)
    rank = next(r.rank for r in rows if r.player == tied[0])
    return [r.player for r in rows if r.rank < rank] + list(decided[:places])


def finalists(qualifying: list[Row], cut: int, decided: list[int] | None = None) -> list[int]:
    """The top ``cut`` players (``entrants``)."""
    return entrants(qualifying, cut, decided)


def stage_rank(
    previous: list[Row],
    chosen: list[int],
    lines: list[Line],
    rule: str,
    name: str = "final",
    tiebreaks: list[str] | tuple[str, ...] = (),
) -> list[Row]:
    """The order after a stage: its players (``chosen``, as seated) by carried + stage points, ties
    by the event's ``tiebreaks`` in order, counted over the games those points count (every game so
    far when points are carried in full or halved, the stage's games when reset), then by their rank
    before the stage; still level, they share the rank (a cut through it is the director's). Then
    everyone else in their order before it, ranks continuing after the stage's players. Places and
    games on a row count every game played; ``stage_places`` the stage's own."""
    names = tiebreaks_check(list(tiebreaks))
    by_player = {r.player: r for r in previous}
    stage_points: dict[int, Decimal] = {p: Decimal("0") for p in chosen if p in by_player}
    tallies: dict[int, Tally] = {p: Tally() for p in stage_points}
    for line in lines:
        if line.player in stage_points:
            stage_points[line.player] += line.points
            tallies[line.player].add(line)
    top = []
    for p in stage_points:
        q, t = by_player[p], tallies[p]
        carried = carried_points(q.points, rule)
        every = t.plus(q.places, q.games, q.best_game)
        counted = t if rule == "reset" else t.plus(*_counted(q))
        row = Row(
            player=p,
            game_points=q.game_points,
            penalty=q.penalty,
            games=every.games,  # every game of the event
            places=every.places,
            best_game=every.best,
            finalist=True,
            carried=carried,
            final_points=stage_points[p],
            withdrawn=q.withdrawn,
            stage=name,
            counted_places=counted.places,
            counted_games=counted.games,
            counted_best=counted.best,
            stage_places=list(t.places),
        )
        row.points = carried + stage_points[p]
        top.append(row)
    before = {p: by_player[p].rank for p in stage_points}
    out = rows_rank(top, lambda r: (r.points, *[tiebreak_key(r, n) for n in names], -before[r.player]))
    tie_notes(out, names, before)
    rest = [r for r in previous if r.player not in stage_points]
    for r in rest:
        out.append(
            Row(
                player=r.player,
                rank=len(top) + r.rank - _ahead(previous, r, stage_points),
                points=r.points,
                game_points=r.game_points,
                penalty=r.penalty,
                games=r.games,
                places=list(r.places),
                best_game=r.best_game,
                shared=r.shared,
                withdrawn=r.withdrawn,
                carried=r.carried,
                final_points=r.final_points,
                finalist=r.finalist,
                stage=r.stage,
                counted_places=r.counted_places,
                counted_games=r.counted_games,
                counted_best=r.counted_best,
                stage_places=r.stage_places,
                tie_note=r.tie_note,
            )
        )
    for i in range(len(top), len(out)):  # a note about a pair no longer next to each other goes;
        # the first below the stage keeps a note about a player the cut sent on (why they stayed out)
        note = out[i].tie_note
        if note is None:
            continue
        kept = note["above"] in stage_points if i == len(top) else out[i - 1].player == note["above"]
        if not kept:
            out[i].tie_note = None
    for row in out[len(top) :]:  # a tie broken by the cut (one went through) is no longer shared
        row.shared = sum(1 for r in out[len(top) :] if r.rank == row.rank) > 1
    return out


def final_rank(
    qualifying: list[Row],
    final_lines: list[Line],
    cut: int,
    rule: str,
    decided: list[int] | None = None,
    tiebreaks: list[str] | tuple[str, ...] = (),
) -> list[Row]:
    """The event's order after a single final of the top ``cut`` (``stage_rank``)."""
    return stage_rank(qualifying, finalists(qualifying, cut, decided), final_lines, rule, "final", tiebreaks)


def _ahead(previous: list[Row], row: Row, stage_players: dict[int, Decimal]) -> int:
    """How many of a stage's players ranked above ``row`` before it (their places move to the top)."""
    return sum(1 for r in previous if r.player in stage_players and r.rank < row.rank)


@dataclass
class TeamRow:
    team: str
    rank: int = 0
    points: Decimal = Decimal("0")
    counted: list[int] = field(default_factory=list)
    members: list[int] = field(default_factory=list)
    shared: bool = False


def team_rank(rows: list[Row], teams: dict[int, str], mode: str, best: int) -> list[TeamRow]:
    """Team standings: each team's ``best`` highest members (mode "best") or all (mode "all")."""
    members: dict[str, list[Row]] = {}
    for row in rows:
        team = teams.get(row.player, "")
        if team:
            members.setdefault(team, []).append(row)
    out = []
    for team, group in members.items():
        group = sorted(group, key=lambda r: r.points, reverse=True)
        counted = group[:best] if mode == "best" else group
        out.append(
            TeamRow(
                team=team,
                points=sum((r.points for r in counted), Decimal("0")),
                counted=[r.player for r in counted],
                members=[r.player for r in group],
            )
        )
    ordered = sorted(out, key=lambda t: (t.points, t.team), reverse=True)
    previous, rank = None, 0
    for i, t in enumerate(ordered):
        if t.points != previous:
            rank, previous = i + 1, t.points
        t.rank = rank
    for t in ordered:
        t.shared = sum(1 for o in ordered if o.rank == t.rank) > 1
    return ordered
