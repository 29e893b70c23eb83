import datetime as dt

import pytest

from kyoku.principals import SYSTEM

from events import services
from league import services as league_services
from league.models import Player
from tests.actors import make_player_user

SCORES = [48000, 32000, 12000, 8000]


@pytest.fixture
def rules(db):
    return league_services.rule_set_create(
        name="M-League", slug="mleague-ev", preset="mleague", is_template=True, actor=SYSTEM
    )


@pytest.fixture
def field(db):
    """Sixteen players, the first four with logins (p0 … p3)."""
    players = [
        Player.objects.create(display_name=f"Ev Player {i:02d}", membership_number=f"EV{i:03d}") for i in range(16)
    ]
    for i in range(4):
        make_player_user(f"p{i}", players[i])
    return players


@pytest.fixture
def event(league, admin, rules):
    return services.event_create(
        league=league,
        name="Autumn Open",
        slug="autumn-open",
        starts_on=dt.date(2026, 11, 28),
        ends_on=dt.date(2026, 11, 29),
        rule_set=rules,
        capacity=16,
        rounds=4,
        round_minutes=60,
        cut=4,
        actor=admin,
    )


@pytest.fixture
def running(event, field, admin):
    """Sixteen checked in, the event running, its four qualifying rounds seated."""
    for p in field:
        reg = services.registration_add(event=event, player=p, actor=admin)
        services.checkin_set(registration=reg, present=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=2)
    event.refresh_from_db()
    return event


@pytest.fixture
def in_play(running, admin):
    """``running`` with round 1's clock started: its tables report (the round is in play)."""
    services.round_clock_set(round_=running.round_set.get(number=1), action="start", actor=admin)
    return running
