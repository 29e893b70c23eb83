"""Dependencies run one way (issue 21): the pure engines at the bottom, then the platform
(``kyoku``: tenancy, roles, audit, idempotency), then ``league``, then the apps, then the demo
and the project's configuration. A module may import its own layer or any layer below, never
one above; among the apps the imports form no cycle.

The check reads every module's imports (``ast``, so imports inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("scoring.engine", "referee.engine")
LAYERS: dict[str, float] = {
    "engine": 0,
    "kyoku": 1,
    # below the league: the apps (and the league) tell of their facts through it; it knows none of them
    "notifications": 1.5,
    "league": 2,
    "scoring": 3,
    "referee": 3,
    "ratings": 3,
    "matchdays": 3,
    "online": 3,
    "events": 3,
    "stats": 3,
    "demo": 4,
    "config": 5,
}


def _unit(module: str) -> str | None:
    """The layer unit a dotted module name belongs to (None: outside the project)."""
    if module.startswith(ENGINES):
        return "engine"
    top = module.split(".")[0]
    return top if top in LAYERS else None


def _package_of(path: Path) -> str:
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return _unit(module) or ""


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def import_arrows() -> list[tuple[str, str, str]]:
    """(from unit, to unit, where) for every import between two units of the project."""
    arrows = []
    for top in LAYERS:
        for path in sorted((ROOT / top).rglob("*.py")) if (ROOT / top).is_dir() else []:
            if "migrations" in path.parts:
                continue
            here = _package_of(path)
            for line, module in _imports(path):
                there = _unit(module)
                if there and there != here:
                    arrows.append((here, there, f"{path.relative_to(ROOT)}:{line} imports {module}"))
    return arrows


def test_no_import_runs_up_a_layer():
    upward = [where for here, there, where in import_arrows() if LAYERS[there] > LAYERS[here]]
    assert upward == []


def test_the_apps_import_each_other_without_a_cycle():
    graph: dict[str, set[str]] = {}
    for here, there, _ in import_arrows():
        if LAYERS[here] == LAYERS[there] == 3:
            graph.setdefault(here, set()).add(there)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph.get(start, ()))

    assert [app for app in graph if reaches(app, app, {app})] == []


def test_the_engines_import_nothing_of_the_project_but_engines():
    arrows = [where for here, there, where in import_arrows() if here == "engine" and there != "engine"]
    assert arrows == []


def test_the_checker_sees_an_upward_import(tmp_path, monkeypatch):
    assert _unit("league.models") == "league" and _unit("scoring.engine.riichi") == "engine"
    assert LAYERS[_unit("league.models")] > LAYERS[_unit("kyoku.audit")]  # kyoku → league would be up
