"""Limit/offset pagination that refuses what it cannot serve: ``?limit=`` and ``?offset=`` must
be whole numbers in range (a 400 naming the parameter), never a 500 from a huge slice."""

from __future__ import annotations
from django.utils.translation import gettext

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000

    def _bounded(self, request: Any, name: str, default: int | None, upper: int) -> int | None:
        raw = request.query_params.get(name)
        if raw in (None, ""):
            return default
        if not raw.isdigit() or len(raw) > 12 or int(raw) > upper:
            raise ValidationError({name: [gettext("a whole number from 0 to %(upper)s") % {"upper": upper}]})
        return int(raw)

    def get_limit(self, request: Any) -> int | None:
        limit = self._bounded(request, self.limit_query_param, self.default_limit, 10**12)
        return max(1, min(limit, self.max_limit)) if limit is not None else None

    def get_offset(self, request: Any) -> int | None:
        return self._bounded(request, self.offset_query_param, 0, MAX_OFFSET)
