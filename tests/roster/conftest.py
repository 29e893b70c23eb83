"""The roster's tests: the test league with its eight players as members (an open season entered
by the system), another league with a member of its own, and the admin's page client."""

import pytest
from django.test import Client

from kyoku.models import League, LeagueRole
from kyoku.principals import SYSTEM
from league import services
from league.models import LeagueMembership, Player
from tests.actors import make_role_user, open_season


@pytest.fixture
def rules(db):
    return services.rule_set_create(name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, rules, players):
    return open_season(league, rules, players)


@pytest.fixture
def other_league(db):
    return League.objects.create(name="Other League", slug="other", promotion_count=1)


@pytest.fixture
def stranger(other_league):
    """A member of the other league only."""
    player = Player.objects.create(
        display_name="Stranger", native_name="陌生人", membership_number="S-001", tenhou_id="hidden-id"
    )
    LeagueMembership.objects.create(league=other_league, player=player, via="system")
    return player


@pytest.fixture
def other_admin(other_league):
    return make_role_user("other-admin", other_league, LeagueRole.Role.ADMIN)


@pytest.fixture
def page(admin, season):
    client = Client()
    client.force_login(admin)
    return client
