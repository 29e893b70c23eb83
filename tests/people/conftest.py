import datetime as dt

import pytest
from django.test import Client

from kyoku.models import League, LeagueRole
from kyoku.principals import SYSTEM
from league.models import LeagueMembership
from tests.actors import make_role_user, make_user


@pytest.fixture
def roster(league, players):
    """Players 1-4 are members of ``league`` (its roster), none with an account."""
    for p in players[:4]:
        LeagueMembership.objects.create(league=league, player=p, via=LeagueMembership.Via.ADMIN)
    return players[:4]


@pytest.fixture
def elsewhere(db, players):
    """Another league, its admin, and players 5-6 its members."""
    other = League.objects.create(name="Other League", slug="other-league", promotion_count=1)
    for p in players[4:6]:
        LeagueMembership.objects.create(league=other, player=p, via=LeagueMembership.Via.ADMIN)
    other.admin = make_role_user("other-admin", other, LeagueRole.Role.ADMIN)
    return other


def verified(user, email: str, *, ok: bool = True):
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.create(user=user, email=email, verified=ok, primary=True)


@pytest.fixture
def person(db):
    """A signed-up account with no player, its address verified."""
    user = make_user("person", email="person@example.org")
    verified(user, "person@example.org")
    return user


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def rules(db):
    from league import services

    return services.rule_set_create(name="WRC", slug="wrc-people", preset="wrc", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, rules, players):
    from tests.actors import open_season

    return open_season(league, rules, players[:4])


@pytest.fixture
def event_of(rules):
    def make(league, actor, slug="people-open"):
        from events import services

        return services.event_create(
            league=league,
            name=f"Open {slug}",
            slug=slug,
            starts_on=dt.date(2026, 12, 5),
            ends_on=dt.date(2026, 12, 5),
            rule_set=rules,
            capacity=16,
            rounds=1,
            actor=actor,
        )

    return make
