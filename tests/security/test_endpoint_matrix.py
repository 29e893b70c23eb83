"""The endpoint matrix, generated from the URL conf: every named route declares its access on its
view (kyoku/access.py; read by tests/routes.py), and every method, and every action a POST runs
(a form's ``action`` field or an action in the URL), is probed for every principal: anonymous; a
phone holding this table's code, another table's, another round's, another event's; the owning
player (seated at the probed table), a player seated at another table, a player not in the event;
the referee, the event director and the admin of this league; another league's admin and referee. A route or action
with no declaration fails; a principal who gets past authorization where the declaration says no
(or is stopped where it says yes) fails; a refused write stores nothing (no audit row). Every
``action`` value a template's form posts must be declared by some route."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from kyoku import access
from events.services import CODES_KEY, table_code
from kyoku.models import AuditLog
from tests.routes import declarations, named_routes
from tests.security.world import world_build

PHONES = ("phone_here", "phone_other_table", "phone_other_round", "phone_other_event")
# Who passes each declared level, among the matrix's principals (tests/security/world.py, kinds.py).
PASSES = {
    access.PUBLIC: {
        "anonymous",
        *PHONES,
        "owner",
        "seated_elsewhere",
        "other_player",
        "admin",
        "referee",
        "director",
        "other_admin",
        "other_referee",
    },
    access.LOGGED_IN: {
        "owner",
        "seated_elsewhere",
        "other_player",
        "admin",
        "referee",
        "director",
        "other_admin",
        "other_referee",
    },
    access.PLAYER: {"owner", "seated_elsewhere", "other_player"},
    access.SELF: {"owner"},
    access.OWNER: {"owner", "admin", "referee"},
    access.ANY_REFEREE: {"admin", "referee", "other_admin", "other_referee"},
    access.ANY_ADMIN: {"admin", "other_admin"},
    access.ANY_DIRECTOR: {"admin", "director", "other_admin"},  # an admin counts as a director
    access.REFEREE: {"admin", "referee"},
    access.ADMIN: {"admin"},
    access.DIRECTOR: {"admin", "director"},
    access.DESK: {"admin", "referee", "director"},
    access.SUPERUSER: set(),
    access.SELF_OR_ADMIN: {"owner", "admin"},
    access.TABLE: {"owner", "phone_here"},  # the owner is seated at the probed table
}
ACTORS = (
    "anonymous",
    *PHONES,
    "owner",
    "seated_elsewhere",
    "other_player",
    "admin",
    "referee",
    "director",
    "other_admin",
    "other_referee",
)


def test_every_level_names_its_principals():
    assert set(PASSES) == set(access.LEVELS)


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


def _probes(declared) -> list[tuple[str, str | None]]:
    """(method, action) for every method, and for a POST that runs actions, every action."""
    found: list[tuple[str, str | None]] = []
    for method in declared.methods:
        if method == "POST" and declared.actions:
            found += [(method, action) for action in declared.actions]
        else:
            found.append((method, None))
    return found


PROBED = sorted(
    (
        (name, method, action)
        for name in NAMED
        if (d := _declaration(name)) and not d.skip
        for method, action in _probes(d)
    ),
    key=lambda p: (p[0], p[1], p[2] or ""),
)


@pytest.fixture(scope="module")
def matrix(django_db_setup, django_db_blocker, tmp_path_factory):
    """The matrix world and its objects, built once for all the probes (building it is most of a
    probe's time). It lives in this module's own transaction, rolled back at the module's end; each
    probe runs in a savepoint inside it (the ``db`` fixture), and each principal's request in a
    savepoint of its own, rolled back, so no probe sees another's writes."""
    from types import SimpleNamespace

    from django.test import override_settings

    storage = tmp_path_factory.mktemp("matrix")
    paths = {"PRIVATE_MEDIA_ROOT": storage / "private", "MEDIA_ROOT": storage / "media"}
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=fast, **paths):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            world = world_build()
            kinds: dict = {}
            for factory in FACTORIES:
                kinds.update(factory(world))
            yield SimpleNamespace(world=world, kinds=kinds, paths=paths)
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def matrix_db(matrix, db, settings):
    """The shared world inside this test's savepoint, with the files it stored where it stored them."""
    for name, path in matrix.paths.items():
        setattr(settings, name, path)
    return matrix


