"""Errors with codes, said in the reader's language where they are shown.

Services raise Django ``ValidationError`` with a translated message, a ``code`` and ``params``
(``ValidationError(_("the next hand of this game is %(n)s"), code="sequence_gap", params=…)``);
the engines raise ``SettlementError`` with a ``code`` and ``params`` too, and
:func:`engine_error` gives it words from :data:`ENGINE_WORDS` (Zulip's ``JsonableError``: code,
data, HTTP status; the words are never recovered from English text). The API answers a
ValidationError 400: ``detail`` is the first error's words (in the request's language), ``field``
names the field apart, ``errors`` and ``codes`` hold every field's (DRF's nested errors, a list's
items or an object's members, flattened to paths such as ``ids.1`` or ``keys.p256dh``), a :class:`Conflict` 409, Django's
PermissionDenied/Http404 403/404 (DRF does those), ``kyoku.throttle.Throttled`` 429 with
Retry-After, and a last net for values the database
cannot hold (400, never a 500)."""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.db.models import ProtectedError, RestrictedError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .body_keys import install as body_keys_install
from .second_factor import SecondFactorRequired
from .throttle import Throttled, throttled_words

logger = logging.getLogger(__name__)
body_keys_install()  # DRF's APIView exists now (imported above): writes declaring no body take no keys


class EngineError(Protocol):
    """What the platform reads of an engine's error (scoring.engine's SettlementError): the field
    it names and its English; its ``code`` and ``params`` are read when present."""

    field: str
    message: str


def validation_payload(exc: DjangoValidationError) -> dict[str, Any]:
    """``{"detail": words, "field": field, "errors": {field: [words]}, "codes": {field: [code]}}``."""
    by_field = list(exc.error_dict.items()) if hasattr(exc, "error_dict") else [("non_field_errors", exc.error_list)]
    errors = {field: [str(m) for e in errs for m in e.messages] for field, errs in by_field}
    codes = {field: [e.code or "invalid" for e in errs for _m in e.messages] for field, errs in by_field}
    return error_payload(errors, codes)


def error_payload(errors: dict[str, list[str]], codes: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The one shape of a 4xx answer about fields: the first error's words as ``detail`` (never
    prefixed with its field: that is ``field``), and every field's words and codes."""
    first_field, first_msgs = next(iter(errors.items())) if errors else ("request", [_("The request is invalid.")])
    payload: dict[str, Any] = {"detail": first_msgs[0] if first_msgs else "", "field": first_field, "errors": errors}
    if codes is not None:
        payload["codes"] = codes
    return payload


def drf_errors_flat(data: Any, path: str = "") -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """DRF's nested serializer errors as words per path: ``{"ids": {1: [ErrorDetail]}}`` (a list
    field's item) → ``{"ids.1": ["A valid integer is required."]}``, ``{"keys": {"p256dh": […]}}`` →
    ``keys.p256dh``, a list serializer's ``[{}, {"seat": […]}]`` → ``items.1.seat``; never a repr."""
    errors: dict[str, list[str]] = {}
    codes: dict[str, list[str]] = {}

    def walk(value: Any, at: str) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, f"{at}.{key}" if at else str(key))
        elif isinstance(value, (list, tuple)):
            if all(not isinstance(v, (dict, list, tuple)) for v in value):
                for v in value:
                    errors.setdefault(at or "non_field_errors", []).append(str(v))
                    codes.setdefault(at or "non_field_errors", []).append(str(getattr(v, "code", None) or "invalid"))
            else:
                for i, inner in enumerate(value):
                    walk(inner, f"{at}.{i}" if at else str(i))
        elif value is not None:
            errors.setdefault(at or "non_field_errors", []).append(str(value))
            codes.setdefault(at or "non_field_errors", []).append(str(getattr(value, "code", None) or "invalid"))

    walk(data, path)
    return errors, codes


FIELD_PREFIX = re.compile(r"^([A-Za-z0-9_.\[\]-]{1,60}): (.+)$", re.S)


def detail_split(detail: Any) -> tuple[str, str | None]:
    """A detail written "field: words" (a parser's, a middleware's) as its words and its field."""
    text = str(detail)
    m = FIELD_PREFIX.match(text)
    return (m[2], m[1]) if m else (text, None)


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
            error_payload({"request": [message]}, {"request": ["protected"]}), status=status.HTTP_409_CONFLICT
        )
    if isinstance(exc, (OverflowError, DataError)):
        # Validation should have caught it; the net keeps it a client error and logs the gap.
        logger.warning("out-of-range value reached the database: %s", exc)
        words = _("a value is out of range")
        return Response(error_payload({"request": [words]}, {"request": ["out_of_range"]}), status=400)
    response = drf_exception_handler(exc, context)
    if response is None:
        return response
    if isinstance(response.data, dict) and set(response.data) == {"detail"}:
        # DRF's own (a parser's "body: not valid JSON", 403, 404, 405): words, the field apart
        words, field = detail_split(response.data["detail"])
        response.data = {"detail": words, **({"field": field} if field else {})}
    elif isinstance(response.data, (dict, list)):
        # Serializer errors, nested ones flattened to paths: every message is words, never a repr
        errors, codes = drf_errors_flat(response.data)
        response.data = error_payload(errors, codes)
    return response
