"""Named actors for the security tests: the league of tests/conftest.py with an open WRC season,
a second league with its own admin and referee, a qualification tier and private storage in a
temporary folder."""

import pytest
from league import services
from kyoku.models import League, LeagueRole
from league.models import QualificationTier
from tests.actors import make_player_user, make_role_user, open_season
from kyoku.principals import SYSTEM


@pytest.fixture(autouse=True)
def _private_storage(settings, tmp_path):
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "private"
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def season(league, players):
    rules = services.rule_set_create(name="WRC", slug="wrc", preset="wrc", is_template=True, actor=SYSTEM)
    return open_season(league, rules, players)


@pytest.fixture
def other_league(db):
    return League.objects.create(name="Other League", slug="other")


@pytest.fixture
def other_admin(other_league):
    return make_role_user("other-admin", other_league, LeagueRole.Role.ADMIN)


@pytest.fixture
def other_referee(other_league):
    return make_role_user("other-referee", other_league, LeagueRole.Role.REFEREE)


@pytest.fixture
def bystander(players):
    """Player 6, with a login: not the owner of the member's applications."""
    return make_player_user("bystander", players[5])


@pytest.fixture
def tier(league):
    return QualificationTier.objects.create(
        league=league,
        code="1",
        description="Open",
        division_code="A",
        effective_year=2020,
        validity="yearly",
        requirements={},
    )
