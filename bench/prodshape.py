"""The production shape on loopback: PostgreSQL, Redis, the web processes (pages and API), the live
streams' process, haproxy in front, a Celery worker and beat; with ``--web 2`` a second web process.

    .venv/bin/python bench/prodshape.py [--web 1|2] [--workers N] [--sqlite] [busiest_data flags]

Started here, each on a free port of 127.0.0.1, as .ci/run starts them: a PostgreSQL cluster
(``initdb`` in a temporary folder, run as the ``postgres`` user when started as root), Redis (no
persistence), ``migrate``, the busiest hour's data (bench/busiest_data.py; written to a template
database so each run can start from a fresh copy: :meth:`Shape.database_fresh`), gunicorn with
config/gunicorn.py (WSGI on threads: the pages and the API; ``--web 2``: two of them), gunicorn
with config/gunicorn_live.py (uvicorn workers: the live streams), haproxy (Debian's package:
``apt-get install -y haproxy``) in front with config/haproxy.cfg's rules (``/live/`` to the
streams, the rest round robin to the web processes), a Celery worker and beat. ``--sqlite``: the
embedded default instead (one ASGI process serving everything, a SQLite file, tasks in-process,
local-memory cache; no proxy, worker, beat, PostgreSQL or Redis).

By hand it starts everything, prints the address and the manifest's path, and waits; Ctrl-C (or
SIGTERM) stops every process it started and removes the temporary folder. bench/busiest_hour.py
and bench/live.py use :class:`Shape` the same way (``with Shape(...) as shape:``).

:class:`Sampler` samples CPU and memory per role (web, live, postgres, redis, worker, beat,
haproxy, load generator) with psutil while a run goes on.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
SECRET = "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz"
HEADERS = {"Host": "127.0.0.1", "X-Forwarded-Proto": "https"}
APP_ROLES = ("web", "live")  # the application's processes: the pages and API, and the streams


def app_role(role: str) -> bool:
    """Whether a sampled role is one of the application's processes (not the database, Redis,
    the worker, the proxy or the load generator)."""
    return role.startswith(APP_ROLES)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the ``postgres`` user."""
    if os.geteuid() != 0:
        return command
    return ["su", "postgres", "-c", shlex.join(command)]


