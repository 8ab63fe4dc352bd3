"""A limit on guessing class join codes and teacher invitation codes.

Every try at a code (the join form, a join link, the invitation form) goes through
:func:`attempt`. It first *takes a slot*: one atomic increment (``cache.add`` + ``cache.incr``)
of each of two counters in Django's cache, one for the user and one for the client address
(read the way django-axes reads it, :func:`skatschule.core.security.client_ip` with
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

**Without the cache** (Redis down): the counters cannot be read, and a limiter that counted
nothing would be no limit. So the limiter *closes*: every try at a code is refused with
:class:`LimitUnavailable` (503, "try again in a minute") until the cache answers again. The
rest of the site keeps working (:mod:`skatschule.core.cache`). Joining a class is rare
and can wait a minute; guessing codes freely during an outage could not be undone.

**Signups** (:func:`signup`) use the same counters: ``SIGNUP_LIMIT`` (default 5) new accounts
per client address within ``SIGNUP_WINDOW_MINUTES`` (default 60). A slot is taken before the
account is created and kept only when it was created (a form with a typo costs nothing).
Without the cache, signups close the same way (503).

**Password-reset mails** (:func:`password_reset`) too, per target and per address: at most
``PASSWORD_RESET_TARGET_LIMIT`` (default 3) mails to one e-mail address and
``PASSWORD_RESET_ADDRESS_LIMIT`` (default 10) requests from one client address within
``PASSWORD_RESET_WINDOW_MINUTES`` (default 60); then 429. Every request counts, whether an
account has that address or not (the answer must not tell which addresses exist).
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

from skatschule.core.cache import CacheUnavailable, strict
from skatschule.core.security import client_network
from skatschule.engine import Text

from .services import ClassroomError, WrongCode

__all__ = [
    "ADDRESS_FACTOR",
    "LimitUnavailable",
    "TooManyAttempts",
    "TooManyResets",
    "TooManySignups",
    "attempt",
    "failure_limit",
    "password_reset",
    "signup",
    "window_seconds",
]

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


class TooManySignups(TooManyAttempts):
    """Too many new accounts from one address in the window (429)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        minutes = max(1, math.ceil(retry_after / 60))
        de = (
            "Von dieser Adresse wurden in kurzer Zeit zu viele Konten angelegt. Bitte warte "
            + ("1 Minute" if minutes == 1 else f"{minutes} Minuten")
            + "."
        )
        en = (
            "Too many accounts were created from this address in a short time. Please wait "
            + ("1 minute" if minutes == 1 else f"{minutes} minutes")
            + "."
        )
        self.text, self.args = Text(de, en), (de,)


