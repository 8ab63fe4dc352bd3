"""The answer key of a group exam or a fixed quiz does not leak through a second account
(issue 25, item 5): a new account joins with the class code, starts, hands in an empty sitting
and sees only its score; the right answers open when the trainer releases them (group exam),
when every member has finished, or when the quiz is closed (fixed quiz). The peeking account's
sitting is one the teacher sees.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from skatschule.casebook import group_exams
from skatschule.casebook.models import GroupExam
from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Classroom
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import authoring
from tests.people import client_for, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def course() -> tuple[User, Classroom, User]:
    trainer = make_user("kursleiter", teacher=True)
    room = classrooms.create_classroom(teacher=trainer, name="Schiri-Kurs")
    anna = make_user("anna")
    classrooms.join(student=anna, raw_code=room.join_code)
    return trainer, room, anna


def _peek_group_exam(room: Classroom, group: GroupExam) -> tuple[Client, str]:
    spy = client_for(make_user("zweitkonto"))
    assert spy.post(reverse("classrooms:join"), {"code": room.join_code}).status_code in (200, 302)
    response = spy.post(reverse("casebook:group_sit", args=[group.pk]))
    exam_url = response["Location"]
    public_id = exam_url.rstrip("/").split("/")[-1]
    spy.post(reverse("casebook:exam_finish", args=[public_id]))  # hands in an empty sitting
    return spy, public_id


def test_an_empty_group_sitting_shows_the_score_only_until_the_release(course: tuple[User, Classroom, User]) -> None:
    trainer, room, anna = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs", size=5)
    spy, public_id = _peek_group_exam(room, group)

    review = spy.get(reverse("casebook:exam_review", args=[public_id]))
    assert review.status_code == 200
    assert review.context["rows"] == [] and review.context["locked"]
    assert "0 von 5 richtig" in review.content.decode()
    assert spy.get(reverse("casebook:exam_sheet", args=[public_id])).status_code == 403  # the sheet lists them too
    # the teacher sees the peek as a sitting
    page = client_for(trainer).get(reverse("casebook:group_results", args=[group.pk])).content.decode()
    assert 'data-student="zweitkonto"' in page

    assert client_for(trainer).post(reverse("casebook:group_release", args=[group.pk])).status_code == 302
    review = spy.get(reverse("casebook:exam_review", args=[public_id]))
    assert len(review.context["rows"]) == 5 and not review.context["locked"]
    assert spy.get(reverse("casebook:exam_sheet", args=[public_id])).status_code == 200


def test_the_review_opens_when_every_member_has_finished(course: tuple[User, Classroom, User]) -> None:
    trainer, room, anna = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs", size=5)
    spy, public_id = _peek_group_exam(room, group)  # joined: now a member too
    assert spy.get(reverse("casebook:exam_review", args=[public_id])).context["locked"]
    own = client_for(anna)
    anna_id = own.post(reverse("casebook:group_sit", args=[group.pk]))["Location"].rstrip("/").split("/")[-1]
    own.post(reverse("casebook:exam_finish", args=[anna_id]))
    assert not own.get(reverse("casebook:exam_review", args=[anna_id])).context["locked"]
    assert len(spy.get(reverse("casebook:exam_review", args=[public_id])).context["rows"]) == 5


def test_only_the_trainer_releases(course: tuple[User, Classroom, User]) -> None:
    trainer, room, anna = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs", size=5)
    assert client_for(anna).post(reverse("casebook:group_release", args=[group.pk])).status_code == 404
    group.refresh_from_db()
    assert group.review_released_at is None


def test_an_empty_attempt_at_a_fixed_quiz_shows_no_answers_until_it_closes(
    course: tuple[User, Classroom, User],
) -> None:
    trainer, room, anna = course
    quiz = authoring.create_quiz(
        owner=trainer,
        classroom=room,
        title="Probe",
        pool=authoring.build_pool(kinds=("augen", "stich"), difficulty=1),
        item_count=4,
        variants=Quiz.Variants.FIXED,
        show_answers=Quiz.ShowAnswers.AFTER_SUBMIT,
    )
    spy = client_for(make_user("zweitkonto"))
    spy.post(reverse("classrooms:join"), {"code": room.join_code})
    take_url = spy.post(reverse("quizzes:start", args=[quiz.pk]))["Location"]
    public_id = take_url.rstrip("/").split("/")[-1]
    spy.post(reverse("quizzes:submit", args=[public_id]))
    result = spy.get(reverse("quizzes:my_result", args=[public_id]))
    assert result.status_code == 200 and result.context["show_answers"] is False
    teacher_page = client_for(trainer).get(reverse("quizzes:results", args=[quiz.pk])).content.decode()
    assert "zweitkonto" in teacher_page  # the peek is an attempt the teacher sees

    Quiz.objects.filter(pk=quiz.pk).update(closes_at=timezone.now() - timedelta(seconds=1))  # "Beenden"
    assert spy.get(reverse("quizzes:my_result", args=[public_id])).context["show_answers"] is True
