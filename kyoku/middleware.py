"""Request hardening before any view runs: ids in the path and numbers in the query string
that no database column can hold, and text that cannot be stored (NUL, lone surrogates),
are refused as 404/400 naming the parameter, instead of reaching the ORM as a 500."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponseBase, JsonResponse

from .safe_json import text_problem

_LONG_NUMBER = re.compile(r"^[+-]?\d{19,}$")
_LONG_PATH_NUMBER = re.compile(r"/\d{19,}(/|$)")


class RequestHardeningMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if _LONG_PATH_NUMBER.search(request.path):
            raise Http404("no such object")
        for name, values in request.GET.lists():
            problem = text_problem(name) or next((p for p in (self._value_problem(v) for v in values) if p), None)
            if problem:
                return JsonResponse({"detail": f"{name[:40]}: {problem}", "errors": {name[:40]: [problem]}}, status=400)
        return self.get_response(request)

    @staticmethod
    def _value_problem(value: str) -> str | None:
        if len(value) > 2000:
            return "longer than 2000 characters"
        if _LONG_NUMBER.match(value.strip()):
            return "number out of range"
        return text_problem(value)
