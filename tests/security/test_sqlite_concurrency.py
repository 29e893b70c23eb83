"""The embedded default holds concurrent use: eight writers at once on one SQLite file (WAL,
busy timeout, IMMEDIATE transactions) all succeed, and every write that committed is there.
Runs in a subprocess against a real file (the test database is in memory)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import os, threading, django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection, connections
    call_command("migrate", verbosity=0)
    assert connection.cursor().execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    from league import services
    from kyoku.models import League
    from kyoku.principals import SYSTEM
    from league.models import GameResult, Player
    league = League.objects.create(name="L", slug="l")
    rules = services.rule_set_create(name="WRC", slug="wrc", preset="wrc", actor=SYSTEM)
    season = services.season_create(league=league, year=2026, number=1, rule_set=rules, actor=SYSTEM)
    division = season.divisions.get(code="A")
    players = [Player.objects.create(display_name=f"P{i}", membership_number=f"P{i}") for i in range(32)]
    for p in players:
        services.entry_create(division=division, player=p, actor=SYSTEM)
    games = [services.game_create(division=division, match_day=1, table=t + 1, players=players[4 * t:4 * t + 4],
                                  actor=SYSTEM)
             for t in range(8)]
    errors = []
    barrier = threading.Barrier(8)

    def write(game):
        try:
            barrier.wait()
            for attempt in range(3):  # each thread also corrects its result twice
                scores = [48000 - attempt * 100, 35800 + attempt * 100, 21000, 15200]
                services.game_result_record(game=game, scores=scores, replace=True, actor=SYSTEM)
        except Exception as exc:
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(g,)) for g in games]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert not errors, errors
    assert GameResult.objects.count() == 8
    assert all(r.scores[0] == 47800 for r in GameResult.objects.all())
    print("ok")
""")


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the embedded default is SQLite")
def test_eight_concurrent_writers_on_the_sqlite_file(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DEBUG": "1",
        "SECRET_KEY": "concurrency-test-key",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")
