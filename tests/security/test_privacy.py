"""The privacy rule (docs/privacy.md): a player's membership number and online account names are
shown only to the player and to admins of a league the player belongs to, on the page and in the
API; everybody else sees the public record (name, results, standings)."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

PRIVATE = ("membership_number", "tenhou_id", "mahjong_soul_id")


@pytest.fixture
def member_player(season, players, member):
    player = players[0]
    player.tenhou_id = "TenhouName1"
    player.mahjong_soul_id = "Soul-000123"
    player.save()
    return player


def _actor(name, request):
    return None if name == "anonymous" else request.getfixturevalue(name)


ALLOWED = {
    "anonymous": False,
    "bystander": False,
    "referee": False,
    "other_admin": False,
    "member": True,
    "admin": True,
}


@pytest.mark.parametrize("actor", sorted(ALLOWED))
def test_player_page(client, member_player, actor, request):
    user = _actor(actor, request)
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("player", args=[member_player.pk])).content.decode()
    assert member_player.display_name in page
    for secret in (member_player.membership_number, "TenhouName1", "Soul-000123"):
        assert (secret in page) is ALLOWED[actor], (actor, secret)


@pytest.mark.parametrize("actor", sorted(ALLOWED))
def test_player_api(member_player, actor, request):
    api = APIClient()
    user = _actor(actor, request)
    if user is not None:
        api.force_authenticate(user)
    one = api.get(f"/api/players/{member_player.pk}/").json()
    listed = next(
        p for p in api.get("/api/players/", {"page_size": 100}).json()["results"] if p["id"] == member_player.pk
    )
    for data in (one, listed):
        assert data["display_name"] == member_player.display_name
        assert all((data[field] is not None) is ALLOWED[actor] for field in PRIVATE), (actor, data)


@pytest.mark.parametrize("actor", ["anonymous", "bystander", "referee"])
def test_membership_number_lookup_is_an_admins_tool(member_player, actor, request):
    api = APIClient()
    user = _actor(actor, request)
    if user is not None:
        api.force_authenticate(user)
    response = api.get("/api/players/", {"membership_number": member_player.membership_number})
    assert response.status_code in (401, 403)


def test_admin_looks_a_player_up_by_membership_number(member_player, admin):
    api = APIClient()
    api.force_authenticate(admin)
    rows = api.get("/api/players/", {"membership_number": member_player.membership_number}).json()["results"]
    assert [r["id"] for r in rows] == [member_player.pk]


@pytest.mark.parametrize("route", ["standings", "results"])
def test_exports_carry_no_private_field(client, member_player, season, route):
    url = (
        reverse("standings-export", args=[season.pk, "A", "json"])
        if route == "standings"
        else reverse("results-export", args=[season.pk, "json"])
    )
    body = client.get(url).content.decode()
    for secret in (member_player.membership_number, "TenhouName1", "Soul-000123"):
        assert secret not in body


@pytest.mark.parametrize("actor", ["anonymous", "admin"])
def test_standings_api_lists_no_private_field(member_player, season, actor, request):
    # a public list: the player's own page is where the private details are shown to who may see them
    api = APIClient()
    user = _actor(actor, request)
    if user is not None:
        api.force_authenticate(user)
    division = season.divisions.get(code="A")
    response = api.get(f"/api/divisions/{division.pk}/standings/")
    assert response.status_code == 200
    body = response.content.decode()
    assert member_player.display_name in body
    for secret in (member_player.membership_number, "TenhouName1", "Soul-000123"):
        assert secret not in body
