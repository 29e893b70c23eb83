"""A person on no roster makes their own player, to apply for a qualification or register for an
event. Its membership number is the site's own: ``K-`` and eight random digits (``SELF_PREFIX``),
checked against every number held, so it never takes a roster's number; a roster that later wants
the same string is refused by the number's uniqueness, not overwritten."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.text import name_clean
from league.models import NameOrder, Player
from league.names import name_written
from notifications.models import Preferences

SELF_PREFIX = "K-"
SELF_DIGITS = 8


def membership_number_new() -> str:
    """A number no player holds: ``K-`` and eight random digits."""
    for _attempt in range(20):
        number = SELF_PREFIX + "".join(secrets.choice("0123456789") for _d in range(SELF_DIGITS))
        if not Player.objects.filter(membership_number=number).exists():
            return number
    raise RuntimeError("no free membership number after 20 draws")  # 10^8 numbers: not in practice


def _language_keep(user: Any, language: str) -> None:
    """Where notifications read a person's language (``notifications.models.Preferences``)."""
    if language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": [_("Pick one of the site's languages.")]}, code="language_invalid")
    prefs, _created = Preferences.objects.get_or_create(user=user, defaults={"language": language})
    if prefs.language != language:
        prefs.language = language
        prefs.save(update_fields=["language"])


@transaction.atomic
def player_self_create(
    *,
    user: Any,
    family_name: str,
    given_name: str,
    native_name: str = "",
    name_order: str = NameOrder.GIVEN_FIRST,
    language: str = "en",
    actor: Any,
) -> Player:
    """The person's own player, linked to their account (who has none yet)."""
    if getattr(actor, "pk", None) != getattr(user, "pk", None):
        raise ValidationError({"account": [_("Only the person makes their own player.")]}, code="not_self")
    if authz.player_of(user) is not None:
        raise ValidationError(
            {"account": [_("Your account is already linked to a player. One account is one player.")]},
            code="account_linked",
        )
    if name_order not in NameOrder.values:
        raise ValidationError({"name_order": [_("Pick a name order.")]}, code="name_order_invalid")
    family = name_clean(family_name, field="family_name", max_length=80, required=False)
    given = name_clean(given_name, field="given_name", max_length=80, required=False)
    native = name_clean(native_name, field="native_name", max_length=80, required=False)
    if not family and not given:
        raise ValidationError({"given_name": [_("Give your name.")]}, code="name_missing")
    _language_keep(user, language)
    player = Player(
        display_name=name_written("", family, given, name_order)[:80],
        family_name=family,
        given_name=given,
        native_name=native,
        name_order=name_order,
        user=user,
    )
    for _attempt in range(3):
        player.membership_number = membership_number_new()
        try:
            with transaction.atomic():
                player.save()
            break
        except IntegrityError:  # the same number drawn at the same moment: draw again
            player.pk = None
    else:
        raise ValidationError({"membership_number": [_("Try again in a moment.")]}, code="number_busy")
    audit_log_write(actor=actor, action="player.self_create", obj=player, data={"number": player.membership_number})
    return player
