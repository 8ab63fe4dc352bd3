"""``manage.py demo_data`` makes a demo teacher with a class and a quiz (issue 26 §3): a newcomer
can try the teachers' pages locally without the admin or an invitation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from skatschule.classrooms.models import Classroom
from skatschule.classrooms.selectors import is_teacher
from skatschule.quizzes.models import Quiz

pytestmark = pytest.mark.django_db


def test_demo_teacher_with_class_and_quiz_can_log_in() -> None:
    call_command("demo_data", users=2, answers=3, password="demo-passwort-123", verbosity=0, no_play=True)
    teacher = get_user_model().objects.get(username="lehrkraft")
    assert is_teacher(user=teacher)
    classroom = Classroom.objects.get(teacher=teacher)
    assert sorted(classroom.memberships.values_list("student__username", flat=True)) == ["demo1", "demo2"]
    quiz = Quiz.objects.get(owner=teacher, classroom=classroom)
    assert quiz.items.count() == 6 and quiz.published_at is not None
    client = Client()
    assert client.login(username="lehrkraft", password="demo-passwort-123")
    assert client.get(reverse("classrooms:detail", args=[classroom.pk])).status_code == 200
    assert client.get(reverse("quizzes:detail", args=[quiz.pk])).status_code == 200
    student = Client()
    assert student.login(username="demo1", password="demo-passwort-123")
    assert "Demo-Quiz" in student.get(reverse("quizzes:index")).content.decode()
    call_command("demo_data", users=2, answers=3, verbosity=0, no_play=True)  # a second run changes nothing
    assert Classroom.objects.count() == 1 and Quiz.objects.count() == 1


def test_no_teacher_when_asked_for_none() -> None:
    call_command("demo_data", users=1, answers=1, teacher="", verbosity=0, no_play=True)
    assert not Classroom.objects.exists()


def test_readme_quick_start_names_the_demo_teacher() -> None:
    from pathlib import Path

    from django.conf import settings

    readme = (Path(settings.BASE_DIR) / "README.md").read_text(encoding="utf-8")
    start = readme[readme.index("## Schnellstart") : readme.index("## Aufbau")]
    assert "manage.py demo_data --password" in start and "lehrkraft" in start


def test_no_play_leaves_out_the_types_graded_by_play() -> None:
    """``--no-play`` (the tests' demo data): no answer costs seconds of engine time."""
    from skatschule.training.models import IssuedExercise
    from skatschule.training.registry import exercise_types

    by_play = {slug for slug, kind in exercise_types().items() if kind.graded_by_job}
    assert by_play
    call_command("demo_data", users=1, answers=40, teacher="", verbosity=0, no_play=True)
    kinds = set(IssuedExercise.objects.values_list("kind", flat=True))
    assert len(kinds) > 10 and not kinds & by_play
