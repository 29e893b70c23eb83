"""While Redis is down, pages answer from the database (the cache degrades to a miss) and a
changed result still gets its ratings (in-process when the broker refuses the task, or from the
reconciliation when even that fails); no request fails for the broker's sake."""

import socket
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import override_settings
from kombu.exceptions import OperationalError

from league import services
from ratings import services as ratings_services
from ratings.models import RatingEvent
from ratings.reconcile import derived_reconcile
from ratings.tasks import ratings_game_sync
from kyoku.principals import SYSTEM


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def redis_down(backend: str = "kyoku.cache.DegradingRedisCache") -> dict:
    return {
        "default": {
            "BACKEND": backend,
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def test_a_plain_redis_cache_fails_when_redis_is_down_which_is_why_it_is_wrapped(db):
    from redis.exceptions import ConnectionError as RedisConnectionError

    with override_settings(CACHES=redis_down("django.core.cache.backends.redis.RedisCache")):
        with pytest.raises(RedisConnectionError):
            cache.get("standings")


def test_the_degrading_cache_answers_as_a_cold_cache(db):
    with override_settings(CACHES=redis_down()):
        assert cache.get("standings", "miss") == "miss"
        assert cache.set("standings", "table", 60) is None
        assert cache.add("standings", "table") is False
        assert cache.get_many(["a", "b"]) == {}
        cache.delete("standings")


def test_pages_and_the_api_answer_while_redis_is_down(season, game, admin, record, client):
    record(game, [45000, 30000, 15000, 10000])
    division = game.division
    with override_settings(CACHES=redis_down()):
        page = client.get(f"/seasons/{season.pk}/divisions/{division.code}/")
        api = client.get(f"/api/divisions/{division.pk}/standings/")
    assert page.status_code == 200 and "Player 1" in page.content.decode()
    assert api.status_code == 200
    top = api.json()[0]
    # M-League: 45,000 of 30,000 returned is +15.0, uma +30.0 and the oka's +20.0 for the top
    assert (top["rank"], top["player"]["display_name"], float(top["total_points"])) == (1, "Player 1", 65.0)


@pytest.fixture
def broker_mode():
    """The production shape's queueing (not eager) for the test's duration."""
    app = ratings_game_sync.app
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = eager


def test_a_result_gets_its_ratings_in_process_when_the_broker_refuses_the_task(
    game, admin, broker_mode, django_capture_on_commit_callbacks
):
    refused = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    with mock.patch.object(ratings_game_sync, "apply_async", side_effect=refused) as queued:
        with django_capture_on_commit_callbacks(execute=True):
            services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    assert queued.called
    assert sorted(RatingEvent.objects.filter(game=game).values_list("place", flat=True)) == [1, 2, 3, 4]


def test_when_the_in_process_run_fails_too_the_reconciliation_rates_the_game(
    game, admin, league, broker_mode, django_capture_on_commit_callbacks
):
    refused = OperationalError("Connection refused.")
    with (
        mock.patch.object(ratings_game_sync, "apply_async", side_effect=refused),
        mock.patch.object(ratings_services, "games_ratings_sync", side_effect=RuntimeError("database gone")),
    ):
        with django_capture_on_commit_callbacks(execute=True):  # the request itself does not fail
            result, created = services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    assert created and not RatingEvent.objects.filter(game=game).exists()
    assert derived_reconcile(leagues=[league], actor=SYSTEM)["test"]["ratings"]["games"] == 1
    assert RatingEvent.objects.filter(game=game).count() == 4


@pytest.fixture
def broker_unreachable(broker_mode):
    """Celery's real broker and result backend, both pointed at a Redis that is not running (the
    broker connection pool and the thread's backend are rebuilt for it, then restored)."""
    app = ratings_game_sync.app
    saved = {key: app.conf[key] for key in ("broker_url", "result_backend")}
    url = f"redis://127.0.0.1:{closed_port()}/0"
    app.conf.broker_url = app.conf.result_backend = url

    def rebuild() -> None:
        app._pool = None
        app.amqp._producer_pool = None
        app._local.__dict__.pop("backend", None)

    rebuild()
    yield app
    app.conf.update(saved)
    rebuild()


def test_queueing_with_redis_down_goes_in_process_without_waiting_on_the_result_backend(
    game, admin, broker_unreachable, django_capture_on_commit_callbacks
):
    """Unmocked queueing: the publish fails at once and the sync runs in the request. A stored
    result would first subscribe to it in Redis, which retries 20 times a second apart before the
    publish is even tried (what made writes time out while Redis was down in bench/faults.py)."""
    backend = broker_unreachable.backend
    with mock.patch.object(type(backend), "on_task_call", autospec=True) as subscribe:
        with django_capture_on_commit_callbacks(execute=True):
            services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    assert not subscribe.called
    assert sorted(RatingEvent.objects.filter(game=game).values_list("place", flat=True)) == [1, 2, 3, 4]


def test_every_request_shares_the_process_redis_pool():
    """Under ASGI each request is a context of its own, with a cache object of its own: they share
    one connection pool (a new one per request was a new connection and handshake each time), and
    another server or other options get a pool of their own."""
    import threading

    from redis import ConnectionPool

    from kyoku.cache import DegradingRedisCache

    url = f"redis://127.0.0.1:{closed_port()}/0"
    params = {"OPTIONS": {"socket_connect_timeout": 0.5}}
    made: list[DegradingRedisCache] = []
    threads = [threading.Thread(target=lambda: made.append(DegradingRedisCache(url, params))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pools = {id(c._cache._get_connection_pool(write=True)) for c in made}
    assert len(pools) == 1
    assert isinstance(made[0]._cache._get_connection_pool(write=True), ConnectionPool)
    other = DegradingRedisCache(url.replace("/0", "/1"), params)
    assert id(other._cache._get_connection_pool(write=True)) not in pools


def test_every_cache_operation_uses_the_process_redis_client():
    """Django's client built a redis.Redis (with its response-callback table) at every operation;
    the shared one keeps one per pool, for every thread."""
    import threading

    from kyoku.cache import DegradingRedisCache

    url = f"redis://127.0.0.1:{closed_port()}/0"
    cache = DegradingRedisCache(url, {"OPTIONS": {"socket_connect_timeout": 0.5}})
    seen: list[object] = []
    threads = [threading.Thread(target=lambda: seen.append(cache._cache.get_client(write=True))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seen.append(cache._cache.get_client("a key"))
    assert len({id(c) for c in seen}) == 1
    assert seen[0].connection_pool is cache._cache._get_connection_pool(write=True)
