"""Every DRF write refuses keys its serializer does not take: ``{"bogus": 1}`` posted to a route is
a 400 naming ``bogus`` in words, never a request half-read and acted on (a season created, a
confirmation misspelt and ignored). The check is DRF's own ``Serializer.to_internal_value``, so it
holds for every serializer of the project and for nested ones (``keys.p256dh``), whatever view
runs it; every serializer in the project validates ``request.data`` (no query parameters), so the
check is a request body's. A serializer that takes open keys says so with
``unknown_keys_allowed = True``. Installed once, when ``kyoku.parsers`` (DRF's parser setting) is
imported, which DRF does before any API view exists; a write whose view declares no body
(``@extend_schema(request=None)``) refuses any key (installed by ``kyoku.errors``, once DRF's
APIView exists).

A confirmation is :class:`ConfirmField`: only JSON ``true`` confirms (``"yes"``, ``1``, ``"on"`` are
refused in words; ``false`` or nothing does not confirm)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.fields import empty

# keys read before any serializer, by the request's principal, on every write: a page's form
# posting to the API (csrfmiddlewaretoken); a table's code sent with a table phone's write (read
# by events.services.tables.table_phone_for)
ALWAYS_ALLOWED = frozenset({"csrfmiddlewaretoken", "code"})
MAX_NAMED = 5


def body_keys_check(serializer: serializers.Serializer, data: Any) -> None:
    """Raise a 400 naming each key of ``data`` that ``serializer`` has no field for."""
    if not isinstance(data, Mapping) or getattr(serializer, "unknown_keys_allowed", False):
        return
    fields = serializer.fields
    unknown = [key for key in data if key not in fields and key not in ALWAYS_ALLOWED]
    if not unknown:
        return
    takes = ", ".join(name for name, field in fields.items() if not field.read_only) or "—"
    raise ValidationError(
        {
            str(key)[:60]: [
                ErrorDetail(
                    _("%(key)s is not a field of this request (it takes: %(fields)s)")
                    % {"key": str(key)[:60], "fields": takes},
                    code="unknown_field",
                )
            ]
            for key in unknown[:MAX_NAMED]
        }
    )


def install() -> None:
    """Put the check in front of DRF's ``Serializer.to_internal_value`` (once)."""
    _install_bodiless()
    original = serializers.Serializer.to_internal_value
    if getattr(original, "body_keys_checked", False):
        return

    def to_internal_value(self: serializers.Serializer, data: Any) -> Any:
        body_keys_check(self, data)
        return original(self, data)

    to_internal_value.body_keys_checked = True  # type: ignore[attr-defined]
    serializers.Serializer.to_internal_value = to_internal_value


WRITES = ("POST", "PUT", "PATCH", "DELETE")


def bodiless_check(request: Any, view: Any) -> None:
    """A write whose view declares no body (``@extend_schema(request=None)``: a promotion's
    confirmation, a resettle) refuses one that has keys: nothing it says would be read."""
    if request.method not in WRITES:
        return
    handler = getattr(view, request.method.lower(), None)
    if handler is None or declared_request(handler) is not None:
        return
    data = request.data
    keys = [key for key in data if key not in ALWAYS_ALLOWED] if isinstance(data, Mapping) else []
    if keys:
        raise ValidationError(
            {
                str(key)[:60]: [
                    ErrorDetail(
                        _("%(key)s is not a field of this request (it takes none)") % {"key": str(key)[:60]},
                        code="unknown_field",
                    )
                ]
                for key in keys[:MAX_NAMED]
            }
        )


def declared_request(handler: Any) -> Any:
    """What ``@extend_schema(request=…)`` declares for a view method (``None``: no body), or
    ``empty`` when nothing is declared. drf-spectacular keeps it in the closure of the schema class
    it puts in the method's ``kwargs``; the decorators stack as subclasses, the outermost first."""
    schema = (getattr(handler, "kwargs", None) or {}).get("schema")
    for klass in getattr(schema, "__mro__", ()):
        method = klass.__dict__.get("get_request_serializer")
        closure = getattr(method, "__closure__", None)
        if not closure:
            continue
        cells = dict(zip(method.__code__.co_freevars, closure))
        if "request" in cells and cells["request"].cell_contents is not empty:
            return cells["request"].cell_contents
    return empty


def _install_bodiless() -> None:
    """Once DRF's APIView exists (``kyoku.parsers`` is imported while DRF defines it; ``kyoku.errors``,
    which every service's Conflict imports at start-up, installs this part again after it)."""
    views = sys.modules.get("rest_framework.views")
    APIView = getattr(views, "APIView", None)  # noqa: N806 - the class
    if APIView is None:
        return
    original = APIView.initial
    if getattr(original, "body_keys_checked", False):
        return

    def initial(self: Any, request: Any, *args: Any, **kwargs: Any) -> None:
        original(self, request, *args, **kwargs)  # authentication, access, throttles first
        bodiless_check(request, self)

    initial.body_keys_checked = True  # type: ignore[attr-defined]
    APIView.initial = initial


class ConfirmField(serializers.BooleanField):  # type: ignore[misc,unused-ignore]
    """A confirmation: JSON ``true`` confirms, ``false`` (or the key left out, with a default)
    does not; anything else ("yes", 1, "true") is refused in words."""

    default_error_messages = {"invalid": gettext_lazy("give true to confirm, or false")}

    def to_internal_value(self, data: Any) -> bool:
        if data is True or data is False:
            return data
        self.fail("invalid")
        return False  # not reached: fail raises
