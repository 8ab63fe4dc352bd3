"""A hung Redis costs a page at most one socket timeout per breaker interval (issue 25, item 8).

The test starts its own ``redis-server`` on a spare port (never the shared one), lets a
logged-in visitor use the site, then freezes the server with SIGSTOP: connections stay open
but nothing answers, so every call would wait its full ``socket_timeout``.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from skatschule.core import cache as cache_module
from skatschule.core.cache import CacheUnavailable, strict

from .test_outages import REDIS, OwnRedis

pytestmark = pytest.mark.django_db
TIMEOUT = 1.0
INTERVAL = 3.0


@pytest.fixture
def hung_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if REDIS is None:
        pytest.skip("redis-server is not installed")
    server = OwnRedis(tmp_path)
    caches = {
        "default": {
            "BACKEND": "skatschule.core.cache.ResilientRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": f"breaker-test-{os.getpid()}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": TIMEOUT},
            "BREAKER_SECONDS": INTERVAL,
        }
    }
    with override_settings(CACHES=caches, SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        try:
            yield server
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
            server.stop()


class _Clock:
    """The breaker's clock, moved by the test: the interval passes when the test says so, not
    when a loaded machine gets round to it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def _get(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)


def test_a_hung_redis_costs_at_most_one_timeout_per_interval(
    hung_redis: OwnRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted, not timed: each call the breaker lets through to the hung server is one timeout."""
    user = get_user_model().objects.create_user("haengt")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    pages = [reverse("training:dashboard"), reverse("home:index"), reverse("rules:index")]
    for url in pages:
        _get(client, url)  # warm: templates, content, connections to Redis
    cache.set("probe", 1)
    assert cache.get("probe") == 1

    clock = _Clock()
    monkeypatch.setattr(cache_module, "time", clock)
    tries: list[bool] = []  # what the breaker answered each call: True lets it reach Redis
    allows = cache_module._Breaker.allows

    def counted(breaker: Any) -> bool:
        tries.append(allows(breaker))
        return tries[-1]

    monkeypatch.setattr(cache_module._Breaker, "allows", counted)

    os.kill(hung_redis.process.pid, signal.SIGSTOP)  # hangs: accepts, never answers
    for url in pages * 3:
        _get(client, url)
    # the first call pays the timeout once; every later call within the interval skips Redis
    assert len(tries) > 6 and tries.count(True) == 1 and tries[0], tries
    # strict callers (the limits) learn at once that the cache is out: no call reaches Redis
    with pytest.raises(CacheUnavailable):
        strict().get("probe")
    assert tries.count(True) == 1 and not tries[-1]

    # after the interval one call tries Redis again (one timeout), then the interval is quiet again
    clock.now += INTERVAL + 0.1
    tries.clear()
    for url in pages * 3:
        _get(client, url)
    assert tries.count(True) == 1 and tries[0], tries

    # Redis answers again: after the interval the breaker closes and the cache works
    os.kill(hung_redis.process.pid, signal.SIGCONT)
    for _ in range(5):  # a connection the hang left behind may fail once more: then the next interval
        clock.now += INTERVAL + 0.1
        cache.set("probe", 1)
        if cache.get("probe") == 1:
            break
    assert cache.get("probe") == 1, "the cache did not come back"
    tries.clear()
    _get(client, pages[0])
    assert tries and all(tries)  # closed: every call goes to Redis again
