"""Load test: the busiest hour of a match day on the production shape, with Locust (issue 49).

    .venv/bin/python bench/busiest_hour.py [--scale 1] [--seconds 120] [--web 1,2] [--workers N]
                                           [--sqlite] [busiest_data flags]

Starts the production shape on loopback (bench/prodshape.py: PostgreSQL, Redis, the web processes
(config/gunicorn.py) and the live streams' (config/gunicorn_live.py) behind haproxy, a Celery
worker and beat), builds the data (bench/busiest_data.py: a 300-player
event's 75 tables, 100 leagues with an admin each), then runs bench/locustfile_busiest.py headless
for SECONDS seconds with every kind of user at once: four phones per table reporting and confirming
within the same minute, one board per 10 tables, 1,000 spectators on the board, 100 admins entering
results and a game hand by hand, 2,000 players reading. Screens follow the board's stream
(live/: Server-Sent Events, each board message carrying the board; ``--poll``: they poll it every
second, every 3 s on a phone, as without the stream). ``--scale 0.1`` scales every user count
(the data stays whole); ``--web 1,2`` runs once with one web process, then again on a fresh copy of
the data with two web processes. The load generator runs on the same machine: its CPU is in the
figures (and in the CPU table).

Before the load, every read kind is sent a few times from 8 clients (``--cold``: not), so the
workers have compiled their templates and opened their pools, as they have an hour into a match
day. The figures count from the moment every user runs (Locust's ``--reset-stats``: the ramp of
thousands of users in 10 s is the load generator's, not the hour's; ``--from-start`` counts it);
the writes of the ramp are checked all the same.

Prints per request kind: requests, requests/s, p50/p95/p99 ms, failures; reads' and writes' p95
against the goal (writes ≤ 100 ms, reads ≤ 50 ms, no errors); CPU (% of one core) and memory per
process role from psutil. Then checks, once the Celery queue is empty, that every write is stored
exactly once (each table's result with its four confirmations, each admin result, each hand and
hand-by-hand result) and every derived figure equals a recompute (ratings.reconcile's checks:
settlements, standings, season summaries, ratings; and the statistics of the leagues written to
against stats_recompute).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import busiest_data  # noqa: E402
from prodshape import PY, Sampler, Shape, app_role  # noqa: E402

GOAL = {"write": 100.0, "read": 50.0}


def locust_run(shape: Shape, args: argparse.Namespace, prefix: str) -> tuple[list[dict], dict]:
    """One headless Locust run against the shape; its stats rows and the CPU per role."""
    env = {
        **os.environ,
        "BUSY_MANIFEST": shape.manifest_path,
        "BUSY_SCALE": str(args.scale),
        "BUSY_REPORT_AT": str(args.report_at),
        "BUSY_REPORT_WINDOW": str(args.report_window),
        "BUSY_READER_WAIT": args.reader_wait,
        "BUSY_STREAM": "" if args.poll else args.stream,
        "BUSY_ACKS": prefix + "_acks.jsonl",
    }
    users = _users(shape.manifest, args.scale)
    command = [
        PY,
        "-m",
        "locust",
        "-f",
        os.path.join(ROOT, "bench", "locustfile_busiest.py"),
        "--headless",
        "--host",
        shape.url,
        "-u",
        str(users),
        "-r",
        str(max(1, users // 10)),  # every user started within ~10 s
        "-t",
        f"{int(args.seconds)}s",
        "--csv",
        prefix,
        *([] if args.from_start else ["--reset-stats"]),  # measured once every user runs
        "--only-summary",
        "--stop-timeout",
        "5",
        "--loglevel",
        "ERROR",
    ]
    locust = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    roles = shape.roles()
    roles["locust"] = [locust.pid]
    sampler = Sampler(roles)
    sampler.start()
    started = time.time()
    _, err = locust.communicate()
    samples = sampler.stop()
    cpu = sampler.between(started + 12, time.time() - 2)  # once every user runs
    if locust.returncode not in (0, 1):  # 1: some requests failed (reported below)
        print(err[-3000:], file=sys.stderr)
        raise SystemExit(f"locust exited {locust.returncode}")
    with open(prefix + "_stats.csv") as f:
        rows = [r for r in csv.DictReader(f)]
    with open(prefix + "_failures.csv") as f:
        failures = [r for r in csv.DictReader(f)]
    for r in failures[:10]:
        print(f"  failure: {r['Method']} {r['Name']}: {r['Error']} ×{r['Occurrences']}")
    return rows, {"cpu": cpu, "samples": len(samples)}


def warm(shape: Shape, rounds: int = 3) -> float:
    """Each page and answer the readers and screens ask for, a few times from 8 clients at once,
    before the clock starts: a web worker compiles a template and opens its pools at its first
    request, and the hour measured is one in the middle of a match day, not a server's first
    seconds. Reads only (a write would be one the checks do not expect). Returns the seconds."""
    import http.client
    from concurrent.futures import ThreadPoolExecutor
    from urllib.parse import urlparse

    m, started = shape.manifest, time.time()
    paths = [m["event"]["board_page"], m["event"]["board"]]
    for league in m["leagues"][:8]:
        player = league["players"][0]
        paths += [
            f"/seasons/{league['season']}/divisions/A/",
            f"/api/divisions/{league['divisions'][0]}/standings/",
            f"/players/{player}/",
            f"/players/{player}/statistics/?league={league['slug']}",
            f"/leagues/{league['slug']}/statistics/?rate=win_rate&min=0",
        ]
    url = urlparse(shape.url)

    def client(k: int) -> None:
        conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
        for path in paths * rounds:
            conn.request("GET", path, headers={"X-Forwarded-Proto": "https", "Host": "127.0.0.1"})
            conn.getresponse().read()
            conn.close()  # a new connection each time: the kernel spreads them over the workers

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(client, range(8)))
    return time.time() - started


def _users(manifest: dict, scale: float) -> int:
    n = lambda k: max(1, round(k * scale))  # noqa: E731
    tables = n(len(manifest["event"]["tables"]))
    return (
        4 * tables
        + n(max(1, len(manifest["event"]["tables"]) // 10))
        + n(1000)
        + min(len(manifest["leagues"]), n(100))
        + n(2000)
    )


def _ms(value: str) -> float:
    """A percentile of Locust's CSV: "N/A" for a kind with no request in the measured time."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def stats_print(rows: list[dict], seconds: float, cpu: dict, label: str) -> dict:
    """The table per request kind, and the goal's verdict."""
    print(f"\n{label}")
    print(f"{'request':36} {'count':>7} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'fails':>6}")
    worst = {"write": 0.0, "read": 0.0}
    fails = 0
    total = 0.0
    for r in sorted(rows, key=lambda r: r["Name"]):
        if r["Name"] == "Aggregated":
            total = float(r["Requests/s"])
            continue
        kind = r["Name"].split(":")[0]
        p95 = _ms(r["95%"])
        worst[kind] = max(worst.get(kind, 0.0), p95)
        fails += int(r["Failure Count"])
        print(
            f"{r['Name'][:36]:36} {int(r['Request Count']):7} {float(r['Requests/s']):7.1f} "
            f"{_ms(r['50%']):7.0f} {p95:7.0f} {_ms(r['99%']):7.0f} {int(r['Failure Count']):6}"
        )
    print(f"{'all':36} {'':7} {total:7.1f}")
    verdict = " ".join(
        f"{k}s p95 {worst[k]:.0f} ms (goal ≤ {GOAL[k]:.0f}: {'met' if worst[k] <= GOAL[k] else 'missed'});"
        for k in ("write", "read")
    )
    print(f"worst {verdict} {fails} failures")
    print(
        "CPU (% of one core, mean) and memory (MB, peak) per process role: "
        + ", ".join(f"{role} {c:.0f} % {m:.0f} MB" for role, (c, m) in sorted(cpu["cpu"].items()))
    )
    web = sum(c for role, (c, _) in cpu["cpu"].items() if app_role(role))
    per = 10 * web / max(total, 0.001)  # % of a core over requests/s: CPU ms per request
    print(
        f"web CPU per request (web and live processes), all kinds together: {per:.1f} ms "
        "(what a dedicated core's capacity follows from)"
    )
    return {"rps": total, "worst": worst, "fails": fails, "web_cpu": web, "cpu_ms_per_request": per}


