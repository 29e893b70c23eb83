"""The URL conf and its access declarations as the route-walking tests read them (the endpoint
matrix, tests/security; the zh-Hant page walk, tests/i18n).

A route's declaration is read where the code enforces it: ``@access`` on a page view (the
function's ``access``), ``access`` on an API view, or ``access[action]`` on a viewset
(kyoku/access.py). Routes served by Django's or a library's own views are declared beside the URL
conf in ``config.urls.DECLARED``."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from kyoku.access import Route


def _walk(patterns, namespace=None):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, p.namespace or namespace)
        elif isinstance(p, URLPattern) and p.name:
            yield (f"{namespace}:{p.name}" if namespace else p.name), p


def named_routes() -> dict:
    """Route name → its pattern, for every named route of the URL conf."""
    found = {}
    for name, pattern in _walk(get_resolver().url_patterns):
        found.setdefault(name, pattern)  # DRF's format-suffix twins share the name: the first stands
    return found


def view_declaration(pattern: URLPattern) -> Route | None:
    """The access the pattern's view declares (and enforces), or None."""
    callback = pattern.callback
    declared = getattr(callback, "access", None)
    if isinstance(declared, Route):
        return declared
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    declared = getattr(cls, "access", None)
    if isinstance(declared, Route):
        return declared
    actions = getattr(callback, "actions", None)
    if not isinstance(declared, dict) or not actions:
        return None
    # a viewset: each HTTP method of this URL runs one action, each action declared on its own
    methods, obj, query = {}, None, ""
    for method, action in actions.items():
        entry = declared.get(action)
        if entry is None or method.upper() not in entry.methods:
            return None
        methods[method.upper()] = entry.methods[method.upper()]
        obj, query = obj or entry.obj, query or entry.query
    return Route(obj=obj, methods=methods, query=query)


def declarations() -> tuple[dict, list]:
    """Route name → its declaration, and the matrix's object factories."""
    from config.urls import DECLARED

    from tests.security.kinds import matrix_objects

    routes = dict(DECLARED)
    for name, pattern in named_routes().items():
        declared = view_declaration(pattern)
        if declared is not None:
            assert name not in routes, f"{name} declared on its view and in config.urls.DECLARED"
            routes[name] = declared
    return routes, [matrix_objects]


def route_url(kinds: dict, name: str, pattern, declared) -> str:
    """The URL of route ``name`` with its object's keys from ``kinds`` (the matrix world's objects)
    and the declared query; the crawls (zh-Hant/ja words, axe-core) read the same pages."""
    kwargs = dict(kinds[declared.obj]) if declared.obj else {}
    wanted = set(pattern.pattern.converters) | set(pattern.pattern.regex.groupindex)
    url = reverse(name, kwargs={k: v for k, v in kwargs.items() if k in wanted})
    parts = [q for q in ((declared.query or "").format(**kwargs), kwargs.get("?", "")) if q]
    return url + ("?" + "&".join(parts) if parts else "")
