"""Benchmark: what each of the busiest hour's requests costs the server, one at a time.

    .venv/bin/python bench/request_costs.py [--repeat 20] [--leagues 3] [--profile KIND]
    DATABASE_URL=postgres://postgres@127.0.0.1:55432/kyoku .venv/bin/python bench/request_costs.py

Builds bench/busiest_data.py's data (a 300-player event, LEAGUES leagues of 40 players and
200 games, rated) in a database of its own (bench/api_throughput.py's: a temporary SQLite file,
or a database next to the PostgreSQL one DATABASE_URL names), then sends each request kind of
bench/locustfile_busiest.py through Django's whole handler in this process (every middleware and
receiver, DEBUG off, as the server runs them), REPEAT times each, and prints the time per kind:
first (cold caches), p50 and p95 of the rest, and the cyclic garbage collector's time per
request. A read is timed as a reader sends it (no ETag: the whole page); a write as the admin's
or the phone's app sends it, each with its own Idempotency-Key. ``--profile KIND`` prints
cProfile's top functions for one kind (a prefix of its name, e.g. ``"read: player"``;
``PROFILE_MATCH``, a regex, keeps the functions it matches).

It is the busiest hour's load test without the load: where a request's time goes, not how many
fit in a second (bench/busiest_hour.py measures that, and its figures depend on this one's).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import statistics
import sys
import time
import uuid
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
from api_throughput import bench_django  # noqa: E402

HEADERS = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_HOST": "127.0.0.1"}


def kinds(manifest: dict) -> dict[str, Callable[[object, int], object]]:
    """Each request kind of the busiest hour: a function of (client, i) sending the i-th one."""
    league = manifest["leagues"][0]
    players = league["players"]
    event = manifest["event"]
    tables = event["tables"]
    auth = {**HEADERS, "HTTP_AUTHORIZATION": f"Token {league['token']}"}
    results = [(g, lg["token"]) for lg in manifest["leagues"] for g in lg["results"]]
    hands = manifest["hands"]
    scores = manifest["scores"]

    def post(client, path: str, body: dict, headers: dict):
        return client.post(
            path, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex, **headers
        )

    def result(client, i: int):
        game, token = results[i % len(results)]
        headers = {**HEADERS, "HTTP_AUTHORIZATION": f"Token {token}"}
        return post(client, f"/api/games/{game}/result/", {"scores": scores[i % len(scores)]}, headers)

    def hand(client, i: int):
        lg = manifest["leagues"][(i // len(hands)) % len(manifest["leagues"])]
        headers = {**HEADERS, "HTTP_AUTHORIZATION": f"Token {lg['token']}"}
        return post(client, f"/api/games/{lg['by_hand']}/hands/", {"record": hands[i % len(hands)]}, headers)

    def report(client, i: int):
        table = tables[i % len(tables)]
        return post(
            client,
            f"/api/events/tables/{table['game']}/report",
            {"seat": 0, "scores": scores[0], "code": table["code"]},
            HEADERS,
        )

    def confirm(client, i: int):
        table = tables[i // 3 % len(tables)]
        return post(
            client,
            f"/api/events/tables/{table['game']}/confirm",
            {"seat": 1 + i % 3, "version": 1, "code": table["code"]},
            HEADERS,
        )

    def get(path: Callable[[int], str], headers: dict = HEADERS):
        return lambda client, i: client.get(path(i), **headers)

    return {
        "read: standings page": get(lambda i: f"/seasons/{league['season']}/divisions/A/"),
        "read: standings API": get(lambda i: f"/api/divisions/{league['divisions'][i % 2]}/standings/"),
        "read: player page": get(lambda i: f"/players/{players[i % len(players)]}/"),
        "read: statistics page": get(
            lambda i: f"/players/{players[i % len(players)]}/statistics/?league={league['slug']}"
        ),
        "read: leaderboard": get(lambda i: f"/leagues/{league['slug']}/statistics/?rate=win_rate&min=0"),
        "read: board page": get(lambda i: event["board_page"]),
        "read: board": get(lambda i: event["board"]),
        "write: result": result,
        "write: hand": hand,
        "write: table report": report,
        "write: table confirm": confirm,
        "read: standings API (admin)": get(lambda i: f"/api/divisions/{league['divisions'][0]}/standings/", auth),
    }


def gc_timer() -> list[float]:
    """Seconds each of the cyclic garbage collector's runs took, appended as they end (the list
    is cleared between kinds): the share of a request's time that is collection, not its work."""
    spent: list[float] = []
    started = [0.0]

    def timed(phase: str, _info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            spent.append(time.perf_counter() - started[0])

    gc.callbacks.append(timed)
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--leagues", type=int, default=3)
    ap.add_argument("--profile", default="", help="print cProfile's top functions for this kind")
    ap.add_argument("--times", action="store_true", help="print every request's time")
    ap.add_argument("--sql", default="", help="print the SQL of this kind's second request")
    args = ap.parse_args()
    drop = bench_django()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import busiest_data

    try:
        call_command("migrate", verbosity=0)
        data = argparse.Namespace(
            event_players=300, leagues=args.leagues, league_players=40, league_games=200, results=4, hands=8
        )
        # enough games to enter: every request of the kind writes a new one
        data.results = max(4, args.repeat // args.leagues + 1)
        data.hands = max(8, args.repeat // args.leagues + 1)  # the same for the hand-by-hand games
        manifest = busiest_data.build(data)
        print(
            f"{connection.vendor}: an event of 300 players, {args.leagues} leagues of 40 players and 200 games "
            f"(built in {manifest['built_seconds']} s); each kind {args.repeat} times, in-process"
        )
        client = Client()
        refused: list[str] = []
        collecting = gc_timer()
        print(f"{'request':32} {'status':>7} {'first':>8} {'p50':>8} {'p95':>8}   ms   gc ms/req")
        for name, send in kinds(manifest).items():
            profile = cProfile.Profile() if args.profile and name.startswith(args.profile) else None
            times, statuses = [], set()
            collecting.clear()
            for i in range(args.repeat):
                if profile is not None and i:
                    profile.enable()
                t = time.perf_counter()
                if i == 1 and args.sql and name.startswith(args.sql):
                    with CaptureQueriesContext(connection) as queries:
                        response = send(client, i)
                    for q in queries.captured_queries:
                        print(f"    {q['time']:>6} {q['sql'][:220]}")
                else:
                    response = send(client, i)
                times.append((time.perf_counter() - t) * 1000)
                if profile is not None:
                    profile.disable()
                statuses.add(response.status_code)
            rest = sorted(times[1:]) or times
            p95 = rest[min(len(rest) - 1, int(0.95 * len(rest)))]
            status = ",".join(str(s) for s in sorted(statuses))
            refused += [f"{name}: {s}" for s in sorted(statuses) if s >= 400]
            gc_ms = sum(collecting) * 1000 / args.repeat
            print(f"{name:32} {status:>7} {times[0]:8.1f} {statistics.median(rest):8.1f} {p95:8.1f} {gc_ms:10.2f}")
            if args.times:
                print("    " + " ".join(f"{t:.0f}" for t in times))
            if profile is not None:
                stats = pstats.Stats(profile).sort_stats(os.environ.get("PROFILE_SORT", "cumulative"))
                match = os.environ.get("PROFILE_MATCH")  # a regex on "file:line(function)"
                stats.print_stats(*([match] if match else []), 45)
                if os.environ.get("PROFILE_CALLERS"):  # who calls the functions matching it
                    stats.print_callers(os.environ["PROFILE_CALLERS"])
        if refused:  # a figure of a refused request would time the refusal, not the request
            raise SystemExit("answered with an error: " + "; ".join(refused))
    finally:
        connection.close()
        drop()


if __name__ == "__main__":
    main()
