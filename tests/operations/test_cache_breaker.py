"""A hung Redis costs a page at most one socket timeout per breaker interval (issue 25, item 8).

The test starts its own ``redis-server`` on a spare port (never the shared one), lets a
logged-in visitor use the site, then freezes the server with SIGSTOP: connections stay open
but nothing answers, so every call would wait its full ``socket_timeout``.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

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


def _timed_get(client: Client, url: str) -> float:
    start = time.monotonic()
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return time.monotonic() - start


def test_a_hung_redis_costs_at_most_one_timeout_per_interval(hung_redis: OwnRedis) -> None:
    user = get_user_model().objects.create_user("haengt")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    pages = [reverse("training:dashboard"), reverse("home:index"), reverse("rules:index")]
    for url in pages:
        _timed_get(client, url)  # warm: templates, content, connections to Redis
    cache.set("probe", 1)
    assert cache.get("probe") == 1

    os.kill(hung_redis.process.pid, signal.SIGSTOP)  # hangs: accepts, never answers
    started = time.monotonic()
    times: list[float] = []
    while time.monotonic() - started < INTERVAL * 0.8:
        times.extend(_timed_get(client, url) for url in pages)
    # the first page pays the timeout once (and at most the database's time on top) ...
    assert times[0] < TIMEOUT + 0.9, times[:3]
    # ... every later page within the interval skips Redis: no timeout at all
    assert len(times) > 6 and max(times[1:]) < TIMEOUT * 0.6, [round(t, 2) for t in times]
    # strict callers (the limits) learn at once that the cache is out, without waiting
    before = time.monotonic()
    with pytest.raises(CacheUnavailable):
        strict().get("probe")
    assert time.monotonic() - before < 0.1

    # after the interval one call tries Redis again (one timeout), then the next interval is quiet
    time.sleep(max(0.0, started + INTERVAL + 0.2 - time.monotonic()))
    again = [_timed_get(client, url) for url in pages * 3]
    assert sum(t > TIMEOUT * 0.6 for t in again) <= 1, [round(t, 2) for t in again]

    # Redis answers again: after the interval the breaker closes and the cache works
    os.kill(hung_redis.process.pid, signal.SIGCONT)
    time.sleep(INTERVAL + 0.2)
    deadline = time.monotonic() + 5
    while cache.get("probe") != 1:
        cache.set("probe", 1)
        assert time.monotonic() < deadline, "the cache did not come back"
        time.sleep(0.1)