class TooManyResets(TooManyAttempts):
    """Too many password-reset mails to one address, or asked for from one client (429)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        minutes = max(1, math.ceil(retry_after / 60))
        de = (
            "In kurzer Zeit wurden zu viele Mails zum Zurücksetzen des Passworts angefordert. Bitte warte "
            + ("1 Minute" if minutes == 1 else f"{minutes} Minuten")
            + " und sieh so lange in deinem Postfach nach (auch im Spam-Ordner)."
        )
        en = (
            "Too many password reset mails were asked for in a short time. Please wait "
            + ("1 minute" if minutes == 1 else f"{minutes} minutes")
            + " and check your mailbox meanwhile (the spam folder too)."
        )
        self.text, self.args = Text(de, en), (de,)


class LimitUnavailable(TooManyAttempts):
    """The counters cannot be read (the cache is down): the limited action is closed (503)."""

    status = 503

    def __init__(self) -> None:
        super().__init__(60)
        de = (
            "Das ist gerade vorübergehend nicht möglich (ein Teil des Servers ist gestört). "
            "Bitte versuche es in einer Minute noch einmal."
        )
        en = "This is temporarily not possible (part of the server is down). Please try again in a minute."
        self.text, self.args = Text(de, en), (de,)


def failure_limit() -> int:
    return max(1, int(getattr(settings, "CLASS_JOIN_FAILURE_LIMIT", 10)))


def window_seconds() -> int:
    return max(1, int(getattr(settings, "CLASS_JOIN_WINDOW_MINUTES", 15))) * 60


def signup_limit() -> int:
    return max(1, int(getattr(settings, "SIGNUP_LIMIT", 5)))


def signup_window_seconds() -> int:
    return max(1, int(getattr(settings, "SIGNUP_WINDOW_MINUTES", 60))) * 60


def password_reset_limits() -> tuple[int, int, int]:
    """(mails per target address, requests per client address, window in seconds)."""
    return (
        max(1, int(getattr(settings, "PASSWORD_RESET_TARGET_LIMIT", 3))),
        max(1, int(getattr(settings, "PASSWORD_RESET_ADDRESS_LIMIT", 10))),
        max(1, int(getattr(settings, "PASSWORD_RESET_WINDOW_MINUTES", 60))) * 60,
    )


def _digest(text: str) -> str:
    # hashed: addresses are whatever the client sent, and cache keys must stay clean
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


def _address_key(prefix: str, request: HttpRequest) -> str | None:
    address = client_network(request)  # an IPv6 client by its /64
    if not address:
        return None
    return f"{prefix}:address:{_digest(address)}"


def _counters(request: HttpRequest) -> list[tuple[str, int]]:
    """(cache key, limit) for the user and for the client address."""
    limit = failure_limit()
    counters = []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        counters.append((f"{_PREFIX}:user:{user.pk}", limit))
    key = _address_key(_PREFIX, request)
    if key:
        counters.append((key, limit * ADDRESS_FACTOR))
    return counters


def _take(key: str, window: int) -> int:
    """Increment the counter ``key`` (starting a window if there is none); the new count."""
    store = strict()  # an unreachable cache raises CacheUnavailable, never reads as 0
    for _ in range(3):
        if store.add(key, 0, timeout=window):
            store.set(f"{key}:ends", time.time() + window, timeout=window)
        try:
            return int(store.incr(key))
        except ValueError:  # the window ended between add and incr: start a new one
            continue
    raise RuntimeError(f"cache counter {key} keeps vanishing")


def _give_back(key: str) -> None:
    try:
        cache.decr(key)
    except (ValueError, CacheUnavailable):  # the window has ended meanwhile: nothing to give back
        pass


def _seconds_left(keys: list[str], window: int) -> int:
    ends = [cache.get(f"{key}:ends") for key in keys]  # the resilient cache: None on an outage
    left = max((end - time.time() for end in ends if isinstance(end, (int, float))), default=window)
    return int(min(max(math.ceil(left), 1), window))


def _take_slots(counters: list[tuple[str, int]], window: int, refusal: type[TooManyAttempts]) -> list[str]:
    """Take one slot of every counter; raise ``refusal`` (nothing taken) when one is full,
    :class:`LimitUnavailable` when the cache cannot count."""
    taken: list[str] = []
    over: list[str] = []
    try:
        for key, limit in counters:
            count = _take(key, window)
            taken.append(key)
            if count > limit:
                over.append(key)
    except CacheUnavailable:
        for key in taken:
            _give_back(key)
        raise LimitUnavailable() from None
    if over:
        for key in taken:
            _give_back(key)  # a refused try does not count
        raise refusal(_seconds_left(over, window))
    return taken


@contextmanager
def signup(request: HttpRequest) -> Iterator[None]:
    """Guard one signup: raises :class:`TooManySignups` (429) or :class:`LimitUnavailable` (503).

    Usage: ``with signup(request): user = form.save()``; the slot is kept when the block ends
    normally (an account was made) and given back when it raises.
    """
    key = _address_key("accounts:signup-limit", request)
    taken = _take_slots([(key, signup_limit())] if key else [], signup_window_seconds(), TooManySignups)
    try:
        yield
    except BaseException:
        for key in taken:
            _give_back(key)
        raise


@contextmanager
def password_reset(request: HttpRequest, email: str) -> Iterator[None]:
    """Guard one password-reset request for ``email``: raises :class:`TooManyResets` (429) or
    :class:`LimitUnavailable` (503). The slots are kept when the block ends normally."""
    per_target, per_address, window = password_reset_limits()
    prefix = "accounts:reset-limit"
    counters = [(f"{prefix}:target:{_digest(email.strip().lower())}", per_target)]
    key = _address_key(prefix, request)
    if key:
        counters.append((key, per_address))
    taken = _take_slots(counters, window, TooManyResets)
    try:
        yield
    except BaseException:
        for key in taken:
            _give_back(key)
        raise


@contextmanager
def attempt(request: HttpRequest) -> Iterator[None]:
    """Guard one try at a code; raises :class:`TooManyAttempts` when the limit is reached
    (:class:`LimitUnavailable`, 503, when the cache cannot count).

    Usage: ``with attempt(request): services.join(student=request.user, raw_code=code)``.
    """
    window = window_seconds()
    taken = _take_slots(_counters(request), window, TooManyAttempts)
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
