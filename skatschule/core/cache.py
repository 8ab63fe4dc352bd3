"""A Redis cache that a Redis outage cannot turn into a 500.

Redis is only a cache here (skatschule/operations/README.md, "Sicherung"): everything that matters is in the
database. :class:`ResilientRedisCache` is Django's ``RedisCache`` with every operation
guarded: when Redis cannot be reached (or answers with an error), a read is a miss, a write
is skipped, and one warning per minute goes to the log. Sessions use ``cached_db``, which
reads the database on a cache miss and writes the database first, so with Redis stopped
everybody stays logged in and can log in.

**Circuit breaker.** A Redis that hangs (stopped, not gone) makes every call wait for its socket
timeout (1 s). So after one failure the cache *opens*: for :data:`BREAKER_SECONDS` (or the
cache's ``BREAKER_SECONDS`` in ``settings.CACHES``) no call
reaches Redis at all (a read is a miss, a write is skipped, :func:`strict` raises at once).
When the interval is over, one call (one per process, the others still skip) tries Redis
again; if it answers the breaker closes, if not it stays open for another interval. A page
therefore pays at most one timeout per interval and process, however many cache calls it makes.

Code that must *know* whether the cache worked (the join-code and signup limits in
:mod:`skatschule.classrooms.join_limit`: a counter that silently reads 0 would be no limit at
all) uses :func:`strict`, which raises :class:`CacheUnavailable` instead.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache

__all__ = ["BREAKER_SECONDS", "CacheUnavailable", "ResilientRedisCache", "strict"]

log = logging.getLogger(__name__)

BREAKER_SECONDS = 15.0
"""After a failure, no call reaches Redis for this long (then one call tries again)."""


class CacheUnavailable(RuntimeError):
    """The cache could not be reached (only raised through :func:`strict`)."""


def _is_outage(exc: BaseException) -> bool:
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is a dependency
        return isinstance(exc, OSError)
    return isinstance(exc, (RedisError, OSError))


class _Breaker:
    """Open for ``seconds`` after a failure; then one caller may try (and closes it on success).

    One per Redis location and process (Django makes a cache object per thread)."""

    _all: dict[str, _Breaker] = {}
    _all_lock = threading.Lock()

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._open_until = 0.0  # 0: closed

    @classmethod
    def for_location(cls, location: str, seconds: float) -> _Breaker:
        with cls._all_lock:
            breaker = cls._all.setdefault(location, cls(seconds))
            breaker.seconds = seconds
            return breaker

    def allows(self) -> bool:
        """May this call reach Redis? While open: no; when the interval is over: this one caller."""
        if not self._open_until:
            return True
        with self._lock:
            now = time.monotonic()
            if now < self._open_until:
                return False
            self._open_until = now + self.seconds  # the others keep skipping while this one tries
            return True

    def failed(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + self.seconds

    def succeeded(self) -> None:
        if self._open_until:
            with self._lock:
                self._open_until = 0.0


class _Strict:
    """The cache's own operations, raising :class:`CacheUnavailable` on an outage."""

    def __init__(self, cache: ResilientRedisCache) -> None:
        self._cache = cache

    def __getattr__(self, name: str) -> Any:
        method = getattr(RedisCache, name)
        breaker = self._cache.breaker

        def call(*args: Any, **kwargs: Any) -> Any:
            if not breaker.allows():
                raise CacheUnavailable("the cache failed recently (circuit breaker open)")
            try:
                result = method(self._cache, *args, **kwargs)
            except Exception as exc:
                if _is_outage(exc):
                    breaker.failed()
                    raise CacheUnavailable(str(exc)) from exc
                raise
            breaker.succeeded()
            return result

        return call


class ResilientRedisCache(RedisCache):
    """``RedisCache`` that treats an unreachable Redis as an empty cache that stores nothing."""

    _last_warning = 0.0

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.breaker = _Breaker.for_location(str(server), float(params.get("BREAKER_SECONDS", BREAKER_SECONDS)))

    def _guard(self, name: str, default: Any, *args: Any, **kwargs: Any) -> Any:
        if not self.breaker.allows():
            return default  # failed recently: out of the way, no timeout to wait for
        try:
            result = getattr(super(), name)(*args, **kwargs)
        except Exception as exc:
            if not _is_outage(exc):
                raise
            self.breaker.failed()
            now = time.monotonic()
            if now - ResilientRedisCache._last_warning > 60:
                ResilientRedisCache._last_warning = now
                log.warning("cache unavailable, continuing without it: %s", exc)
            return default
        self.breaker.succeeded()
        return result

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
