"""Issue 18, classes: the class progress table and homework (lesson mastery or quiz, due dates)."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from skatschule.classrooms import selectors, services
from skatschule.classrooms.models import Assignment, Classroom
from skatschule.classrooms.services import ClassroomError, create_classroom
from skatschule.core.notfound import NotFound
from skatschule.owners import Owner
from skatschule.quizzes.services import attempts, authoring
from skatschule.training.lessons import Lesson, get_lessons
from skatschule.training.models import Attempt
from tests.people import client_for, make_user
from tests.training.helpers import answer

pytestmark = pytest.mark.django_db


def _lesson() -> Lesson:
    return get_lessons()[0]


def _master(student: User, lesson: Lesson, correct: bool = True, times: int | None = None) -> None:
    step = lesson.steps[0]
    for _ in range(times or lesson.mastery_needed):
        answer(step.kind, step.level, Owner.for_user(student), correct, lesson=lesson.slug)


def _tomorrow() -> datetime:
    return timezone.now() + timedelta(days=1)  # any day: an instant, no calendar


def _due() -> str:
    """The due time a teacher types: 18:00 in two days (every day has an 18:00; 02:30 not)."""
    return timezone.localtime(timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT18:00")  # any day


# --- class progress -------------------------------------------------------------------------------


def test_progress_shows_mastery_activity_and_quiz_results(
    teacher: User, classroom: Classroom, student: User, other_student: User
) -> None:
    lesson = _lesson()
    _master(student, lesson)
    pool = authoring.build_pool(kinds=("augen",), difficulty=1)
    quiz = authoring.create_quiz(owner=teacher, classroom=classroom, title="Probe", pool=pool, item_count=2)
    attempt = attempts.start_attempt(quiz=quiz, student=other_student)
    attempts.submit(attempt=attempt)
    table = selectors.class_progress(classroom)
    by_name = {s.name: s for s in table.students}
    assert [s.name for s in table.students] == sorted(by_name)
    assert by_name["schueler"].lessons[0].mastered and by_name["schueler"].mastered == 1
    assert by_name["schueler"].last_activity == Attempt.objects.filter(user=student).latest("created_at").created_at
    assert by_name["schuelerin"].quizzes[0].points == 0 and by_name["schueler"].quizzes[0].points is None
    assert by_name["schuelerin"].last_activity is not None
    assert table.summaries[0].mastered == 1 and table.summaries[0].started == 1


def test_class_page_shows_each_members_progress(
    teacher: User, classroom: Classroom, student: User, other_student: User
) -> None:
    lesson = _lesson()
    _master(student, lesson)
    rows = dict((m.student.get_username(), p) for m, p in selectors.members_with_progress(classroom))
    assert rows["schueler"].mastered == 1 and rows["schuelerin"].mastered == 0
    html = client_for(teacher).get(reverse("classrooms:detail", args=[classroom.pk])).content.decode()
    total = len(get_lessons())
    mine = html[html.index('<li data-student="schueler">') :]
    mine = mine[: mine.index("</li>")]
    assert f"1 von {total} Lektionen gemeistert" in mine and "zuletzt aktiv" in mine
    theirs = html[html.index('<li data-student="schuelerin">') :]
    theirs = theirs[: theirs.index("</li>")]
    assert f"0 von {total} Lektionen gemeistert" in theirs and "zuletzt aktiv" not in theirs


def test_progress_sorted_by_lesson(teacher: User, classroom: Classroom, student: User, other_student: User) -> None:
    lesson = _lesson()
    _master(other_student, lesson)  # "schuelerin" sorts after "schueler" by name
    by_lesson = selectors.class_progress(classroom, sort=lesson.slug)
    assert [s.name for s in by_lesson.students] == ["schuelerin", "schueler"] and by_lesson.sort == lesson.slug
    assert selectors.class_progress(classroom, sort="gibt-es-nicht").sort == "name"


def test_progress_page_and_exports(teacher: User, classroom: Classroom, student: User) -> None:
    lesson = _lesson()
    _master(student, lesson)
    client = client_for(teacher)
    page = client.get(reverse("classrooms:progress", args=[classroom.pk]) + f"?sortieren={lesson.slug}")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-student="schueler"' in html and "gemeistert" in html
    xlsx = client.get(reverse("classrooms:progress_xlsx", args=[classroom.pk]))
    rows = list(load_workbook(io.BytesIO(xlsx.content)).active.iter_rows(values_only=True))
    assert rows[0][0] == "Benutzername" and rows[0][3] == lesson.title("de")
    mine = next(r for r in rows if r[0] == "schueler")
    assert mine[2] == 1 and mine[3] == "gemeistert"
    text = client.get(reverse("classrooms:progress_csv", args=[classroom.pk])).content.decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(text), delimiter=";"))[0] == "Benutzername"


def test_progress_export_keeps_the_chosen_order(
    teacher: User, classroom: Classroom, student: User, other_student: User
) -> None:
    lesson = _lesson()
    _master(other_student, lesson)  # by name "schueler" comes first; by this lesson "schuelerin"
    client = client_for(teacher)
    url = reverse("classrooms:progress", args=[classroom.pk])
    html = client.get(url + f"?sortieren={lesson.slug}").content.decode()
    csv_url = reverse("classrooms:progress_csv", args=[classroom.pk])
    assert f'href="{csv_url}?sortieren={lesson.slug}"' in html
    assert f'href="{reverse("classrooms:progress_xlsx", args=[classroom.pk])}?sortieren={lesson.slug}"' in html

    def names(query: str) -> list[str]:
        text = client.get(csv_url + query).content.decode("utf-8-sig")
        return [row[0] for row in csv.reader(io.StringIO(text), delimiter=";")][1:]

    assert names(f"?sortieren={lesson.slug}") == ["schuelerin", "schueler"]
    assert names("?sortieren=name") == names("") == ["schueler", "schuelerin"]


def test_progress_is_the_teachers_only(teacher: User, other_teacher: User, classroom: Classroom, student: User) -> None:
    for user in (other_teacher, student):
        assert client_for(user).get(reverse("classrooms:progress", args=[classroom.pk])).status_code == 404


# --- homework ---------------------------------------------------------------------------------------


def test_lesson_mastered_at_is_the_first_moment_the_rule_held() -> None:
    lesson = _lesson()
    t0 = timezone.now()
    grades = [(True, t0 + timedelta(minutes=n)) for n in range(lesson.mastery_needed + 3)]
    assert selectors.lesson_mastered_at(lesson=lesson, grades=grades) == grades[lesson.mastery_needed - 1][1]
    assert selectors.lesson_mastered_at(lesson=lesson, grades=[(False, t0)] * lesson.mastery_window) is None


def test_assign_lesson_and_see_who_is_done(
    teacher: User, classroom: Classroom, student: User, other_student: User
) -> None:
    lesson = _lesson()
    client = client_for(teacher)
    response = client.post(
        reverse("classrooms:assign", args=[classroom.pk]), {"task": f"lesson:{lesson.slug}", "due_at": _due()}
    )
    assert response.status_code == 302
    assignment = Assignment.objects.get()
    assert assignment.kind == "lesson" and assignment.lesson_slug == lesson.slug
    detail = client.get(reverse("classrooms:detail", args=[classroom.pk])).content.decode()
    assert "0 von 2 erledigt" in detail
    # the student sees it open on the dashboard
    dash = client_for(student).get(reverse("training:dashboard")).content.decode()
    assert 'id="homework-open"' in dash and lesson.title("de") in dash
    _master(student, lesson)
    dash = client_for(student).get(reverse("training:dashboard")).content.decode()
    assert 'id="homework-done"' in dash and 'id="homework-open"' not in dash and "verspätet" not in dash
    status = {line.name: line for line in selectors.class_status(assignment)}
    assert status["schueler"].done_at is not None and not status["schueler"].late
    assert status["schuelerin"].done_at is None and not status["schuelerin"].overdue
    page = client.get(reverse("classrooms:assignment", args=[classroom.pk, assignment.pk])).content.decode()
    assert "erledigt am" in page and "offen" in page
    assert "1 von 2 erledigt" in client.get(reverse("classrooms:detail", args=[classroom.pk])).content.decode()


def test_late_and_overdue(teacher: User, classroom: Classroom, student: User, other_student: User) -> None:
    lesson = _lesson()
    assignment = services.assign_homework(
        teacher=teacher, classroom=classroom, task=f"lesson:{lesson.slug}", due_at=timezone.now() + timedelta(hours=1)
    )
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(hours=1))
    assignment.refresh_from_db()
    _master(student, lesson)  # after the due time
    status = {line.name: line for line in selectors.class_status(assignment)}
    assert status["schueler"].late and not status["schueler"].overdue
    assert status["schuelerin"].overdue and status["schuelerin"].done_at is None
    [line] = selectors.student_homework(student)
    assert line.done and line.late
    assert "verspätet" in client_for(student).get(reverse("training:dashboard")).content.decode()
    assert "überfällig" in client_for(other_student).get(reverse("training:dashboard")).content.decode()
    [summary] = selectors.class_assignments(classroom)
    assert (summary.done, summary.late, summary.size, summary.overdue) == (1, 1, 2, 1)
    detail = client_for(teacher).get(reverse("classrooms:detail", args=[classroom.pk])).content.decode()
    assert "1 von 2 erledigt" in detail and "davon 1 verspätet" in detail and "1 überfällig" in detail


def test_class_page_counts_no_late_work_when_on_time(teacher: User, classroom: Classroom, student: User) -> None:
    lesson = _lesson()
    services.assign_homework(teacher=teacher, classroom=classroom, task=f"lesson:{lesson.slug}", due_at=_tomorrow())
    _master(student, lesson)
    [summary] = selectors.class_assignments(classroom)
    assert (summary.done, summary.late, summary.overdue) == (1, 0, 0)
    assert (
        "verspätet" not in client_for(teacher).get(reverse("classrooms:detail", args=[classroom.pk])).content.decode()
    )


def test_mastery_counts_once_reached(teacher: User, classroom: Classroom, student: User) -> None:
    lesson = _lesson()
    assignment = services.assign_homework(
        teacher=teacher, classroom=classroom, task=f"lesson:{lesson.slug}", due_at=_tomorrow()
    )
    _master(student, lesson)
    _master(student, lesson, correct=False, times=lesson.mastery_window)  # the streak is gone now
    assert selectors.done_at(assignment, student_ids=[student.pk])[student.pk] is not None


def test_assign_quiz_done_by_submitting(teacher: User, classroom: Classroom, student: User) -> None:
    pool = authoring.build_pool(kinds=("augen",), difficulty=1)
    quiz = authoring.create_quiz(owner=teacher, classroom=classroom, title="Probe", pool=pool, item_count=1)
    draft = authoring.create_quiz(
        owner=teacher, classroom=classroom, title="Entwurf", pool=pool, item_count=1, draft=True
    )
    with pytest.raises(ClassroomError):
        services.assign_homework(teacher=teacher, classroom=classroom, task=f"quiz:{draft.pk}", due_at=_tomorrow())
    assignment = services.assign_homework(
        teacher=teacher, classroom=classroom, task=f"quiz:{quiz.pk}", due_at=_tomorrow()
    )
    [line] = selectors.student_homework(student)
    assert not line.done and line.url == reverse("quizzes:start", kwargs={"pk": quiz.pk})
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    assert selectors.done_at(assignment, student_ids=[student.pk])[student.pk] is None  # started is not done
    attempt, _ = attempts.submit(attempt=attempt)
    assert selectors.done_at(assignment, student_ids=[student.pk])[student.pk] == attempt.submitted_at


@pytest.mark.parametrize("task", ["lesson:gibt-es-nicht", "quiz:999999", "quiz:abc", "bogus", ""])
def test_bad_tasks_are_refused(teacher: User, classroom: Classroom, task: str) -> None:
    response = client_for(teacher).post(
        reverse("classrooms:assign", args=[classroom.pk]), {"task": task, "due_at": _due()}
    )
    assert response.status_code == 400 and not Assignment.objects.exists()


def test_due_time_in_the_past_is_refused(teacher: User, classroom: Classroom) -> None:
    with pytest.raises(ClassroomError):
        services.assign_homework(
            teacher=teacher,
            classroom=classroom,
            task=f"lesson:{_lesson().slug}",
            due_at=timezone.now() - timedelta(minutes=1),
        )


def test_a_quiz_of_another_class_is_refused(teacher: User, classroom: Classroom) -> None:
    other_room = create_classroom(teacher=teacher, name="Andere")
    pool = authoring.build_pool(kinds=("augen",), difficulty=1)
    quiz = authoring.create_quiz(owner=teacher, classroom=other_room, title="Fremd", pool=pool, item_count=1)
    with pytest.raises(ClassroomError):
        services.assign_homework(teacher=teacher, classroom=classroom, task=f"quiz:{quiz.pk}", due_at=_tomorrow())


def test_homework_pages_are_the_teachers_only(
    teacher: User, other_teacher: User, classroom: Classroom, student: User
) -> None:
    assignment = services.assign_homework(
        teacher=teacher, classroom=classroom, task=f"lesson:{_lesson().slug}", due_at=_tomorrow()
    )
    for user in (other_teacher, student):
        client = client_for(user)
        assert client.get(reverse("classrooms:assignment", args=[classroom.pk, assignment.pk])).status_code == 404
        assert client.post(reverse("classrooms:withdraw", args=[classroom.pk, assignment.pk])).status_code == 404
        assert (
            client.post(reverse("classrooms:assign", args=[classroom.pk]), {"task": "x", "due_at": _due()}).status_code
            == 404
        )
    response = client_for(teacher).post(reverse("classrooms:withdraw", args=[classroom.pk, assignment.pk]))
    assert response.status_code == 302 and not Assignment.objects.exists()


def test_homework_of_other_classes_is_not_shown(teacher: User, classroom: Classroom, student: User) -> None:
    outsider = make_user("aussen")
    services.assign_homework(teacher=teacher, classroom=classroom, task=f"lesson:{_lesson().slug}", due_at=_tomorrow())
    assert selectors.student_homework(outsider) == []
    assert 'id="homework"' not in client_for(outsider).get(reverse("training:dashboard")).content.decode()


def test_scheduled_quiz_homework_links_only_from_its_time(teacher: User, classroom: Classroom, student: User) -> None:
    from skatschule.quizzes import publishing
    from skatschule.quizzes.models import Quiz

    pool = authoring.build_pool(kinds=("augen",), difficulty=1)
    quiz = authoring.create_quiz(
        owner=teacher, classroom=classroom, title="Später", pool=pool, item_count=1, draft=True
    )
    publishing.publish(quiz=quiz, owner=teacher, at=timezone.now() + timedelta(hours=1))
    services.assign_homework(teacher=teacher, classroom=classroom, task=f"quiz:{quiz.pk}", due_at=_tomorrow())
    [line] = selectors.student_homework(student)
    assert line.url == "" and line.title == "Später"
    Quiz.objects.filter(pk=quiz.pk).update(published_at=timezone.now() - timedelta(minutes=1))
    [line] = selectors.student_homework(student)
    assert line.url == reverse("quizzes:start", kwargs={"pk": quiz.pk})


def test_forged_ids_are_refused_not_crashed(teacher: User, classroom: Classroom) -> None:
    """ "²" passes str.isdigit but not int(): a 400 or 404, never a 500."""
    with pytest.raises(ClassroomError):
        services.assign_homework(teacher=teacher, classroom=classroom, task="quiz:²", due_at=_tomorrow())
    for pk in ("²", "٣", "9" * 30):
        with pytest.raises(NotFound):
            selectors.own_classroom(teacher, pk=pk)
        with pytest.raises(NotFound):
            selectors.own_assignment(teacher, pk=pk)
