"""Which function computes a job of each kind.

A handler is a plain function from a JSON payload to a JSON result; it knows nothing of jobs,
workers or requests. Apps register theirs in ``AppConfig.ready()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Handler", "register", "handler_for", "is_short", "kinds"]

Handler = Callable[[dict[str, Any]], dict[str, Any]]

_HANDLERS: dict[str, Handler] = {}
_SHORT: set[str] = set()

KIND_LENGTH = 40


def register(kind: str, handler: Handler, *, short: bool = False) -> None:
    """Make ``handler`` compute the jobs of ``kind`` (registering the same function again is harmless).

    ``short``: its work has a small fixed time cap and someone waits for it on the page (the
    bots' moves, a hint): the worker takes such jobs before the long ones (:func:`.services.priority`)."""
    if not kind or len(kind) > KIND_LENGTH:
        raise ValueError(f"a job kind has 1 to {KIND_LENGTH} characters: {kind!r}")
    known = _HANDLERS.get(kind)
    if known is not None and known is not handler:
        raise ValueError(f"job kind {kind!r} is registered twice")
    _HANDLERS[kind] = handler
    if short:
        _SHORT.add(kind)


def handler_for(kind: str) -> Handler:
    try:
        return _HANDLERS[kind]
    except KeyError:
        raise LookupError(f"no handler for job kind {kind!r}") from None


def is_short(kind: str) -> bool:
    return kind in _SHORT


def kinds() -> list[str]:
    return sorted(_HANDLERS)
