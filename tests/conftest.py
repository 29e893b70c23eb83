"""Shared test fixtures: named actors as in healthchecks' tests.

admin (league admin), referee, member (a player with a login), outsider (a login with no role),
and the league and players they belong to. Each test folder adds its own season and game.
"""

import pytest
from rest_framework.test import APIClient

from league.models import League, LeagueRole, Player
from tests.actors import make_user as _user


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # PBKDF2's deliberate slowness costs seconds per test with several named users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def league(db):
    return League.objects.create(name="Test League", name_zh="測試聯賽", slug="test", promotion_count=2)


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
def api():
    return APIClient()


@pytest.fixture
def as_user(api):
    def login(user):
        if user is not None:
            api.force_authenticate(user)
        return api
    return login
