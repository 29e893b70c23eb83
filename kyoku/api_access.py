"""The one DRF permission: it reads the access each API view declares (``access = route(…)``, or
``{action: route(…)}`` on a viewset) and enforces it, as pretix's ``EventPermission`` reads
``view.permission``. A view that declares nothing is refused: access is never implied."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import MethodNotAllowed, NotAuthenticated, PermissionDenied
from rest_framework.permissions import BasePermission

from rest_framework.exceptions import ValidationError

from kyoku.access import OBJECT_NEED, Route, UnknownAction, actor_may_try, method_level
from kyoku.authz import allowed
from kyoku.principals import request_actor
from kyoku.second_factor import SecondFactorRequired, second_factor_write_check


def view_route(view: Any) -> Route | None:
    """The declaration that governs this request: the view's ``access``, or on a viewset the entry
    for the action being run."""
    declared = getattr(view, "access", None)
    if isinstance(declared, dict):
        return declared.get(getattr(view, "action", None) or "")
    return declared


class DeclaredAccess(BasePermission):
    def has_permission(self, request: Any, view: Any) -> bool:
        declared = view_route(view)
        if declared is None:
            if isinstance(getattr(view, "access", None), dict) and getattr(view, "action", None) in (None, "metadata"):
                raise MethodNotAllowed(request.method)  # a viewset's URL that runs no action for this method
            raise PermissionDenied(_("This route declares no access."))
        action = (getattr(view, "kwargs", None) or {}).get("action")
        if declared.action_in == "form":
            action = request.data.get("action") if declared.actions and hasattr(request.data, "get") else None
        try:
            level = method_level(declared, request.method, action)
        except UnknownAction:
            raise ValidationError({"action": [_("Unknown action.")]}) from None
        if level is None:
            raise MethodNotAllowed(request.method)
        if not actor_may_try(request.user, level):
            if not getattr(request.user, "is_authenticated", False):
                raise NotAuthenticated()
            return False
        request.access_need = OBJECT_NEED[level]
        return True

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        need = getattr(request, "access_need", None)
        if need is None:  # has_permission sets it or refuses: an object reached without it is refused
            return False
        actor = request_actor(request, obj)
        if not allowed(actor, obj, need):
            return False
        try:  # a write by the league's staff waits for their second factor where the league requires one
            second_factor_write_check(request.method, actor, obj, need)
        except SecondFactorRequired as exc:
            raise PermissionDenied(str(exc)) from None
        return True
