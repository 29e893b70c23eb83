"""A season's games through the API: anyone lists them (paged, by division and status), an admin
of the season's league creates one with four entered players in seat order (the office's service)."""

import json

import pytest

from league import services
from kyoku.models import AuditLog, League
from league.models import Game, GameSeat, Player
from tests.actors import make_role_user
from kyoku.principals import SYSTEM


@pytest.fixture
def other_admin(db):
    return make_role_user("other-admin", League.objects.create(name="Other League", slug="other"), "admin")


def _url(season):
    return f"/api/seasons/{season.pk}/games/"


def _body(season, entrants, **extra):
    """Match day 2, table 1 of division B (players 5-8), with ``extra`` changing any key."""
    return {
        "division": season.divisions.get(code="B").pk,
        "match_day": 2,
        "table": 1,
        "players": [p.pk for p in entrants[4:8]],
        **extra,
    }


def test_admin_creates_a_game_with_four_seats(as_user, season, admin, players):
    body = _body(
        season,
        players,
        players=[players[6].pk, players[4].pk, players[7].pk, players[5].pk],
        scheduled_at="2026-04-11T14:00:00+08:00",
    )
    response = as_user(admin).post(_url(season), body, format="json")
    assert response.status_code == 201, response.content
    made = response.json()
    assert (made["division_code"], made["match_day"], made["table"], made["status"]) == ("B", 2, 1, "scheduled")
    assert [(s["seat"], s["player"]["display_name"]) for s in made["seats"]] == [
        (0, "Player 7"),
        (1, "Player 5"),
        (2, "Player 8"),
        (3, "Player 6"),
    ]
    game = Game.objects.get(pk=made["id"])
    assert game.season == season and game.scheduled_at.isoformat() == "2026-04-11T06:00:00+00:00"
    assert AuditLog.objects.filter(action="game.create", actor=admin, object_id=str(game.pk)).count() == 1


def test_anyone_lists_the_games_paged_and_filtered(api, season, players, chombo_game, admin):
    b = season.divisions.get(code="B")
    for day in (1, 2):
        services.game_create(division=b, match_day=day, table=1, players=players[4:8], actor=SYSTEM)
    listed = api.get(_url(season)).json()
    assert listed["count"] == 3 and [g["match_day"] for g in listed["results"]] == [1, 1, 2]
    in_b = api.get(_url(season), {"division": b.pk}).json()
    assert [(g["division_code"], g["match_day"]) for g in in_b["results"]] == [("B", 1), ("B", 2)]
    finished = api.get(_url(season), {"status": "finished"}).json()
    assert [g["id"] for g in finished["results"]] == [chombo_game.pk]
    assert api.get(_url(season), {"limit": 1, "offset": 2}).json()["results"][0]["match_day"] == 2
    assert api.get(_url(season), {"status": "nonsense"}).status_code == 400
    assert api.get(_url(season), {"limit": "-1"}).status_code == 400


def test_it_validates_ownership(as_user, api, season, players, member, referee, other_admin):
    """An admin of another league, a referee, a player and anonymous create nothing."""
    for user in (other_admin, referee, member):
        assert as_user(user).post(_url(season), _body(season, players), format="json").status_code == 403
    api.force_authenticate(None)
    assert api.post(_url(season), _body(season, players), format="json").status_code in (401, 403)
    assert not Game.objects.exists() and not AuditLog.objects.filter(action="game.create").exists()


def test_another_leagues_admin_cannot_use_their_own_division_here(as_user, season, players, other_admin, mleague_rules):
    """The season in the URL decides: a division of the other admin's own league is refused too."""
    own = services.season_create(
        league=League.objects.get(slug="other"), year=2026, number=1, rule_set=mleague_rules, actor=SYSTEM
    )
    body = _body(season, players, division=own.divisions.get(code="A").pk)
    assert as_user(other_admin).post(_url(season), body, format="json").status_code == 403
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "change,field",
    [
        ({"division": 2**40}, "division"),
        ({"division": 10**30}, "division"),
        ({"match_day": 0}, "match_day"),
        ({"table": 100}, "table"),
        ({"table": "\udfff"}, "table"),
        ({"players": [1, 2, 3]}, "players"),
        ({"players": [1, 2, 3, 2**40]}, "players"),
        ({"players": "1,2,3,4"}, "players"),
        ({"scheduled_at": "tomorrow"}, "scheduled_at"),
        ({"seats": [1, 2, 3, 4]}, "seats"),  # unknown key
    ],
)
def test_bad_input_names_the_field(as_user, season, admin, players, change, field):
    body = {**_body(season, players), **change}
    response = as_user(admin).generic("POST", _url(season), json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    assert field in response.json()["field"], response.json()
    assert not Game.objects.exists()


def test_the_services_refusals_name_the_field(as_user, season, admin, players, league, mleague_rules):
    client = as_user(admin)
    stranger = Player.objects.create(display_name="Stranger", membership_number="M999")
    later = services.season_create(league=league, year=2026, number=2, rule_set=mleague_rules, actor=SYSTEM)
    cases = [
        (_body(season, players, players=[p.pk for p in players[:4]]), "players", "not entered in"),  # A players in B
        (_body(season, players, players=[players[4].pk] * 2 + [p.pk for p in players[5:7]]), "players", "two seats"),
        (_body(season, players, players=[p.pk for p in players[4:7]] + [stranger.pk]), "players", "not entered"),
        (_body(season, players, players=[p.pk for p in players[4:7]] + [987654]), "players", "unknown player"),
        (_body(season, players, division=later.divisions.get(code="B").pk), "division", "not a division"),
    ]
    for body, field, words in cases:
        response = client.post(_url(season), body, format="json")
        assert response.status_code == 400 and words in response.json()["errors"][field][0], response.json()
    assert client.post(_url(season), _body(season, players), format="json").status_code == 201
    taken = client.post(_url(season), _body(season, players), format="json")  # match day 2 already has table 1
    assert taken.status_code == 400 and "table" in taken.json()["errors"]
    assert Game.objects.count() == 1 and GameSeat.objects.count() == 4


def test_the_same_idempotency_key_creates_once(as_user, season, admin, players):
    client = as_user(admin)
    first = client.post(_url(season), _body(season, players), format="json", HTTP_IDEMPOTENCY_KEY="b-day2-t1")
    again = client.post(_url(season), _body(season, players), format="json", HTTP_IDEMPOTENCY_KEY="b-day2-t1")
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert first.json()["id"] == again.json()["id"] and Game.objects.count() == 1
    other = client.post(_url(season), _body(season, players, table=2), format="json", HTTP_IDEMPOTENCY_KEY="b-day2-t1")
    assert other.status_code == 422 and Game.objects.count() == 1  # one key, a different request
