"""DRF's JSON parser with limits: a body nested too deep, with lone surrogates or NUL, or with
numbers out of range is a 400 naming the path, never a 500 (RecursionError) or a poisoned row."""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from .safe_json import MAX_DEPTH, UnsafeJSON, check


def _depth_guard(text: str) -> None:
    """Refuse over-deep nesting before json.loads recurses into it."""
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


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        limit = getattr(settings, "API_MAX_BODY_BYTES", 5 * 1024 * 1024)
        if len(raw) > limit:
            raise ParseError(f"body: larger than {limit} bytes")
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


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")
