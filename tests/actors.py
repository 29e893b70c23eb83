"""Logins for the named actors of the tests (password: ``<name>-pw-123``), and the small open
season the test folders build on."""

from django.contrib.auth import get_user_model
from kyoku.principals import SYSTEM


def make_user(name: str, **extra):
    return get_user_model().objects.create_user(name, password=f"{name}-pw-123", **extra)


def make_role_user(name: str, league, role: str):
    """A login holding ``role`` (LeagueRole.Role) in ``league``."""
    from kyoku.models import LeagueRole

    user = make_user(name)
    LeagueRole.objects.create(league=league, user=user, role=role)
    return user


def make_player_user(name: str, player):
    """A login that is ``player``."""
    user = make_user(name)
    player.user = user
    player.save()
    return user


def open_season(league, rule_set, players, *, number=1, per_division=4):
    """An open season under ``rule_set``: players 1-4 in division A, the next ones in B."""
    from league import services

    season = services.season_create(league=league, year=2026, number=number, rule_set=rule_set, actor=SYSTEM)
    services.season_status_set(season=season, status="open", actor=SYSTEM)
    for i, p in enumerate(players):
        services.entry_create(
            division=season.divisions.get(code="A" if i < per_division else "B"), player=p, actor=SYSTEM
        )
    return season
