"""Whole numbers typed by people (form fields, query strings, records): the one reading.

``str.isdigit`` says yes to "²" (which ``int`` refuses: a crash, a 500) and to "٨٠" (which
``int`` reads as 80); a database integer column overflows past 18 digits. A plain number
here is ASCII digits only, and not too long.
"""

from __future__ import annotations

MAX_DIGITS = 18
"""Enough for any integer column of any backend (a signed 64-bit integer has 19 digits)."""


def is_plain_number(value: object, max_digits: int = MAX_DIGITS) -> bool:
    """``value`` (as text) is ASCII digits only, at most ``max_digits`` of them."""
    text = str(value)
    return text.isascii() and text.isdigit() and len(text) <= max_digits


def plain_number(value: object, max_digits: int = MAX_DIGITS) -> int | None:
    """The number ``value`` spells with ASCII digits only, or None for anything else."""
    return int(str(value)) if is_plain_number(value, max_digits) else None
