"""Issue 35 §4: a class quiz as quick as Kahoot. The lobby (join code, who joined), a timer per
question that the server enforces, speed points, the leaderboard; and issue 34 §7 ("0 von 0 haben
geantwortet" while three learners wait)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Classroom
from skatschule.quizzes.errors import QuizClosed, QuizError
from skatschule.quizzes.models import LivePoints, LiveSession, Quiz, QuizAnswer
from skatschule.quizzes.selectors.live import (
    LIVE_STAMP_KEY,
    live_count,
    live_leaderboard,
    live_round_stamp,
    live_stamp,
    open_live_by_code,
)
from skatschule.quizzes.services import live
from tests.people import client_for, make_user

from .helpers import right_values, wrong_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(make_quiz: Callable[..., Quiz], teacher: User) -> LiveSession:
    return live.start_live(quiz=make_quiz(count=2, kinds=("augen",)), teacher=teacher, seconds=10)


@pytest.fixture
def third(classroom: Classroom) -> User:
    person = make_user("carla-herz-1f2e")
    classrooms.join(student=person, raw_code=classroom.join_code)
    return person


def _right(session: LiveSession, position: int) -> list[str]:
    return right_values(session.quiz, session.quiz.items.get(position=position), None)


def _wrong(session: LiveSession, position: int) -> list[str]:
    return wrong_values(session.quiz, session.quiz.items.get(position=position), None)


# --- services ---------------------------------------------------------------------------------


def test_speed_points_follow_the_stated_formula() -> None:
    assert live.speed_points(credit=1.0, seconds=0, limit=20) == 1000
    assert live.speed_points(credit=1.0, seconds=10, limit=20) == 750  # 1000 × (1 − 10/40)
    assert live.speed_points(credit=1.0, seconds=20, limit=20) == 500
    assert live.speed_points(credit=1.0, seconds=20.01, limit=20) == 0  # too late
    assert live.speed_points(credit=0.0, seconds=1, limit=20) == 0
    assert live.speed_points(credit=0.5, seconds=0, limit=20) == 500


def test_a_round_has_a_code_and_a_time_the_teacher_may_set(
    make_quiz: Callable[..., Quiz], teacher: User, session: LiveSession
) -> None:
    assert len(session.code) == 6 and session.code.isdigit()
    assert session.seconds == 10
    assert open_live_by_code(code=session.code) == session
    assert open_live_by_code(code="12345x") is None
    with pytest.raises(QuizError):
        live.start_live(quiz=make_quiz(count=1), teacher=teacher, seconds=2)
    with pytest.raises(QuizError):
        live.show_item(session=session, teacher=teacher, position=1, seconds=301)


def test_the_lobby_counts_who_joined_before_anyone_answered(
    session: LiveSession, student: User, other_student: User, third: User
) -> None:
    for person in (student, other_student, third):
        live.join_live(session=session, student=person)
    assert live.join_live(session=session, student=student) is False  # once
    count = live_count(session)
    assert (count.joined, count.answered) == (3, 0)


def test_the_server_refuses_an_answer_after_the_time(session: LiveSession, teacher: User, student: User) -> None:
    shown = timezone.now()
    live.show_item(session=session, teacher=teacher, position=1, seconds=8, now=shown)
    with pytest.raises(QuizClosed):
        live.answer_live(
            session=session, student=student, position=1, values=_right(session, 1), now=shown + timedelta(seconds=9)
        )
    assert not QuizAnswer.objects.filter(attempt__student=student).exists()
    assert not LivePoints.objects.exists()


def test_points_are_computed_from_the_servers_times(
    session: LiveSession, teacher: User, student: User, other_student: User
) -> None:
    shown = timezone.now()
    live.show_item(session=session, teacher=teacher, position=1, now=shown)  # the round's 10 s
    live.answer_live(
        session=session, student=student, position=1, values=_right(session, 1), now=shown + timedelta(seconds=5)
    )
    live.answer_live(
        session=session, student=other_student, position=1, values=_wrong(session, 1), now=shown + timedelta(seconds=1)
    )
    points = dict(LivePoints.objects.values_list("student__username", "points"))
    assert points == {student.username: live.speed_points(credit=1.0, seconds=5, limit=10), other_student.username: 0}


def test_the_leaderboard_ranks_by_points_with_the_names_the_lms_sent(
    session: LiveSession, teacher: User, student: User, other_student: User, third: User
) -> None:
    third.first_name, third.last_name = "Carla", "Herz"
    third.save()
    shown = timezone.now()
    live.show_item(session=session, teacher=teacher, position=1, now=shown)
    later = {student: 6, other_student: 2, third: 2}
    for person, seconds in later.items():
        live.answer_live(
            session=session,
            student=person,
            position=1,
            values=_right(session, 1),
            now=shown + timedelta(seconds=seconds),
        )
    board = live_leaderboard(session, lang="de")
    fast = live.speed_points(credit=1.0, seconds=2, limit=10)
    assert [(row.rank, row.name, row.points) for row in board] == [
        (1, "Carla Herz", fast),  # equal points share the place, then by name
        (1, other_student.username, fast),
        (3, student.username, live.speed_points(credit=1.0, seconds=6, limit=10)),
    ]
    assert [row.last for row in board] == [fast, fast, board[2].points]


def test_the_grade_of_a_live_answer_is_unchanged_by_speed(session: LiveSession, teacher: User, student: User) -> None:
    shown = timezone.now()
    live.show_item(session=session, teacher=teacher, position=1, now=shown)
    live.answer_live(
        session=session, student=student, position=1, values=_right(session, 1), now=shown + timedelta(seconds=9)
    )
    live.end_live(session=session, teacher=teacher)
    assert QuizAnswer.objects.get(attempt__student=student).credit == 1.0


# --- pages ------------------------------------------------------------------------------------


def test_the_projector_lobby_shows_code_and_who_waits(
    session: LiveSession, teacher: User, student: User, other_student: User, third: User
) -> None:
    for person in (student, other_student, third):
        response = client_for(person).post(reverse("quizzes:live_join_round", args=[session.quiz.pk]))
        assert response.status_code == 302
    page = client_for(teacher).get(reverse("quizzes:live", args=[session.quiz.pk])).content.decode()
    assert session.code in page
    assert "3 Personen sind dabei" in page and "0 von 0" not in page


def test_the_code_leads_a_class_member_to_the_round_and_no_one_else(
    session: LiveSession, student: User, other_teacher: User
) -> None:
    enter = reverse("quizzes:live_enter")
    assert client_for(student).get(enter).status_code == 200
    found = client_for(student).get(enter, {"code": session.code})
    assert found.status_code == 302 and found["Location"] == reverse("quizzes:live_join", args=[session.quiz.pk])
    assert client_for(student).get(enter, {"code": "nonsense"}).status_code == 404
    assert client_for(other_teacher).get(enter, {"code": session.code}).status_code == 404  # not in the class


def test_bad_times_and_requests_get_a_clear_4xx(session: LiveSession, teacher: User, student: User) -> None:
    control = reverse("quizzes:live_control", args=[session.quiz.pk])
    for seconds in ("abc", "1000", "-3", "4"):
        response = client_for(teacher).post(control, {"action": "show", "position": "1", "seconds": seconds})
        assert response.status_code == 400, seconds
    assert client_for(student).get(reverse("quizzes:live_join_round", args=[session.quiz.pk])).status_code == 405
    live.end_live(session=session, teacher=teacher)
    assert client_for(student).post(reverse("quizzes:live_join_round", args=[session.quiz.pk])).status_code == 400


def test_no_points_and_no_answer_reach_any_page_before_the_reveal(
    session: LiveSession, teacher: User, student: User
) -> None:
    quiz = session.quiz
    phone, projector = client_for(student), client_for(teacher)
    client_for(teacher).post(
        reverse("quizzes:live_control", args=[quiz.pk]), {"action": "show", "position": "1", "seconds": "30"}
    )
    phone.post(reverse("quizzes:live_join_round", args=[quiz.pk]))
    join = phone.get(reverse("quizzes:live_join", args=[quiz.pk])).content.decode()
    assert 'id="live-timer"' in join and "Sekunden (bis" in join  # the countdown, plain text
    phone.post(reverse("quizzes:live_answer", args=[quiz.pk]), {"position": "1", "answer": _right(session, 1)})
    for page in (
        phone.get(reverse("quizzes:live_join", args=[quiz.pk])).content.decode(),
        projector.get(reverse("quizzes:live", args=[quiz.pk])).content.decode(),
    ):
        assert "live-leaderboard" not in page and "live-my-place" not in page and "Richtige Antwort" not in page
    projector.post(reverse("quizzes:live_control", args=[quiz.pk]), {"action": "reveal"})
    assert "live-my-place" in phone.get(reverse("quizzes:live_join", args=[quiz.pk])).content.decode()
    assert "live-leaderboard" in projector.get(reverse("quizzes:live", args=[quiz.pk])).content.decode()


def test_the_end_shows_the_final_standings(session: LiveSession, teacher: User, student: User) -> None:
    live.show_item(session=session, teacher=teacher, position=1)
    live.answer_live(session=session, student=student, position=1, values=_right(session, 1))
    response = client_for(teacher).post(reverse("quizzes:live_control", args=[session.quiz.pk]), {"action": "end"})
    assert response.status_code == 302
    page = client_for(teacher).get(response["Location"]).content.decode()
    assert "Endstand" in page and student.username in page and 'id="live-results"' in page


def test_the_phones_cached_stamp_follows_every_step(
    session: LiveSession, teacher: User, django_capture_on_commit_callbacks: Any
) -> None:
    from django.core.cache import cache

    before = live_round_stamp(quiz_pk=session.quiz.pk)  # now cached
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        live.show_item(session=session, teacher=teacher, position=1)
    session.refresh_from_db()
    assert live_round_stamp(quiz_pk=session.quiz.pk) == live_stamp(session=session) != before  # dropped at once
    cache.set(LIVE_STAMP_KEY.format(session.quiz.pk), before)  # a reader that read before the commit
    for callback in callbacks:
        callback()
    assert live_round_stamp(quiz_pk=session.quiz.pk) == live_stamp(session=session)  # the commit sets it
