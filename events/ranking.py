"""An event's standings, the cut to the final, and team standings (pure: no Django).

Each finished game gives every seated player a line (round, league points with uma, place, raw
score). Qualifying: players rank by total points (penalties deducted), then by the event's
tiebreaks in order; players still level share the rank. The final: the top ``cut`` qualifiers play
on, their points carried in full, halved or reset; the final's order is carried points plus the
final's points, ties broken by the qualifying rank. Everyone else keeps their qualifying place."""

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
    carried: Decimal | None = None  # finalists: the points brought into the final
    final_points: Decimal | None = None
    finalist: bool = False
    withdrawn: bool = False  # left the event after playing: ranked with the games played


def tiebreak_key(row: Row, name: str) -> tuple[float, ...]:
    """A sort key where a larger value ranks higher."""
    if name == "firsts":
        return (float(row.places[0]),)  # the number of firsts only: seconds are not compared
    if name == "places":
        total = sum((i + 1) * n for i, n in enumerate(row.places))
        return (-(total / row.games) if row.games else float("-inf"),)  # better average place
    if name == "best_game":
        return (row.best_game if row.best_game is not None else float("-inf"),)
    if name == "fewest_fourths":
        return (-row.places[3],)
    raise ValueError(f"unknown tiebreak {name!r}")


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
    for player, points in penalties.items():
        if player in rows:
            rows[player].penalty += points
    for row in rows.values():
        row.points = row.game_points - row.penalty
    names = tiebreaks_check(tiebreaks)
    return rows_rank(list(rows.values()), lambda r: (r.points, *[tiebreak_key(r, n) for n in names]))


def carried_points(points: Decimal, rule: str) -> Decimal:
    if rule == "carry":
        return points
    if rule == "half":
        return (points / 2).quantize(Decimal("0.1"))
    if rule == "reset":
        return Decimal("0")
    raise ValueError(f"unknown final points rule {rule!r}")


def finalists(qualifying: list[Row], cut: int) -> list[int]:
    """The top ``cut`` players by qualifying order (a tie at the cut goes by the listing order,
    which the director sees before making the cut and may settle otherwise)."""
    return [r.player for r in qualifying[:cut]]


def final_rank(qualifying: list[Row], final_lines: list[Line], cut: int, rule: str) -> list[Row]:
    """The event's final order: finalists by carried + final points (ties by qualifying rank),
    then everyone else in qualifying order, ranks continuing after the finalists."""
    chosen = finalists(qualifying, cut)
    by_player = {r.player: r for r in qualifying}
    final_points: dict[int, Decimal] = {p: Decimal("0") for p in chosen}
    for line in final_lines:
        if line.player in final_points:
            final_points[line.player] += line.points
    top = []
    for p in chosen:
        q = by_player[p]
        carried = carried_points(q.points, rule)
        row = Row(
            player=p,
            game_points=q.game_points,
            penalty=q.penalty,
            games=q.games,
            places=list(q.places),
            best_game=q.best_game,
            finalist=True,
            carried=carried,
            final_points=final_points[p],
            withdrawn=q.withdrawn,
        )
        row.points = carried + final_points[p]
        top.append((row, q.rank))
    top.sort(key=lambda pair: (-pair[0].points, pair[1]))
    out = []
    for i, (row, _q_rank) in enumerate(top):
        row.rank = i + 1
        out.append(row)
    rest = [r for r in qualifying if r.player not in final_points]
    for r in rest:
        out.append(
            Row(
                player=r.player,
                rank=len(top) + r.rank - _ahead(qualifying, r, final_points),
                points=r.points,
                game_points=r.game_points,
                penalty=r.penalty,
                games=r.games,
                places=list(r.places),
                best_game=r.best_game,
                shared=r.shared,
                withdrawn=r.withdrawn,
            )
        )
    return out


def _ahead(qualifying: list[Row], row: Row, finalists_points: dict[int, Decimal]) -> int:
    """How many finalists ranked above ``row`` in qualifying (their places move to the top)."""
    return sum(1 for r in qualifying if r.player in finalists_points and r.rank < row.rank)


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
