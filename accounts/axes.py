"""django-axes' username for a login attempt (``AXES_USERNAME_CALLABLE``): one account, one lock.

The sign-in form posts ``login`` (a username or an email; allauth then authenticates with
``username=`` or ``email=``), Django admin and the token API post ``username``. Each resolves to
the account's own username when an account matches, so five wrong passwords for ``alice`` on any
form, or for her email, lock ``alice`` from that address on every form."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q


def _given(request: Any, credentials: dict[str, Any] | None) -> str:
    for field in ("username", "email", "login"):
        value = (credentials or {}).get(field)
        if value:
            return str(value)
    data = getattr(request, "data", None) or getattr(request, "POST", {}) or {}
    for field in ("login", "username", "email"):
        value = data.get(field) if hasattr(data, "get") else None
        if value:
            return str(value)
    return ""


def account_username(identifier: str) -> str:
    """The username of the account ``identifier`` (a username or an email) names, else the
    identifier itself, lower-cased (an unknown name is locked all the same)."""
    identifier = identifier.strip()
    if not identifier:
        return ""
    from allauth.account.models import EmailAddress

    users = get_user_model().objects
    if "@" in identifier:
        found = (
            EmailAddress.objects.filter(email__iexact=identifier).values_list("user__username", flat=True).first()
            or users.filter(email__iexact=identifier).values_list("username", flat=True).first()
        )
    else:
        found = users.filter(Q(username=identifier)).values_list("username", flat=True).first() or (
            users.filter(username__iexact=identifier).values_list("username", flat=True).first()
        )
    return found or identifier.lower()


def axes_username(request: Any, credentials: dict[str, Any] | None = None) -> str:
    return account_username(_given(request, credentials))