def check(shape: Shape, acks: str) -> bool:
    """Every write stored exactly once; every derived figure equal to a recompute."""
    drained = shape.queue_drain()
    out = subprocess.run(
        [PY, os.path.join(ROOT, "bench", "busiest_check.py"), shape.manifest_path, acks],
        cwd=ROOT,
        env=shape.env,
        capture_output=True,
        text=True,
    )
    print(("" if drained else "(the Celery queue was still busy after two minutes)\n") + out.stdout.rstrip())
    if out.returncode:
        print(out.stderr[-3000:])
    return out.returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="every user count times this (0–1)")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--web", default="1,2", help="web processes per run, e.g. 1 or 1,2")
    ap.add_argument(
        "--workers", type=int, help="gunicorn workers per web (and live) process (default: their configurations')"
    )
    ap.add_argument("--sqlite", action="store_true", help="the embedded default (SQLite, tasks in-process)")
    ap.add_argument("--report-at", type=float, default=20, help="seconds before the tables' report minute")
    ap.add_argument("--report-window", type=float, default=60)
    ap.add_argument("--reader-wait", default="20,60", help="a player's seconds between pages: min,max")
    ap.add_argument(
        "--stream", default="/live/events/{event}/board", help="the board stream's path ({event}: the event's id)"
    )
    ap.add_argument("--poll", action="store_true", help="screens poll the board every second instead of streaming")
    ap.add_argument("--cold", action="store_true", help="no warm-up: the load meets workers at their first request")
    ap.add_argument(
        "--from-start", action="store_true", help="count the ramp too (users starting), not only once all run"
    )
    busiest_data.arguments(ap)
    args = ap.parse_args()
    flags = [
        f"--event-players={args.event_players}",
        f"--leagues={args.leagues}",
        f"--league-players={args.league_players}",
        f"--league-games={args.league_games}",
        f"--results={args.results}",
        f"--hands={args.hands}",
    ]
    runs = [int(w) for w in args.web.split(",")]
    summary = []
    ok = True
    with Shape(web=1, workers=args.workers, sqlite=args.sqlite) as shape:
        t = time.time()
        manifest = shape.data_build(flags)
        print(
            f"data: an event of {args.event_players} players ({len(manifest['event']['tables'])} tables), "
            f"{args.leagues} leagues of {args.league_players} players and {args.league_games} games, "
            f"built in {time.time() - t:.0f} s; {_users(manifest, args.scale)} users (scale {args.scale:g}), "
            f"{args.seconds:g} s; screens {'polling' if args.poll else 'streaming'}; "
            f"{'SQLite' if args.sqlite else 'PostgreSQL + Redis'}; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
            flush=True,
        )
        for web in runs:
            shape.database_fresh()
            shape.app_start(web)
            prefix = os.path.join(shape.folder, f"locust-web{web}")
            if not args.cold:
                print(f"warm-up: each read kind from 8 clients in {warm(shape):.0f} s", flush=True)
            rows, cpu = locust_run(shape, args, prefix)
            label = (
                "one ASGI process (the embedded default)"
                if args.sqlite
                else f"{web} web process{'es' if web > 1 else ''} and the live process behind haproxy ({shape.url})"
            )
            summary.append((web, stats_print(rows, args.seconds, cpu, label)))
            ok = check(shape, prefix + "_acks.jsonl") and ok  # the load has stopped; the worker finishes what is queued
            shape.app_stop()
    if len(summary) > 1:
        one, two = summary[0][1], summary[-1][1]
        print(
            f"\ntwo web processes: {two['rps']:.0f} requests/s against {one['rps']:.0f} with one "
            f"({two['rps'] / max(one['rps'], 0.1):.2f}×)"
        )
    print(json.dumps({"runs": [{"web": w, **s} for w, s in summary], "checks": ok}))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
