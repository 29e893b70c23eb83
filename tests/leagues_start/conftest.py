"""Starting a league in the app, role invitations and the event director (league.services.leagues,
kyoku.roles, kyoku.authz's DIRECTOR)."""

import pytest
from django.test import Client

from kyoku.models import AuditLog, League, LeagueRole, RoleInvitation
from league.models import Division, RuleSet, Season
from tests.actors import make_user


def start_data(**changes) -> dict:
    """A valid start of a league: WRC rules, 2027 season 1, divisions A and B."""
    data = {
        "preset": "wrc",
        "name": "Harbour League",
        "name_zh": "海港聯賽",
        "slug": "harbour",
        "languages": ["en", "zh-hant"],
        "time_zone": "Asia/Hong_Kong",
        "promotion_count": "2",
        "season_year": "2027",
        "season_number": "1",
        "season_label": "",
        "starts_on": "2027-01-10",
        "ends_on": "2027-06-30",
        "division_0_code": "A",
        "division_0_name": "A Division",
        "division_0_name_zh": "甲組",
        "division_1_code": "B",
        "division_1_name": "B Division",
        "division_1_name_zh": "乙組",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def counts() -> dict:
    """How many rows of each kind a start writes."""
    return {
        m.__name__: m.objects.count() for m in (League, LeagueRole, RuleSet, Season, Division, AuditLog, RoleInvitation)
    }


@pytest.fixture
def founder(db):
    return make_user("founder", email="founder@example.org")


@pytest.fixture
def founder_client(founder) -> Client:
    client = Client()
    client.force_login(founder)
    return client


@pytest.fixture
def superuser(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("site", "site@example.org", "site-pw-123")


@pytest.fixture
def open_start(settings):
    settings.LEAGUE_START = "open"


@pytest.fixture
def approval_start(settings):
    settings.LEAGUE_START = "approval"
