"""Which function computes a job of each kind.

A handler is a plain function from a JSON payload to a JSON result; it knows nothing of jobs,
workers or requests. Apps register theirs in ``AppConfig.ready()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Handler", "register", "handler_for", "kinds"]

Handler = Callable[[dict[str, Any]], dict[str, Any]]

_HANDLERS: dict[str, Handler] = {}

KIND_LENGTH = 40


def register(kind: str, handler: Handler) -> None:
    """Make ``handler`` compute the jobs of ``kind`` (registering the same function again is harmless)."""
    if not kind or len(kind) > KIND_LENGTH:
        raise ValueError(f"a job kind has 1 to {KIND_LENGTH} characters: {kind!r}")
    known = _HANDLERS.get(kind)
    if known is not None and known is not handler:
        raise ValueError(f"job kind {kind!r} is registered twice")
    _HANDLERS[kind] = handler


def handler_for(kind: str) -> Handler:
    try:
        return _HANDLERS[kind]
    except KeyError:
        raise LookupError(f"no handler for job kind {kind!r}") from None


def kinds() -> list[str]:
    return sorted(_HANDLERS)
