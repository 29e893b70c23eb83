"""Reads for match day pages, the API and calendars."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from kyoku import authz
from league.models import Game, GameSeat, Player

from .models import Attendance, MatchDay, ReplacedGame, Reserve, SeatingPlan

WIND_NAMES = ("East", "South", "West", "North")


def seating_visible(plan: SeatingPlan | None, user) -> bool:
    """Drafts are for the league's admins; everyone sees a published seating."""
    if plan is None:
        return False
    return plan.published_revision is not None or authz.is_admin(user, plan.match_day.season.league)


def seating_tables(plan: SeatingPlan) -> list[dict]:
    """Tables with player objects and wind counts, for pages, the API and sheets."""
    ids = [p for t in plan.tables for p in t if p is not None] + list(plan.byes)
    players = Player.objects.in_bulk(ids)
    out = []
    for ti, t in enumerate(plan.tables, start=1):
        seats = [
            {"seat": s, "wind": WIND_NAMES[s], "player": players.get(p) if p is not None else None, "player_id": p}
            for s, p in enumerate(t)
        ]
        out.append({"number": ti, "seats": seats})
    return out


def bye_players(plan: SeatingPlan) -> list[Player]:
    players = Player.objects.in_bulk(plan.byes)
    return [players[p] for p in plan.byes if p in players]


def published_games(match_day: MatchDay):
    return (
        Game.objects.filter(division=match_day.division, match_day=match_day.number)
        .prefetch_related("seats__player", "substitutions__player_in", "substitutions__player_out")
        .order_by("table")
    )


def attendance_by_player(match_day: MatchDay) -> dict:
    return {a.player_id: a for a in Attendance.objects.filter(match_day=match_day)}


def reserves(match_day: MatchDay):
    return Reserve.objects.filter(season=match_day.season).select_related("player")


def player_games(player: Player):
    """A player's seats in games of published match days, for their calendar."""
    return (
        GameSeat.objects.filter(player=player)
        .select_related("game__division", "game__season__league")
        .order_by("game__scheduled_at", "game__match_day")
    )


@dataclass(frozen=True)
class SeatingChanges:
    """What publishing ``plan`` now would change in the match day's games: ``kept`` stay as they
    are (same id), ``retimed`` stay but start at another time, ``replaced`` maps a table number to
    the game whose seats change there (a new game takes its place), ``added`` are table numbers
    with no game yet, ``removed`` games whose table the plan no longer has."""

    kept: list[Game] = field(default_factory=list)
    retimed: list[Game] = field(default_factory=list)
    replaced: dict[int, Game] = field(default_factory=dict)
    added: list[int] = field(default_factory=list)
    removed: list[Game] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.retimed or self.replaced or self.added or self.removed)

    @property
    def gone(self) -> list[Game]:
        """The games publishing removes (replaced or dropped), by table."""
        return sorted([*self.replaced.values(), *self.removed], key=lambda g: g.table)

    @property
    def tables(self) -> list[int]:
        """The table numbers whose players are told (a new game, or a new time)."""
        return sorted({*self.replaced, *self.added, *(g.table for g in self.retimed)})


def match_day_start(match_day: MatchDay) -> datetime.datetime | None:
    """When the match day's games start (its date and start time), None without a start time."""
    if not match_day.start_time:
        return None
    return timezone.make_aware(datetime.datetime.combine(match_day.date, match_day.start_time))


def seating_changes(plan: SeatingPlan) -> SeatingChanges:
    """Compare the plan's full tables (a table with a substitute's seat open is not published) with
    the games the match day has: a table keeps its game while the same players sit in the same
    seats (a substitution made since counts as a change the plan undoes)."""
    match_day = plan.match_day
    when = match_day_start(match_day)
    games = {g.table: g for g in published_games(match_day)}
    changes = SeatingChanges()
    full = {number: t for number, t in enumerate(plan.tables, start=1) if None not in t}
    for number, table in sorted(full.items()):
        game = games.get(number)
        if game is None:
            changes.added.append(number)
        elif [s.player_id for s in sorted(game.seats.all(), key=lambda s: s.seat)] != list(table):
            changes.replaced[number] = game
        elif game.scheduled_at != when:
            changes.retimed.append(game)
        else:
            changes.kept.append(game)
    changes.removed.extend(g for number, g in sorted(games.items()) if number not in full)
    return changes


@dataclass(frozen=True)
class Replacement:
    """A replaced game's page: the table it was, and where things stand now."""

    replaced: ReplacedGame
    match_day: MatchDay | None  # the league's match day (None: a tournament's round)
    event: Any  # the tournament whose round it was (events.Event), None for a league's match day
    earlier: list[Player]  # who sat at the table, East first
    now: Game | None  # the game at the same table now
    moved: list[tuple[Player, Game | None]]  # each earlier player and their game now (None: no table)


def game_replacement(replaced: ReplacedGame) -> Replacement:
    games = list(
        Game.objects.filter(division=replaced.division_id, match_day=replaced.match_day)
        .prefetch_related("seats__player")
        .order_by("table")
    )
    where = {s.player_id: g for g in games for s in g.seats.all()}
    players = Player.objects.in_bulk(replaced.players)
    earlier = [players[p] for p in replaced.players if p in players]
    season = replaced.division.season
    return Replacement(
        replaced=replaced,
        match_day=MatchDay.objects.filter(division=replaced.division_id, number=replaced.match_day).first(),
        event=getattr(season, "event", None) if season.kind != "league" else None,
        earlier=earlier,
        now=next((g for g in games if g.table == replaced.table), None),
        moved=[(p, where.get(p.pk)) for p in earlier],
    )
