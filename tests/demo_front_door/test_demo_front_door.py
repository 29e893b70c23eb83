"""The demo's front door (demo/front_door.py, README "Start a league"): the invitations, the person
waiting, the league waiting for a site admin and the league requiring two factors are there, made
by the services (audited), and each login the README names sees them."""

import pyotp
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from demo.front_door import DIRECTOR_TOTP_SECRET
from kyoku.models import AuditLog, League, LeagueRole, RoleInvitation
from kyoku.second_factor import has_second_factor, second_factor_missing
from league.models import Player
from people.models import ClaimInvitation, LinkRequest
from tests.accounts.conftest import sign_in


def _signed_in(login: str, password: str, totp: str = "") -> Client:
    client = Client()
    response = sign_in(client, login, password)
    if totp:
        assert response.status_code == 302 and response["Location"] == "/accounts/2fa/authenticate/"
        response = client.post(response["Location"], {"code": pyotp.TOTP(totp).now()})
    assert response.status_code == 302 and response["Location"] == "/", response
    return client


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_front_door_rows(demo):
    users = get_user_model().objects
    claim = ClaimInvitation.objects.get()
    assert (claim.league.slug, claim.player.membership_number, claim.email) == (
        "hkrl",
        "HK0002",
        "wong.siuming@example.org",
    )
    assert claim.used_at is None and claim.revoked_at is None and claim.sent_at is not None
    waiting = RoleInvitation.objects.get(accepted_at__isnull=True)
    assert (waiting.league.slug, waiting.role, waiting.email) == ("hkrl", "referee", "referee2@example.org")
    request = LinkRequest.objects.get()
    assert (request.user.username, request.membership_number, request.player.display_name, request.status) == (
        "newmember",
        "HK0005",
        "Lau Chi Keung",
        "pending",
    )
    newmember = users.get(username="newmember")
    assert not Player.objects.filter(user=newmember).exists()
    pending = League.objects.get(slug="skrc")
    assert pending.approval == League.Approval.PENDING and pending.created_by == newmember
    club = League.objects.get(slug="strc")
    director = users.get(username="director")
    assert club.approval == League.Approval.ACTIVE and club.requires_second_factor
    assert set(LeagueRole.objects.filter(user=director).values_list("league__slug", "role")) == {
        ("hkrl", "director"),
        ("strc", "admin"),
    }
    assert has_second_factor(director) and not second_factor_missing(director, club)
    # the demo admin (a superuser, no second factor) reads the club but does not write there
    assert second_factor_missing(users.get(username="admin"), club)
    assert not second_factor_missing(users.get(username="admin"), League.objects.get(slug="hkrl"))
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {"claim.invite", "role.invite", "role.accept", "link_request.create", "league.start"} <= actions
    assert {"league.approve", "league.second_factor_set"} <= actions


@pytest.mark.parametrize("login", ["newmember", "newmember@example.org"])
def test_the_newmember_sees_the_request_and_the_league_waiting(demo, login):
    client = _signed_in(login, "kyoku-newmember")
    assert "HK0005" in _page(client, "/me/claim/")
    assert "Sai Kung Riichi Club" in _page(client, "/leagues/skrc/")
    assert Client().get("/leagues/skrc/").status_code == 403  # nobody else


def test_the_director_signs_in_with_the_readme_secret(demo):
    client = _signed_in("director", "kyoku-director", DIRECTOR_TOTP_SECRET)
    assert "Sha Tin Riichi Club" in _page(client, "/leagues/strc/")
    _page(client, "/leagues/strc/security/")
    _page(client, "/leagues/strc/members/")
    _page(client, "/events/")


def test_the_admin_sees_what_waits(demo):
    client = _signed_in("admin", "kyoku-admin")
    assert "referee2@example.org" in _page(client, "/leagues/hkrl/roles/")
    claims = _page(client, "/leagues/hkrl/claims/")
    assert "wong.siuming@example.org" in claims and "HK0005" in claims
    assert "Sai Kung Riichi Club" in _page(client, "/leagues/requests/")
