"""What the claim writes share: the account's verified addresses (django-allauth), the link of an
account to a player, mail in a chosen language."""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.utils import translation
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.models import League
from league.models import Player

logger = logging.getLogger(__name__)

MAIL_ERRORS = (smtplib.SMTPException, OSError)  # a server down, refusing, or unreachable


def verified_addresses(user: Any) -> set[str]:
    """The account's verified email addresses, lower-cased (allauth's ``EmailAddress``)."""
    if not apps.is_installed("allauth.account"):
        return set()
    from allauth.account.models import EmailAddress

    rows = EmailAddress.objects.filter(user=user, verified=True).values_list("email", flat=True)
    return {e.strip().lower() for e in rows}


def account_address(user: Any) -> str:
    """Where to write to an account: its primary verified address, else its stored email, else ""."""
    if apps.is_installed("allauth.account"):
        from allauth.account.models import EmailAddress

        row = EmailAddress.objects.filter(user=user, verified=True).order_by("-primary").first()
        if row is not None:
            return str(row.email)
    return str(getattr(user, "email", "") or "")


def league_language(league: League) -> str:
    """The language a league's mail goes out in: the active one when the league offers it (or
    names none), else the league's first."""
    active = translation.get_language() or settings.LANGUAGE_CODE
    offered = [str(code).lower() for code in (league.languages or [])]
    if not offered or active.lower() in offered:
        return active
    return offered[0]


def mail_send(*, to: str, subject: str, body: str) -> bool:
    """Send one plain email through Django's mail framework; False (logged) when the server refuses."""
    try:
        send_mail(subject, body, None, [to], fail_silently=False)
    except MAIL_ERRORS as exc:
        logger.warning("mail to a person not sent: %s", exc)
        return False
    return True


def link_check(*, player: Player, user: Any) -> None:
    """Refuse, in words, to link ``user`` to ``player`` when either is already linked."""
    if authz.player_of(user) is not None:
        raise ValidationError(
            {"account": [_("Your account is already linked to a player. One account is one player.")]},
            code="account_linked",
        )
    if player.user_id is not None:
        raise ValidationError({"player": [_("This player is already linked to an account.")]}, code="player_linked")
    if not getattr(user, "is_active", False):
        raise ValidationError({"account": [_("This account is closed.")]}, code="account_closed")


def player_link(*, player: Player, user: Any) -> None:
    """Link (the player row locked by the caller)."""
    player.user = user
    player.save(update_fields=["user"])
    user.__dict__.pop("_kyoku_roles", None)
