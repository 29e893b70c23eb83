"""Who holds a role in a league, and how one is given: a league admin invites an email address to
be an admin, a referee or an event director (``role_invite``); the email carries a link whose token
only its SHA-256 is stored (``RoleInvitation.token_hash``); the account that opens it accepts once,
before it expires (7 days) and unless it was revoked, and only when that account has the invited
address as a *verified* email address (allauth's ``EmailAddress``). Another account is refused and
the invitation stays open. A role is removed by a league admin, never the league's last admin.

Every write is audited (kyoku.audit) and names its actor. A league sends at most
``role_invite_league`` invitations (and resends) a day (kyoku.throttle). A mail server that is down
leaves the invitation saved and unsent (``sent_at`` empty): ``role_invitation_resend`` sends it
again with a fresh link."""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.tokens import token_hash, token_new
from kyoku.text import email_clean
from kyoku.models import League, LeagueRole, RoleInvitation
from kyoku.principals import Actor
from kyoku.throttle import throttle_hit

logger = logging.getLogger(__name__)

INVITATION_DAYS = 7


def _fail(field: str, words: str, code: str) -> ValidationError:
    return ValidationError({field: [ValidationError(words, code=code)]})


def _role_check(role: str) -> str:
    if role not in LeagueRole.Role.values:
        raise _fail("role", _("Choose admin, referee or event director."), "role_unknown")
    return role


def _email_check(email: str) -> str:
    return email_clean(email, field="email")


# ---------------------------------------------------------------- reads


def league_roles(league: League) -> list[LeagueRole]:
    """The roles held in ``league``, admins first, then by name."""
    order: dict[str, int] = {LeagueRole.Role.ADMIN: 0, LeagueRole.Role.DIRECTOR: 1, LeagueRole.Role.REFEREE: 2}
    roles = list(LeagueRole.objects.filter(league=league).select_related("user"))
    return sorted(roles, key=lambda r: (order.get(r.role, 9), r.user.get_username().lower()))


def league_invitations_open(league: League) -> list[RoleInvitation]:
    """Invitations not accepted, not revoked and not expired."""
    return list(
        RoleInvitation.objects.filter(
            league=league, accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
        ).order_by("-created_at")
    )


def invitation_for_token(token: str) -> RoleInvitation | None:
    return RoleInvitation.objects.select_related("league").filter(token_hash=token_hash(token or "")).first()


def invitation_state(invitation: RoleInvitation) -> str:
    """open | accepted | revoked | expired."""
    if invitation.accepted_at is not None:
        return "accepted"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= timezone.now():
        return "expired"
    return "open"


def email_verified(user: Any, email: str) -> bool:
    """Whether ``user`` holds ``email`` as a verified address (allauth's EmailAddress)."""
    from allauth.account.models import EmailAddress

    return bool(EmailAddress.objects.filter(user=user, email__iexact=email.strip(), verified=True).exists())


# ---------------------------------------------------------------- writes


@transaction.atomic
def role_invite(*, league: League, role: str, email: str, actor: Actor) -> tuple[RoleInvitation, str]:
    """An invitation and the token its link carries (returned once: only its hash is kept)."""
    authz.authorize(actor, league, authz.Need.ADMIN)
    role, email = _role_check(role), _email_check(email)
    if league.approval != League.Approval.ACTIVE:
        raise _fail("league", _("The league waits for a site admin's approval: invite once it is approved."), "pending")
    if RoleInvitation.objects.filter(
        league=league,
        role=role,
        email__iexact=email,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).exists():
        raise _fail(
            "email", _("An invitation to this address for this role is already waiting: send it again."), "invited"
        )
    throttle_hit("role_invite_league", f"league:{league.pk}")
    token, hashed = token_new()
    invitation = RoleInvitation.objects.create(
        league=league,
        role=role,
        email=email,
        token_hash=hashed,
        created_by=authz.acting_user(actor),
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )
    audit_log_write(actor=actor, action="role.invite", obj=invitation, data={"role": role, "email": email})
    return invitation, token


@transaction.atomic
def role_invitation_resend(*, invitation: RoleInvitation, actor: Actor) -> str:
    """A fresh link (the old one stops working) valid 7 days from now; the caller sends it."""
    authz.authorize(actor, invitation, authz.Need.ADMIN)
    invitation = RoleInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at is not None or invitation.revoked_at is not None:
        raise _fail("invitation", _("This invitation was already accepted or revoked."), "closed")
    throttle_hit("role_invite_league", f"league:{invitation.league_id}")
    token, invitation.token_hash = token_new()
    invitation.expires_at = timezone.now() + timedelta(days=INVITATION_DAYS)
    invitation.save(update_fields=["token_hash", "expires_at"])
    audit_log_write(actor=actor, action="role.invite_resend", obj=invitation, data={"email": invitation.email})
    return token


