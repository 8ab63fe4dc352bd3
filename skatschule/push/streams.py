"""A channel as a ``text/event-stream`` response (server-sent events, read by htmx's sse extension).

A stream first sends the state as it stands, then, for each event on its channel, the state
again: ``state()`` (a sync function, run off the event loop) returns the events to send, each a
name and its HTML (an empty list: nothing to say). Because every message carries the whole state
of what it shows, a browser that lost the connection and reconnects (EventSource does so by
itself) misses nothing: the first message after the reconnect is the state as it is. The stream
ends when ``state()`` says so (a job is done) or after ``PUSH_STREAM_SECONDS`` (settings; default
:data:`LIFETIME`; the browser reconnects), and reads the state again every :data:`KEEPALIVE`
seconds without an event (what changed is sent, else a comment keeps proxies from closing the line).

Under WSGI (the tests' live server) there is no event loop to wait on: the stream sends the state
once and ends, and the browser asks again after ``retry`` milliseconds.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, StreamingHttpResponse

from .broker import broker

__all__ = ["Event", "State", "stream", "KEEPALIVE", "LIFETIME"]

KEEPALIVE = 15.0
LIFETIME = 300.0
RETRY_MS = 1000
"""How long the browser waits before it reconnects (EventSource's ``retry``)."""


@dataclass(frozen=True)
class Event:
    name: str
    data: str = ""


@dataclass(frozen=True)
class State:
    """What ``state()`` returns: the events to send, and whether the stream ends after them."""

    events: list[Event]
    last: bool = False


def encode(event: Event, number: int) -> bytes:
    """One server-sent event; ``id`` numbers the messages of this connection."""
    lines = [f"id: {number}", f"event: {event.name}"]
    lines += [f"data: {line}" for line in (event.data or "").splitlines() or [""]]
    return ("\n".join(lines) + "\n\n").encode()


def stream(request: HttpRequest, channel: str, state: Callable[[], State]) -> StreamingHttpResponse:
    """The response for a stream of ``channel`` (see the module text)."""
    if isinstance(request, ASGIRequest):
        content: AsyncIterator[bytes] | Iterator[bytes] = _live(channel, state)
    else:
        content = _once(state)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _once(state: Callable[[], State]) -> Iterator[bytes]:
    yield f"retry: {RETRY_MS}\n\n".encode()
    for number, event in enumerate(state().events, 1):
        yield encode(event, number)


def _released(state: Callable[[], State]) -> Callable[[], State]:
    """``state`` that hands its database connection back after each read: an open stream waits
    for minutes, and thirty phones in a live round must not hold thirty connections (PostgreSQL
    allows a hundred) nor keep them after a phone has gone until the next keep-alive notices."""

    def read() -> State:
        try:
            return state()
        finally:
            connections.close_all()

    return read


async def _live(channel: str, state: Callable[[], State]) -> AsyncIterator[bytes]:
    yield f"retry: {RETRY_MS}\n\n".encode()
    number = 0
    ends = time.monotonic() + float(getattr(settings, "PUSH_STREAM_SECONDS", LIFETIME))
    read = sync_to_async(_released(state))
    sent: list[Event] | None = None
    quiet = False  # the last wait ended without an event
    async with broker().listen(channel) as listener:  # listening before reading: nothing slips by
        while True:
            # read again after each event, and after each quiet KEEPALIVE too (a job whose worker
            # died is noticed); only what changed is sent, else a comment keeps the line open
            now = await read()
            if now.events != sent:
                for event in now.events:
                    number += 1
                    yield encode(event, number)
                sent = now.events
            elif quiet:
                yield b": keepalive\n\n"
            left = ends - time.monotonic()
            if now.last or left <= 0:
                return
            quiet = await listener.next(min(KEEPALIVE, left)) is None
