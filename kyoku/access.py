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


# The matrix world (built by tests/security/world.py), which ``matrix_objects`` receives:
#   world.league, world.other_league          two leagues on one instance
#   world.season, world.division               an open season of world.league and its division A
#   world.players                              8 players entered in world.division
#   world.game                                 match day 1, table 1, players[0..3] in seat order
#   world.owner                                a login linked to players[0] (the "owning player")
#   world.other_player                         a login linked to players[5]
#   world.admin, world.referee                 roles in world.league
#   world.other_admin, world.other_referee     the same roles in world.other_league only
#
# An app's access module may define ``matrix_objects(world) -> {kind: {url_kwarg: value}}``,
# creating the objects its routes point at inside world.league (owned by world.players[0]
# where an object has an owner). The kinds it returns can be used as ``obj`` in its ROUTES.
