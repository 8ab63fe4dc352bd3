"""``present(x)``: the value of an optional the test expects to be there (mypy then knows it is).

A test that reads ``get_type(kind).generate(...)`` or ``element.find("text").text`` counts on the
value being present; ``present`` says so in one word and fails with an assertion, not an
``AttributeError`` on ``None``, when it is missing.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    assert value is not None
    return value
