"""A limit on guessing class join codes and teacher invitation codes.

Every try at a code (the join form, a join link, the invitation form) goes through
:func:`attempt`. It first *takes a slot*: one atomic increment (``cache.add`` + ``cache.incr``)
of each of two counters in Django's cache, one for the user and one for the client address
(read the way django-axes reads it, :func:`skatschule.home.security.client_ip` with
``PROXY_COUNT``). If a counter is now above its limit, the try is refused with
:class:`TooManyAttempts` (429) before the code is looked at, right or wrong, and the slots are
given back. Otherwise the code is checked: a code that matches nothing
(:class:`~.services.WrongCode`) keeps its slots; anything else (a join, a class the user is
already in, an empty field, the teacher's own class) gives them back. Because the slot is taken
before the code is checked, parallel requests cannot all slip through at the last free slot;
a try still in progress counts until it is known to be right.

Limits (settings, read from the environment):

- ``CLASS_JOIN_FAILURE_LIMIT`` (default 10) wrong codes per user
- within ``CLASS_JOIN_WINDOW_MINUTES`` (default 15). The window starts with the first try
  and ends that many minutes later (the counter's cache timeout); then the counter is gone.
- per address :data:`ADDRESS_FACTOR` times as many: a school class or a club behind one NAT
  address shares that counter, and one pupil's typos must not lock out the others; the address
  counter stops one person from trying more codes by switching between several accounts.

The join and invitation forms share the counters: a wrong code is a wrong code.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from skatschule.home.security import client_ip

from .services import ClassroomError, WrongCode

__all__ = ["ADDRESS_FACTOR", "TooManyAttempts", "attempt", "failure_limit", "window_seconds"]

ADDRESS_FACTOR = 5
"""The address counter allows this many times ``CLASS_JOIN_FAILURE_LIMIT`` wrong codes."""
_PREFIX = "classrooms:join-limit"


class TooManyAttempts(ClassroomError):
    """Too many wrong codes in the window: answer 429; ``retry_after`` is in seconds."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        minutes = max(1, math.ceil(retry_after / 60))
        super().__init__(
            "Zu viele falsche Codes in kurzer Zeit. Bitte warte "
            + ("1 Minute" if minutes == 1 else f"{minutes} Minuten")
            + ", dann kannst du es noch einmal versuchen.",
            "Too many wrong codes in a short time. Please wait "
            + ("1 minute" if minutes == 1 else f"{minutes} minutes")
            + " before you try again.",
        )


def failure_limit() -> int:
    return max(1, int(getattr(settings, "CLASS_JOIN_FAILURE_LIMIT", 10)))


def window_seconds() -> int:
    return max(1, int(getattr(settings, "CLASS_JOIN_WINDOW_MINUTES", 15))) * 60


def _counters(request: HttpRequest) -> list[tuple[str, int]]:
    """(cache key, limit) for the user and for the client address."""
    limit = failure_limit()
    counters = []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        counters.append((f"{_PREFIX}:user:{user.pk}", limit))
    address = client_ip(request)
    if address:
        # hashed: X-Forwarded-For is whatever the client sent, and cache keys must stay clean
        digest = hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()[:32]
        counters.append((f"{_PREFIX}:address:{digest}", limit * ADDRESS_FACTOR))
    return counters


def _take(key: str, window: int) -> int:
    """Increment the counter ``key`` (starting a window if there is none); the new count."""
    for _ in range(3):
        if cache.add(key, 0, timeout=window):
            cache.set(f"{key}:ends", time.time() + window, timeout=window)
        try:
            return cache.incr(key)
        except ValueError:  # the window ended between add and incr: start a new one
            continue
    raise RuntimeError(f"cache counter {key} keeps vanishing")


def _give_back(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:  # the window has ended meanwhile: nothing to give back
        pass


def _seconds_left(keys: list[str], window: int) -> int:
    ends = [cache.get(f"{key}:ends") for key in keys]
    left = max((end - time.time() for end in ends if isinstance(end, (int, float))), default=window)
    return int(min(max(math.ceil(left), 1), window))


@contextmanager
def attempt(request: HttpRequest) -> Iterator[None]:
    """Guard one try at a code; raises :class:`TooManyAttempts` when the limit is reached.

    Usage: ``with attempt(request): services.join(request.user, code)``.
    """
    window = window_seconds()
    taken: list[str] = []
    over: list[str] = []
    for key, limit in _counters(request):
        taken.append(key)
        if _take(key, window) > limit:
            over.append(key)
    if over:
        for key in taken:
            _give_back(key)  # a refused try does not count
        raise TooManyAttempts(_seconds_left(over, window))
    wrong = False
    try:
        yield
    except WrongCode:
        wrong = True
        raise
    finally:
        if not wrong:
            for key in taken:
                _give_back(key)
