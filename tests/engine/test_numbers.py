"""The one reading of numbers people type: ASCII digits only, and not too many."""

from __future__ import annotations

import pytest

from skatschule.engine.numbers import MAX_DIGITS, is_plain_number, plain_number


@pytest.mark.parametrize("text, number", [("0", 0), ("18", 18), ("007", 7), ("9" * MAX_DIGITS, int("9" * MAX_DIGITS))])
def test_plain_ascii_digits_are_read(text: str, number: int) -> None:
    assert is_plain_number(text)
    assert plain_number(text) == number


@pytest.mark.parametrize(
    "text", ["", " 1", "1 ", "-1", "+1", "1.5", "1e3", "²", "٨٠", "１８", "a\x00", "9" * (MAX_DIGITS + 1), "9" * 5000]
)
def test_everything_else_is_none(text: str) -> None:
    # "²" passes str.isdigit but int refuses it; "٨٠" and "１８" int would read as 80 and 18
    assert not is_plain_number(text)
    assert plain_number(text) is None


def test_a_shorter_limit_and_other_values() -> None:
    assert plain_number("240", max_digits=3) == 240
    assert plain_number("1000", max_digits=3) is None
    assert plain_number(42) == 42
    assert plain_number(None) is None
