"""Push: events from the server to the browser as they happen (server-sent events).

:mod:`.broker` carries an event from whoever raises it (a view, a job on the worker) to every
open stream that listens on its channel: in this process by default, through Redis pub/sub when
``REDIS_URL`` is set (then any number of web processes deliver it). :mod:`.streams` turns a
channel into an ``text/event-stream`` response that first sends the state as it stands (so a
reconnecting browser catches up) and then one event per change. The browser side is htmx's
``sse`` extension (static/vendor/htmx-ext-sse).
"""

from .broker import broker, publish

__all__ = ["broker", "publish"]
