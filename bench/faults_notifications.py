"""Faults while notifications are written: the broker (Redis) down and the mail server down.

    .venv/bin/python bench/faults.py --scenario notifications            # production shape
    .venv/bin/python bench/faults.py --scenario notifications --sqlite   # SQLite, tasks in-process

Facts that notify are written all along (a penalty in the ledger, ``league.services.penalty_assign``:
its player is told by email, in the penalty's transaction). A local SMTP server (aiosmtpd) receives
the emails and notes each one's Message-ID (the delivery's idempotency key) and arrival time.
Meanwhile the script stops Redis (the broker: queueing a send fails at once, the delivery waits
for the sweep) and, overlapping it, the mail server (a send fails and is retried with backoff);
then both come back. It waits until every email delivery is sent or a deadline passes, and prints
the notifications written, the emails sent and received, the duplicates (must be 0), the lost
(must be 0: written and never received) and the delay from the fact to the mail server.

Production shape: PostgreSQL, Redis and a Celery worker with beat (the sweep every
NOTIFY_SWEEP_EVERY s) on loopback; the facts are written by this process as a request would.
``--sqlite``: the embedded default, no broker: the send runs in-process after the commit, and this
process runs ``manage.py notifications_sweep`` every few seconds, as cron would with the dev server
(there is no broker to stop: only the mail server goes down). The sweep's interval and the first
retry's wait are shortened (``--sweep-every``, ``--backoff``) so the run takes a minute or two; the
delay scales with them (production: 60 s, 30 s).
"""

from __future__ import annotations

import argparse
import os
import shutil
import logging
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller

import faults  # bench/faults.py: the production shape's processes
from faults import BENCH, PGBIN, Cluster, as_postgres, django_setup, free_port


