"""The roster's API: the same services as the page (list and search, add, invite, edit)."""

from kyoku.models import AuditLog
from league.models import LeagueInvitation, LeagueMembership, Player


def test_list_and_search(as_user, admin, league, season):
    response = as_user(admin).get(f"/api/leagues/{league.slug}/members/", {"q": "選手2"})
    assert response.status_code == 200
    assert response.json()["count"] == 1
    assert response.json()["results"][0]["membership_number"] == "M002"


def test_add_a_member(as_user, admin, league, season):
    response = as_user(admin).post(
        f"/api/leagues/{league.slug}/members/",
        {"membership_number": "API-1", "display_name": " Api  Person ", "email": "api@example.org"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["display_name"] == "Api Person"
    player = Player.objects.get(membership_number="API-1")
    assert LeagueMembership.objects.get(league=league, player=player).contact_email == "api@example.org"


def test_add_refuses_in_words_and_unknown_keys(as_user, admin, league, season):
    client = as_user(admin)
    response = client.post(f"/api/leagues/{league.slug}/members/", {"membership_number": "API-2"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "display_name"
    response = client.post(
        f"/api/leagues/{league.slug}/members/", {"membership_number": "X", "bogus": 1}, format="json"
    )
    assert response.status_code == 400 and "bogus" in response.json()["detail"]
    assert not Player.objects.filter(membership_number__in=["API-2", "X"]).exists()


def test_a_number_of_another_league_invites_or_refuses(as_user, admin, league, season, stranger):
    client = as_user(admin)
    response = client.post(
        f"/api/leagues/{league.slug}/members/", {"membership_number": "S-001", "display_name": "x"}, format="json"
    )
    assert response.status_code == 400 and "Stranger" not in str(response.json())
    division = season.divisions.get(code="B")
    response = client.post(
        f"/api/leagues/{league.slug}/members/",
        {"membership_number": "S-001", "display_name": "x", "division": division.pk},
        format="json",
    )
    assert response.status_code == 202
    assert LeagueInvitation.objects.get(pk=response.json()["invitation"]).player == stranger


def test_patch_a_member(as_user, admin, league, players, season):
    client = as_user(admin)
    url = f"/api/leagues/{league.slug}/members/{players[0].pk}/"
    response = client.patch(url, {"tenhou_id": "api-tenhou", "email": "p1@example.org"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["tenhou_id"] == "api-tenhou" and response.json()["email"] == "p1@example.org"
    assert response.json()["display_name"] == "Player 1"  # untouched
    assert AuditLog.objects.filter(action="roster.edit", object_id=str(players[0].pk)).exists()
    response = client.patch(url, {"email": "bad"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "email"


def test_other_admin_and_non_member(as_user, other_admin, admin, league, players, stranger, season):
    assert (
        as_user(other_admin)
        .patch(f"/api/leagues/{league.slug}/members/{players[0].pk}/", {"tenhou_id": "x"}, format="json")
        .status_code
        == 403
    )
    assert as_user(admin).get(f"/api/leagues/{league.slug}/members/{stranger.pk}/").status_code == 404
