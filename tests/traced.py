"""Coverage for the long loops: the first items traced, the rest run at full speed.

Branch coverage (``make test``) slows pure Python code severalfold, and the tests that walk
1,000 seeds of every exercise type or 10,000 deals were the larger part of the suite's time
under it. Every item is still checked; coverage (when it runs) records the first ones only,
which reach the code's branches the later ones repeat (the coverage floor in pyproject.toml
says whether they still do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

TRACED = 100
"""Items of a long loop that coverage records."""


def _pause_coverage() -> Callable[[], None] | None:
    """Stop the running coverage measurement; the function that restarts it, or None."""
    try:
        import coverage
    except ImportError:  # pragma: no cover - coverage is a test requirement
        return None
    running = coverage.Coverage.current()
    if running is None:
        return None
    running.stop()
    return running.start


def traced_first(items: Iterable[T], traced: int = TRACED) -> Iterator[T]:
    """Yield every item; coverage traces the loop only over the first ``traced`` of them.

    The measurement restarts when the loop ends (or is left early)."""
    resume = None
    try:
        for index, item in enumerate(items):
            if index == traced:
                resume = _pause_coverage()
            yield item
    finally:
        if resume is not None:
            resume()
