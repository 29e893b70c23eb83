"""The endpoint matrix: every named route of the URL conf declares its access on its view
(kyoku/access.py; read by tests/routes.py), and is probed for every actor: the admin and referee of this league and of
another league, the owning player, another player and anonymous. A route with no declaration
fails; an actor who gets past authorization where the declaration says no (or is stopped where
it says yes) fails; a refused write stores nothing (no audit row)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from kyoku import access
from kyoku.models import AuditLog
from tests.routes import declarations, named_routes
from tests.security.world import world_build

# Who passes each declared level, among the matrix's actors (tests/security/world.py).
PASSES = {
    access.PUBLIC: {"anonymous", "owner", "other_player", "admin", "referee", "other_admin", "other_referee"},
    access.LOGGED_IN: {"owner", "other_player", "admin", "referee", "other_admin", "other_referee"},
    access.PLAYER: {"owner", "other_player"},
    access.SELF: {"owner"},
    access.OWNER: {"owner", "admin", "referee"},
    access.ANY_REFEREE: {"admin", "referee", "other_admin", "other_referee"},
    access.ANY_ADMIN: {"admin", "other_admin"},
    access.REFEREE: {"admin", "referee"},
    access.ADMIN: {"admin"},
    access.SUPERUSER: set(),
    access.SELF_OR_ADMIN: {"owner", "admin"},
}
ACTORS = ("anonymous", "owner", "other_player", "admin", "referee", "other_admin", "other_referee")
DENIED = {401, 403, 404, 405}


ROUTES, FACTORIES = declarations()
NAMED = named_routes()


def _declaration(name):
    if name in ROUTES:
        return ROUTES[name]
    if ":" in name and f"{name.split(':')[0]}:*" in ROUTES:
        return ROUTES[f"{name.split(':')[0]}:*"]
    return None


def test_every_route_is_declared():
    missing = sorted(name for name in NAMED if _declaration(name) is None)
    assert not missing, f"routes with no declared access (declare them on the view: kyoku/access.py): {missing}"


def test_declarations_name_real_routes():
    stale = sorted(n for n in ROUTES if not n.endswith(":*") and n not in NAMED)
    assert not stale, f"declared but not in the URL conf: {stale}"


PROBED = sorted((name, method) for name in NAMED if (d := _declaration(name)) and not d.skip for method in d.methods)


def _client(world, actor: str) -> Client:
    client = Client()
    if actor != "anonymous":
        client.force_login(getattr(world, actor))
    return client


def _url(world, kinds: dict, name: str, declared) -> str:
    pattern = NAMED[name]
    kwargs = {}
    if declared.obj:
        assert declared.obj in kinds, f"{name}: no matrix object kind {declared.obj!r}"
        kwargs = dict(kinds[declared.obj])
    wanted = set(pattern.pattern.converters) | set(getattr(pattern.pattern, "regex").groupindex)
    url = reverse(name, kwargs={k: v for k, v in kwargs.items() if k in wanted})
    query = (declared.query or "").format(**kwargs)
    extra = kwargs.get("?", "")
    parts = [q for q in (query, extra) if q]
    return url + ("?" + "&".join(parts) if parts else "")


def _request(client, method: str, url: str):
    """An empty body: JSON for the API, an empty form for pages (authorization comes first)."""
    if method == "GET":
        return client.get(url)
    if url.startswith("/api/"):
        return client.generic(method, url, data=b"{}", content_type="application/json")
    return client.generic(method, url, data=b"", content_type="application/x-www-form-urlencoded")


def _passed(response) -> bool:
    if response.status_code in DENIED:
        return False
    if response.status_code in (301, 302, 303) and "/accounts/login/" in response.get("Location", ""):
        return False
    return response.status_code < 500


@pytest.mark.parametrize("name,method", PROBED, ids=[f"{n}:{m}" for n, m in PROBED])
def test_route_access(db, name, method):
    world = world_build()
    kinds = {}
    for factory in FACTORIES:
        kinds.update(factory(world))
    declared = _declaration(name)
    allowed = PASSES[declared.methods[method]]
    url = _url(world, kinds, name, declared)
    wrong = []
    for actor in ACTORS:
        client = _client(world, actor)
        audits = AuditLog.objects.count()
        with transaction.atomic():
            response = _request(client, method, url)
            assert response.status_code < 500, f"{actor} {method} {url}: {response.status_code}"
            passed = _passed(response)
            if not passed and method != "GET":
                assert AuditLog.objects.count() == audits, f"{actor} was refused {method} {url} but a change was logged"
            transaction.set_rollback(True)
        if passed != (actor in allowed):
            wrong.append(f"{actor}: {response.status_code} ({'passed' if passed else 'refused'})")
    assert not wrong, f"{method} {url} declared {declared.methods[method]}: " + "; ".join(wrong)
