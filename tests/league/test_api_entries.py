"""A season's entries through the API: anyone lists them (like the standings), an admin of the
season's league adds one and removes one that has not played; the same services as the office page."""

import json

import pytest

from league import services
from kyoku.models import AuditLog, League
from league.models import Entry, Player
from tests.actors import make_role_user
from kyoku.principals import SYSTEM


@pytest.fixture
def newcomer(db):
    return Player.objects.create(display_name="Kelvin Yip", native_name="葉家樂", membership_number="M900")


@pytest.fixture
def other_admin(db):
    return make_role_user("other-admin", League.objects.create(name="Other League", slug="other"), "admin")


def _url(season, entry=None):
    return f"/api/seasons/{season.pk}/entries/" + (f"{entry.pk}/" if entry else "")


def test_anyone_lists_the_entries_by_division(api, season, players):
    listed = api.get(_url(season)).json()
    assert listed["count"] == 8 and {r["player"]["id"] for r in listed["results"]} == {p.pk for p in players}
    b = season.divisions.get(code="B")
    in_b = api.get(_url(season), {"division": b.pk}).json()
    assert sorted(r["player"]["display_name"] for r in in_b["results"]) == [f"Player {i}" for i in (5, 6, 7, 8)]
    paged = api.get(_url(season), {"limit": 3, "offset": 6}).json()
    assert paged["count"] == 8 and len(paged["results"]) == 2


def test_a_missing_season_is_404_and_a_bad_filter_400(api, season):
    assert api.get("/api/seasons/999999/entries/").status_code == 404
    response = api.get(_url(season), {"division": "x"})
    assert response.status_code == 400 and "division" in response.json()["errors"]


def test_admin_adds_an_entry(as_user, season, admin, newcomer):
    b = season.divisions.get(code="B")
    response = as_user(admin).post(_url(season), {"division": b.pk, "player": newcomer.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["player"]["display_name"] == "Kelvin Yip" and response.json()["division"] == b.pk
    assert Entry.objects.get(player=newcomer).division == b
    assert AuditLog.objects.filter(action="entry.create", actor=admin).count() == 1


def test_it_validates_ownership(as_user, api, season, players, newcomer, member, referee, other_admin):
    """An admin of another league, a referee, a player and anonymous change nothing."""
    a = season.divisions.get(code="A")
    entry = Entry.objects.get(player=players[7])
    before = (Entry.objects.count(), AuditLog.objects.count())
    for user in (other_admin, referee, member):
        client = as_user(user)
        assert client.post(_url(season), {"division": a.pk, "player": newcomer.pk}, format="json").status_code == 403
        assert client.delete(_url(season, entry)).status_code == 403
    api.force_authenticate(None)
    assert api.post(_url(season), {"division": a.pk, "player": newcomer.pk}, format="json").status_code in (401, 403)
    assert api.delete(_url(season, entry)).status_code in (401, 403)
    assert (Entry.objects.count(), AuditLog.objects.count()) == before


@pytest.mark.parametrize(
    "body,field",
    [
        ({"division": "A", "player": 1}, "division"),
        ({"division": 2**40, "player": 1}, "division"),  # fits JSON, not the database
        ({"division": 10**30, "player": 1}, "division"),  # refused by the parser, path named
        ({"player": 1}, "division"),
        ({"division": 1, "player": "\udfff"}, "player"),  # a lone surrogate
        ({"division": 1, "player": "1\x00"}, "player"),  # a NUL
        ({"division": 1, "player": 1, "basis": "promoted"}, "basis"),  # unknown key
    ],
)
def test_bad_input_names_the_field(as_user, season, admin, body, field):
    payload = {k: v for k, v in body.items()}
    if payload.get("division") == 1:
        payload["division"] = season.divisions.get(code="A").pk
    before = Entry.objects.count()
    response = as_user(admin).generic("POST", _url(season), json.dumps(payload), content_type="application/json")
    assert response.status_code == 400, response.content
    assert field in response.json()["field"], response.json()
    assert Entry.objects.count() == before


def test_unknown_player_entered_player_and_foreign_division_are_400(
    as_user, season, admin, players, league, mleague_rules, newcomer
):
    client = as_user(admin)
    a = season.divisions.get(code="A")
    later = services.season_create(league=league, year=2026, number=2, rule_set=mleague_rules, actor=SYSTEM)
    cases = [
        ({"division": a.pk, "player": 987654}, "player", "unknown player"),
        ({"division": a.pk, "player": players[0].pk}, "player", "already has an entry"),
        ({"division": later.divisions.get(code="A").pk, "player": newcomer.pk}, "division", "not a division"),
    ]
    for body, field, words in cases:
        response = client.post(_url(season), body, format="json")
        assert response.status_code == 400 and words in response.json()["errors"][field][0], response.json()
    assert not Entry.objects.filter(player=newcomer).exists()


def test_admin_removes_an_entry_that_has_not_played(as_user, season, admin, players):
    entry = Entry.objects.get(player=players[7])
    response = as_user(admin).delete(_url(season, entry))
    assert response.status_code == 204
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert AuditLog.objects.filter(action="entry.remove", actor=admin).count() == 1


def test_an_entry_with_games_stays(as_user, season, admin, chombo_game, players):
    entry = Entry.objects.get(player=players[0])  # East of the finished chombo game
    response = as_user(admin).delete(_url(season, entry))
    assert response.status_code == 409 and "entry" in response.json()["errors"]
    assert Entry.objects.filter(pk=entry.pk).exists()
    assert not AuditLog.objects.filter(action="entry.remove").exists()


def test_an_entry_of_another_season_is_404(as_user, season, admin, league, mleague_rules, newcomer):
    later = services.season_create(league=league, year=2026, number=2, rule_set=mleague_rules, actor=SYSTEM)
    elsewhere = services.entry_create(division=later.divisions.get(code="A"), player=newcomer, actor=SYSTEM)
    assert as_user(admin).delete(_url(season, elsewhere)).status_code == 404
    assert Entry.objects.filter(pk=elsewhere.pk).exists()


def test_the_same_idempotency_key_adds_once(as_user, season, admin, newcomer):
    client = as_user(admin)
    body = {"division": season.divisions.get(code="B").pk, "player": newcomer.pk}
    first = client.post(_url(season), body, format="json", HTTP_IDEMPOTENCY_KEY="entry-kelvin")
    again = client.post(_url(season), body, format="json", HTTP_IDEMPOTENCY_KEY="entry-kelvin")
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert first.json() == again.json()
    assert Entry.objects.filter(player=newcomer).count() == 1
    entry = Entry.objects.get(player=newcomer)
    gone = [client.delete(_url(season, entry), HTTP_IDEMPOTENCY_KEY="remove-kelvin") for _ in range(2)]
    assert [r.status_code for r in gone] == [204, 204]
    assert AuditLog.objects.filter(action="entry.remove").count() == 1
