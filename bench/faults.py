"""Faults during a match day, on the production shape started here on loopback: PostgreSQL,
Redis, a Celery worker (with beat: the reconciliation every RECONCILE_EVERY s) and gunicorn.

    .venv/bin/python bench/faults.py            # toy: 8 tables, a hand every 1 s, Redis down 10 s
    .venv/bin/python bench/faults.py --full     # 50 tables, a hand every 10 s, 10 min, Redis down 60 s
    .venv/bin/python bench/faults.py --scenario notifications [--sqlite]  # bench/faults_notifications.py

Each table is a phone with an outbox: it sends the game's hands one by one (POST
/api/games/<id>/hands/, the same ``Idempotency-Key`` on every retry) and then ends the game (POST
…/hands/finish/), retrying each write until it is acknowledged (2xx). Readers open the
standings page and API all along. While they run, the script

1. kills the Celery worker (SIGKILL) and starts it again later;
2. stops Redis (cache and broker) and starts it again later;
3. restarts PostgreSQL;
4. kills a gunicorn worker (SIGKILL) while requests are in flight.

It prints each fault with its time, the requests that failed during it (writes are retried;
pages must not fail while Redis is down), then the writes acknowledged, the writes stored, the
duplicates (must be 0), the write p95, and how long after the traffic ended each derived table
(seats, standings, ratings) agreed with the raw facts. Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from kyoku.principals import System  # noqa: E402

BENCH = System("command:bench")  # who the benchmark acts as
VENV_BIN = os.path.join(ROOT, ".venv", "bin")
PGBIN = (
    sorted(
        (os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")),
        key=lambda p: [int(x) for x in p.split("/")[-2].split(".")],
    )[-1]
    if os.path.isdir("/usr/lib/postgresql")
    else ""
)

# extra server settings, e.g. "-c shared_buffers=32MB" on a machine with little shared memory
PG_OPTIONS = os.environ.get("FAULTS_PG_OPTIONS", "")

# the worked M-League game of tests/riichi_game.py: five hands, final 23,800 / 27,800 / 18,400 / 29,000
HANDS = [
    {"riichi": [1], "result": {"type": "draw", "tenpai": [0, 1]}},
    {"result": {"type": "ron", "from": 2, "winners": [{"seat": 3, "han": 3, "fu": 30}]}},
    {"riichi": [1], "result": {"type": "tsumo", "winner": {"seat": 1, "han": 2, "fu": 40}}},
    {"result": {"type": "tsumo", "winner": {"seat": 2, "han": 1, "fu": 30}}},
    {"riichi": [3], "result": {"type": "draw", "tenpai": [3]}},
]


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def as_postgres(cmd: str) -> list[str]:
    """initdb and pg_ctl refuse to run as root: run them as the postgres user then."""
    return ["su", "postgres", "-c", cmd] if os.geteuid() == 0 else ["sh", "-c", cmd]


class Cluster:
    """The processes of the production shape, each started, stopped and killed on demand."""

    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="kyoku-faults-")
        os.chmod(self.tmp, 0o755)
        self.pg_port, self.redis_port, self.web_port = free_port(), free_port(), free_port()
        self.pgdata = os.path.join(self.tmp, "pg")
        self.redis = self.worker = self.web = None
        self.worker_wanted, self.worker_restarts, self.stopping = False, 0, threading.Event()
        self.env = {
            **os.environ,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/kyoku",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "DEBUG": "0",
            "SECRET_KEY": "faults-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "RECONCILE_EVERY": str(args.reconcile_every),
            "DB_CONN_MAX_AGE": "0",
            "GUNICORN_BIND": f"127.0.0.1:{self.web_port}",
            "GUNICORN_WORKERS": str(args.web_workers),
            "GUNICORN_TIMEOUT": "20",
            "CELERY_LOG_LEVEL": "WARNING",
        }
        self.env.pop("DJANGO_SETTINGS_MODULE", None)

    def log(self, name: str):
        return open(os.path.join(self.tmp, f"{name}.log"), "ab")

    def pg_init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.tmp, "postgres")
        subprocess.run(
            as_postgres(f"{PGBIN}/initdb -D {self.pgdata} -A trust -U postgres"), check=True, stdout=subprocess.DEVNULL
        )
        self.pg_start()

    def pg_start(self) -> None:
        subprocess.run(
            as_postgres(
                f"{PGBIN}/pg_ctl -D {self.pgdata} -o '-p {self.pg_port} -k {self.tmp} "
                f"-c listen_addresses=127.0.0.1 {PG_OPTIONS}' -l {self.tmp}/pg.log -w -t 120 start"
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def pg_restart(self) -> None:
        subprocess.run(
            as_postgres(
                f"{PGBIN}/pg_ctl -D {self.pgdata} -m fast -w -t 120 restart "
                f"-o '-p {self.pg_port} -k {self.tmp} -c listen_addresses=127.0.0.1 {PG_OPTIONS}'"
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def pg_stop(self) -> None:
        subprocess.run(
            as_postgres(f"{PGBIN}/pg_ctl -D {self.pgdata} -m immediate stop"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def redis_start(self) -> None:
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=self.log("redis"),
            stderr=subprocess.STDOUT,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)

    def redis_stop(self) -> None:
        self.redis.terminate()
        self.redis.wait(10)

    def worker_start(self) -> None:
        self.worker_wanted = True
        self.worker = subprocess.Popen(
            [
                f"{VENV_BIN}/celery",
                "-A",
                "config",
                "worker",
                "-B",
                "-s",
                os.path.join(self.tmp, "beat"),
                "--concurrency",
                "1",
                "-l",
                "WARNING",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log("worker"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def worker_kill(self) -> None:
        self.worker_wanted = False  # down on purpose: the fault, not something to restart
        os.killpg(self.worker.pid, signal.SIGKILL)  # the worker and its pool and beat: a dead machine
        self.worker.wait(10)

    def worker_supervise(self) -> None:
        """What docker-compose.yml's ``restart: unless-stopped`` does: a worker that exits on its
        own is started again. Celery 5.7's worker can exit when its broker goes away (kombu's
        Redis transport: "Unrecoverable error: AttributeError('NoneType' object has no attribute
        'hostname')", now and then at the reconnect); the run counts those restarts."""

        def watch() -> None:
            while not self.stopping.is_set():
                if self.worker_wanted and self.worker is not None and self.worker.poll() is not None:
                    self.worker_restarts += 1
                    self.worker_start()
                self.stopping.wait(0.5)

        threading.Thread(target=watch, daemon=True).start()

    def web_start(self) -> None:
        self.web = subprocess.Popen(
            [
                f"{VENV_BIN}/gunicorn",
                "-c",
                "config/gunicorn.py",
                "--access-logfile",
                os.path.join(self.tmp, "access.log"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log("web"),
            stderr=subprocess.STDOUT,
        )
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}/api/rulesets/", timeout=2)
                return
            except (OSError, urllib.error.HTTPError):
                time.sleep(0.1)

    def web_worker_pids(self) -> list[int]:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.web.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True, stdout=subprocess.DEVNULL
        )

    def stop_all(self) -> None:
        self.stopping.set()
        self.worker_wanted = False
        for proc in (self.web, self.redis):
            if proc and proc.poll() is None:
                proc.terminate()
        if self.worker and self.worker.poll() is None:
            os.killpg(self.worker.pid, signal.SIGTERM)
        self.pg_stop()


