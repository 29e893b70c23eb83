"""Named actors and a small league: owner-style fixtures as in healthchecks' tests.

admin (league admin), referee, member (a player with a login), outsider (a login with no role).
"""

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


@pytest.fixture
def mleague_rules(db):
    return services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True)


@pytest.fixture
def ema_rules(db):
    return services.rule_set_create(name="EMA", slug="ema", preset="ema", is_template=True)


@pytest.fixture
def season(league, mleague_rules, players):
    season = services.season_create(league=league, year=2026, number=1, rule_set=mleague_rules)
    services.season_status_set(season=season, status="open")
    for i, p in enumerate(players):
        services.entry_create(division=season.divisions.get(code="A" if i < 4 else "B"), player=p)
    return season


@pytest.fixture
def division_a(season):
    return season.divisions.get(code="A")


@pytest.fixture
def game(division_a, players):
    return services.game_create(division=division_a, match_day=1, table=1, players=players[:4])


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
