"""Who may do what. A superuser counts as admin and referee everywhere."""

from __future__ import annotations

from .models import LeagueRole


def _has_role(user, role: str, league=None) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    roles = getattr(user, "_kyoku_roles", None)
    if roles is None:
        roles = set(LeagueRole.objects.filter(user=user).values_list("league_id", "role"))
        user._kyoku_roles = roles  # cached per request (the user object lives one request)
    return any(r == role and (league is None or lid == league.pk) for lid, r in roles)


def is_admin(user, league=None) -> bool:
    return _has_role(user, LeagueRole.Role.ADMIN, league)


def is_referee(user, league=None) -> bool:
    return _has_role(user, LeagueRole.Role.REFEREE, league) or is_admin(user, league)


def player_of(user):
    if not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "player", None)
