"""Named actors and a small league for the referee app (the season of tests/actors.py under WRC).

admin (league admin), referee and referee2 (two referees: appeals need a different one), member
(a player with a login who sits at ``game``), bystander (a player with a login who does not),
outsider (a login with no role).
"""

import pytest
from league import services
from kyoku.models import LeagueRole
from tests.actors import make_player_user, make_role_user, open_season
from kyoku.principals import SYSTEM


@pytest.fixture
def referee2(league):
    return make_role_user("referee2", league, LeagueRole.Role.REFEREE)


@pytest.fixture
def bystander(players):
    """Player 5: a player with a login who is not at ``game``."""
    return make_player_user("bystander", players[4])


@pytest.fixture
def wrc_rules(db):
    return services.rule_set_create(name="WRC", slug="wrc", preset="wrc", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, wrc_rules, players):
    return open_season(league, wrc_rules, players)


@pytest.fixture
def game2(division_a, players):
    return services.game_create(division=division_a, match_day=2, table=1, players=players[:4], actor=SYSTEM)


@pytest.fixture
def played(game, admin):
    """``game`` with a result and standings (WRC: 30000 start points)."""
    services.game_result_record(game=game, scores=[48000, 35800, 21000, 15200], actor=admin)
    services.standings_recompute(division=game.division)
    return game


def ev(t, seat, act, **kw):
    return {"t": t, "seat": seat, "act": act, **kw}


def incident_1(extra=()):
    """Seed 003, incident 1: North (seat 3) short from the deal, claims after South discarded."""
    return [
        ev(0, 0, "discard", settled_t=300),
        ev(1000, 1, "draw"),
        ev(2000, 1, "discard", settled_t=2200),
        ev(3000, 3, "claim_deal_incomplete", kind="short"),
        *extra,
    ]


def incident_2(late_t=30000):
    """Seed 003, incident 2: West wins; much later South claims a head bump."""
    return [
        ev(0, 0, "discard", settled_t=200),
        ev(800, 1, "draw"),
        ev(1500, 1, "discard"),
        ev(2200, 2, "draw"),
        ev(3000, 2, "discard"),
        ev(3600, 3, "touch_wall"),
        ev(3700, 3, "draw"),
        ev(4000, 3, "discard", settled_t=4200),
        ev(4600, 2, "ron"),
        ev(late_t, 1, "ron"),
    ]


def harmful():
    """Incident 1 where South's early discard made North miss a call: South (seat 1) penalised."""
    return incident_1([ev(3100, 3, "harm", by=2, kind="missed_call")])


class _Timelines:
    ev = staticmethod(ev)
    incident_1 = staticmethod(incident_1)
    incident_2 = staticmethod(incident_2)
    harmful = staticmethod(harmful)


@pytest.fixture
def tl():
    """Timelines of seed 003 (``tl.incident_1()``, ``tl.incident_2()``, ``tl.harmful()``, ``tl.ev``)."""
    return _Timelines
