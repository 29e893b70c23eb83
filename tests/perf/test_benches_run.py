"""The benchmarks still run: each one at a toy size, as a subprocess on an in-memory SQLite
database, must finish with exit status 0 and print its figures. (bench/settle.py once stopped
with a SettlementError after a preset changed, and nothing noticed.) The figures themselves are
not asserted: speed is measured by running the benchmarks, never by tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = {
    "settle": (["bench/settle.py", "2000"], "records/s"),
    "season_resettle": (["bench/season_resettle.py", "--games", "6", "--hands", "8"], "goal < 2 s"),
    "league_scale": (["bench/league_scale.py", "--players", "40", "--games", "60", "--requests", "2"], "player page"),
    "ratings_recompute": (
        ["bench/ratings_recompute.py", "--seasons", "1", "--days", "2", "--players", "8"],
        "full recompute:",
    ),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_benchmark_runs(name):
    args, expected = RUNS[name]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert expected in done.stdout
