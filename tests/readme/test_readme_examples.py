"""The README's command-line examples run as written after ./scripts/serve on a fresh clone: the
settings read the .env that scripts/dev-env writes (no DEBUG or SECRET_KEY in the environment),
against a migrated database holding the demo league. Each command comes from the README's own
``sh`` code blocks, so an example that stops working (or names a missing file or season) fails here.
Every path in the README's links stays inside the repository."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PY = str(ROOT / ".venv" / "bin" / "python")


def _examples() -> list[str]:
    """Every ``.venv/bin/python manage.py …`` line of the README's sh blocks, comment removed."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            if line.startswith(".venv/bin/python manage.py"):
                lines.append(shlex.split(line, comments=True))
    return lines


EXAMPLES = _examples()


def _env(tmp_path: Path, db: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL")}
    env.update(
        KYOKU_ENV_FILE=str(tmp_path / ".env"),
        DATABASE_URL=f"sqlite:///{tmp_path / db}",
        PRIVATE_MEDIA_ROOT=str(tmp_path / "private"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _run(args: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    args = [PY if a == ".venv/bin/python" else str(ROOT / a) if a == "manage.py" else a for a in args]
    return subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory):
    """What ./scripts/serve leaves behind: the .env it writes, a migrated database with the demo.
    Commands run from a folder that mirrors the repository (relative paths as in the README)."""
    tmp = tmp_path_factory.mktemp("clone")
    work = tmp / "work"
    work.mkdir()
    for entry in ("docs", "manage.py", ".venv"):
        (work / entry).symlink_to(ROOT / entry)
    env = _env(tmp, "db.sqlite3")
    wrote = subprocess.run([str(ROOT / "scripts" / "dev-env")], env=env, capture_output=True, text=True)
    assert wrote.returncode == 0, wrote.stderr
    text = (tmp / ".env").read_text()
    assert "DEBUG=1" in text and re.search(r"^SECRET_KEY=\S{40,}$", text, flags=re.M)
    assert (tmp / ".env").stat().st_mode & 0o077 == 0  # the key is readable by its owner only
    for cmd in (["migrate", "--noinput"], ["seed_demo"]):
        done = _run([".venv/bin/python", "manage.py", *cmd], env, work)
        assert done.returncode == 0, done.stderr[-2000:]
    return work, env, tmp


def test_the_readme_has_the_examples():
    names = [args[2] for args in EXAMPLES]
    for command in ("settle", "rule", "resettle_season", "backup", "restore"):
        assert command in names, f"README lost its {command} example"


def test_without_the_env_file_production_refuses_to_start(tmp_path):
    env = _env(tmp_path, "x.sqlite3")  # no .env written here, no SECRET_KEY, DEBUG off
    done = _run([".venv/bin/python", "manage.py", "check"], env, ROOT)
    assert done.returncode != 0 and "SECRET_KEY must be set" in done.stderr


def test_settle_and_rule_examples_give_the_documented_figures(fresh_clone):
    work, env, _ = fresh_clone
    by_name = {args[2]: args for args in EXAMPLES}
    done = _run(by_name["settle"], env, work)
    assert done.returncode == 0, done.stderr
    head_bump, game_end = json.loads(done.stdout)
    # WRC head bump: seat 1 (first after the discarder) wins 5,200 + 300 honba + the two sticks
    assert head_bump["deltas"] == [0, 7500, -1000, -5500]
    assert game_end["points"] == [63.0, 10.8, -24.0, -49.8]
    done = _run(by_name["rule"], env, work)
    assert done.returncode == 0, done.stderr
    ruling = json.loads(done.stdout)
    assert ruling["winners"] == [2] and ruling["invalid_declarations"] == [9]
    assert ruling["procedure_at_end"] == "SETTLEMENT"


def test_season_examples_name_a_demo_season(fresh_clone):
    work, env, _ = fresh_clone
    for args in [a for a in EXAMPLES if a[2] == "resettle_season"]:
        done = _run(args, env, work)
        assert done.returncode == 0, f"{shlex.join(args)}: {done.stderr[-1500:]}"
        summary = json.loads(done.stdout.strip().splitlines()[-1])
        assert isinstance(summary, dict)


def test_backup_then_restore_into_an_empty_database(fresh_clone):
    work, env, tmp = fresh_clone
    backup = next(a for a in EXAMPLES if a[2] == "backup")
    done = _run(backup, env, work)
    assert done.returncode == 0, done.stderr[-1500:]
    assert (work / backup[3]).is_file()
    empty = {**env, "DATABASE_URL": f"sqlite:///{tmp / 'empty.sqlite3'}"}
    assert _run([".venv/bin/python", "manage.py", "migrate", "--noinput"], empty, work).returncode == 0
    done = _run(next(a for a in EXAMPLES if a[2] == "restore"), empty, work)
    assert done.returncode == 0, done.stderr[-1500:]


def test_links_stay_inside_the_repository():
    for target in re.findall(r"\]\(([^)]+)\)", README) + re.findall(r"`(\.\./[^`]+)`", README):
        assert not target.startswith(("..", "/")), f"README links outside the repository: {target}"
        if not target.startswith(("http://", "https://", "#")):
            assert (ROOT / target.split("#")[0]).exists(), f"README links to a missing path: {target}"
    assert "../shared" not in README and "shared/spec" not in README
