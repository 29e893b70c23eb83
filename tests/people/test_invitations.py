"""A league's admin invites a member's person to claim their player; only the account holding the
address, verified, may accept; the link works once, until it expires or is revoked."""

import datetime as dt
import re
import smtplib

import pytest
from django.core import mail
from django.utils import timezone

from kyoku.models import AuditLog
from league.models import LeagueMembership
from people.models import ClaimInvitation
from people.services import claim_invitation_send, token_hash
from kyoku.principals import SYSTEM
from tests.actors import make_player_user, make_user
from tests.people.conftest import login, verified

pytestmark = pytest.mark.django_db


def _send(client, league, player, email="person@example.org"):
    return client.post(f"/leagues/{league.slug}/claims/", {"action": "send", "player": player.pk, "email": email})


def _token_from_mail() -> str:
    return re.search(r"/claim/([A-Za-z0-9_-]+)/", mail.outbox[-1].body).group(1)


def test_an_admin_sends_an_invitation_by_email_and_only_its_hash_is_stored(admin, league, roster):
    response = _send(login(admin), league, roster[0], "  Person@Example.ORG ")
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["person@example.org"]
    token = _token_from_mail()
    invitation = ClaimInvitation.objects.get()
    assert invitation.email == "person@example.org" and invitation.state == "pending"
    assert invitation.token_hash == token_hash(token) and token not in invitation.token_hash
    assert invitation.expires_at - invitation.created_at == dt.timedelta(days=14)
    assert invitation.sent_at is not None
    assert AuditLog.objects.filter(action="claim.invite", object_id=str(invitation.pk)).count() == 1
    page = login(admin).get(f"/leagues/{league.slug}/claims/").content.decode()
    assert "person@example.org" in page and "Player 1" in page


def test_the_claims_page_names_the_member_it_was_opened_for(admin, league, roster):
    LeagueMembership.objects.filter(player=roster[2]).update(contact_email="three@example.org")
    page = login(admin).get(f"/leagues/{league.slug}/claims/?player={roster[2].pk}").content.decode()
    assert 'value="three@example.org"' in page
    assert f'value="{roster[2].pk}" selected' in page


@pytest.mark.parametrize(
    "email,words",
    [
        ("陳大文@例子.香港", "Latin letters"),
        ("not-an-address", "not an email address"),
        ("", "This field is required"),
    ],
)
def test_a_bad_address_is_refused_naming_the_field(admin, league, roster, email, words):
    response = _send(login(admin), league, roster[0], email)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert 'id="id_email"' in response.content.decode()
    assert not ClaimInvitation.objects.exists() and not mail.outbox


def test_a_player_of_another_league_or_already_linked_cannot_be_invited(admin, league, roster, elsewhere, players):
    response = _send(login(admin), league, players[4])  # a member of the other league only
    assert response.status_code == 400
    make_player_user("taken", roster[1])
    response = _send(login(admin), league, roster[1])
    assert response.status_code == 400
    with pytest.raises(Exception, match="already linked"):
        claim_invitation_send(
            league=league, player=roster[1], email="a@example.org", base_url="http://x/", actor=SYSTEM
        )
    assert not ClaimInvitation.objects.exists() and not mail.outbox


def test_another_leagues_admin_cannot_see_or_send(league, roster, elsewhere):
    client = login(elsewhere.admin)
    assert client.get(f"/leagues/{league.slug}/claims/").status_code == 403
    assert _send(client, league, roster[0]).status_code == 403
    assert not ClaimInvitation.objects.exists()


