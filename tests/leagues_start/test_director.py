"""The event director: runs the league's tournaments (new event, desk, check-in, seating, clock,
cut, signs, EMA file) and nothing else of the league (results, season office, roles, settings);
the menus lead them to the desk."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from events import services as events
from kyoku import authz
from kyoku.models import League, LeagueRole
from kyoku.principals import SYSTEM
from league import services as league_services
from league.models import GameResult, LeagueMembership, Player
from tests.actors import make_role_user, open_season


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def director(league):
    return make_role_user("director", league, LeagueRole.Role.DIRECTOR)


@pytest.fixture
def rules(db):
    return league_services.rule_set_create(name="WRC", slug="wrc-dir", preset="wrc", is_template=True, actor=SYSTEM)


@pytest.fixture
def members(league):
    players = [Player.objects.create(display_name=f"Dir {i}", membership_number=f"DIR{i:02d}") for i in range(8)]
    for p in players:
        LeagueMembership.objects.create(league=league, player=p, via=LeagueMembership.Via.SYSTEM)
    return players


@pytest.fixture
def event(league, director, rules, members):
    """An event the director made, ran check-in for, opened and seated: all as the director."""
    event = events.event_create(
        league=league,
        name="Director Cup",
        slug="director-cup",
        starts_on=dt.date(2026, 12, 5),
        ends_on=dt.date(2026, 12, 5),
        rule_set=rules,
        capacity=8,
        rounds=2,
        actor=director,
    )
    for p in members:
        events.checkin_set(
            registration=events.registration_add(event=event, player=p, actor=director), present=True, actor=director
        )
    events.event_status_set(event=event, status="running", actor=director)
    events.seating_plan(event=event, actor=director, time_limit=0.5)
    return event


def test_director_is_a_director_not_an_admin(league, director, admin, referee):
    assert authz.is_director(director, league) and authz.is_director(admin, league)
    assert not authz.is_director(referee, league)
    assert not authz.is_admin(director, league) and not authz.is_referee(director, league)
    other = League.objects.create(name="Other", slug="other-dir")
    assert not authz.is_director(director, other)


def test_director_runs_the_desk_clock_and_files(event, director):
    client = logged_in(director)
    assert client.get("/events/new/").status_code == 200
    desk = client.get(f"/events/{event.pk}/desk/")
    assert desk.status_code == 200
    round1 = event.round_set.get(number=1)
    response = client.post(f"/events/rounds/{round1.pk}/clock/", {"action": "start"})
    assert response.status_code == 302
    round1.refresh_from_db()
    assert round1.started_at is not None
    api = client.post(f"/api/events/rounds/{round1.pk}/clock", {"action": "pause"}, content_type="application/json")
    assert api.status_code == 200 and api.json()["state"] == "paused"
    assert client.get(f"/events/{event.pk}/signs/").status_code == 200
    ema = client.get(f"/events/{event.pk}/ema.csv")
    assert ema.status_code == 200 and ema["Content-Type"].startswith("text/csv")
    assert client.get(f"/api/events/{event.pk}/cut").status_code == 200
    # the menus: the tournaments list links the desk, the event's page too
    assert f"/events/{event.pk}/desk/".encode() in client.get("/events/").content
    assert f"/events/{event.pk}/desk/".encode() in client.get(f"/events/{event.pk}/").content
    assert b"Director&#x27;s desk" in client.get("/").content or b"Director's desk" in client.get("/").content


def test_director_cannot_enter_a_season_result_nor_run_the_league(league, director, rules, members):
    season = open_season(league, rules, members[:4])
    game = league_services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=members[:4], actor=SYSTEM
    )
    client = logged_in(director)
    page = client.post(
        f"/games/{game.pk}/result/", {"score_0": 40000, "score_1": 30000, "score_2": 20000, "score_3": 10000}
    )
    assert page.status_code == 403
    api = client.post(
        f"/api/games/{game.pk}/result/", {"scores": [40000, 30000, 20000, 10000]}, content_type="application/json"
    )
    assert api.status_code == 403
    assert not GameResult.objects.filter(game=game).exists()
    assert client.get(f"/office/seasons/{season.pk}/").status_code == 403
    assert client.get(f"/leagues/{league.slug}/roles/").status_code == 403
    assert client.get(f"/leagues/{league.slug}/settings/").status_code == 403
    assert client.get("/review/applications/").status_code == 403


def test_a_referee_and_another_leagues_director_do_not_run_the_desk(event, referee):
    other = League.objects.create(name="Other", slug="other-dir")
    elsewhere = make_role_user("elsewhere", other, LeagueRole.Role.DIRECTOR)
    for user in (referee, elsewhere):
        client = logged_in(user)
        assert client.get(f"/events/{event.pk}/desk/").status_code == 403
        assert client.get(f"/events/{event.pk}/signs/").status_code == 403
    assert logged_in(referee).get("/events/new/").status_code == 403
    # another league's director may make events in their own league only
    with pytest.raises(PermissionDenied):
        events.event_create(
            league=event.league,
            name="Not mine",
            slug="not-mine",
            starts_on=dt.date(2026, 12, 6),
            ends_on=dt.date(2026, 12, 6),
            rule_set=event.season.rule_set,
            capacity=8,
            rounds=1,
            actor=elsewhere,
        )
