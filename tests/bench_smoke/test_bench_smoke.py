"""The load benches at a toy scale: bench/live.py and bench/busiest_hour.py run end to end.

Each starts servers of its own (bench/prodshape.py), migrates a database and builds data, so a run
takes a minute or more: these run only with ``KYOKU_BENCH_SMOKE=1`` (not in CI by default)::

    KYOKU_BENCH_SMOKE=1 ./scripts/test tests/bench_smoke -x -q -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    os.environ.get("KYOKU_BENCH_SMOKE") != "1", reason="the load benches run with KYOKU_BENCH_SMOKE=1"
)


def _run(*args: str) -> tuple[str, dict | list]:
    """Run a bench script without the test run's database and broker (it starts its own); its
    output and the JSON summary it prints last."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER")}
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return done.stdout, json.loads(done.stdout.strip().splitlines()[-1])


def test_live_every_client_sees_each_result_streamed_and_polled() -> None:
    out, runs = _run(
        "bench/live.py",
        "--clients=5",
        "--mode=stream,poll",
        "--shape=sqlite",
        "--results=2",
        "--gap=2",
        "--processes=1",
    )
    assert [(r["mode"], r["clients"], r["connected"]) for r in runs] == [("stream", 5, 5), ("poll", 5, 5)], out
    for r in runs:
        assert [row["saw"] for row in r["rows"]] == [5, 5], out  # every client saw both results
        assert r["p99"] < 30, out  # a finite delay: every client saw every result within the run
    stream = runs[0]
    assert stream["codes"].get("stream 200", 0) >= 5, out


def test_busiest_hour_writes_stored_once_and_derived_figures_equal_a_recompute() -> None:
    out, summary = _run(
        "bench/busiest_hour.py",
        "--sqlite",
        "--web=1",
        "--scale=0.005",
        "--seconds=30",
        "--event-players=8",
        "--leagues=1",
        "--league-games=20",
        "--results=2",
        "--hands=3",
        "--report-at=2",
        "--report-window=8",
        "--reader-wait=1,3",
    )
    assert summary["checks"] is True, out
    (run,) = summary["runs"]
    assert run["fails"] == 0, out
    assert run["rps"] > 0, out
    assert "acknowledged writes, each stored exactly once and nothing else stored: yes" in out, out


def test_request_costs_times_every_kind_of_the_busiest_hour_answered() -> None:
    done = subprocess.run(
        [sys.executable, "bench/request_costs.py", "--repeat=3", "--leagues=1"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER")},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    timed = [line.split()[0:2] for line in done.stdout.splitlines() if line.startswith(("read:", "write:"))]
    assert len(timed) == 12, done.stdout  # every kind of bench/locustfile_busiest.py, and the admin's read
