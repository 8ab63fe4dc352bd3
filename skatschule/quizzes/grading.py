"""Pure computation for grading (issue 28 §2): partial credit of one answer and a quiz's grading
policy over a student's attempts. No queries; the services and selectors call it.

**Partial credit** (``Quiz.partial_credit``), stated on the quiz page:

- ``all_or_nothing``: an item is worth 1 if right, else 0;
- ``right_minus_wrong``: a multi-select item (widgets ``multi`` and ``cards``) earns
  (right picks - wrong picks) / number of right options, floored at 0; a multi-part item
  (widget ``case``: the decision and the list entry) earns an equal share per right part.
  Other items stay all or nothing.

An imported question (GIFT, Moodle XML) grades itself by its file's fractions, as Moodle does
(:mod:`.imported`), under either rule.

The right options come from the exercise type's ``correct_answer`` (the engine), never from a
stored key.

**Grading policy** (``Quiz.grading_policy``): the student's result is the highest, the last, the
first submitted attempt's points or the average of all submitted attempts
(:func:`skatschule.core.points.policy_result`, shared with the class progress).
"""

from __future__ import annotations

from collections.abc import Sequence

from skatschule.core.points import plain_points, policy_result, shown_points
from skatschule.exercises.base import Feedback, Question

from .models import Quiz
from .questions import exercise_type

__all__ = ["credit", "plain_points", "policy_result", "shown_points"]

PartialCredit = Quiz.PartialCredit
GradingPolicy = Quiz.GradingPolicy


def credit(question: Question, feedback: Feedback, rule: str) -> float:
    """The share of the item's point (0 to 1) this graded answer earns under ``rule`` (a question
    that grades itself, an imported one, earns its own ``feedback.credit`` under any rule)."""
    if feedback.credit is not None:
        return feedback.credit
    if feedback.correct:
        return 1.0
    if rule != PartialCredit.RIGHT_MINUS_WRONG or question.widget not in ("multi", "cards", "case"):
        return 0.0
    kind = exercise_type(question.kind)
    if kind is None:
        return 0.0
    key = [str(v) for v in kind.correct_answer(question)]
    if question.widget == "case":
        return _parts_credit(feedback.normalized, key)
    right = set(key)
    if not right:
        return 0.0
    if question.widget == "cards":
        given = set(feedback.normalized.split())
    else:
        given = _chosen_options(feedback.normalized, [o.value for o in question.options])
    hits, misses = len(given & right), len(given - right)
    return max(0.0, (hits - misses) / len(right))


def _parts_credit(normalized: str, key: Sequence[str]) -> float:
    """A ``case`` answer ("<choice> <entry>"): one equal share per right part."""
    if len(key) < 2:
        return 0.0
    choice, _sep, entry = normalized.rpartition(" ")
    right = (choice == key[0]) + (entry.strip() == str(int(key[1])))
    return right / 2


def _chosen_options(normalized: str, values: Sequence[str]) -> set[str]:
    """The option values in a ``multi`` answer's normalised form (the values joined by spaces, in
    option order; values may hold spaces themselves, so the split follows the options)."""

    def split(rest: str, start: int) -> list[str] | None:
        if not rest:
            return []
        for i in range(start, len(values)):
            value = values[i]
            if rest == value or rest.startswith(value + " "):
                tail = split(rest[len(value) + 1 :], i + 1)
                if tail is not None:
                    return [value, *tail]
        return None

    return set(split(normalized.strip(), 0) or [])
