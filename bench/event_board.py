"""Benchmark: the tournament's big screens. Time from a confirmed table result to every open
board showing it, with 300 boards open.

    .venv/bin/python bench/event_board.py [--boards 300] [--results 5] [--workers 5] [--period 1.0]
    DATABASE_URL=postgres://postgres@127.0.0.1:55432/kyoku REDIS_URL=redis://127.0.0.1:56379/0 \\
        .venv/bin/python bench/event_board.py

Builds a 40-player event in a database of its own (as bench/api_throughput.py does: a temporary
SQLite file, or a database next to the PostgreSQL one DATABASE_URL names), starts gunicorn with the
production settings, and opens BOARDS boards: keep-alive clients in separate processes, each polling
``/api/events/<id>/board`` every PERIOD seconds (random phase) with ``If-None-Match``, as the page's
script does. Then, RESULTS times, a table reports its result and its other three seats confirm it
through the API (with the table's code, as a phone on the table does); the clock starts when the
last confirmation is acknowledged, and stops for each board when it first receives the board
version that confirmation made. The clients run on the same machine, so their CPU is in the figures.

It prints, per result, how long until half, 95 % and all boards showed it, and the polling load:
requests/s, p50/p95 latency, and the share of 304 answers.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from kyoku.principals import System  # noqa: E402

BENCH = System("command:bench")  # who the benchmark acts as
sys.path.insert(0, os.path.join(ROOT, "bench"))
from api_throughput import bench_django, free_port, gunicorn_start, gunicorn_stop, server_wait  # noqa: E402

HEADERS = {"Host": "127.0.0.1", "X-Forwarded-Proto": "https"}
SCORES = [48000, 32000, 12000, 8000]


def _board(port: int, path: str, period: float, until: float, seen: list, times: list, codes: dict) -> None:
    """One board: poll every ``period`` s; remember when each new version first arrived."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    etag = None
    next_at = time.time() + random.uniform(0, period)
    while time.time() < until:
        time.sleep(max(0.0, next_at - time.time()))
        next_at += period
        headers = dict(HEADERS)
        if etag:
            headers["If-None-Match"] = etag
        t = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            codes["error"] = codes.get("error", 0) + 1
            continue
        times.append((time.perf_counter() - t) * 1000)
        codes[response.status] = codes.get(response.status, 0) + 1
        if response.status == 200:
            etag = response.getheader("ETag")
            seen.append((json.loads(body)["version"], time.time()))


def _board_process(port: int, path: str, period: float, until: float, boards: int, out) -> None:
    results = [([], [], {}) for _ in range(boards)]
    threads = [threading.Thread(target=_board, args=(port, path, period, until, *r)) for r in results]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(results)


def _post(port: int, path: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", path, body=json.dumps(body), headers={**HEADERS, "Content-Type": "application/json"})
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    if response.status >= 400:
        raise SystemExit(f"{path}: {response.status} {data}")
    return data


def _build():
    """The running 40-player event of six rounds whose board the screens poll (bench/busiest_data.py)."""
    from busiest_data import event_build
    from events.models import Event

    built = event_build(40, tag="board", rounds=6)
    return Event.objects.get(pk=built["id"]), [(t["game"], t["code"]) for t in built["tables"]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--results", type=int, default=5)
    ap.add_argument("--workers", type=int, default=5)
    ap.add_argument("--period", type=float, default=1.0)
    ap.add_argument("--processes", type=int, default=6, help="client processes the boards are spread over")
    args = ap.parse_args()

    drop = bench_django()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, connections

    server = None
    try:
        call_command("migrate", verbosity=0)
        event, tables = _build()
        vendor, cache = connection.vendor, settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
        connections.close_all()
        port = free_port()
        server = gunicorn_start(port, args.workers)
        path = f"/api/events/{event.pk}/board"
        server_wait(port, path)
        warmup, gap = 5.0, 4.0
        until = time.time() + warmup + args.results * gap + 3.0
        out = multiprocessing.Queue()
        per = [
            args.boards // args.processes + (1 if i < args.boards % args.processes else 0)
            for i in range(args.processes)
        ]
        procs = [
            multiprocessing.Process(target=_board_process, args=(port, path, args.period, until, n, out))
            for n in per
            if n
        ]
        for p in procs:
            p.start()
        time.sleep(warmup)
        acks = []
        for k in range(args.results):
            game, code = tables[k % len(tables)]
            base = f"/api/events/tables/{game}/"
            _post(port, base + "report", {"seat": 0, "scores": SCORES, "code": code})
            for seat in (1, 2):
                _post(port, base + "confirm", {"seat": seat, "code": code, "version": 1})
            _post(port, base + "confirm", {"seat": 3, "code": code, "version": 1})
            acked = time.time()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path, headers=HEADERS)
            version = json.loads(conn.getresponse().read())["version"]
            acks.append((version, acked))
            time.sleep(gap)
        boards = [b for _ in procs for b in out.get()]
        for p in procs:
            p.join()
    finally:
        gunicorn_stop(server)
        connections.close_all()
        drop()

    polls = sorted(t for _, times, _ in boards for t in times)
    codes: dict = {}
    for _, _, c in boards:
        for key, n in c.items():
            codes[key] = codes.get(key, 0) + n
    seconds = warmup + args.results * gap + 3.0
    pct = lambda xs, q: xs[min(len(xs) - 1, int(q / 100 * (len(xs) - 1)))]  # noqa: E731
    print(
        f"{vendor}, cache {cache}; gunicorn {args.workers} workers × {os.environ.get('GUNICORN_THREADS', 4)} "
        f"threads; {len(boards)} boards polling every {args.period:g} s from {len(procs)} processes\n"
    )
    print(
        f"polling: {len(polls) / seconds:.0f} requests/s, p50 {statistics.median(polls):.1f} ms, "
        f"p95 {pct(polls, 95):.1f} ms, p99 {pct(polls, 99):.1f} ms; answers "
        + ", ".join(f"{k}: {v}" for k, v in sorted(codes.items(), key=str))
    )
    print(f"\n{'result':>6} {'half the boards':>16} {'95 % of boards':>15} {'every board':>12} {'boards':>7}")
    worst = 0.0
    for k, (version, acked) in enumerate(acks, start=1):
        delays = sorted(next((t for v, t in seen if v >= version), float("inf")) - acked for seen, _, _ in boards)
        shown = sum(1 for d in delays if d != float("inf"))
        worst = max(worst, delays[-1])
        print(
            f"{k:6} {statistics.median(delays):15.2f}s {pct(delays, 95):14.2f}s {delays[-1]:11.2f}s "
            f"{shown:4}/{len(delays)}"
        )
    print(f"\nslowest board over all results: {worst:.2f} s after the confirmation was acknowledged")


if __name__ == "__main__":
    main()
