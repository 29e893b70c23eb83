"""/leagues/<slug>/roles/ and /roles/accept/<token>/: an admin invites by email, the invited
address (verified on the account) accepts once; reused, expired, revoked links and other accounts
are refused with words and write nothing; roles are removed, never the last admin; a mail server
that is down leaves the invitation to send again; a league sends at most so many a day."""

import re
import smtplib
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.utils import timezone

from kyoku import roles
from kyoku.models import AuditLog, League, LeagueRole, RoleInvitation
from tests.actors import make_user
from tests.leagues_start.conftest import counts


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def with_address(name: str, email: str, verified: bool = True):
    user = make_user(name, email=email)
    EmailAddress.objects.create(user=user, email=email, verified=verified, primary=True)
    return user


@pytest.fixture
def invitee(db):
    return with_address("invitee", "Invitee@Example.org")


def invite(client: Client, league, email="invitee@example.org", role="referee") -> str:
    """Invite through the roles page; the token from the email's link."""
    response = client.post(f"/leagues/{league.slug}/roles/", {"action": "invite", "email": email, "role": role})
    assert response.status_code == 302, response.content.decode()[:2000]
    return re.search(r"/roles/accept/([^/\s]+)/", mail.outbox[-1].body).group(1)


def test_invite_email_and_accept(league, admin, invitee):
    client = logged_in(admin)
    assert client.get(f"/leagues/{league.slug}/roles/").status_code == 200
    token = invite(client, league, role="director")
    assert mail.outbox[-1].to == ["invitee@example.org"]
    invitation = RoleInvitation.objects.get(league=league)
    assert invitation.token_hash == roles.token_hash(token) and token not in invitation.token_hash
    assert invitation.sent_at is not None
    assert (invitation.expires_at - invitation.created_at) >= timedelta(days=6, hours=23)
    page = client.get(f"/leagues/{league.slug}/roles/").content.decode()
    assert f'id="invitation-{invitation.pk}"' in page
    # anyone with the link reads what it is; accepting needs the invited (verified) address
    public = Client().get(f"/roles/accept/{token}/")
    assert public.status_code == 200 and b"invitee@example.org" in public.content
    assert Client().post(f"/roles/accept/{token}/").status_code in (302, 403)
    response = logged_in(invitee).post(f"/roles/accept/{token}/")
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.slug}/"
    assert LeagueRole.objects.filter(league=league, user=invitee, role="director").exists()
    invitation.refresh_from_db()
    assert invitation.accepted_by == invitee and invitation.accepted_at is not None
    assert AuditLog.objects.filter(action="role.accept", league_id=league.pk, actor=invitee).count() == 1
    assert AuditLog.objects.filter(action="role.invite", league_id=league.pk, actor=admin).count() == 1


def test_used_once(league, admin, invitee):
    token = invite(logged_in(admin), league)
    assert logged_in(invitee).post(f"/roles/accept/{token}/").status_code == 302
    before = counts()
    again = logged_in(invitee).post(f"/roles/accept/{token}/")
    assert again.status_code == 400 and "already been used" in again.content.decode()
    other = with_address("second", "invitee2@example.org")
    assert logged_in(other).post(f"/roles/accept/{token}/").status_code == 400
    assert counts() == before


def test_expired(league, admin, invitee):
    token = invite(logged_in(admin), league)
    RoleInvitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    before = counts()
    response = logged_in(invitee).post(f"/roles/accept/{token}/")
    assert response.status_code == 400 and "expired" in response.content.decode()
    assert counts() == before and not LeagueRole.objects.filter(user=invitee).exists()


def test_revoked(league, admin, invitee):
    client = logged_in(admin)
    token = invite(client, league)
    invitation = RoleInvitation.objects.get()
    assert (
        client.post(f"/leagues/{league.slug}/roles/", {"action": "revoke", "invitation": invitation.pk}).status_code
        == 302
    )
    invitation.refresh_from_db()
    assert invitation.revoked_by == admin
    before = counts()
    response = logged_in(invitee).post(f"/roles/accept/{token}/")
    assert response.status_code == 400 and "withdrawn" in response.content.decode()
    assert counts() == before


@pytest.mark.parametrize("who", ["other_address", "unverified_same_address"])
def test_another_account_is_refused_and_the_invitation_stays(league, admin, invitee, who):
    token = invite(logged_in(admin), league)
    if who == "other_address":
        stranger = with_address("stranger", "stranger@example.org")
    else:
        stranger = make_user("stranger", email="other@example.org")
        EmailAddress.objects.create(user=stranger, email="invitee@example.org", verified=False, primary=False)
    before = counts()
    response = logged_in(stranger).post(f"/roles/accept/{token}/")
    assert response.status_code == 400
    assert "sent to another email address" in response.content.decode()
    assert counts() == before
    assert RoleInvitation.objects.get().accepted_at is None
    # the right account still can
    assert logged_in(invitee).post(f"/roles/accept/{token}/").status_code == 302


def test_unknown_link_is_not_found(db):
    assert Client().get("/roles/accept/no-such-token/").status_code == 404