def django_setup(env: dict) -> None:
    os.environ.update(
        {
            k: v
            for k, v in env.items()
            if k in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DB_CONN_MAX_AGE")
        }
    )
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()


def league_build(tables: int, games_per_table: int) -> tuple[str, list[list[int]], int, int]:
    """A league, an open season under M-League rules, one division of 4 x tables players, and
    each table's games (the same four players, a new match day each). Returns the admin's token,
    the game ids by table, the season id and the division id."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from league import services
    from kyoku.models import League
    from league.models import Player

    league = League.objects.create(name="Faults", slug="faults")
    rules = services.rule_set_create(name="M-League", slug="mleague-faults", preset="mleague", actor=BENCH)
    season = services.season_create(
        league=league, year=2026, number=1, rule_set=rules, divisions=(("A", "A", "甲"),), actor=BENCH
    )
    services.season_status_set(season=season, status="open", actor=BENCH)
    division = season.divisions.get(code="A")
    players = [
        Player.objects.create(display_name=f"Table {t + 1} seat {s + 1}", membership_number=f"F{t}-{s}")
        for t in range(tables)
        for s in range(4)
    ]
    for p in players:
        services.entry_create(division=division, player=p, actor=BENCH)
    games = [
        [
            services.game_create(
                division=division,
                match_day=day + 1,
                table=t + 1,
                players=players[4 * t : 4 * t + 4],
                actor=BENCH,
            ).pk
            for day in range(games_per_table)
        ]
        for t in range(tables)
    ]
    admin = get_user_model().objects.create_superuser("faults-admin", password="x")
    return Token.objects.create(user=admin).key, games, season.pk, division.pk


class Traffic:
    """The phones (one thread a table) and the readers, with every attempt's outcome kept."""

    def __init__(
        self, base: str, token: str, games: list[list[int]], interval: float, season_id: int, division_id: int
    ):
        self.base, self.token, self.games, self.interval = base, token, games, interval
        self.pages = [f"/seasons/{season_id}/divisions/A/", f"/api/divisions/{division_id}/standings/"]
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acknowledged: set[tuple[int, str]] = set()
        self.attempts: list[tuple[float, str, bool, float]] = []  # (time, kind, ok, ms)

    def note(self, kind: str, ok: bool, started: float) -> None:
        with self.lock:
            self.attempts.append((started, kind, ok, (time.monotonic() - started) * 1000))

    def post(self, path: str, body: dict | None, key: str) -> bool:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body or {}).encode(),
            method="POST",
            headers={
                "Authorization": f"Token {self.token}",
                "Idempotency-Key": key,
                "Content-Type": "application/json",
            },
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                ok = 200 <= response.status < 300
        except (OSError, urllib.error.HTTPError):
            ok = False
        self.note("write", ok, started)
        return ok

    def write_until_acknowledged(self, path: str, body: dict | None, key: str, game: int) -> None:
        """The phone's outbox: the same request, with the same key, until a 2xx comes back."""
        delay = 0.2
        while not self.post(path, body, key):
            time.sleep(delay)
            delay = min(delay * 2, 3.0)
        with self.lock:
            self.acknowledged.add((game, key))

    def table(self, games: list[int], offset: float) -> None:
        time.sleep(offset)
        for game in games:
            for sequence, record in enumerate(HANDS, start=1):
                if self.stop.is_set():
                    return
                self.write_until_acknowledged(
                    f"/api/games/{game}/hands/",
                    {"sequence": sequence, "record": record},
                    f"{game}-hand-{sequence}",
                    game,
                )
                time.sleep(self.interval)
            self.write_until_acknowledged(f"/api/games/{game}/hands/finish/", None, f"{game}-finish", game)

    def reader(self) -> None:
        i = 0
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                with urllib.request.urlopen(self.base + self.pages[i % 2], timeout=15) as response:
                    ok = response.status == 200
            except (OSError, urllib.error.HTTPError):
                ok = False
            self.note("page", ok, started)
            i += 1
            time.sleep(0.25)

    def start(self) -> list[threading.Thread]:
        n = len(self.games)
        threads = [
            threading.Thread(target=self.table, args=(g, self.interval * i / n), daemon=True)
            for i, g in enumerate(self.games)
        ]
        threads += [threading.Thread(target=self.reader, daemon=True) for _ in range(2)]
        for t in threads:
            t.start()
        return threads


