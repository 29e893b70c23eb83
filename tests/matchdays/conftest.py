"""A season with all eight players in division A, two match days, and a reserve."""

import datetime

import pytest

from league import services as league_services
from league.models import Player
from matchdays import services
from matchdays.models import Reserve
from tests.actors import open_season
from kyoku.principals import SYSTEM


@pytest.fixture
def season(league, players):
    rules = league_services.rule_set_create(
        name="M-League", slug="mleague", preset="mleague", is_template=True, actor=SYSTEM
    )
    return open_season(league, rules, players, per_division=8)


@pytest.fixture
def day1(division_a):
    return services.match_day_create(
        division=division_a,
        number=1,
        date=datetime.date(2026, 12, 5),
        start_time=datetime.time(14, 0),
        venue="Wan Chai hall",
        actor=SYSTEM,
    )


@pytest.fixture
def day2(division_a):
    return services.match_day_create(
        division=division_a,
        number=2,
        date=datetime.date(2026, 12, 12),
        venue="Wan Chai hall",
        actor=SYSTEM,
    )


@pytest.fixture
def reserve(season):
    p = Player.objects.create(display_name="Reserve R", native_name="後備", membership_number="R001")
    Reserve.objects.create(season=season, player=p)
    return p
