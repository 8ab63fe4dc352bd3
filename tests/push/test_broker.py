"""The in-process broker and the event stream (skatschule.push), without a server."""

from __future__ import annotations

import asyncio
import threading

import pytest

from skatschule.push import streams
from skatschule.push.broker import LocalBroker
from skatschule.push.streams import Event, State, _live, encode


def test_an_event_published_from_another_thread_reaches_a_listener_on_the_loop() -> None:
    local = LocalBroker()

    async def listen() -> list[str | None]:
        async with local.listen("job.1") as listener:
            threading.Thread(target=local.publish, args=("job.1", "end")).start()
            got = await listener.next(10)
            local.publish("job.2", "other")  # another channel: not heard
            return [got, await listener.next(0.05)]

    assert asyncio.run(listen()) == ["end", None]


def test_a_waiting_worker_wakes_when_a_job_is_announced() -> None:
    local = LocalBroker()
    started = threading.Event()
    woke: list[bool] = []

    def wait() -> None:
        started.set()
        woke.append(local.wait("jobs.wake", 10))

    thread = threading.Thread(target=wait)
    thread.start()
    started.wait()
    while thread.is_alive():  # until the waiter has taken its place and heard it
        local.publish("jobs.wake")
        thread.join(0.01)
    assert woke == [True]
    assert local.wait("jobs.wake", 0.01) is False  # nothing announced: the timeout


def test_an_event_is_encoded_line_by_line_with_its_number() -> None:
    assert encode(Event("progress", "<p>a</p>\n<p>b</p>"), 7) == (
        b"id: 7\nevent: progress\ndata: <p>a</p>\ndata: <p>b</p>\n\n"
    )


def test_a_stream_sends_the_state_first_then_the_state_after_each_change(monkeypatch: pytest.MonkeyPatch) -> None:
    local = LocalBroker()
    monkeypatch.setattr(streams, "broker", lambda: local)
    counter = iter(range(10))

    def state() -> State:
        n = next(counter)
        return State([Event("count", str(n))], last=n == 2)

    async def read() -> list[bytes]:
        chunks = []
        stream = _live("quiz.1", state)
        async for chunk in stream:
            chunks.append(chunk)
            if chunk.startswith(b"id:"):
                local.publish("quiz.1")  # a change: the stream reads the state again
        return chunks

    chunks = asyncio.run(read())
    assert chunks[0].startswith(b"retry:")
    assert chunks[1:] == [encode(Event("count", str(n)), n + 1) for n in range(3)]


def test_a_stream_sends_only_what_changed_and_keeps_a_quiet_line_open(monkeypatch: pytest.MonkeyPatch) -> None:
    local = LocalBroker()
    monkeypatch.setattr(streams, "broker", lambda: local)
    monkeypatch.setattr(streams, "KEEPALIVE", 0.01)
    reads = iter([State([Event("count", "1")]), State([Event("count", "1")]), State([Event("count", "1")], last=True)])

    async def read() -> list[bytes]:
        chunks = []
        async for chunk in _live("quiz.1", lambda: next(reads)):
            chunks.append(chunk)
            if chunk.startswith(b"id:"):
                local.publish("quiz.1")  # an event, but the state it reads is the same
        return chunks

    chunks = asyncio.run(read())
    # the state once; the event's reading (the same) sends nothing; the quiet wait sends a comment
    assert chunks[1:] == [encode(Event("count", "1"), 1), b": keepalive\n\n"]
