"""A Redis cache that a Redis outage cannot turn into a 500.

Redis is only a cache here (README, "Sicherung"): everything that matters is in the
database. :class:`ResilientRedisCache` is Django's ``RedisCache`` with every operation
guarded: when Redis cannot be reached (or answers with an error), a read is a miss, a write
is skipped, and one warning per minute goes to the log. Sessions use ``cached_db``, which
reads the database on a cache miss and writes the database first, so with Redis stopped
everybody stays logged in and can log in.

Code that must *know* whether the cache worked (the join-code and signup limits in
:mod:`skatschule.classrooms.join_limit`: a counter that silently reads 0 would be no limit at
all) uses :func:`strict`, which raises :class:`CacheUnavailable` instead.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache

__all__ = ["CacheUnavailable", "ResilientRedisCache", "strict"]

log = logging.getLogger(__name__)


class CacheUnavailable(RuntimeError):
    """The cache could not be reached (only raised through :func:`strict`)."""


def _is_outage(exc: BaseException) -> bool:
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is a dependency
        return isinstance(exc, OSError)
    return isinstance(exc, (RedisError, OSError))


class _Strict:
    """The cache's own operations, raising :class:`CacheUnavailable` on an outage."""

    def __init__(self, cache: ResilientRedisCache) -> None:
        self._cache = cache

    def __getattr__(self, name: str) -> Any:
        method = getattr(RedisCache, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(self._cache, *args, **kwargs)
            except Exception as exc:
                if _is_outage(exc):
                    raise CacheUnavailable(str(exc)) from exc
                raise

        return call


class ResilientRedisCache(RedisCache):
    """``RedisCache`` that treats an unreachable Redis as an empty cache that stores nothing."""

    _last_warning = 0.0

    def _guard(self, name: str, default: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(super(), name)(*args, **kwargs)
        except Exception as exc:
            if not _is_outage(exc):
                raise
            now = time.monotonic()
            if now - ResilientRedisCache._last_warning > 60:
                ResilientRedisCache._last_warning = now
                log.warning("cache unavailable, continuing without it: %s", exc)
            return default

    @property
    def strict(self) -> _Strict:
        return _Strict(self)

    def add(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> bool:
        return bool(self._guard("add", False, key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guard("get", default, key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> None:
        self._guard("set", None, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = None, version: Any = None) -> bool:
        return bool(self._guard("touch", False, key, timeout, version))

    def delete(self, key: Any, version: Any = None) -> bool:
        return bool(self._guard("delete", False, key, version))

    def get_many(self, keys: Any, version: Any = None) -> dict[str, Any]:
        return dict(self._guard("get_many", {}, keys, version))

    def has_key(self, key: Any, version: Any = None) -> bool:
        return bool(self._guard("has_key", False, key, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        # a missing key still raises ValueError, as Django documents; an outage gives 0
        return int(self._guard("incr", 0, key, delta, version))

    def set_many(self, data: Any, timeout: Any = None, version: Any = None) -> list[Any]:
        return list(self._guard("set_many", list(data), data, timeout, version))

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._guard("delete_many", None, keys, version)

    def clear(self) -> None:
        self._guard("clear", None)


def strict(alias: str = "default") -> Any:
    """The cache ``alias``, raising :class:`CacheUnavailable` on an outage if it is resilient."""
    cache: BaseCache = caches[alias]
    return cache.strict if isinstance(cache, ResilientRedisCache) else cache
