"""Route declarations of site-wide routes served by the shared package (kyoku.site)."""

from kyoku.access import PUBLIC, route

ROUTES = {
    "favicon": route(None, GET=PUBLIC),
}


