"""A person closes their account (docs/privacy.md, "Closing an account").

The account and the ways to reach the person go: the login is deactivated and its name, email and
names cleared (kept as a row, so every audit entry, result entered and decision recorded under it
still points somewhere), its addresses, second factors, API tokens, sessions, phones (push
subscriptions), inbox and notification preferences deleted, its roles in leagues removed, its link requests still waiting withdrawn, the
contact email the leagues kept for its player cleared. The player stays as the leagues published
it (its name, number and results: a league's record), no longer linked to any account."""

from __future__ import annotations

from typing import Any, cast

from django.apps import apps
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.models import LeagueRole
from league.models import LeagueMembership, Player
from notifications.models import Notification, Preferences, PushSubscription

from ..models import ClaimInvitation, LinkRequest


def _allauth_rows_delete(user: Any) -> dict[str, int]:
    """The account's addresses, second factors and recorded sessions (django-allauth, when installed)."""
    counts: dict[str, int] = {}
    if apps.is_installed("allauth.account"):
        from allauth.account.models import EmailAddress

        counts["email_addresses"] = EmailAddress.objects.filter(user=user).delete()[0]
    if apps.is_installed("allauth.mfa"):
        from allauth.mfa.models import Authenticator

        counts["authenticators"] = Authenticator.objects.filter(user=user).delete()[0]
    if apps.is_installed("allauth.usersessions"):
        from allauth.usersessions.models import UserSession

        keys = list(UserSession.objects.filter(user=user).values_list("session_key", flat=True))
        Session.objects.filter(session_key__in=keys).delete()
        counts["sessions"] = UserSession.objects.filter(user=user).delete()[0]
    return counts


def _contact_clear(player: Player | None) -> None:
    if player is None:
        return
    LeagueMembership.objects.filter(player=player).exclude(contact_email="").update(contact_email="")
    ClaimInvitation.objects.filter(player=player).exclude(email="").update(email="")
    player.user = None
    player.save(update_fields=["user"])


@transaction.atomic
def account_close(*, user: Any, actor: Any) -> dict[str, Any]:
    """Close ``user``'s account (only its own holder may). Returns what was removed, by kind."""
    if getattr(actor, "pk", None) != getattr(user, "pk", None) or not getattr(user, "is_active", False):
        raise ValidationError({"account": [_("Only the account's holder closes it.")]}, code="not_self")
    from rest_framework.authtoken.models import Token

    player = cast("Player | None", authz.player_of(user))
    counts = _allauth_rows_delete(user)
    counts["push_subscriptions"] = PushSubscription.objects.filter(user=user).delete()[0]
    counts["preferences"] = Preferences.objects.filter(user=user).delete()[0]
    counts["notifications"] = Notification.objects.filter(recipient=user).delete()[0]
    counts["roles"] = LeagueRole.objects.filter(user=user).delete()[0]
    counts["api_tokens"] = Token.objects.filter(user=user).delete()[0]
    counts["link_requests"] = LinkRequest.objects.filter(user=user, status=LinkRequest.Status.PENDING).delete()[0]
    _contact_clear(player)
    user.username = f"closed-{user.pk}"
    user.email = user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()  # every other session's hash no longer matches: they end
    user.save()
    audit_log_write(
        actor=user,
        action="account.close",
        obj=user,
        data={"player": getattr(player, "pk", None), "removed": counts},
    )
    return {"player": player, **counts}
