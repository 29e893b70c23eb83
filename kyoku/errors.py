"""Error translation for the API: service-layer ValidationError → 400 naming the field, a
result conflict → 409, Django's PermissionDenied/Http404 → 403/404 (DRF does those), and a
last net for values the database cannot hold (→ 400, never a 500)."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.db.models import ProtectedError, RestrictedError
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


def validation_payload(exc: DjangoValidationError) -> dict:
    if hasattr(exc, "error_dict"):
        errors = {field: [str(m) for e in errs for m in e.messages] for field, errs in exc.error_dict.items()}
    else:
        errors = {"non_field_errors": [str(m) for m in exc.messages]}
    first_field, first_msgs = next(iter(errors.items()))
    return {"detail": f"{first_field}: {first_msgs[0]}", "errors": errors}


def engine_error(exc, prefix: str = "") -> DjangoValidationError:
    """An engine's SettlementError as a ValidationError keyed by the field the caller knows:
    ``game_end.scores`` → ``scores``, ``rules.kiriage`` → ``overrides.kiriage``."""
    field = exc.field.split(".", 1)[-1] if exc.field.startswith(("game_end.", "rules.")) else exc.field
    if exc.field.startswith("rules."):
        field = "overrides." + exc.field.split(".", 1)[1]
    return DjangoValidationError({(prefix + field) or "record": [exc.message]})


class Conflict(DjangoValidationError):
    """A change that would break what is already recorded, or that needs an explicit confirmation:
    answered 409 with its words (and ``code``), never a 500."""

    http_status = 409


def _is_conflict(exc) -> bool:
    return getattr(exc, "http_status", None) == 409 or type(exc).__name__ in {"ResultConflict", "HandConflict"}


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        code = status.HTTP_409_CONFLICT if _is_conflict(exc) else status.HTTP_400_BAD_REQUEST
        return Response(validation_payload(exc), status=code)
    if isinstance(exc, (ProtectedError, RestrictedError)):
        # A delete that recorded facts refer to: the facts win; said in words, never a 500.
        message = _("This is referred to by recorded facts and cannot be removed.")
        return Response({"detail": f"request: {message}", "errors": {"request": [message]}},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, (OverflowError, DataError)):
        # Validation should have caught it; the net keeps it a client error and logs the gap.
        logger.warning("out-of-range value reached the database: %s", exc)
        return Response({"detail": "request: a value is out of range", "errors": {"request": ["out of range"]}},
                        status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        # Serializer errors: keep DRF's per-field shape under "errors" and add a one-line detail.
        errors = response.data
        field, msgs = next(iter(errors.items())) if errors else ("request", ["invalid"])
        msg = msgs[0] if isinstance(msgs, list) and msgs else msgs
        response.data = {"detail": f"{field}: {msg}", "errors": errors}
    return response