def _client(world, actor: str) -> Client:
    client = Client()
    if actor in PHONES:
        game = world.phone_codes[actor]
        session = client.session
        session[CODES_KEY] = {str(game.pk): table_code(game)}
        session.save()
    elif actor != "anonymous":
        client.force_login(getattr(world, actor))
    return client


def _url(world, kinds: dict, name: str, declared, action: str | None = None) -> str:
    pattern = NAMED[name]
    kwargs = {}
    if declared.obj:
        assert declared.obj in kinds, f"{name}: no matrix object kind {declared.obj!r}"
        kwargs = dict(kinds[declared.obj])
    if action is not None and declared.action_in == "url":
        kwargs["action"] = action
    wanted = set(pattern.pattern.converters) | set(getattr(pattern.pattern, "regex").groupindex)
    url = reverse(name, kwargs={k: v for k, v in kwargs.items() if k in wanted})
    query = (declared.query or "").format(**kwargs)
    extra = kwargs.get("?", "")
    parts = [q for q in (query, extra) if q]
    return url + ("?" + "&".join(parts) if parts else "")


def _request(client, method: str, url: str, form_action: str | None = None):
    """An empty body but the action: JSON for the API, a form for pages (authorization comes first)."""
    if method == "GET":
        return client.get(url)
    if url.startswith("/api/"):
        body = b'{"action": "%s"}' % form_action.encode() if form_action is not None else b"{}"
        return client.generic(method, url, data=body, content_type="application/json")
    body = f"action={form_action}".encode() if form_action else b""
    return client.generic(method, url, data=body, content_type="application/x-www-form-urlencoded")


def _passed(response) -> bool:
    if response.status_code in DENIED:
        return False
    if response.status_code in (301, 302, 303) and "/accounts/login/" in response.get("Location", ""):
        return False
    return response.status_code < 500


@pytest.mark.parametrize(
    "name,method,action", PROBED, ids=[f"{n}:{m}" + (f":{a}" if a is not None else "") for n, m, a in PROBED]
)
def test_route_access(matrix_db, name, method, action):
    world, kinds = matrix_db.world, matrix_db.kinds
    declared = _declaration(name)
    level = declared.actions[action] if action is not None else declared.methods[method]
    allowed = PASSES[level]
    url = _url(world, kinds, name, declared, action)
    form_action = action if action is not None and declared.action_in == "form" else None
    wrong = []
    for actor in ACTORS:
        client = _client(world, actor)
        audits = AuditLog.objects.count()
        with transaction.atomic():
            response = _request(client, method, url, form_action)
            assert response.status_code < 500, f"{actor} {method} {url}: {response.status_code}"
            passed = _passed(response)
            if not passed and method != "GET":
                assert AuditLog.objects.count() == audits, f"{actor} was refused {method} {url} but a change was logged"
            transaction.set_rollback(True)
        if passed != (actor in allowed):
            wrong.append(f"{actor}: {response.status_code} ({'passed' if passed else 'refused'})")
    assert not wrong, f"{method} {url} {action or ''} declared {level}: " + "; ".join(wrong)


def test_every_form_action_is_declared():
    """Generated from the templates: each ``action`` value a form posts is declared by a route, so
    the matrix probes it for every principal."""
    import re
    from pathlib import Path

    declared = {a for d in ROUTES.values() for a in d.actions}
    posted = set()
    for path in Path("templates").rglob("*.html"):
        for value in re.findall(r'name="action"\s+value="([^"{]+)"', path.read_text()):
            posted.add((value, str(path)))
    missing = sorted(f"{v} ({p})" for v, p in posted if v not in declared)
    assert posted and not missing, f"form actions no route declares: {missing}"


def test_an_undeclared_action_is_refused(matrix_db):
    world, kinds = matrix_db.world, matrix_db.kinds
    client = _client(world, "admin")
    response = client.post(f"/events/{kinds['event']['pk']}/desk/", {"action": "drop_tables"})
    assert response.status_code == 400
