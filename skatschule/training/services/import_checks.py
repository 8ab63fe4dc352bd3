"""Field checks for a progress import (:mod:`.portability`): every value is checked before use.

Each check returns the clean value or ``None`` (the caller names the entry and the field in its
:class:`~.portability.ImportProblem`); none of them raises anything else, whatever the JSON
holds: times with impossible offsets (``+99:00``) or years (``0001``, ``9999``), numbers out of
range, booleans where numbers belong, nested lists, strings with NUL or lone surrogates (which
PostgreSQL refuses), fsrs cards with fields of the wrong type.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils.dateparse import parse_datetime

__all__ = ["EARLIEST", "MAX_DEPTH", "bad_text", "card_problem", "is_whole", "parse_time"]

EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
"""Nothing in a Skatschule export is older than this."""
FUTURE_DUE = timedelta(days=100 * 366)
"""A review card may be due at most this far ahead."""
MAX_DEPTH = 8
"""The deepest nesting a valid export has is 4 (file, list, entry, card)."""
_CARD_KEYS = {"card_id", "state", "step", "stability", "difficulty", "due", "last_review"}


def is_whole(*, value: Any, low: int, high: int) -> bool:
    """A JSON integer (not a boolean, not a float) from ``low`` to ``high``."""
    return type(value) is int and low <= value <= high


def parse_time(*, value: Any, latest: datetime) -> datetime | None:
    """An ISO time with a time zone between :data:`EARLIEST` and ``latest``, or ``None``."""
    if not isinstance(value, str) or not 10 <= len(value) <= 40:
        return None
    try:
        parsed = parse_datetime(value)
        if parsed is None or parsed.tzinfo is None or parsed.utcoffset() is None:
            return None
        in_utc = parsed.astimezone(UTC)
    except (ValueError, OverflowError, TypeError):  # "+99:00", year 0 after the offset, ...
        return None
    if not EARLIEST <= in_utc <= latest:
        return None
    return in_utc


def bad_text(*, data: Any) -> str | None:
    """The first reason the JSON tree cannot be stored: too deep, a NUL or an unencodable string.

    Walks without recursion; ``None`` when everything is fine.
    """
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return "nesting"
        if isinstance(value, str):
            strings = (value,)
        elif isinstance(value, dict):
            strings = tuple(value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
            continue
        elif isinstance(value, float) and not math.isfinite(value):
            return "number"
        else:
            continue
        for text in strings:
            if "\x00" in text:
                return "nul"
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate from a "\\ud800" escape
                return "encoding"
    return None


def _number(value: Any, low: float, high: float) -> bool:
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value) and low <= value <= high


def card_problem(*, card: Any, now: datetime) -> str | None:
    """Why ``card`` is not an fsrs card as this site writes them (``Card.to_dict()``), or ``None``."""
    if not isinstance(card, dict):
        return "type"
    if set(card) != _CARD_KEYS:
        return "keys"
    if not is_whole(value=card["card_id"], low=0, high=2**53):
        return "card_id"
    if not is_whole(value=card["state"], low=1, high=3):
        return "state"
    if card["step"] is not None and not is_whole(value=card["step"], low=0, high=100):
        return "step"
    if not _number(card["stability"], 0, 1e7) or not _number(card["difficulty"], 0, 10):
        return "stability"
    if parse_time(value=card["due"], latest=now + FUTURE_DUE) is None:
        return "due"
    if (
        card["last_review"] is not None
        and parse_time(value=card["last_review"], latest=now + timedelta(minutes=5)) is None
    ):
        return "last_review"
    return None
