"""Access declared where the route is, and enforced there (the shape of pretix's
``EventPermission`` reading ``view.permission``, and healthchecks' fetch-and-authorize helpers).

A page view is decorated with ``@access(obj, GET=…, POST=…)``; an API view carries
``access = route(obj, GET=…, POST=…)`` (a viewset: ``access = {"list": route(…), …}`` by action),
read by one DRF permission (``kyoku.api_access.DeclaredAccess``). The declaration is the
enforcement: a method it does not name is refused (405); a level the actor cannot meet without an
object is refused before the view runs; a level that depends on the object (OWNER, REFEREE, ADMIN,
DIRECTOR, SELF, SELF_OR_ADMIN) is checked when the view fetches the object with ``object_for_request``
(pages) or ``get_object`` (DRF), both reading the declared level. The endpoint-matrix test
(tests/security/test_endpoint_matrix.py) reads the same attributes and probes every route.

``obj`` names the kind of object the URL arguments point at (a word such as "game" or "season",
None for routes without one); the matrix builds one of each kind. Levels, per HTTP method:

  PUBLIC       anyone, anonymous included
  LOGGED_IN    any logged-in user
  PLAYER       a logged-in user linked to a player
  SELF         the owning player only (e.g. appealing a ruling on one's own game)
  OWNER        the owning player, or that league's referees and admins
  ANY_REFEREE  a referee or admin of any league (desk pages that then show only their leagues)
  ANY_ADMIN    an admin of any league (queues that then show only their leagues)
  ANY_DIRECTOR an event director or admin of any league (creating a tournament in one of theirs)
  REFEREE      a referee or admin of the object's league
  ADMIN        an admin of the object's league
  DIRECTOR     an event director or admin of the object's league (a tournament's desk, rounds,
               clock, cut, seating, signs, EMA file; not the league's seasons, results or roster)
  DESK         a referee, event director or admin of the object's league (settling a table's
               result at a tournament's desk)
  SUPERUSER    site staff only (Django admin)
  SELF_OR_ADMIN  the player, or an admin of a league the player belongs to (a player's private
               details and online account links: docs/privacy.md)
  TABLE        a player seated at this game, or the phone holding this table's code
               (kyoku.principals.TablePhone); what they may do then is the table report's state

A route whose POST runs one of several actions (a form's ``action`` field, or an ``action`` in the
URL) declares each: ``actions={"report": TABLE, "enter": REFEREE}``; an undeclared action is
refused (400), and the matrix probes each action for every principal.

The object is authorized for the request's principal (``kyoku.principals.request_actor``): its
signed-in user, or the table phone a browser becomes on the one table whose code it holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import HttpRequest, HttpResponseBadRequest, HttpResponseBase, HttpResponseNotAllowed
from django.utils.translation import gettext as _

from kyoku.authz import Need, authorize, is_admin, is_desk, is_director, is_referee, object_for_actor, player_of
from kyoku.principals import request_actor
from kyoku.second_factor import second_factor_write_check

PUBLIC = "public"
LOGGED_IN = "logged_in"
PLAYER = "player"
SELF = "self"
OWNER = "owner"
ANY_REFEREE = "any_referee"
ANY_ADMIN = "any_admin"
ANY_DIRECTOR = "any_director"  # an event director or admin of any league
REFEREE = "referee"
ADMIN = "admin"
DIRECTOR = "director"  # an event director or admin of the object's league
SUPERUSER = "superuser"
SELF_OR_ADMIN = "self_or_admin"  # the player, or an admin of a league the player belongs to (privacy rule)
TABLE = "table"  # a player seated at this game, or this table's phone
DESK = "desk"  # a referee, event director or admin of the object's league: who settles a table
LEVELS = (
    PUBLIC,
    LOGGED_IN,
    PLAYER,
    SELF,
    OWNER,
    ANY_REFEREE,
    ANY_ADMIN,
    ANY_DIRECTOR,
    REFEREE,
    ADMIN,
    DIRECTOR,
    DESK,
    SUPERUSER,
    SELF_OR_ADMIN,
    TABLE,
)


@dataclass(frozen=True)
class Route:
    obj: str | None = None
    methods: dict[str, str] = field(default_factory=dict)
    # Routes the matrix cannot probe meaningfully (static serving, Django admin's own views)
    # say why here; the test then only checks that the reason is given.
    skip: str = ""
    query: str = ""  # extra query string, formatted with the kind's kwargs (e.g. "hand_id={hand_id}")
    # a POST that runs one of several actions: action → level (the POST's own level is the weakest)
    actions: dict[str, str] = field(default_factory=dict)
    action_in: str = "form"  # where the action is named: "form" (the ``action`` field) or "url"


def route(
    obj: str | None = None,
    *,
    skip: str = "",
    query: str = "",
    actions: dict[str, str] | None = None,
    action_in: str = "form",
    **methods: str,
) -> Route:
    for method, level in methods.items():
        if method not in {"GET", "POST", "PUT", "PATCH", "DELETE"}:
            raise ValueError(f"unknown method {method}")
        if level not in LEVELS:
            raise ValueError(f"unknown access level {level!r}")
    for action, level in (actions or {}).items():
        if level not in LEVELS:
            raise ValueError(f"unknown access level {level!r} for action {action!r}")
    if actions and "POST" not in methods:
        raise ValueError("actions are declared for a POST")
    if action_in not in ("form", "url"):
        raise ValueError("an action is named in the form or in the URL")
    return Route(
        obj=obj,
        methods=dict(methods),
        skip=skip,
        query=query.lstrip("?"),
        actions=dict(actions or {}),
        action_in=action_in,
    )


# ---------------------------------------------------------------- enforcement

# The object check each level asks of ``object_for_request`` / DRF's ``get_object``.
OBJECT_NEED = {
    PUBLIC: Need.VIEW,
    LOGGED_IN: Need.VIEW,
    PLAYER: Need.VIEW,
    ANY_REFEREE: Need.VIEW,
    ANY_ADMIN: Need.VIEW,
    ANY_DIRECTOR: Need.VIEW,
    SUPERUSER: Need.VIEW,
    SELF: Need.SELF,
    OWNER: Need.OWNER,
    REFEREE: Need.REFEREE,
    ADMIN: Need.ADMIN,
    DIRECTOR: Need.DIRECTOR,
    DESK: Need.DESK,
    SELF_OR_ADMIN: Need.SELF_OR_ADMIN,
    TABLE: Need.TABLE,
}


def actor_may_try(user: Any, level: str) -> bool:
    """What can be told of ``user`` before any object is fetched: False refuses at once; True lets
    the view fetch the object, whose check (``OBJECT_NEED``) decides the rest. A user who holds the
    role in no league at all is refused here, which also answers before any database lookup."""
    if level in (PUBLIC, TABLE):
        return True  # a table's phone has no login: the table decides (kyoku.principals.request_actor)
    if not getattr(user, "is_authenticated", False):
        return False
    if level == PLAYER:
        return player_of(user) is not None
    if level in (ANY_REFEREE, REFEREE):
        return is_referee(user)
    if level in (ANY_ADMIN, ADMIN):
        return is_admin(user)
    if level in (ANY_DIRECTOR, DIRECTOR):
        return is_director(user)
    if level == DESK:
        return is_desk(user)
    if level == SUPERUSER:
        return bool(user.is_superuser)
    return True  # LOGGED_IN, TABLE (a phone has no login), and the object levels: the object decides


class UnknownAction(Exception):
    """A POST naming an action its route does not declare (400)."""


def method_level(declared: Route, method: str, action: str | None = None) -> str | None:
    """The level declared for ``method`` (HEAD and OPTIONS as GET), or None when not declared. On a
    route that declares actions, a POST takes its action's level (UnknownAction when undeclared)."""
    method = "GET" if method in ("HEAD", "OPTIONS") else method
    if method == "POST" and declared.actions:
        action = action or ""  # "" declares a form posted without an action (an upload's first step)
        if action not in declared.actions:
            raise UnknownAction(action)
        return declared.actions[action]
    return declared.methods.get(method)


