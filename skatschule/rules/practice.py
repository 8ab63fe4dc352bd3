"""What the other apps offer to practise a rule, without the rules app importing them.

An app that teaches rules (the training app) registers two functions from its
``AppConfig.ready()``: what to practise for one rule id (objects with ``.title`` and
``.url``), and every rule id it covers. The rule pages and ``manage.py uncovered_rules``
ask here, so the imports point one way: training -> rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["register", "practice_for", "covered_rule_ids"]

_practice: list[Callable[[str], Iterable[Any]]] = []
_coverage: list[Callable[[], Iterable[str]]] = []


def register(*, practice_for: Callable[[str], Iterable[Any]], covered_rule_ids: Callable[[], Iterable[str]]) -> None:
    """Add one app's functions (registering the same functions twice changes nothing)."""
    if practice_for not in _practice:
        _practice.append(practice_for)
    if covered_rule_ids not in _coverage:
        _coverage.append(covered_rule_ids)


def practice_for(rule_id: str) -> list[Any]:
    """What the registered apps offer for ``rule_id``, in the order they registered."""
    return [item for finder in _practice for item in finder(rule_id)]


def covered_rule_ids() -> set[str] | None:
    """Every rule id some registered app covers; ``None`` if no app has registered."""
    if not _coverage:
        return None
    return {rule_id for finder in _coverage for rule_id in finder()}
