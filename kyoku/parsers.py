"""DRF's JSON parser with limits: a body nested too deep, with lone surrogates or NUL, or with
numbers out of range is a 400 naming the path, never a 500 (RecursionError) or a poisoned row."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django import forms as django_forms
from django.forms.fields import JSONString
from rest_framework import serializers as drf_serializers
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

from .safe_json import MAX_DEPTH, UnsafeJSON, check


def _depth_guard(text: str) -> None:
    """Refuse over-deep nesting before json.loads recurses into it (ParseError, a ValueError's
    cousin for DRF; ``json_text_load`` turns it into UnsafeJSON)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH + 1:
                raise ParseError(f"body: nested deeper than {MAX_DEPTH} levels")
        elif ch in "]}":
            depth -= 1


class PayloadTooLarge(APIException):
    """A body over ``API_MAX_BODY_BYTES``: 413 (``kyoku.middleware.ApiErrorsMiddleware`` refuses one
    that says its length before it is read; this is the body that did not say it)."""

    status_code = 413
    default_code = "body_too_large"


class SafeJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        raw = stream.read() if stream is not None else b""
        limit = getattr(settings, "API_MAX_BODY_BYTES", 5 * 1024 * 1024)
        if len(raw) > limit:
            raise PayloadTooLarge(f"body: larger than {limit} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError("body: not UTF-8") from None
        if not text.strip():
            return {}
        _depth_guard(text)
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"body: not valid JSON ({str(exc)[:80]})") from None
        try:
            check(data, "body")
        except UnsafeJSON as exc:
            raise ParseError(f"{exc.path}: {exc.message}") from None
        return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def json_text_load(text: str, path: str = "value") -> Any:
    """The one safe reading of a JSON value carried as text, whatever the request's content type
    (a form field, a multipart part, a command's file): depth, size, NaN, surrogates and NUL are
    refused with UnsafeJSON naming ``path``; nothing here can recurse without bound."""
    if not isinstance(text, str):
        raise UnsafeJSON(path, "not JSON text")
    limit = getattr(settings, "API_MAX_BODY_BYTES", 5 * 1024 * 1024)
    if len(text) > limit:
        raise UnsafeJSON(path, f"larger than {limit} bytes")
    try:
        _depth_guard(text)
    except ParseError:
        raise UnsafeJSON(path, f"nested deeper than {MAX_DEPTH} levels") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise UnsafeJSON(path, f"not valid JSON ({str(exc)[:80]})") from None
    check(data, path)
    return data


class SafeJSONField(drf_serializers.JSONField):
    """DRF's JSONField through ``json_text_load`` and ``safe_json.check``: the same limits for a
    value sent inside a JSON body or as a form-encoded / multipart field."""

    def to_internal_value(self, data: Any) -> Any:
        field = self.field_name or "value"
        try:
            if self.binary or getattr(data, "is_json_string", False) or isinstance(data, bytes):
                text = data.decode("utf-8") if isinstance(data, bytes) else str(data)
                return json_text_load(text, field)
            check(data, field)
        except UnsafeJSON as exc:
            self.fail("invalid_json", message=exc.message)
        except UnicodeDecodeError:
            self.fail("invalid_json", message="not UTF-8")
        return data

    default_error_messages = {"invalid_json": "{message}"}


class SafeJSONFormField(django_forms.JSONField):
    """Django's form JSONField through ``json_text_load``: a page's JSON field answers the form's
    error, never a RecursionError."""

    def to_python(self, value: Any) -> Any:
        if self.disabled or value in self.empty_values:
            return super().to_python(value)
        if isinstance(value, (list, dict, int, float, JSONString)):
            return value
        try:
            data = json_text_load(str(value), str(self.label or "value"))
        except UnsafeJSON as exc:
            raise django_forms.ValidationError(exc.message, code="invalid") from None
        return JSONString(data) if isinstance(data, str) else data

    def prepare_value(self, value: Any) -> Any:
        # An unset option shows an empty box, not the word "null".
        return "" if value is None else super().prepare_value(value)


from .body_keys import install as _body_keys_install  # noqa: E402 - DRF's serializers refuse unknown keys

_body_keys_install()