def derived_caught_up() -> dict[str, bool]:
    """Whether each derived table agrees with the raw facts now (read-only checks)."""
    from django.db import close_old_connections, connection

    from kyoku.models import League
    from league.models import Division
    from ratings.reconcile import division_seats_stale, division_standings_stale, league_ratings_disagreement

    close_old_connections()
    try:
        league = League.objects.get(slug="faults")
        divisions = list(Division.objects.filter(season__league=league))
        return {
            "seats": not any(division_seats_stale(division=d) for d in divisions),
            "standings": not any(division_standings_stale(division=d) for d in divisions),
            "ratings": league_ratings_disagreement(league=league) == (None, set()),
        }
    except Exception:  # the database restarting: not caught up yet
        connection.close()
        return {"seats": False, "standings": False, "ratings": False}


def main() -> None:
    scenario = argparse.ArgumentParser(add_help=False)
    scenario.add_argument("--scenario", choices=("match-day", "notifications"), default="match-day")
    chosen, rest = scenario.parse_known_args()
    if chosen.scenario == "notifications":  # the broker and the mail server down while facts notify
        import faults_notifications

        faults_notifications.main(rest)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="50 tables, a hand every 10 s, 10 min, Redis down 60 s")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--interval", type=float, help="seconds between a table's hands")
    parser.add_argument("--redis-down", type=float, help="seconds Redis stays down")
    parser.add_argument("--reconcile-every", type=float, default=None)
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--duration", type=float, help="seconds of traffic (600 with --full, else 60)")
    parser.add_argument("--json", help="also write the figures to this file (tests/perf/test_faults_run.py)")
    args = parser.parse_args(rest)
    tables = args.tables or (50 if args.full else 8)
    interval = args.interval or (10.0 if args.full else 1.0)
    redis_down = args.redis_down or (60.0 if args.full else 10.0)
    args.reconcile_every = args.reconcile_every or (60.0 if args.full else 10.0)
    # a game is five hands and the finish: enough games for the run's length
    duration = args.duration or (600.0 if args.full else 60.0)
    games_per_table = int(duration / (interval * 6)) + 1

    cluster = Cluster(args)
    try:
        cluster.pg_init()
        subprocess.run(as_postgres(f"{PGBIN}/createdb -h 127.0.0.1 -p {cluster.pg_port} -U postgres kyoku"), check=True)
        cluster.redis_start()
        cluster.manage("migrate", "--noinput")
        cluster.manage("collectstatic", "--noinput")  # as the image build does (Dockerfile)
        django_setup(cluster.env)
        token, games, season_id, division_id = league_build(tables, games_per_table)
        cluster.worker_start()
        cluster.worker_supervise()
        cluster.web_start()
        traffic = Traffic(f"http://127.0.0.1:{cluster.web_port}", token, games, interval, season_id, division_id)
        t0 = time.monotonic()
        threads = traffic.start()
        step = duration / 8
        faults: list[tuple[str, float, float]] = []  # (what, from, to)

        def at(seconds: float) -> None:
            time.sleep(max(0.0, t0 + seconds - time.monotonic()))

        at(step)
        start = time.monotonic()
        cluster.worker_kill()
        at(2 * step)
        cluster.worker_start()
        faults.append(("Celery worker killed (SIGKILL), restarted", start, time.monotonic()))
        at(3 * step)
        start = time.monotonic()
        cluster.redis_stop()
        time.sleep(redis_down)
        cluster.redis_start()
        faults.append((f"Redis stopped for {redis_down:.0f} s (cache and broker)", start, time.monotonic()))
        at(3 * step + redis_down + step)
        start = time.monotonic()
        cluster.pg_restart()
        faults.append(("PostgreSQL restarted (fast)", start, time.monotonic() + 2))
        at(4 * step + redis_down + step)
        start = time.monotonic()
        pids = cluster.web_worker_pids()
        busy = len(traffic.attempts)
        while len(traffic.attempts) == busy:  # a request in flight
            time.sleep(0.01)
        if pids:
            os.kill(pids[0], signal.SIGKILL)
        faults.append(("gunicorn worker killed mid-request (SIGKILL)", start, time.monotonic() + 2))
        at(duration + redis_down)
        for t in threads[: len(games)]:  # let the phones empty their outboxes (the readers run on)
            t.join(timeout=max(60.0, duration))
        traffic.stop.set()
        ended = time.monotonic()
        caught: dict[str, float] = {}
        while len(caught) < 3 and time.monotonic() - ended < 10 * args.reconcile_every + 60:
            for name, ok in derived_caught_up().items():
                if ok and name not in caught:
                    caught[name] = time.monotonic() - ended
            time.sleep(0.5)
        summary = report(cluster, traffic, faults, caught, t0, tables, interval, duration)
        if args.json:
            with open(args.json, "w") as out:
                json.dump(summary, out, indent=1)
    finally:
        cluster.stop_all()
        if os.environ.get("FAULTS_KEEP"):
            print(f"logs kept in {cluster.tmp}")
        else:
            shutil.rmtree(cluster.tmp, ignore_errors=True)


