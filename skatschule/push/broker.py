"""Who carries an event from the one who raises it to the streams that listen.

An event is a channel name (``job.<id>``, ``quiz.<pk>``) and a short text; listeners re-read the
state they show, so an event only says *that* something changed. Two brokers with one interface:

- :class:`LocalBroker`, the default: queues in this process. ``make run`` serves the site and runs
  the worker in one process (``manage.py serve``), so the worker's events reach its streams.
- :class:`RedisBroker` when ``REDIS_URL`` is set: Redis pub/sub, so an event raised in one web
  process or worker reaches a stream held open by any other.

:func:`publish` is synchronous and cheap (views and worker threads call it); :meth:`listen` is
an async context manager for the streams; :meth:`wait` blocks a worker thread until an event
(or a timeout): the worker wakes when a job is queued instead of looking every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from functools import cache
from typing import Any, Protocol

from django.conf import settings

__all__ = ["Broker", "LocalBroker", "RedisBroker", "Listener", "broker", "publish", "WAKE"]

WAKE = "jobs.wake"
"""The channel a queued job is announced on (the worker waits on it)."""

PREFIX = "skatschule:"
"""Redis channel names start with this (the Redis may serve other programs)."""


class Listener(Protocol):
    async def next(self, timeout: float) -> str | None:
        """The next event's text, or None when ``timeout`` seconds passed without one."""
        ...


class Broker(Protocol):
    def publish(self, channel: str, text: str = "") -> None: ...

    def listen(self, channel: str) -> contextlib.AbstractAsyncContextManager[Listener]: ...

    def wait(self, channel: str, timeout: float) -> bool: ...


class _QueueListener:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue()

    async def next(self, timeout: float) -> str | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


class LocalBroker:
    """Events within this process: each listener's queue, fed on its own event loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[tuple[asyncio.AbstractEventLoop, _QueueListener]]] = {}
        self._events: dict[str, threading.Condition] = {}
        self._counts: dict[str, int] = {}

    def publish(self, channel: str, text: str = "") -> None:
        with self._lock:
            targets = list(self._listeners.get(channel, ()))
            condition = self._events.get(channel)
        for loop, listener in targets:
            with contextlib.suppress(RuntimeError):  # that loop has closed meanwhile
                loop.call_soon_threadsafe(listener.queue.put_nowait, text)
        if condition is not None:
            with condition:
                self._counts[channel] = self._counts.get(channel, 0) + 1
                condition.notify_all()

    @contextlib.asynccontextmanager
    async def listen(self, channel: str) -> AsyncIterator[Listener]:
        entry = (asyncio.get_running_loop(), _QueueListener())
        with self._lock:
            self._listeners.setdefault(channel, set()).add(entry)
        try:
            yield entry[1]
        finally:
            with self._lock:
                self._listeners.get(channel, set()).discard(entry)

    def wait(self, channel: str, timeout: float) -> bool:
        with self._lock:
            condition = self._events.setdefault(channel, threading.Condition())
        with condition:
            seen = self._counts.get(channel, 0)
            return condition.wait_for(lambda: self._counts.get(channel, 0) != seen, timeout)


class _RedisListener:
    def __init__(self, pubsub: Any) -> None:
        self.pubsub = pubsub

    async def next(self, timeout: float) -> str | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
            if message is not None and message.get("type") == "message":
                data = message["data"]
                return data.decode() if isinstance(data, bytes) else str(data)
        return None


class RedisBroker:
    """Events through Redis pub/sub: every process that listens on the same Redis gets them."""

    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        self._client = redis.Redis.from_url(url)
        self._waiter: Any = None
        self._waiter_lock = threading.Lock()

    def publish(self, channel: str, text: str = "") -> None:
        import redis

        try:
            self._client.publish(PREFIX + channel, text)
        except redis.RedisError:  # the browser catches up when it reconnects or reloads
            pass

    @contextlib.asynccontextmanager
    async def listen(self, channel: str) -> AsyncIterator[Listener]:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self.url)
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(PREFIX + channel)
            yield _RedisListener(pubsub)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            with contextlib.suppress(Exception):
                await client.aclose()

    def wait(self, channel: str, timeout: float) -> bool:
        import redis

        with self._waiter_lock:
            try:
                if self._waiter is None:
                    self._waiter = self._client.pubsub(ignore_subscribe_messages=True)
                    self._waiter.subscribe(PREFIX + channel)
                message = self._waiter.get_message(timeout=timeout)
            except redis.RedisError:
                self._waiter = None
                threading.Event().wait(timeout)
                return False
            woke = message is not None
            while message is not None:  # several jobs queued at once wake the worker once
                message = self._waiter.get_message(timeout=0)
            return woke


@cache
def broker() -> Broker:
    """The broker of this process (Redis when ``REDIS_URL`` is set)."""
    url = getattr(settings, "PUSH_REDIS_URL", "") or ""
    return RedisBroker(url) if url else LocalBroker()


def publish(channel: str, text: str = "") -> None:
    """Tell every stream listening on ``channel`` that something changed (see the module text)."""
    broker().publish(channel, text)