@transaction.atomic
def role_invitation_revoke(*, invitation: RoleInvitation, actor: Actor) -> RoleInvitation:
    authz.authorize(actor, invitation, authz.Need.ADMIN)
    invitation = RoleInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at is not None:
        raise _fail("invitation", _("This invitation was already accepted: remove the role instead."), "accepted")
    if invitation.revoked_at is None:
        invitation.revoked_at, invitation.revoked_by = timezone.now(), authz.acting_user(actor)
        invitation.save(update_fields=["revoked_at", "revoked_by"])
        audit_log_write(actor=actor, action="role.invite_revoke", obj=invitation, data={"email": invitation.email})
    return invitation


@transaction.atomic
def role_invitation_accept(*, invitation: RoleInvitation, actor: Actor) -> LeagueRole:
    """The signed-in ``actor`` takes the role, once, with the invited address verified on their
    account. Refused (nothing written, the invitation still open where it was) otherwise."""
    if not getattr(actor, "is_authenticated", False):
        raise _fail("token", _("Sign in to accept this invitation."), "login_required")
    invitation = RoleInvitation.objects.select_for_update().select_related("league").get(pk=invitation.pk)
    state = invitation_state(invitation)
    if state == "accepted":
        raise _fail("token", _("This invitation has already been used."), "used")
    if state == "revoked":
        raise _fail("token", _("This invitation was withdrawn by the league."), "revoked")
    if state == "expired":
        raise _fail("token", _("This invitation has expired: ask the league for a new one."), "expired")
    if not email_verified(actor, invitation.email):
        raise _fail(
            "email",
            _(
                "This invitation was sent to another email address. Sign in with the account that has that "
                "address, or add and verify it on your account first."
            ),
            "email_mismatch",
        )
    role, _created = LeagueRole.objects.get_or_create(league=invitation.league, user=actor, role=invitation.role)
    invitation.accepted_at, invitation.accepted_by = timezone.now(), cast(Any, actor)  # a signed-in user here
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    audit_log_write(actor=actor, action="role.accept", obj=invitation, data={"role": invitation.role, "user": actor.pk})
    return role


@transaction.atomic
def role_remove(*, role: LeagueRole, actor: Actor) -> None:
    """Remove a role; the league keeps at least one admin."""
    authz.authorize(actor, role, authz.Need.ADMIN)
    role = LeagueRole.objects.select_for_update().select_related("league", "user").get(pk=role.pk)
    if role.role == LeagueRole.Role.ADMIN:
        admins = LeagueRole.objects.select_for_update().filter(league=role.league, role=LeagueRole.Role.ADMIN)
        if admins.count() <= 1:
            raise _fail("role", _("A league keeps at least one admin: make someone else admin first."), "last_admin")
    audit_log_write(actor=actor, action="role.remove", obj=role, data={"role": role.role, "user": role.user_id})
    role.delete()


# ---------------------------------------------------------------- the email


def invitation_link(token: str) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("role-accept", kwargs={"token": token})


def role_invitation_mail(*, invitation: RoleInvitation, token: str) -> bool:
    """Send the invitation's link; False (logged, nothing raised) when the mail server refuses or
    is down: the invitation stays unsent and can be sent again."""
    league = invitation.league
    subject = _("Invitation: %(role)s of %(league)s") % {"role": invitation.get_role_display(), "league": league.name}
    body = _(
        "You are invited to be %(role)s of %(league)s on Kyoku.\n\n"
        "Open this link, signed in with the account that has this email address (%(email)s) verified, "
        "to accept:\n%(link)s\n\nThe link works once and expires in %(days)s days."
    ) % {
        "role": invitation.get_role_display(),
        "league": league.name,
        "email": invitation.email,
        "link": invitation_link(token),
        "days": INVITATION_DAYS,
    }
    try:
        send_mail(subject, body, None, [invitation.email], fail_silently=False)
    except (smtplib.SMTPException, OSError) as exc:
        logger.warning("role invitation %s not sent: %s", invitation.pk, exc)
        return False
    RoleInvitation.objects.filter(pk=invitation.pk).update(sent_at=timezone.now())
    return True
