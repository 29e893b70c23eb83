"""Entries added and removed, games created, from the season office."""

import pytest
from django.urls import reverse

from league import services
from kyoku.models import AuditLog, League
from league.models import Entry, Game, Player
from tests.actors import make_role_user
from kyoku.principals import SYSTEM


@pytest.fixture
def newcomer(db):
    return Player.objects.create(display_name="Newcomer", membership_number="HK0999")


def test_add_then_remove_entry(client, season, admin, newcomer):
    client.force_login(admin)
    b = season.divisions.get(code="B")
    client.post(reverse("office-entries", args=[season.pk]), {"division": b.pk, "player": newcomer.pk})
    entry = Entry.objects.get(season=season, player=newcomer)
    assert entry.division == b
    assert "Newcomer" in client.get(reverse("office-entries", args=[season.pk])).content.decode()
    client.post(reverse("office-entry-remove", args=[season.pk, entry.pk]))
    assert not Entry.objects.filter(player=newcomer).exists()
    assert AuditLog.objects.filter(action__in=["entry.create", "entry.remove"], actor=admin).count() == 2


def test_entry_with_games_stays(client, season, admin, players):
    services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )
    client.force_login(admin)
    entry = Entry.objects.get(season=season, player=players[0])
    client.post(reverse("office-entry-remove", args=[season.pk, entry.pk]))
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_create_game_with_four_seats(client, season, admin, players):
    client.force_login(admin)
    a = season.divisions.get(code="A")
    seats = dict(zip(["east", "south", "west", "north"], [p.pk for p in players[:4]]))
    response = client.post(
        reverse("office-games", args=[season.pk]), {"division": a.pk, "match_day": 1, "table": 1, **seats}
    )
    game = Game.objects.get(division=a)
    assert response.status_code == 302
    assert list(game.seats.order_by("seat").values_list("player_id", flat=True)) == [p.pk for p in players[:4]]


def test_game_with_a_player_of_another_division_is_refused(client, season, admin, players):
    client.force_login(admin)
    a = season.divisions.get(code="A")
    seats = dict(zip(["east", "south", "west", "north"], [p.pk for p in players[3:7]]))
    response = client.post(
        reverse("office-games", args=[season.pk]), {"division": a.pk, "match_day": 1, "table": 1, **seats}
    )
    assert response.status_code == 200 and "not entered in" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("name", ["office-entries", "office-games", "office-entry-remove"])
def test_it_validates_ownership(client, season, member, players, newcomer, name):
    other = make_role_user("other-admin", League.objects.create(name="Other", slug="other"), "admin")
    entry = Entry.objects.get(season=season, player=players[7])
    args = [season.pk, entry.pk] if name == "office-entry-remove" else [season.pk]
    for user in (other, member):
        client.force_login(user)
        assert (
            client.post(
                reverse(name, args=args), {"division": season.divisions.get(code="B").pk, "player": newcomer.pk}
            ).status_code
            == 403
        )
    assert Entry.objects.filter(season=season).count() == 8 and not Game.objects.exists()