class Shape:
    """Every server of the production shape, started and stopped together."""

    def __init__(self, web: int = 1, workers: int | None = None, sqlite: bool = False, quiet: bool = True) -> None:
        # the embedded default is one process: its streams' fan-out is in-process (no Redis)
        self.web_n, self.workers, self.sqlite, self.quiet = web, workers or (1 if sqlite else None), sqlite, quiet
        self.folder = tempfile.mkdtemp(prefix="kyoku-prodshape-")
        self.procs: dict[str, subprocess.Popen] = {}
        self.pg_port = self.redis_port = None
        self.pgbin = None
        self.database = "kyoku"
        self.url = ""
        self.web_ports: list[int] = []
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": SECRET,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "RECONCILE_EVERY": "86400",  # the run's check must find what a task missed, not beat
            # every load-generating client is 127.0.0.1 here: the per-address stream bound is lifted
            "LIVE_MAX_STREAMS_PER_ADDRESS": "100000",
            "LIVE_MAX_STREAMS_PER_EVENT": "100000",
            # the pages come from the WSGI processes, the streams from the ASGI one (the proxy routes)
            "LIVE_STREAMS": "on",
            "PYTHONPATH": ROOT,
        }
        self.env.pop("CELERY_TASK_ALWAYS_EAGER", None)

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> "Shape":
        try:
            self.services_start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def services_start(self) -> None:
        if self.sqlite:
            self.env.pop("REDIS_URL", None)
            self.env["DATABASE_URL"] = f"sqlite:///{self.folder}/kyoku.sqlite3"
            return
        self.postgres_start()
        self.redis_start()

    def postgres_start(self) -> None:
        self.pgbin = sorted(
            (os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")),
            key=lambda p: int(p.split("/")[-2]),
        )[-1]
        data = os.path.join(self.folder, "pg")
        os.makedirs(data)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            shutil.chown(data, "postgres")
        subprocess.run(
            _as_postgres([f"{self.pgbin}/initdb", "-D", f"{data}/db", "-A", "trust", "-U", "postgres"]),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.pg_port = free_port()
        options = (
            f"-p {self.pg_port} -k {data} -c listen_addresses=127.0.0.1 -c max_connections=300 "
            "-c shared_buffers=256MB -c synchronous_commit=on"
        )
        subprocess.run(
            _as_postgres(
                [f"{self.pgbin}/pg_ctl", "-D", f"{data}/db", "-o", options, "-l", f"{data}/log", "-w", "start"]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.pgdata = data
        self._sql(f"CREATE DATABASE {self.database}")
        self.env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{self.pg_port}/{self.database}"

    def redis_start(self) -> None:
        self.redis_port = free_port()
        self.procs["redis"] = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(self.redis_port), "ping"], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        self.env["REDIS_URL"] = f"redis://127.0.0.1:{self.redis_port}/0"

    def _sql(self, statement: str) -> None:
        subprocess.run(
            [f"{self.pgbin}/psql", "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", "-qc", statement],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def manage(self, *args: str) -> None:
        subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=self.env, check=True)

    def data_build(self, flags: list[str]) -> dict:
        """Migrate and build the busiest hour's data; keep it as the template of every run."""
        self.manage("migrate", "--noinput", "-v0")
        if static_missing():  # DEBUG off: a page naming a file the manifest lacks answers 500
            self.manage("collectstatic", "--noinput", "-v0")
        out = os.path.join(self.folder, "manifest.json")
        subprocess.run([PY, "bench/busiest_data.py", out, *flags], cwd=ROOT, env=self.env, check=True)
        with open(out) as f:
            self.manifest = json.load(f)
        self.manifest_path = out
        self.runs = 0
        if self.sqlite:
            path = self.env["DATABASE_URL"].removeprefix("sqlite:///")
            subprocess.run([PY, "-c", _SQLITE_CHECKPOINT, path], check=True)
            shutil.copy(path, path + ".template")
        else:
            self._sql(f"ALTER DATABASE {self.database} RENAME TO kyoku_template")
        return self.manifest

    def database_fresh(self) -> None:
        """A fresh copy of the built data for the next run (nothing written by an earlier run)."""
        self.runs += 1
        if self.sqlite:
            path = self.env["DATABASE_URL"].removeprefix("sqlite:///")
            for p in (path + "-wal", path + "-shm"):
                if os.path.exists(p):
                    os.remove(p)
            shutil.copy(path + ".template", path)
            return
        self._sql(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")
        self._sql(f"CREATE DATABASE {self.database} TEMPLATE kyoku_template")
        subprocess.run(["redis-cli", "-p", str(self.redis_port), "flushall"], capture_output=True, check=True)

    # ------------------------------------------------------------------ application processes
    def _spawn(self, name: str, command: list[str], env: dict | None = None) -> subprocess.Popen:
        log = open(os.path.join(self.folder, f"{name}.log"), "w")
        self.procs[name] = subprocess.Popen(
            command, cwd=ROOT, env=env or self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        return self.procs[name]

    def app_start(self, web: int | None = None) -> str:
        """The application's processes; returns the base URL the clients use.

        On the production shape: ``web`` gunicorns of the pages and the API (config/gunicorn.py:
        WSGI on threads), one of the live streams (config/gunicorn_live.py: uvicorn workers), the
        Celery worker and beat, and haproxy in front routing as config/haproxy.cfg does. The
        embedded default (``--sqlite``) is one ASGI process serving everything: its streams hear
        its own writes (no Redis)."""
        web = web or self.web_n
        self.web_ports = []
        if self.sqlite:
            port = self._gunicorn("web1", "config/gunicorn_live.py", "GUNICORN_LIVE")
            server_wait(port, self._probe())
            self.url = f"http://127.0.0.1:{port}"
            return self.url
        self.web_ports = [self._gunicorn(f"web{i + 1}", "config/gunicorn.py", "GUNICORN") for i in range(web)]
        live = self._gunicorn("live", "config/gunicorn_live.py", "GUNICORN_LIVE")
        self._spawn("worker", [PY, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING", "--concurrency=2"])
        schedule = os.path.join(self.folder, "celerybeat-schedule")
        self._spawn("beat", [PY, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING", "-s", schedule])
        for port in self.web_ports:
            server_wait(port, self._probe())
        server_wait(live, "/")
        self.url = f"http://127.0.0.1:{self.haproxy_start(self.web_ports, live)}"
        return self.url

    def _probe(self) -> str:
        return self.manifest["event"]["board"] if hasattr(self, "manifest") else "/"

    def _gunicorn(self, name: str, conf: str, prefix: str) -> int:
        """A gunicorn with ``conf`` (which names its application) on a free port; ``prefix`` is
        the configuration's environment prefix for its bind and workers."""
        port = free_port()
        env = {**self.env, f"{prefix}_BIND": f"127.0.0.1:{port}"}
        if not self.sqlite:  # the bounded connection pool, as docker-compose.yml
            pool = "8" if prefix == "GUNICORN" else "4"  # a connection per thread, as docker-compose.yml
            env.setdefault("DB_POOL_SIZE", os.environ.get("DB_POOL_SIZE", pool))
        if self.workers:
            env[f"{prefix}_WORKERS"] = str(self.workers)
        self._spawn(
            name,
            [PY, "-m", "gunicorn", "-c", conf, "--access-logfile", os.devnull]
            + ["--control-socket", os.path.join(self.folder, f"{name}.ctl")],
            env,
        )
        return port

    def haproxy_start(self, web_ports: list[int], live_port: int) -> int:
        """haproxy with config/haproxy.cfg's rules on loopback: its one web server line becomes
        one per web process."""
        port = free_port()
        with open(os.path.join(ROOT, "config", "haproxy.cfg")) as f:
            text = f.read()
        line = next(x for x in text.splitlines() if x.strip().startswith('server web "${WEB}"'))
        servers = "\n".join(
            line.replace("server web", f"server web{i}", 1).replace('"${WEB}"', f"127.0.0.1:{p}")
            for i, p in enumerate(web_ports, 1)
        )
        text = text.replace(line, servers).replace('"${LIVE}"', f"127.0.0.1:{live_port}")
        text = text.replace("bind :8000", f"bind 127.0.0.1:{port}")
        conf = os.path.join(self.folder, "haproxy.cfg")
        with open(conf, "w") as f:
            f.write(text)
        self._spawn("haproxy", ["haproxy", "-db", "-f", conf])
        server_wait(port, "/")
        return port

    def app_stop(self) -> None:
        for name in [n for n in self.procs if n != "redis"][::-1]:
            _stop(self.procs.pop(name))

    def stop(self) -> None:
        self.app_stop()
        if "redis" in self.procs:
            subprocess.run(["redis-cli", "-p", str(self.redis_port), "shutdown", "nosave"], capture_output=True)
            _stop(self.procs.pop("redis"))
        if self.pg_port:
            subprocess.run(
                _as_postgres([f"{self.pgbin}/pg_ctl", "-D", f"{self.pgdata}/db", "-m", "fast", "stop"]),
                capture_output=True,
            )
            self.pg_port = None
        shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------------ what runs, for the sampler
    def roles(self) -> dict[str, list[int]]:
        """Process ids per role (a gunicorn's master; its workers are found as children)."""
        roles = {name: [p.pid] for name, p in self.procs.items() if p.poll() is None}
        if self.pg_port:
            try:
                with open(os.path.join(self.pgdata, "db", "postmaster.pid")) as f:
                    roles["postgres"] = [int(f.readline())]
            except OSError:
                pass
        return roles

    def queue_drain(self, seconds: float = 120) -> bool:
        """Wait until the Celery queue is empty and the worker idle (the writes' tasks done)."""
        if self.sqlite:
            return True
        deadline = time.time() + seconds
        quiet = 0
        while time.time() < deadline:
            out = subprocess.run(
                ["redis-cli", "-p", str(self.redis_port), "llen", "celery"], capture_output=True, text=True
            ).stdout.strip()
            active = _children_busy(self.procs.get("worker"))
            quiet = quiet + 1 if out == "0" and not active else 0
            if quiet >= 3:
                time.sleep(10)  # a task the worker holds (prefetched) shows in no queue: let it finish
                return True
            time.sleep(1)
        return False


_SQLITE_CHECKPOINT = (
    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()"
)


def static_missing() -> bool:
    """Whether a file under static/ is missing from the collected manifest (collectstatic compresses
    every file again: a minute on a busy machine, so only when needed)."""
    try:
        with open(os.path.join(ROOT, "staticfiles", "staticfiles.json")) as f:
            collected = set(json.load(f)["paths"])
    except (OSError, ValueError, KeyError):
        return True
    base = os.path.join(ROOT, "static")
    return any(
        os.path.relpath(os.path.join(folder, name), base) not in collected
        for folder, _, names in os.walk(base)
        for name in names
    )


def _children_busy(proc: subprocess.Popen | None) -> bool:
    import psutil

    if proc is None or proc.poll() is not None:
        return False
    try:
        kids = psutil.Process(proc.pid).children(recursive=True)
        return sum(k.cpu_percent(interval=0.2) for k in kids) > 5
    except psutil.Error:
        return False


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(5)


def server_wait(port: int, path: str, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", path, headers=HEADERS)
            if conn.getresponse().status < 500:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"nothing answered on port {port}")


class Sampler(threading.Thread):
    """CPU (% of one core) and resident memory per role, sampled every ``every`` seconds, each
    role's process with its children (found again at every sample: PostgreSQL forks a backend per
    connection, gunicorn replaces workers); and the role ``machine``: every core's busy time (the
    kernel's and other processes' included), in the same unit (200 % on 2 cores is all of them)."""

    def __init__(self, roles: dict[str, list[int]], every: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.every, self.samples, self.done = every, [], threading.Event()
        self.roots = roles
        self.known: dict[int, object] = {}  # pid → psutil.Process (keeps its CPU counter)
        self.cores = os.cpu_count() or 1
        self.snapshot()

    def _processes(self, pids: list[int]) -> list:
        import psutil

        found = []
        for pid in pids:
            try:
                root = psutil.Process(pid)
                found += [root, *root.children(recursive=True)]
            except psutil.Error:
                pass
        out = []
        for p in found:
            if p.pid not in self.known:
                self.known[p.pid] = p
                try:
                    p.cpu_percent(None)  # the first call starts the counter
                except psutil.Error:
                    continue
            out.append(self.known[p.pid])
        return out

    def snapshot(self) -> dict[str, tuple[float, float]]:
        import psutil

        out = {}
        for role, pids in self.roots.items():
            cpu = rss = 0.0
            for p in self._processes(pids):
                try:
                    cpu += p.cpu_percent(None)
                    rss += p.memory_info().rss / 2**20
                except psutil.Error:
                    pass
            out[role] = (cpu, rss)
        out["machine"] = (psutil.cpu_percent(None) * self.cores, 0.0)
        return out

    def run(self) -> None:
        while not self.done.wait(self.every):
            self.samples.append((time.time(), self.snapshot()))

    def stop(self) -> list:
        self.done.set()
        self.join()
        return self.samples

    def between(self, start: float, end: float) -> dict[str, tuple[float, float]]:
        """Mean CPU % and peak MB per role between two moments."""
        picked = [s for t, s in self.samples if start <= t <= end] or [s for _, s in self.samples[-1:]]
        roles = picked[0].keys() if picked else []
        return {r: (sum(s[r][0] for s in picked) / len(picked), max(s[r][1] for s in picked)) for r in roles if picked}


def main() -> None:
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import busiest_data

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--web", type=int, default=1, choices=[1, 2])
    ap.add_argument(
        "--workers", type=int, help="gunicorn workers per web (and live) process (default: their configurations')"
    )
    ap.add_argument("--sqlite", action="store_true", help="the embedded default instead")
    busiest_data.arguments(ap)
    args, _ = ap.parse_known_args()
    flags = sys.argv[1:]
    for f in ("--web", "--workers"):
        if f in flags:
            i = flags.index(f)
            del flags[i : i + 2]
    flags = [f for f in flags if f != "--sqlite"]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with Shape(web=args.web, workers=args.workers, sqlite=args.sqlite) as shape:
        shape.data_build(flags)
        shape.database_fresh()
        url = shape.app_start()
        print(f"Kyoku's production shape on {url} (manifest {shape.manifest_path}); Ctrl-C stops it", flush=True)
        print(f"DATABASE_URL={shape.env['DATABASE_URL']} REDIS_URL={shape.env.get('REDIS_URL', '')}", flush=True)
        try:
            while not stop.wait(1):
                pass
        except KeyboardInterrupt:
            pass
    print("stopped")


if __name__ == "__main__":
    main()
