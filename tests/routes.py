"""The URL conf and the route declarations as the route-walking tests read them (the endpoint
matrix, tests/security; the zh-Hant page walk, tests/i18n)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver


def declarations() -> tuple[dict, list]:
    """Every app's ``ROUTES`` (from its ``access.py`` and ``access_*.py``) and its
    ``matrix_objects`` factories; a route declared twice is an error."""
    routes, factories = {}, []
    for config in apps.get_app_configs():
        for info in pkgutil.iter_modules([str(Path(config.path))]):
            if info.name == "access" or info.name.startswith("access_"):
                module = importlib.import_module(f"{config.name}.{info.name}")
                for name, declared in getattr(module, "ROUTES", {}).items():
                    assert name not in routes, f"{name} declared twice"
                    routes[name] = declared
                if hasattr(module, "matrix_objects"):
                    factories.append(module.matrix_objects)
    return routes, factories


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
