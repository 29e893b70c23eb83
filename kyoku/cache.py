"""The production cache (Redis) degrades instead of failing: the database is the truth and the
cache only saves work, so while Redis is down (restarting, unreachable) a read is a miss and a
write is skipped, each logged, and pages keep answering from the database."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

logger = logging.getLogger(__name__)

try:  # redis-py's errors when the server is down or too slow
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    UNAVAILABLE: tuple[type[BaseException], ...] = (RedisConnectionError, RedisTimeoutError, OSError)
except ImportError:  # pragma: no cover - redis is in requirements.txt
    UNAVAILABLE = (OSError,)


def cache_unavailable_log(operation: str, exc: BaseException) -> None:
    logger.warning("cache unavailable, %s skipped: %s", operation, exc)


_CLIENTS: dict[tuple[str, ...], Any] = {}
_CLIENTS_LOCK = threading.Lock()


class SharedRedisCacheClient(RedisCacheClient):
    """Django's client builds a new ``redis.Redis`` at every cache operation, and each one its
    table of some 170 response callbacks (about 0.1 ms, several times a request). One per
    connection pool is enough: redis-py's client is thread-safe and holds nothing of its own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis_by_pool: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # the stubs declare neither Django's pools nor its client class
        pool = django._get_connection_pool(write)
        client = self._redis_by_pool.get(id(pool))
        if client is None:  # two threads may both build one: the first stored is every thread's
            client = self._redis_by_pool.setdefault(id(pool), django._client(connection_pool=pool))
        return client


class DegradingRedisCache(RedisCache):
    """Django's RedisCache whose operations answer as a cold cache when Redis is unreachable, with
    one connection pool per process. Django keeps a cache object per context, and under ASGI every
    request is a context of its own: with Django's client each request opened a new pool, so a new
    connection to Redis and its handshake (a few milliseconds, more than the rest of a cached
    answer). redis-py's pool is thread-safe and resets itself in a forked child."""

    @cached_property
    def _cache(self) -> Any:
        state = vars(self)  # RedisCache's own attributes (the stubs do not declare them)
        servers, options = state["_servers"], state["_options"]
        key = (*servers, repr(sorted(options.items())))
        with _CLIENTS_LOCK:
            client = _CLIENTS.get(key)
            if client is None:
                client = _CLIENTS[key] = SharedRedisCacheClient(servers, **options)
        return client

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("get", exc)
            return default

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("get_many", exc)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("has_key", exc)
            return False

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = None,  # noqa: A003 - Django's name
        version: int | None = None,
    ) -> None:
        try:
            return super().set(key, value, timeout, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("set", exc)
            return None

    def add(self, key: Any, value: Any, timeout: float | None = None, version: int | None = None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("add", exc)
            return False

    def set_many(self, data: dict[Any, Any], timeout: float | None = None, version: int | None = None) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("set_many", exc)
            return list(data)

    def touch(self, key: Any, timeout: float | None = None, version: int | None = None) -> bool:
        try:
            return super().touch(key, timeout, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("touch", exc)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("delete", exc)
            return False

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        try:
            return super().delete_many(keys, version)
        except UNAVAILABLE as exc:
            cache_unavailable_log("delete_many", exc)
            return None

    def clear(self) -> bool:  # type: ignore[override]  # Redis answers a bool; the stubs say None
        try:
            return super().clear()  # type: ignore[return-value]  # see above
        except UNAVAILABLE as exc:
            cache_unavailable_log("clear", exc)
            return False
