"""The static gates of issue 21, run with every test run (so CI runs them): ruff's lint rules and
mypy over the packages it covers (pyproject.toml: [tool.ruff.lint], [tool.mypy]). Each gate names
what it found."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
# the packages mypy holds to their annotations (the pure engines and the platform); the apps join
# as they are annotated
TYPED = [
    "kyoku",
    "referee",
    "scoring",
    "events",
    "ratings",
    "online",
    "stats",
    "notifications",
    "people",
    "accounts",
    "live",
]
# held to mypy --strict: the platform, both pure engines and the modules written typed from the start
STRICT = [
    "kyoku",
    "referee/engine",
    "scoring/engine",
    "events/clock.py",
    "events/ranking.py",
    "events/ema.py",
    *(
        f"notifications/{m}.py"
        for m in ("services", "channels", "rendering", "kinds", "models", "selectors", "queue", "views", "reminders")
    ),
    "live",
]


def _tool(name: str) -> str:
    found = BIN / name
    if found.exists():
        return str(found)
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: pip install -r requirements-dev.txt")
    return path


def test_ruff_finds_nothing():
    run = subprocess.run([_tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format_changes_nothing():
    run = subprocess.run(
        [_tool("ruff"), "format", "--check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def _cache(gate: str) -> list[str]:
    """mypy's incremental cache, one per gate (their options differ): the suite's second pass (CI
    runs it on SQLite, then on PostgreSQL) checks only what changed, in seconds instead of minutes.
    The cache is keyed on each file's content and the options, so it never hides an error."""
    return ["--cache-dir", str(ROOT / ".mypy_cache" / f"gate-{gate}")]


def test_mypy_finds_nothing_in_the_typed_packages():
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": os.environ.get("SECRET_KEY", "mypy-gate-" + "x" * 40)}
    run = subprocess.run([_tool("mypy"), *_cache("typed"), *TYPED], cwd=ROOT, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_mypy_strict_finds_nothing_in_the_strict_modules():
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": os.environ.get("SECRET_KEY", "mypy-gate-" + "x" * 40)}
    run = subprocess.run(
        [_tool("mypy"), *_cache("strict"), "--strict", *STRICT], cwd=ROOT, capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
