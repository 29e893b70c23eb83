"""Reads for match day pages, the API and calendars."""

from kyoku import authz
from league.models import Game, GameSeat, Player

from .models import Attendance, MatchDay, Reserve, SeatingPlan

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
