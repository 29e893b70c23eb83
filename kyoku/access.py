"""Route access declarations, read by the endpoint-matrix test (tests/security/test_endpoint_matrix.py).

Every named route in the URL conf must be declared in some app's ``access.py`` module
(``ROUTES = {"url-name": route(...)}``); a route without a declaration fails the test.

A declaration names the object kind its URL arguments point at (``obj``: a key of the
matrix world's objects, see ``OBJECT_KINDS``; None for routes without arguments) and, per
HTTP method, who may pass authorization:

  PUBLIC     anyone, anonymous included
  LOGGED_IN  any logged-in user
  PLAYER     a logged-in user linked to a player
  OWNER      the owning player, or that league's referees and admins
  REFEREE    a referee or admin of the object's league
  ADMIN      an admin of the object's league
  SUPERUSER  site staff only (Django admin)

"Passes" means the answer is anything but 401/403/404/405 or a redirect to the login page
(a 400 for an empty body passed authorization and failed validation, which is fine).
"""

from __future__ import annotations

from dataclasses import dataclass, field

PUBLIC = "public"
LOGGED_IN = "logged_in"
PLAYER = "player"
OWNER = "owner"
REFEREE = "referee"
ADMIN = "admin"
SUPERUSER = "superuser"
LEVELS = (PUBLIC, LOGGED_IN, PLAYER, OWNER, REFEREE, ADMIN, SUPERUSER)


@dataclass(frozen=True)
class Route:
    obj: str | None = None
    methods: dict[str, str] = field(default_factory=dict)
    # Extra query string for the probe (e.g. "?hand_id={hand}"), formatted with the world's ids.
    query: str = ""
    # Routes the matrix cannot probe meaningfully (static serving, Django admin's own views)
    # say why here; the test then only checks that the reason is given.
    skip: str = ""


def route(obj: str | None = None, *, query: str = "", skip: str = "", **methods: str) -> Route:
    for method, level in methods.items():
        if method not in {"GET", "POST", "PUT", "PATCH", "DELETE"}:
            raise ValueError(f"unknown method {method}")
        if level not in LEVELS:
            raise ValueError(f"unknown access level {level!r}")
    return Route(obj=obj, methods=dict(methods), query=query, skip=skip)
