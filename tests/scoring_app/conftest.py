"""Named actors and a small league (the pattern of tests/league/conftest.py), plus helpers for
hand-by-hand games: admin (league admin), referee, member (a player with a login), outsider."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league import services
from league.models import League, LeagueRole, Player


@pytest.fixture
def league(db):
    return League.objects.create(name="Test League", name_zh="測試聯賽", slug="test", promotion_count=2)


def _user(name, **extra):
    return get_user_model().objects.create_user(name, password=f"{name}-pw-123", **extra)


@pytest.fixture
def admin(league):
    user = _user("admin")
    LeagueRole.objects.create(league=league, user=user, role=LeagueRole.Role.ADMIN)
    return user


@pytest.fixture
def referee(league):
    user = _user("referee")
    LeagueRole.objects.create(league=league, user=user, role=LeagueRole.Role.REFEREE)
    return user


@pytest.fixture
def players(db):
    return [Player.objects.create(display_name=f"Player {i}", native_name=f"選手{i}", membership_number=f"M{i:03d}")
            for i in range(1, 9)]


@pytest.fixture
def member(players):
    user = _user("member")
    players[0].user = user
    players[0].save()
    return user


@pytest.fixture
def outsider(db):
    return _user("outsider")


def make_season(league, players, *, preset, number=1, overrides=None):
    rules = services.rule_set_create(name=preset, slug=f"{preset}-{number}", preset=preset,
                                     overrides=overrides or {}, is_template=True)
    season = services.season_create(league=league, year=2026, number=number, rule_set=rules)
    services.season_status_set(season=season, status="open")
    division = season.divisions.get(code="A")
    for p in players[:4]:
        services.entry_create(division=division, player=p)
    return season


def make_game(season, players, table=1):
    return services.game_create(division=season.divisions.get(code="A"), match_day=1, table=table,
                                players=players[:4])


@pytest.fixture
def season(league, players):
    return make_season(league, players, preset="mleague")


@pytest.fixture
def game(season, players):
    return make_game(season, players)


@pytest.fixture
def zj_game(league, players):
    return make_game(make_season(league, players, preset="zung-jung", number=2), players)


@pytest.fixture
def beijing_game(league, players):
    return make_game(make_season(league, players, preset="beijing", number=3), players)


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def as_user(api):
    def login(user):
        if user is not None:
            api.force_authenticate(user)
        return api
    return login
