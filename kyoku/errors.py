"""Errors with codes, said in the reader's language where they are shown.

Services raise Django ``ValidationError`` with a translated message, a ``code`` and ``params``
(``ValidationError(_("the next hand of this game is %(n)s"), code="sequence_gap", params=…)``);
the engines raise ``SettlementError`` with a ``code`` and ``params`` too, and
:func:`engine_error` gives it words from :data:`ENGINE_WORDS` (Zulip's ``JsonableError``: code,
data, HTTP status; the words are never recovered from English text). The API answers a
ValidationError 400 naming the field with each error's code, a :class:`Conflict` 409, Django's
PermissionDenied/Http404 403/404 (DRF does those), ``kyoku.throttle.Throttled`` 429 with
Retry-After, and a last net for values the database
cannot hold (400, never a 500)."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.db.models import ProtectedError, RestrictedError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .second_factor import SecondFactorRequired
from .throttle import Throttled, throttled_words

logger = logging.getLogger(__name__)


class EngineError(Protocol):
    """What the platform reads of an engine's error (scoring.engine's SettlementError): the field
    it names and its English; its ``code`` and ``params`` are read when present."""

    field: str
    message: str


def validation_payload(exc: DjangoValidationError) -> dict[str, Any]:
    """``{"detail": "field: words", "errors": {field: [words]}, "codes": {field: [code]}}``."""
    by_field = list(exc.error_dict.items()) if hasattr(exc, "error_dict") else [("non_field_errors", exc.error_list)]
    errors = {field: [str(m) for e in errs for m in e.messages] for field, errs in by_field}
    codes = {field: [e.code or "invalid" for e in errs for _m in e.messages] for field, errs in by_field}
    first_field, first_msgs = next(iter(errors.items()))
    return {"detail": f"{first_field}: {first_msgs[0]}", "errors": errors, "codes": codes}


ENGINE_WORDS = {  # an engine error's code → its words (params from the error)
    "seat_invalid": gettext_lazy("pick a seat"),
    "seats_invalid": gettext_lazy("pick the seats"),
    "seat_twice": gettext_lazy("a seat is picked twice"),
    "winner_missing": gettext_lazy("pick the winner"),
    "winner_twice": gettext_lazy("a winner is picked twice"),
    "discarder_missing": gettext_lazy("pick the player who discarded the winning tile"),
    "ron_own_discard": gettext_lazy("the winner cannot win on their own discard"),
    "han_missing": gettext_lazy("give the han (and fu) or yakuman"),
    "han_invalid": gettext_lazy("give at least 1 han"),
    "han_below_minimum": gettext_lazy("below the minimum of %(n)s han"),
    "fu_missing": gettext_lazy("a %(han)s han hand needs fu"),
    "fu_invalid": gettext_lazy("fu must be 20, 25 or a multiple of 10 from 30 to %(max)s"),
    "fu_20_ron": gettext_lazy("20 fu is only possible on a self-draw (pinfu tsumo); a ron is at least 30 fu"),
    "fu_25_one_han": gettext_lazy("25 fu (seven pairs) needs at least 2 han"),
    "yakuman_invalid": gettext_lazy("pick a yakuman multiple"),
    "abortive_not_played": gettext_lazy("abortive draws are not played under these rules"),
    "abortive_reason_not_allowed": gettext_lazy("this reason is not allowed under these rules"),
    "chombo_seat_missing": gettext_lazy("pick the player who committed the chombo"),
    "nagashi_not_played": gettext_lazy("nagashi mangan is not played under these rules"),
    "pao_is_winner": gettext_lazy("the liable player cannot be the winner"),
    "unknown_field": gettext_lazy("unknown field"),
    "out_of_range": gettext_lazy("must be from %(low)s to %(high)s"),
    "not_whole": gettext_lazy("must be a whole number"),
    "points_below_minimum": gettext_lazy("%(value)s points is below the minimum of %(n)s points: a false win"),
}


def _engine_detail(exc: EngineError) -> DjangoValidationError:
    """One engine error as a coded ValidationError: its code's words with its parameters, or the
    engine's English for a code with no words (the generic ``invalid``)."""
    code = getattr(exc, "code", "invalid")
    words = ENGINE_WORDS.get(code)
    if words is None:
        return DjangoValidationError(exc.message, code=code)
    return DjangoValidationError(words, code=code, params=getattr(exc, "params", None) or None)


def engine_error_words(exc: EngineError) -> str:
    """An engine error's message in the active language (for a form or a page line)."""
    return _engine_detail(exc).messages[0]


def engine_error(exc: EngineError, prefix: str = "") -> DjangoValidationError:
    """An engine's SettlementError as a ValidationError keyed by the field the caller knows
    (``game_end.scores`` → ``scores``, ``rules.kiriage`` → ``overrides.kiriage``, a hand's
    ``result.winners[0].fu`` as it is), with the error's code, parameters and words."""
    field = exc.field or ""
    if field.startswith("game_end."):
        field = field.split(".", 1)[1]
    elif field.startswith("rules."):
        field = "overrides." + field.split(".", 1)[1]
    return DjangoValidationError({(prefix + field) or "record": [_engine_detail(exc)]})


class Conflict(DjangoValidationError):
    """A change that would break what is already recorded, or that needs an explicit confirmation:
    answered 409 with its words (and ``code``), never a 500."""

    http_status = 409


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Throttled):
        # Too many in a window (kyoku.throttle): 429, Retry-After, words in the reader's language.
        response = Response({"detail": throttled_words(exc), "code": "throttled"}, status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, SecondFactorRequired):
        # a league's staff without the second factor it requires: the reason and where to set one up
        return Response({"detail": str(exc), "code": "second_factor_required"}, status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, DjangoValidationError):
        code = getattr(exc, "http_status", status.HTTP_400_BAD_REQUEST)  # Conflict and its kin: 409
        return Response(validation_payload(exc), status=code)
    if isinstance(exc, (ProtectedError, RestrictedError)):
        # A delete that recorded facts refer to: the facts win; said in words, never a 500.
        message = _("This is referred to by recorded facts and cannot be removed.")
        return Response(
            {"detail": f"request: {message}", "errors": {"request": [message]}}, status=status.HTTP_409_CONFLICT
        )
    if isinstance(exc, (OverflowError, DataError)):
        # Validation should have caught it; the net keeps it a client error and logs the gap.
        logger.warning("out-of-range value reached the database: %s", exc)
        return Response(
            {"detail": "request: a value is out of range", "errors": {"request": ["out of range"]}},
            status=status.HTTP_400_BAD_REQUEST,
        )
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        # Serializer errors: keep DRF's per-field shape under "errors" and add a one-line detail.
        errors = response.data
        field, msgs = next(iter(errors.items())) if errors else ("request", ["invalid"])
        msg = msgs[0] if isinstance(msgs, list) and msgs else msgs
        response.data = {"detail": f"{field}: {msg}", "errors": errors}
    return response
