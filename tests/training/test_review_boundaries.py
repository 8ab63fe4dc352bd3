"""The review queue at the clock changes in Berlin and at local midnight (a new week, month and
year): an item is due at an instant, so a day of 23 or 25 hours neither hides an item nor shows one
early, the learner's local times work as well as UTC ones, and the page names the next due time in
local time (a new year in Berlin is still the old one in UTC)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from freezegun.api import TickingDateTimeFactory

from skatschule.owners import Owner
from skatschule.training.models import ReviewItem
from skatschule.training.registry import get_type
from skatschule.training.services import review
from skatschule.training.services.issuing import issue, question_for, submit
from tests.clock import BERLIN, FALL_BACK, SPRING_FORWARD, berlin
from tests.people import make_user
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


@pytest.mark.parametrize(
    "midnight",
    [date(2026, 11, 30), date(2026, 12, 1), date(2027, 1, 1)],
    ids=["week", "month", "year"],
)
def test_items_missed_either_side_of_local_midnight_keep_their_order(midnight: date) -> None:
    """Missed at 23:30 and at 00:30 local time, over the start of a week, a month and a year."""
    first = _wrong(berlin(midnight - timedelta(days=1), 23, 30), seed=1)
    second = _wrong(berlin(midnight, 0, 30), seed=2)
    assert second.due - first.due == timedelta(hours=1)
    assert review.due_count(owner=OWNER, now=first.due - timedelta(seconds=1)) == 0
    assert review.due_count(owner=OWNER, now=second.due - timedelta(seconds=1)) == 1
    assert [i.pk for i in review.due_items(owner=OWNER, now=second.due)] == [first.pk, second.pk]


def test_the_next_due_time_is_shown_in_local_time_over_new_year(clock: TickingDateTimeFactory) -> None:
    """Due at 00:30 on 1 January in Berlin (23:30 UTC on 31 December): the empty queue names the
    new year's day."""
    clock.move_to(berlin(date(2026, 12, 31), 12))
    user = make_user("rita")
    ReviewItem.objects.create(
        user=user, kind="augen", difficulty=1, seed=1, card={}, due=berlin(date(2027, 1, 1), 0, 30)
    )
    client = Client()
    client.force_login(user)
    html = client.get(reverse("training:review")).content.decode()
    assert "Die nächste ist am 1. Januar 2027 00:30 fällig." in html