class Down:
    """An email backend whose server is down."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise smtplib.SMTPConnectError(421, "down")


def test_mail_server_down_keeps_the_invitation_to_send_again(admin, league, roster, settings):
    settings.EMAIL_BACKEND = "tests.people.test_invitations.Down"
    client = login(admin)
    response = _send(client, league, roster[0])
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "did not take the email" in page
    invitation = ClaimInvitation.objects.get()
    assert invitation.sent_at is None and invitation.state == "pending"
    old_hash = invitation.token_hash
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = login(admin).post(f"/leagues/{league.slug}/claims/", {"action": "resend", "invitation": invitation.pk})
    assert response.status_code == 302 and len(mail.outbox) == 1
    invitation.refresh_from_db()
    assert invitation.sent_at is not None and invitation.token_hash != old_hash
    assert invitation.token_hash == token_hash(_token_from_mail())


def test_a_league_sends_a_limited_number_a_day(admin, league, roster, settings):
    settings.THROTTLE_LIMITS = {"claim_invite_league": (2, 86400)}
    client = login(admin)
    assert _send(client, league, roster[0]).status_code == 302
    assert _send(client, league, roster[1]).status_code == 302
    response = _send(client, league, roster[2])
    assert response.status_code == 429 and "Retry-After" in response
    assert ClaimInvitation.objects.count() == 2


@pytest.fixture
def sent(admin, league, roster):
    _send(login(admin), league, roster[0])
    return _token_from_mail()


def test_the_link_says_what_it_is_to_a_visitor_without_private_data(client, sent, roster):
    response = client.get(f"/claim/{sent}/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Test League" in page and "Player 1" in page
    assert roster[0].membership_number not in page and "person@example.org" not in page
    assert f"?next=/claim/{sent}/" in page
    assert response["Referrer-Policy"] == "same-origin"


def test_an_unknown_link_is_404(client, sent):
    assert client.get("/claim/not-a-token/").status_code == 404


def test_an_anonymous_post_is_refused(client, sent):
    assert client.post(f"/claim/{sent}/", {"action": "accept"}).status_code == 403
    assert ClaimInvitation.objects.get().used_at is None


def test_the_addressee_accepts_and_the_account_becomes_the_player(sent, person, roster, league):
    response = login(person).post(f"/claim/{sent}/", {"action": "accept"})
    assert response.status_code == 302 and response["Location"] == "/me/"
    roster[0].refresh_from_db()
    assert roster[0].user == person
    invitation = ClaimInvitation.objects.get()
    assert invitation.used_by == person and invitation.state == "used"
    assert LeagueMembership.objects.filter(league=league, player=roster[0]).count() == 1
    assert AuditLog.objects.filter(action="claim.accept", actor=person).count() == 1
    # used once
    other = make_user("second")
    verified(other, "second@example.org")
    response = login(other).post(f"/claim/{sent}/", {"action": "accept"})
    assert response.status_code == 400 and "already been used" in response.content.decode()


def test_another_account_is_refused_and_the_invitation_stays_usable(sent, person, roster):
    stranger = make_user("stranger", email="person@example.org")  # the address, but not verified
    verified(stranger, "person@example.org", ok=False)
    for user in (stranger, make_user("nobody")):
        audits = AuditLog.objects.count()
        response = login(user).post(f"/claim/{sent}/", {"action": "accept"})
        assert response.status_code == 400
        assert "sent to another address" in response.content.decode()
        assert AuditLog.objects.count() == audits
    roster[0].refresh_from_db()
    assert roster[0].user is None and ClaimInvitation.objects.get().used_at is None
    assert login(person).post(f"/claim/{sent}/", {"action": "accept"}).status_code == 302


def test_an_account_that_already_has_a_player_is_refused(sent, roster, players):
    holder = make_player_user("holder", players[6])
    verified(holder, "person@example.org")
    response = login(holder).post(f"/claim/{sent}/", {"action": "accept"})
    assert response.status_code == 400 and "already linked to a player" in response.content.decode()
    roster[0].refresh_from_db()
    assert roster[0].user is None


def test_an_expired_or_revoked_invitation_is_refused(sent, person, admin, league, roster):
    invitation = ClaimInvitation.objects.get()
    ClaimInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    response = login(person).post(f"/claim/{sent}/", {"action": "accept"})
    assert response.status_code == 400 and "expired" in response.content.decode()
    assert login(person).get(f"/claim/{sent}/").status_code == 410
    ClaimInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() + dt.timedelta(days=1))
    response = login(admin).post(f"/leagues/{league.slug}/claims/", {"action": "revoke", "invitation": invitation.pk})
    assert response.status_code == 302
    response = login(person).post(f"/claim/{sent}/", {"action": "accept"})
    assert response.status_code == 400 and "revoked" in response.content.decode()
    roster[0].refresh_from_db()
    assert roster[0].user is None
    # revoking twice is refused in words
    response = login(admin).post(f"/leagues/{league.slug}/claims/", {"action": "revoke", "invitation": invitation.pk})
    assert response.status_code == 400


def test_the_mail_is_in_the_leagues_language(admin, league, roster):
    league.languages = ["zh-hant"]
    league.save()
    _send(login(admin), league, roster[0])
    assert "測試聯賽" in mail.outbox[0].subject


def test_signing_in_from_the_link_comes_back_to_it(client, sent, person):
    page = client.get(f"/claim/{sent}/").content.decode()
    login_url = re.search(r'href="([^"]*\?next=/claim/[^"]+)" id="claim-login"', page).group(1)
    response = client.post(login_url, {"login": "person", "password": "person-pw-123"})
    assert response.status_code == 302 and response["Location"] == f"/claim/{sent}/"
    response = client.post(f"/claim/{sent}/", {"action": "accept"})
    assert response.status_code == 302
    assert ClaimInvitation.objects.get().used_by == person
