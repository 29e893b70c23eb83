"""Two admins submit the same game's result at the same moment: it is stored once.

On PostgreSQL the row lock in ``game_result_record`` serialises them; the test also shows the
race is real by disabling the lock: then both writers pass the existence check and both
report (and audit) a creation."""

import threading

import pytest
from django.db import connection, connections

from league import services
from kyoku.models import AuditLog
from league.models import GameResult
from league.services import games as league_games

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

SCORES = [43000, 30800, 16000, 10200]


def _race(game, admin, barrier_hook):
    outcomes, barrier = [], threading.Barrier(2)

    def submit():
        try:
            barrier_hook(barrier)
            _, created = services.game_result_record(game=game, scores=SCORES, actor=admin)
            outcomes.append("created" if created else "same")
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            outcomes.append(type(exc).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(outcomes)


def test_double_submission_is_stored_once(game, admin, monkeypatch):
    real_lock = league_games.game_lock

    def lock_then_wait(game_id):
        locked = real_lock(game_id)
        return locked

    monkeypatch.setattr(league_games, "game_lock", lock_then_wait)
    outcomes = _race(game, admin, lambda barrier: barrier.wait())
    assert outcomes == ["created", "same"]
    assert GameResult.objects.filter(game=game).count() == 1
    assert AuditLog.objects.filter(action="game_result.create").count() == 1


def test_without_the_lock_the_race_happens(game, admin, monkeypatch):
    from league.models import Game

    arrived = threading.Barrier(2)

    def no_lock(game_id):
        found = Game.objects.get(pk=game_id)
        arrived.wait(timeout=10)  # both threads pass the existence check before either writes
        return found

    monkeypatch.setattr(league_games, "game_lock", no_lock)
    outcomes = _race(game, admin, lambda barrier: None)
    # Both writers passed the "already recorded?" check and both tried to create the result: only
    # the one-to-one constraint kept the second row out, and that writer failed with an error
    # instead of answering "same" as it does under the lock (test above).
    assert outcomes == ["IntegrityError", "created"]
    assert AuditLog.objects.filter(action__startswith="game_result.").count() == 1
    assert GameResult.objects.filter(game=game).count() == 1