def report(cluster, traffic, faults, caught, t0, tables, interval, duration) -> dict:
    from django.db import close_old_connections
    from django.db.models import Count

    from league.models import GameResult
    from scoring.models import HandRecord

    close_old_connections()
    print(
        f"production shape on loopback: PostgreSQL, Redis, 1 Celery worker (+beat), gunicorn "
        f"({cluster.args.web_workers} workers); {tables} tables, a hand every {interval:g} s, {duration:.0f} s; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(f"\n{'fault':52} {'at s':>6} {'for s':>6} {'writes failed':>14} {'pages failed':>13}")
    fault_rows = []
    for what, start, end in faults:
        during = [a for a in traffic.attempts if start <= a[0] <= end + 5]
        row = {
            "fault": what,
            "at": round(start - t0, 1),
            "for": round(end - start, 1),
            "writes_failed": sum(1 for a in during if a[1] == "write" and not a[2]),
            "pages_failed": sum(1 for a in during if a[1] == "page" and not a[2]),
        }
        fault_rows.append(row)
        print(f"{what:52} {row['at']:6.0f} {row['for']:6.1f} {row['writes_failed']:14d} {row['pages_failed']:13d}")
    writes = [a for a in traffic.attempts if a[1] == "write"]
    pages = [a for a in traffic.attempts if a[1] == "page"]
    hands_acked = sum(1 for _, key in traffic.acknowledged if "-hand-" in key)
    finishes_acked = sum(1 for _, key in traffic.acknowledged if key.endswith("-finish"))
    game_ids = [g for table in traffic.games for g in table]
    hands_stored = HandRecord.objects.filter(game_id__in=game_ids).count()
    duplicates = sum(
        n - 1
        for n in HandRecord.objects.filter(game_id__in=game_ids)
        .values("game_id", "sequence")
        .annotate(n=Count("id"))
        .values_list("n", flat=True)
    )
    acked_games = {g for g, key in traffic.acknowledged if "-hand-" in key}
    extra = sum(
        1
        for g, s in HandRecord.objects.filter(game_id__in=game_ids).values_list("game_id", "sequence")
        if (g, f"{g}-hand-{s}") not in traffic.acknowledged
    )
    results = GameResult.objects.filter(game_id__in=game_ids).count()
    ok_ms = sorted(a[3] for a in writes if a[2])
    page_ms = sorted(a[3] for a in pages if a[2])

    def p95(xs):
        return xs[int(round(0.95 * (len(xs) - 1)))] if xs else float("nan")

    print(f"\nwrites: {len(writes)} attempts, {sum(1 for a in writes if not a[2])} failed and retried")
    print(f"worker exits on its own, each started again as its restart policy does: {cluster.worker_restarts}")
    print(
        f"hands acknowledged {hands_acked}, stored {hands_stored}, stored but never acknowledged {extra}, "
        f"duplicates {duplicates} (games with hands: {len(acked_games)})"
    )
    print(f"results acknowledged {finishes_acked}, stored {results}")
    print(
        f"write p50 {statistics.median(ok_ms) if ok_ms else float('nan'):.1f} ms, p95 {p95(ok_ms):.1f} ms; "
        f"page p95 {p95(page_ms):.1f} ms, pages failed {sum(1 for a in pages if not a[2])} of {len(pages)}"
    )
    for name in ("seats", "standings", "ratings"):
        took = caught.get(name)
        print(
            f"derived {name}: "
            + (f"caught up {took:.1f} s after the traffic ended" if took is not None else "NOT caught up")
        )
    return {
        "faults": fault_rows,
        "writes": len(writes),
        "writes_failed": sum(1 for a in writes if not a[2]),
        "hands_acknowledged": hands_acked,
        "hands_stored": hands_stored,
        "stored_not_acknowledged": extra,
        "duplicates": duplicates,
        "results_acknowledged": finishes_acked,
        "results_stored": results,
        "pages": len(pages),
        "pages_failed": sum(1 for a in pages if not a[2]),
        "write_p95_ms": p95(ok_ms),
        "page_p95_ms": p95(page_ms),
        "caught_up_s": caught,
    }


if __name__ == "__main__":
    main()
