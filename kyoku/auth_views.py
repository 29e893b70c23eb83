"""``POST /api/auth/token/`` with the same brute-force lock as the HTML logins: a locked-out
username and address get 429 before any password is checked (django-axes keeps the count)."""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from rest_framework import status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response

from kyoku.access import PUBLIC, route
from kyoku.api_access import DeclaredAccess


class ObtainAuthTokenLocked(ObtainAuthToken):
    permission_classes = [DeclaredAccess]  # DRF's own view allows all: declared like every other
    access = route(POST=PUBLIC)

    def post(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        django_request = request._request
        AxesProxyHandler.update_request(django_request)
        data = request.data if hasattr(request.data, "get") else {}
        credentials = {"username": str(data.get("username", ""))[:150]}
        if not AxesProxyHandler.is_allowed(django_request, credentials):
            return Response(
                {"detail": "too many failed logins: try again later"}, status=status.HTTP_429_TOO_MANY_REQUESTS
            )
        return super().post(request, *args, **kwargs)


obtain_auth_token = ObtainAuthTokenLocked.as_view()
