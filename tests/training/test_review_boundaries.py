"""The review queue at the clock changes in Berlin: an item is due at an instant, so a day of 23
or 25 hours neither hides an item nor shows one early, and the learner's local times work as well
as UTC ones."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from skatschule.owners import Owner
from skatschule.training.models import ReviewItem
from skatschule.training.registry import get_type
from skatschule.training.services import review
from skatschule.training.services.issuing import issue, question_for, submit
from tests.clock import BERLIN, FALL_BACK, SPRING_FORWARD, berlin
from tests.present import present

pytestmark = pytest.mark.django_db

OWNER = Owner.for_session("r" * 32)


def _wrong(when: datetime, seed: int) -> ReviewItem:
    issued = issue(kind="rangfolge", difficulty=1, owner=OWNER, seed=seed)
    right = present(get_type("rangfolge")).correct_answer(question_for(issued))
    wrong = list(reversed(right)) if question_for(issued).widget == "order" else []
    submit(issued=issued, owner=OWNER, values=wrong, now=when)
    return ReviewItem.objects.get(seed=seed)


def test_a_missed_answer_with_a_local_time_enters_the_queue() -> None:
    """``now`` in the learner's zone (as a caller may pass it) is the same instant as in UTC:
    the scheduler (fsrs) takes UTC only and refused it before."""
    item = _wrong(datetime(2026, 3, 29, 1, 59, tzinfo=BERLIN), seed=1)
    assert item.due > datetime(2026, 3, 29, 0, 59, tzinfo=UTC)
    assert (
        review.due_count(owner=OWNER, now=datetime(2026, 3, 29, 3, 59, tzinfo=BERLIN)) == 1
    )  # two hours on the wall, one in time


@pytest.mark.parametrize("day", [SPRING_FORWARD, FALL_BACK], ids=["23-hour-day", "25-hour-day"])
def test_items_fall_due_in_time_order_over_a_clock_change(day: date) -> None:
    before, after = _wrong(berlin(day, 1, 30), seed=1), _wrong(berlin(day, 3, 30), seed=2)
    assert [i.pk for i in review.due_items(owner=OWNER, now=after.due)] == [before.pk, after.pk]
    assert review.due_count(owner=OWNER, now=before.due - timedelta(seconds=1)) == 0
    assert review.due_count(owner=OWNER, now=before.due) == 1
    assert review.due_count(owner=OWNER, now=after.due - timedelta(seconds=1)) == 1
    assert review.next_due(owner=OWNER, now=after.due) == before


def test_the_twice_happening_hour_keeps_its_order() -> None:
    """02:30 summer time comes an hour before 02:30 winter time, though both clocks read 02:30."""
    summer, winter = berlin(FALL_BACK, 2, 30), berlin(FALL_BACK, 2, 30, fold=1)
    first, second = _wrong(winter, seed=1), _wrong(summer, seed=2)
    assert second.due < first.due
    assert review.due_count(owner=OWNER, now=second.due) == 1 and review.next_due(owner=OWNER, now=first.due) == second