def access(
    obj: str | None = None,
    *,
    skip: str = "",
    query: str = "",
    actions: dict[str, str] | None = None,
    action_in: str = "form",
    **methods: str,
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Declare and enforce a page view's access. An undeclared method is 405; an anonymous visitor
    opening a page that needs a login goes to the login page (a form posted anonymously is 403); an actor who cannot meet the level is 403. The
    view then fetches its object with ``object_for_request``, which applies the level's object
    check."""
    declared = route(obj, skip=skip, query=query, actions=actions, action_in=action_in, **methods)

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def enforced(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            action = kwargs.get("action") if declared.action_in == "url" else request.POST.get("action")
            try:
                level = method_level(declared, request.method or "GET", action)
            except UnknownAction:
                return HttpResponseBadRequest(_("Unknown action."))
            if level is None:
                return HttpResponseNotAllowed(sorted(declared.methods))
            if not actor_may_try(request.user, level):
                if request.method in ("GET", "HEAD") and not getattr(request.user, "is_authenticated", False):
                    return redirect_to_login(request.get_full_path())  # a page to read: log in first
                raise PermissionDenied(_("You may not do this."))
            request.access_need = OBJECT_NEED[level]  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        enforced.access = declared  # type: ignore[attr-defined]
        return enforced

    return decorate


def object_for_request(request: Any, model_or_qs: Any, *, need: Need | None = None, **lookup: Any) -> Any:
    """Fetch the object a declared view acts on and check it at the level the view declares for
    this request's method (404 when missing, 403 when the actor may not).

    ``need`` names the level for an object the request's body names rather than the URL, which the
    route's level does not cover (the route says "any referee"; the game in the body needs a
    referee of its own league)."""
    declared = getattr(request, "access_need", None)
    if declared is None:
        raise ImproperlyConfigured("object_for_request needs a view with declared access (@access)")
    obj = object_for_actor(model_or_qs, actor=request.user, need=Need.VIEW, **lookup)
    # the principal is known once the object is: a browser holding this table's code is its phone
    actor = request_actor(request, obj)
    authorize(actor, obj, need or declared)
    # a write by the league's staff waits for their second factor where the league requires one
    second_factor_write_check(request.method or "GET", actor, obj, need or declared)
    return obj
