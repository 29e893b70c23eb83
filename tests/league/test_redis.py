"""With REDIS_URL set (CI's second run), a task goes through the real Redis broker to a worker."""

import os
import subprocess
import sys
import time

import pytest
from django.conf import settings

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (a Redis server)")


def test_task_round_trip_through_redis_worker():
    from config.celery import app
    from league.tasks import ping

    env = {**os.environ, "CELERY_TASK_ALWAYS_EAGER": "0"}
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-Q",
            "kyoku-test",
            "--loglevel=WARNING",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        assert settings.CELERY_BROKER_URL.startswith("redis://")
        result = ping.apply_async(queue="kyoku-test")
        deadline = time.time() + 60
        while not result.ready() and time.time() < deadline and worker.poll() is None:
            time.sleep(0.2)
        assert result.get(timeout=5, disable_sync_subtasks=False) == "pong"
    finally:
        app.conf.task_always_eager = eager
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