def test_remove_a_role_and_keep_the_last_admin(league, admin, referee):
    client = logged_in(admin)
    role = LeagueRole.objects.get(user=referee, league=league)
    assert client.post(f"/leagues/{league.slug}/roles/", {"action": "remove", "role": role.pk}).status_code == 302
    assert not LeagueRole.objects.filter(pk=role.pk).exists()
    assert AuditLog.objects.filter(action="role.remove", league_id=league.pk, actor=admin).count() == 1
    own = LeagueRole.objects.get(user=admin, league=league)
    before = counts()
    response = client.post(f"/leagues/{league.slug}/roles/", {"action": "remove", "role": own.pk}, follow=True)
    assert "at least one admin" in response.content.decode()
    assert counts() == before and LeagueRole.objects.filter(pk=own.pk).exists()
    # a second admin may go, and then the first is the last again
    second = make_user("second-admin")
    other = LeagueRole.objects.create(league=league, user=second, role="admin")
    gone = client.post(f"/leagues/{league.slug}/roles/", {"action": "remove", "role": own.pk})
    assert gone.status_code == 302 and gone["Location"] == f"/leagues/{league.slug}/"  # no longer its admin
    assert LeagueRole.objects.filter(league=league, role="admin").get() == other
    assert client.get(f"/leagues/{league.slug}/roles/").status_code == 403


def test_another_leagues_role_is_not_removed_from_here(league, admin):
    elsewhere = League.objects.create(name="Elsewhere", slug="elsewhere")
    theirs = LeagueRole.objects.create(league=elsewhere, user=make_user("theirs"), role="referee")
    response = logged_in(admin).post(f"/leagues/{league.slug}/roles/", {"action": "remove", "role": theirs.pk})
    assert response.status_code == 400 and LeagueRole.objects.filter(pk=theirs.pk).exists()


def test_only_the_leagues_admins(league, referee, outsider):
    assert logged_in(referee).get(f"/leagues/{league.slug}/roles/").status_code == 403
    response = logged_in(outsider).post(
        f"/leagues/{league.slug}/roles/", {"action": "invite", "email": "x@example.org", "role": "admin"}
    )
    assert response.status_code == 403 and not RoleInvitation.objects.exists()


@pytest.mark.parametrize(
    "email,role,field", [("not-an-address", "referee", "email"), ("a@example.org", "owner", "role")]
)
def test_bad_invitation_names_the_field(league, admin, email, role, field):
    before = counts()
    response = logged_in(admin).post(
        f"/leagues/{league.slug}/roles/", {"action": "invite", "email": email, "role": role}
    )
    assert response.status_code == 400 and field in response.context["form"].errors
    assert counts() == before and not mail.outbox


def test_the_same_invitation_twice_is_refused(league, admin):
    client = logged_in(admin)
    invite(client, league)
    response = client.post(
        f"/leagues/{league.slug}/roles/", {"action": "invite", "email": "INVITEE@example.org", "role": "referee"}
    )
    assert response.status_code == 400 and "already waiting" in response.content.decode()
    assert RoleInvitation.objects.count() == 1


def test_mail_server_down_then_send_again(league, admin, invitee, monkeypatch):
    def down(*args, **kwargs):
        raise smtplib.SMTPServerDisconnected("connection refused")

    monkeypatch.setattr(roles, "send_mail", down)
    client = logged_in(admin)
    response = client.post(
        f"/leagues/{league.slug}/roles/",
        {"action": "invite", "email": "invitee@example.org", "role": "admin"},
        follow=True,
    )
    assert response.status_code == 200 and "could not be sent" in response.content.decode()
    invitation = RoleInvitation.objects.get()
    assert invitation.sent_at is None and "not sent" in response.content.decode()
    old_hash = invitation.token_hash
    monkeypatch.undo()
    assert (
        client.post(f"/leagues/{league.slug}/roles/", {"action": "resend", "invitation": invitation.pk}).status_code
        == 302
    )
    invitation.refresh_from_db()
    assert invitation.sent_at is not None and invitation.token_hash != old_hash
    token = re.search(r"/roles/accept/([^/\s]+)/", mail.outbox[-1].body).group(1)
    assert logged_in(invitee).post(f"/roles/accept/{token}/").status_code == 302
    assert LeagueRole.objects.filter(league=league, user=invitee, role="admin").exists()


def test_a_league_sends_so_many_a_day(league, admin, settings):
    settings.THROTTLE_LIMITS = {"role_invite_league": (2, 86400)}
    client = logged_in(admin)
    invite(client, league, email="one@example.org")
    invite(client, league, email="two@example.org")
    before = counts()
    response = client.post(
        f"/leagues/{league.slug}/roles/", {"action": "invite", "email": "three@example.org", "role": "referee"}
    )
    assert response.status_code == 429 and response.has_header("Retry-After")
    assert counts() == before and len(mail.outbox) == 2


def test_a_pending_league_invites_nobody_yet(league, admin):
    League.objects.filter(pk=league.pk).update(approval="pending", created_by=admin)
    response = logged_in(admin).post(
        f"/leagues/{league.slug}/roles/", {"action": "invite", "email": "a@example.org", "role": "referee"}
    )
    assert response.status_code == 400 and not RoleInvitation.objects.exists()
