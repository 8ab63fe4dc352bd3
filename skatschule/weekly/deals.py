"""Which deals a set holds: derived from the set's key with a server secret (HMAC), so they are
the same for everyone and every request, and nobody can work out next week's deals.

A week is the ISO week of the site's time zone (Europe/Berlin): Monday 00:00 to Sunday 24:00.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date, datetime

from django.conf import settings
from django.utils import timezone

__all__ = ["DEALS_PER_SET", "week_key", "week_of", "monday_of", "deal_of", "secret"]

DEALS_PER_SET = 6
"""Deals in a week's set and in a class tournament."""


def secret() -> bytes:
    """The server secret the deals come from: ``WEEKLY_SECRET`` if set, else the site's secret key
    (never shown anywhere)."""
    own = getattr(settings, "WEEKLY_SECRET", "") or settings.SECRET_KEY
    return str(own).encode()


def week_of(when: datetime | None = None) -> tuple[int, int]:
    """The ISO year and week of ``when`` (default: now) in the site's time zone."""
    local = timezone.localtime(timezone.now() if when is None else when)
    iso = local.isocalendar()
    return iso.year, iso.week


def week_key(year: int, week: int) -> str:
    """A week's set key, ``2026-W48``."""
    return f"{year}-W{week:02d}"


def monday_of(year: int, week: int) -> date:
    """The Monday of an ISO week."""
    return date.fromisocalendar(year, week, 1)


def deal_of(key: str, number: int) -> tuple[int, int]:
    """The deal ``number`` (from 1) of the set ``key``: the seed of the engine's deal
    (``GameState(seed=...)``) and the learner's seat, from an HMAC of the key and the number."""
    if not 1 <= number <= DEALS_PER_SET:
        raise ValueError(f"a set has deals 1 to {DEALS_PER_SET}")
    digest = hmac.new(secret(), f"blatt-der-woche:{key}:{number}".encode(), hashlib.sha256).digest()
    seed = int.from_bytes(digest[:8], "big") % 2**31
    return seed, digest[8] % 3
