"""Route access declarations, read by the endpoint-matrix test (tests/security/test_endpoint_matrix.py).

Every named route in the URL conf must be declared in some app's ``access.py`` module
(``ROUTES = {"url-name": route(...)}``); a route without a declaration fails the test.

A declaration names the object kind its URL arguments point at (``obj``: a key of the
matrix world's objects, see ``OBJECT_KINDS``; None for routes without arguments) and, per
HTTP method, who may pass authorization:

  PUBLIC       anyone, anonymous included
  LOGGED_IN    any logged-in user
  PLAYER       a logged-in user linked to a player
  SELF         the owning player only (e.g. appealing a ruling on one's own game)
  OWNER        the owning player, or that league's referees and admins
  ANY_REFEREE  a referee or admin of any league (desk pages that then show only their leagues)
  ANY_ADMIN    an admin of any league (queues that then show only their leagues)
  REFEREE      a referee or admin of the object's league
  ADMIN        an admin of the object's league
  SUPERUSER    site staff only (Django admin)
  SELF_OR_ADMIN  the player, or an admin of a league the player belongs to (a player's private
               details and online account links: docs/privacy.md)

"Passes" means the answer is anything but 401/403/404/405 or a redirect to the login page
(a 400 for an empty body passed authorization and failed validation, which is fine).
"""

from __future__ import annotations

from dataclasses import dataclass, field

PUBLIC = "public"
LOGGED_IN = "logged_in"
PLAYER = "player"
SELF = "self"
OWNER = "owner"
ANY_REFEREE = "any_referee"
ANY_ADMIN = "any_admin"
REFEREE = "referee"
ADMIN = "admin"
SUPERUSER = "superuser"
SELF_OR_ADMIN = "self_or_admin"  # the player, or an admin of a league the player belongs to (privacy rule)
LEVELS = (PUBLIC, LOGGED_IN, PLAYER, SELF, OWNER, ANY_REFEREE, ANY_ADMIN, REFEREE, ADMIN, SUPERUSER, SELF_OR_ADMIN)

# Who passes each level, among the matrix's actors (see the world below).
PASSES = {
    PUBLIC: {"anonymous", "owner", "other_player", "admin", "referee", "other_admin", "other_referee"},
    LOGGED_IN: {"owner", "other_player", "admin", "referee", "other_admin", "other_referee"},
    PLAYER: {"owner", "other_player"},
    SELF: {"owner"},
    OWNER: {"owner", "admin", "referee"},
    ANY_REFEREE: {"admin", "referee", "other_admin", "other_referee"},
    ANY_ADMIN: {"admin", "other_admin"},
    REFEREE: {"admin", "referee"},
    ADMIN: {"admin"},
    SUPERUSER: set(),
    SELF_OR_ADMIN: {"owner", "admin"},
}


@dataclass(frozen=True)
class Route:
    obj: str | None = None
    methods: dict[str, str] = field(default_factory=dict)
    # Routes the matrix cannot probe meaningfully (static serving, Django admin's own views)
    # say why here; the test then only checks that the reason is given.
    skip: str = ""
    query: str = ""  # extra query string, formatted with the kind's kwargs (e.g. "hand_id={hand_id}")


def route(obj: str | None = None, *, skip: str = "", query: str = "", **methods: str) -> Route:
    for method, level in methods.items():
        if method not in {"GET", "POST", "PUT", "PATCH", "DELETE"}:
            raise ValueError(f"unknown method {method}")
        if level not in LEVELS:
            raise ValueError(f"unknown access level {level!r}")
    return Route(obj=obj, methods=dict(methods), skip=skip, query=query.lstrip("?"))


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
# A kind's dict may hold "?" for a query string the probe adds (e.g. {"?": "hand_id=12"}).
# Group declarations: a key ending in ":*" covers a whole URL namespace (e.g. "admin:*").
