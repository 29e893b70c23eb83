"""Request hardening before any view runs: ids in the path and numbers in the query string
that no database column can hold, and text that cannot be stored (NUL, lone surrogates),
are refused as 404/400 naming the parameter, instead of reaching the ORM as a 500.

:class:`ApiErrorsMiddleware` keeps every answer under ``/api/`` JSON: a body over
``API_MAX_BODY_BYTES`` is refused 413 before it is read, and any error answer that is not JSON
(Django's 404 for an unknown URL, a 405, a 400 for a bad request, the debug pages, a 500) is
replaced by ``{"detail": words}`` with the same status and headers that matter."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _

from .safe_json import text_problem
from .site import database_unavailable_seen


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def api_error_words(status: int) -> str:
    """The words of a JSON error answer that has none of its own, in the active language."""
    words = {
        400: _("Bad request: the request could not be read."),
        401: _("Log in first: this needs an account."),
        403: _("Not allowed: your account may not do this."),
        404: _("Not found: no such endpoint or object."),
        405: _("Method not allowed: see the Allow header for the methods this address takes."),
        413: _("The request body is too large."),
        500: _("Server error: the request could not be completed; please try again."),
    }
    return words.get(status) or (
        _("Server error: the request could not be completed; please try again.")
        if status >= 500
        else _("Bad request: the request could not be read.")
    )


_LONG_NUMBER = re.compile(r"^[+-]?\d{19,}$")
_LONG_PATH_NUMBER = re.compile(r"/\d{19,}(/|$)")


class RequestHardeningMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if _LONG_PATH_NUMBER.search(request.path):
            if _is_api(request):
                return JsonResponse({"detail": api_error_words(404)}, status=404)
            raise Http404("no such object")
        for name, values in request.GET.lists():
            problem = text_problem(name) or next((p for p in (self._value_problem(v) for v in values) if p), None)
            if problem:
                return JsonResponse(
                    {"detail": problem, "field": name[:40], "errors": {name[:40]: [problem]}}, status=400
                )
        return self.get_response(request)

    @staticmethod
    def _value_problem(value: str) -> str | None:
        if len(value) > 2000:
            return "longer than 2000 characters"
        if _LONG_NUMBER.match(value.strip()):
            return "number out of range"
        return text_problem(value)


_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")


class ApiErrorsMiddleware:
    """Under ``/api/``: a body declared larger than ``API_MAX_BODY_BYTES`` is 413 before anything
    reads it, and an error answer that is not JSON becomes ``{"detail": ...}`` (same status)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not _is_api(request):
            return self.get_response(request)
        limit = int(getattr(settings, "API_MAX_BODY_BYTES", 5 * 1024 * 1024))
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return JsonResponse({"detail": api_error_words(400), "field": "Content-Length"}, status=400)
        if length > limit:
            return JsonResponse(
                {"detail": f"{api_error_words(413)} (> {limit} bytes)", "field": "body", "code": "body_too_large"},
                status=413,
            )
        response = self.get_response(request)
        if response.status_code >= 400 and "json" not in response.get("Content-Type", ""):
            status = response.status_code
            replaced = JsonResponse({"detail": api_error_words(status)}, status=status)
            for header in _KEPT_HEADERS:
                if header in response:
                    replaced[header] = response[header]
            return replaced
        return response


class ReadRetryMiddleware:
    """A read (GET, HEAD) whose database connection broke under it (PostgreSQL restarting, a
    failover) is answered once more, on a new connection, instead of with the 503: a read stored
    nothing, and the reader sees the page a moment later (opening the connection waits out a
    restart: kyoku/postgresql). A write is not sent twice from here: its 503 says nothing was
    saved, and the client sends it again with its idempotency key."""

    READS = ("GET", "HEAD")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if request.method in self.READS and database_unavailable_seen(request):
            if not connection.in_atomic_block:  # (a test's own transaction is kept)
                try:  # the broken connection goes; the next query opens a new one
                    connection.close()
                except DatabaseError:
                    pass
            response = self.get_response(request)
        return response
