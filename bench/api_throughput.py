"""Benchmark: the standings API through gunicorn, requests per second.

    .venv/bin/python bench/api_throughput.py [--players 2000] [--games 50000] [--seconds 10]
                                             [--clients 8] [--workers 2]
    DATABASE_URL=postgres://postgres@127.0.0.1:55499/kyoku .venv/bin/python bench/api_throughput.py

Builds the league of bench/league_scale.py in a database of its own (PostgreSQL: a database
``kyoku_throughput`` next to the one DATABASE_URL names, dropped at the end; otherwise a
temporary SQLite file), starts gunicorn with the production settings (config/gunicorn.py,
DEBUG off, WORKERS workers), and for SECONDS seconds has CLIENTS keep-alive clients (in
separate processes, on the same machine: the figures include the clients' own CPU) ask for
one division's standings (1,000 rows):

- conditional requests, as a browser or an app that already has the table revalidates
  (If-None-Match with the ETag: 304 until the standings change);
- full answers (no ETag), from the cache keyed on the standings version;
- a mix: one result entered per second while clients revalidate (each change costs every
  client one full answer, then 304s again).

It prints requests/s, p50/p95/p99 latency and how many answers were 200 / 304.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from urllib.parse import urlparse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
SECRET = "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_database() -> tuple[str, callable]:
    """A database of the bench's own, and how to drop it."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        parts = urlparse(url)
        admin = parts._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS kyoku_throughput")
            conn.execute("CREATE DATABASE kyoku_throughput")

        def drop():
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute("DROP DATABASE IF EXISTS kyoku_throughput WITH (FORCE)")

        return parts._replace(path="/kyoku_throughput").geturl(), drop
    folder = tempfile.mkdtemp(prefix="kyoku-throughput-")
    path = os.path.join(folder, "bench.sqlite3")
    return f"sqlite:///{path}", lambda: [
        os.remove(p) for p in (path, path + "-wal", path + "-shm") if os.path.exists(p)
    ]


def bench_django() -> Callable[[], None]:
    """A database of the bench's own (:func:`bench_database`) and Django set up on it with the
    production settings (DEBUG off, the bench's secret key, loopback): the environment a server
    started from this process inherits. Returns how to drop the database."""
    url, drop = bench_database()
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": SECRET,
            "ALLOWED_HOSTS": "127.0.0.1",
        }
    )
    import django

    django.setup()
    return drop


def gunicorn_start(port: int, workers: int) -> subprocess.Popen:
    """gunicorn with the production settings (config/gunicorn.py) on loopback."""
    env = {**os.environ, "GUNICORN_WORKERS": str(workers), "GUNICORN_BIND": f"127.0.0.1:{port}"}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "config/gunicorn.py",
            "--access-logfile",
            os.devnull,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def gunicorn_stop(server: subprocess.Popen | None) -> None:
    if server is None:
        return
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(15)
    except subprocess.TimeoutExpired:
        server.kill()


def _client(port: int, path: str, etag: str | None, until: float, out) -> None:
    """One keep-alive client: request after request until ``until``; latencies to ``out``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": "127.0.0.1", "X-Forwarded-Proto": "https"}
    times, codes, current = [], {}, etag
    while time.time() < until:
        if current:
            headers["If-None-Match"] = current
        t = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            codes["error"] = codes.get("error", 0) + 1
            continue
        times.append((time.perf_counter() - t) * 1000)
        codes[response.status] = codes.get(response.status, 0) + 1
        if etag is not None:  # a revalidating client keeps the ETag of what it last got
            current = response.getheader("ETag") or current
    out.put((times, codes))


def _load(port: int, path: str, clients: int, seconds: float, etag: str | None, during=None) -> dict:
    out = multiprocessing.Queue()
    until = time.time() + seconds
    procs = [multiprocessing.Process(target=_client, args=(port, path, etag, until, out)) for _ in range(clients)]
    for p in procs:
        p.start()
    if during:
        during(until)
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    times = sorted(t for ts, _ in results for t in ts)
    codes: dict = {}
    for _, c in results:
        for k, v in c.items():
            codes[k] = codes.get(k, 0) + v
    pct = lambda q: times[min(len(times) - 1, int(q / 100 * (len(times) - 1)))] if times else 0  # noqa: E731
    return {
        "rps": len(times) / seconds,
        "p50": statistics.median(times) if times else 0,
        "p95": pct(95),
        "p99": pct(99),
        "codes": codes,
    }


def server_wait(port: int, path: str, seconds: float = 30) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path, headers={"X-Forwarded-Proto": "https"})
            if conn.getresponse().status in (200, 304):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--games", type=int, default=50000)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    drop = bench_django()
    from django.core.management import call_command

    server = None
    try:
        call_command("migrate", verbosity=0)
        import league_scale

        t = time.perf_counter()
        season, divisions = league_scale.build(args.players, args.games, 2)
        print(
            f"{connection_vendor()}: {args.players} players, {args.games} games built in "
            f"{time.perf_counter() - t:.1f} s"
        )
        from django.db import connections

        connections.close_all()  # gunicorn's workers open their own
        port = free_port()
        server = gunicorn_start(port, args.workers)
        division = divisions[0]
        path = f"/api/divisions/{division.pk}/standings/"
        server_wait(port, path)
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("GET", path, headers={"X-Forwarded-Proto": "https"})
        first = conn.getresponse()
        size, etag = len(first.read()), first.getheader("ETag")
        print(
            f"gunicorn: {args.workers} workers × {os.environ.get('GUNICORN_THREADS', 4)} threads, "
            f"{args.clients} clients, {args.seconds:g} s each; one answer is {size:,} bytes\n"
        )
        print(f"{'requests':44} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  answers")
        rows = [
            ("conditional (If-None-Match, 304)", _load(port, path, args.clients, args.seconds, etag)),
            ("full answers (200, cached table)", _load(port, path, args.clients, args.seconds, None)),
            (
                "conditional, one result entered per second",
                _load(port, path, args.clients, args.seconds, etag, during=_results_every_second(division)),
            ),
        ]
        for label, r in rows:
            answers = ", ".join(f"{k}: {v}" for k, v in sorted(r["codes"].items(), key=str))
            print(f"{label:44} {r['rps']:8.0f} {r['p50']:8.1f} {r['p95']:8.1f} {r['p99']:8.1f}  {answers}")
    finally:
        gunicorn_stop(server)
        from django.db import connections

        connections.close_all()
        drop()


def connection_vendor() -> str:
    from django.db import connection

    return connection.vendor


def _results_every_second(division):
    """While the clients run: correct the division's latest game once a second (the standings
    version moves, so every revalidating client gets one full answer)."""

    def run(until: float) -> None:
        from django.contrib.auth import get_user_model

        import league_scale
        from league import services
        from league.models import Game

        from league.signals import game_result_changed
        from ratings.receivers import on_game_result_changed

        # ratings follow in a Celery task on the worker in production, not in this process
        game_result_changed.disconnect(on_game_result_changed, dispatch_uid="ratings.game_result_changed")
        admin = get_user_model().objects.create_superuser("throughput-admin", password="x")
        game = Game.objects.filter(division=division).order_by("-match_day", "-table").first()
        n = 0
        while time.time() < until - 0.5:
            services.game_result_record(
                game=game, scores=league_scale.SCORE_SETS[n % len(league_scale.SCORE_SETS)], actor=admin, replace=True
            )
            n += 1
            time.sleep(max(0.0, 1.0 - 0.05))

    return run


if __name__ == "__main__":
    main()