class MailServer:
    """An SMTP server on loopback that can be stopped and started again on the same port; every
    message received is kept as (Message-ID, arrival time)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.received: list[tuple[str, float]] = []
        self.lock = threading.Lock()
        self.controller: Controller | None = None

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        message = message_from_bytes(envelope.content, policy=policy.default)
        key = str(message["Message-ID"]).strip().strip("<>").split("@", 1)[0]
        with self.lock:
            self.received.append((key, time.time()))
        return "250 OK"

    def start(self) -> None:
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


def league_build(players: int) -> tuple[object, list[object]]:
    """A league, an open season, one division, ``players`` players each with a login and an email."""
    from django.contrib.auth import get_user_model

    from kyoku.models import League
    from league import services
    from league.models import Player

    league = League.objects.create(name="Faults notify", slug="faults-notify")
    rules = services.rule_set_create(name="M-League", slug="mleague-notify", preset="mleague", actor=BENCH)
    season = services.season_create(
        league=league, year=2026, number=1, rule_set=rules, divisions=(("A", "A", "甲"),), actor=BENCH
    )
    services.season_status_set(season=season, status="open", actor=BENCH)
    division = season.divisions.get(code="A")
    people = []
    for i in range(players):
        user = get_user_model().objects.create_user(f"notify-{i}", email=f"notify-{i}@example.org", password="x")
        player = Player.objects.create(display_name=f"Notify {i}", membership_number=f"N{i}", user=user)
        services.entry_create(division=division, player=player, actor=BENCH)
        people.append(player)
    return season, people


def fact_write(season: object, player: object) -> None:
    """One fact that notifies, in its own transaction (as a request would write it)."""
    from league import services

    services.penalty_assign(season=season, player=player, offence="slow_play", sanction="warning", actor=BENCH)


def sweep_once() -> None:
    from django.core.management import call_command

    with open(os.devnull, "w") as quiet:
        call_command("notifications_sweep", stdout=quiet)


def main(argv: list[str]) -> None:
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's per-command log
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true", help="SQLite, tasks in-process (no broker)")
    parser.add_argument("--facts", type=int, default=60, help="facts written, one every --interval s")
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--redis-down", type=float, default=10.0, help="seconds the broker stays down")
    parser.add_argument("--smtp-down", type=float, default=10.0, help="seconds the mail server stays down")
    parser.add_argument("--sweep-every", type=float, default=3.0)
    parser.add_argument("--backoff", type=int, default=2, help="seconds before the first retry (doubled each time)")
    parser.add_argument("--deadline", type=float, default=180.0, help="seconds to wait for the last send")
    args = parser.parse_args(argv)

    mail = MailServer()
    mail.start()
    tmp = tempfile.mkdtemp(prefix="kyoku-faults-notify-")
    common = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(mail.port),
        "EMAIL_TIMEOUT": "3",
        "NOTIFY_SWEEP_EVERY": str(args.sweep_every),
        "NOTIFY_BACKOFF_FIRST": str(args.backoff),
        "NOTIFY_RATE_EMAIL": "100000",
        "SECRET_KEY": "faults-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DB_CONN_MAX_AGE": "0",
        "KYOKU_ENV_FILE": "/dev/null",
    }
    cluster = None
    try:
        if args.sqlite:
            env = {**os.environ, **common, "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3"}
            env.pop("REDIS_URL", None)
            env.pop("DJANGO_SETTINGS_MODULE", None)
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput"],
                cwd=faults.ROOT,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            os.environ.pop("REDIS_URL", None)
        else:
            cluster = Cluster(argparse.Namespace(reconcile_every=600.0, web_workers=1))
            cluster.env.update(common)
            env = cluster.env
            cluster.pg_init()
            subprocess.run(
                as_postgres(f"{PGBIN}/createdb -h 127.0.0.1 -p {cluster.pg_port} -U postgres kyoku"), check=True
            )
            cluster.redis_start()
            cluster.manage("migrate", "--noinput")
        os.environ.update({k: v for k, v in env.items() if k in common or k in ("DATABASE_URL", "REDIS_URL")})
        if not args.sqlite:
            os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
        django_setup(env)
        season, people = league_build(8)
        if cluster is not None:
            cluster.worker_start()
            cluster.worker_supervise()
        warm_up(cluster, mail, season, people[0])
        run(args, cluster, mail, season, people)
    except BaseException:
        if cluster is not None:  # what the worker (and its beat) said, before its folder goes
            worker_log_print(cluster.tmp)
        raise
    finally:
        mail.stop()
        if cluster is not None:
            cluster.stop_all()
            shutil.rmtree(cluster.tmp, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)


def worker_log_print(folder: str, records: int = 30) -> None:
    """The Celery worker's last log records (beat runs inside it), one line each, on standard
    error: a run that failed says whether the worker stalled, lost its broker, stopped or never
    ran the sweep. A record's first line only: a traceback's own lines would push the records
    that say why out of what the test shows (the end of standard error)."""
    try:
        with open(os.path.join(folder, "worker.log"), errors="replace") as f:
            tail = [line for line in f if line.startswith("[")][-records:]
    except OSError as exc:
        tail = [f"(no worker log: {exc})\n"]
    sys.stderr.write(
        "== the worker's log, last records ==\n" + "".join(line.rstrip("\n")[:300] + "\n" for line in tail)
    )
    sys.stderr.flush()


def warm_up(cluster, mail: MailServer, season, player) -> None:
    """One fact sent before the run (the worker and beat up and connected), then forgotten."""
    from notifications.models import Delivery

    fact_write(season, player)
    started = time.time()
    while Delivery.objects.exclude(status=Delivery.Status.SENT).exists() or not mail.received:
        if time.time() - started > 120:
            raise SystemExit("the first notification was not sent within 120 s: is the worker up?")
        if cluster is None:
            sweep_once()
        time.sleep(0.5)
    with mail.lock:
        mail.received.clear()


def run(args, cluster, mail: MailServer, season, people) -> None:
    from django.db import close_old_connections

    from notifications.models import Delivery, Notification

    duration = args.facts * args.interval
    redis_from, redis_to = 0.2 * duration, 0.2 * duration + args.redis_down
    smtp_from = 0.2 * duration + args.redis_down / 2  # the two overlap
    smtp_to = smtp_from + args.smtp_down
    written: list[tuple[int, float, str]] = []  # (notification id, written at, during which fault)
    redis_up = mail_up = True
    t0 = time.time()
    last_sweep = 0.0
    i = 0

    def tick(now: float) -> None:
        nonlocal redis_up, mail_up, last_sweep
        if cluster is not None and redis_up and redis_from <= now - t0 < redis_to:
            cluster.redis_stop()
            redis_up = False
        elif cluster is not None and not redis_up and now - t0 >= redis_to:
            cluster.redis_start()
            redis_up = True
        if mail_up and smtp_from <= now - t0 < smtp_to:
            mail.stop()
            mail_up = False
        elif not mail_up and now - t0 >= smtp_to:
            mail.start()
            mail_up = True
        if cluster is None and now - last_sweep >= args.sweep_every:  # cron's notifications_sweep
            sweep_once()
            last_sweep = now

    while i < args.facts or not (redis_up and mail_up):
        now = time.time()
        tick(now)
        if i < args.facts and now - t0 >= i * args.interval:
            before = Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            fact_write(season, people[i % len(people)])
            [n] = Notification.objects.filter(pk__gt=before, kind="penalty_issued").values_list("pk", flat=True)
            during = ",".join(
                name for name, up in (("broker", redis_up or cluster is None), ("mail", mail_up)) if not up
            )
            written.append((n, now, during or "none"))
            i += 1
        time.sleep(0.05)
    ended = time.time()
    ids = [n for n, _t, _d in written]
    while time.time() - ended < args.deadline:
        if cluster is None:
            sweep_once()
        close_old_connections()
        left = Delivery.objects.filter(notification_id__in=ids).exclude(status=Delivery.Status.SENT).count()
        if not left and len({k for k, _t in mail.received}) >= len(ids):
            break
        time.sleep(args.sweep_every if cluster is None else 1.0)
    time.sleep(1.0)  # a late duplicate, if any, arrives now
    report(args, cluster, mail, written, ended)


def report(args, cluster, mail: MailServer, written, ended: float) -> None:
    from django.db import close_old_connections

    from notifications.models import Delivery

    close_old_connections()
    ids = [n for n, _t, _d in written]
    deliveries = list(Delivery.objects.filter(notification_id__in=ids, channel="email"))
    by_key = {str(d.idempotency_key): d for d in deliveries}
    counts: dict[str, int] = {}
    first_seen: dict[str, float] = {}
    for key, at in mail.received:
        counts[key] = counts.get(key, 0) + 1
        first_seen.setdefault(key, at)
    duplicated = sum(n - 1 for n in counts.values()) + sum(1 for k in counts if k not in by_key)
    lost = sum(1 for k in by_key if k not in counts)
    statuses: dict[str, int] = {}
    for d in deliveries:
        statuses[d.status] = statuses.get(d.status, 0) + 1
    written_at = {n: (t, during) for n, t, during in written}
    delays: dict[str, list[float]] = {}
    for key, d in by_key.items():
        if key in first_seen:
            at, during = written_at[d.notification_id]
            delays.setdefault("all", []).append(first_seen[key] - at)
            delays.setdefault(during, []).append(first_seen[key] - at)

    def p95(xs: list[float]) -> float:
        xs = sorted(xs)
        return xs[int(round(0.95 * (len(xs) - 1)))] if xs else float("nan")

    shape = (
        "SQLite, tasks in-process, notifications_sweep every %.0f s (no broker)" % args.sweep_every
        if cluster is None
        else "PostgreSQL, Redis, 1 Celery worker (+beat: the sweep every %.0f s)" % args.sweep_every
    )
    print(f"notifications under faults: {shape}; first retry after {args.backoff} s, doubled")
    print(
        f"{args.facts} facts, one every {args.interval:g} s; broker down {0 if cluster is None else args.redis_down:.0f} s, "
        f"mail server down {args.smtp_down:.0f} s (overlapping)"
    )
    print(
        f"notifications written {len(ids)}, email deliveries {len(deliveries)}, sent {statuses.get('sent', 0)} "
        f"(other states: { {k: v for k, v in statuses.items() if k != 'sent'} }), "
        f"received by the mail server {len(counts)}"
    )
    print(f"duplicated {duplicated} (must be 0), lost {lost} (must be 0)")
    if cluster is not None:
        print(f"worker exits on its own, each started again as its restart policy does: {cluster.worker_restarts}")
    for name in sorted(delays, key=lambda n: (n != "all", n)):
        xs = delays[name]
        print(
            f"delay fact → mail server, written while down: {name:12} n={len(xs):3d} "
            f"p50 {statistics.median(xs):6.1f} s, p95 {p95(xs):6.1f} s, max {max(xs):6.1f} s"
        )
    print(f"last email received {max(first_seen.values(), default=ended) - ended:.1f} s after the last fact")
    if duplicated or lost:
        raise SystemExit(1)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1:])
