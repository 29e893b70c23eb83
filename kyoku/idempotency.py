"""``Idempotency-Key`` for write endpoints: a repeated request returns the first response (marked
``Idempotent-Replayed: true``) and creates nothing twice; the same key with another body answers
422 and changes nothing. The key row is inserted in the same transaction as the write, so two
concurrent requests with one key serialise on the unique index.

A key belongs to its principal (``kyoku.principals.actor_scope``): a signed-in user, or a table's
phones, which have no login. A view whose principal is not its user names it with
``idempotency_actor(request, *args, **kwargs)``; a request with no principal writes nothing, so
it has no key to keep."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response

from kyoku.models import IdempotencyKey
from kyoku.principals import actor_scope, is_user

HEADER = "Idempotency-Key"

# DRF ships no types: its requests and responses are Any here, and a view method is typed by its shape.
ViewMethod = Callable[..., Any]


def _request_hash(request: Any) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode())
    digest.update(request.get_full_path().encode())  # the query too: DELETE …/hands/3/?hand_id=…
    digest.update(request._request.body)
    return digest.hexdigest()


def _replay(scope: str, key: str, request_hash: str) -> Response:
    record = IdempotencyKey.objects.get(scope=scope, key=key)
    if record.request_hash != request_hash:
        return Response(
            {"detail": _("this key was already used for a different request"), "field": HEADER},
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    response = Response(record.response, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


class _Discard(Exception):
    """Roll back the key with a non-2xx answer, so a corrected retry may reuse it."""

    def __init__(self, response: Any) -> None:
        self.response = response


def _scope(view: Any, request: Any, *args: Any, **kwargs: Any) -> str | None:
    if is_user(request.user):
        return actor_scope(request.user)
    named = getattr(view, "idempotency_actor", None)
    return actor_scope(named(request, *args, **kwargs)) if named else None


def idempotent(method: ViewMethod) -> ViewMethod:
    @wraps(method)
    def wrapper(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER, "").strip()
        if not key:
            return method(self, request, *args, **kwargs)
        scope = _scope(self, request, *args, **kwargs)
        if scope is None:
            return method(self, request, *args, **kwargs)
        if len(key) > 128:
            return Response(
                {"detail": _("at most %(n)s characters") % {"n": 128}, "field": HEADER},
                status=status.HTTP_400_BAD_REQUEST,
            )
        request_hash = _request_hash(request)
        try:
            with transaction.atomic():
                try:
                    with transaction.atomic():
                        record = IdempotencyKey.objects.create(
                            user=request.user if is_user(request.user) else None,
                            scope=scope,
                            key=key,
                            endpoint=request.path[:200],
                            request_hash=request_hash,
                        )
                except IntegrityError:
                    return _replay(scope, key, request_hash)
                response = method(self, request, *args, **kwargs)
                if not 200 <= response.status_code < 300:
                    raise _Discard(response)
                record.status_code, record.response = response.status_code, response.data
                record.save(update_fields=["status_code", "response"])
                return response
        except _Discard as discard:
            return discard.response

    return wrapper
