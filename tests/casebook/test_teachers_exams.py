"""Issue 18, referees: exam history with pass mark, result sheet, group exams, Regelkunde track."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from skatschule.accounts.deletion import delete_account, is_deleted_name
from skatschule.casebook import exam_history, group_exams, regelkunde, services
from skatschule.casebook.cases import load_cases
from skatschule.casebook.models import Exam, ExamQuestion, GroupExam
from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Classroom
from skatschule.core.errors import UserError
from skatschule.exercises.base import ExerciseType
from skatschule.owners import Owner
from tests.people import client_for, make_user
from tests.present import present

pytestmark = pytest.mark.django_db


def _type(kind: str) -> ExerciseType:
    return services.exam_type(kind=kind)


def _right(item: ExamQuestion) -> list[str]:
    return _type(item.kind).correct_answer(services.question_of(item))


def _wrong(item: ExamQuestion) -> list[str]:
    question = services.question_of(item)
    right = _right(item)
    if question.widget == "number":
        return [str(int(right[0]) + 1)]
    other = next(o.value for o in question.options if o.value != right[0])
    return [other, *right[1:]]


def _sit(exam: Exam, right: int, start: datetime | None = None, step: timedelta = timedelta(seconds=30)) -> None:
    """Answer every question in order, the first ``right`` correctly, ``step`` apart."""
    when = start or exam.started_at
    for n, item in enumerate(exam.questions.order_by("position"), start=1):
        when = when + step
        services.answer_question(
            exam=exam, position=item.position, values=_right(item) if n <= right else _wrong(item), now=when
        )


# --- pass mark and history ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "right,total,mark,expected",
    [(4, 5, 80, True), (3, 5, 80, False), (16, 20, 80, True), (15, 20, 80, False), (1, 5, 20, True), (0, 5, 1, False)],
)
def test_pass_mark(right: int, total: int, mark: int, expected: bool) -> None:
    assert exam_history.passed(right, total, mark) is expected


@pytest.mark.parametrize("value,expected", [("", 80), (None, 80), ("75", 75), ("100", 100), ("1", 1)])
def test_parse_pass_percent(value: str | None, expected: int) -> None:
    assert exam_history.parse_pass_percent(value) == expected


@pytest.mark.parametrize("value", ["0", "101", "abc", "-5", "7.5", "²", "٨٠"])
def test_parse_pass_percent_refuses(value: str) -> None:
    with pytest.raises(UserError):
        exam_history.parse_pass_percent(value)


def test_history_has_date_score_verdict_and_times() -> None:
    user = make_user("schiri")
    owner = Owner.for_user(user)
    first = exam_history.start_practice_exam(owner=owner, size=5)
    _sit(first, right=4, step=timedelta(seconds=20))
    second = exam_history.start_practice_exam(owner=owner, size=5, pass_percent=100)
    _sit(second, right=4, step=timedelta(seconds=40))
    rows = exam_history.history(user)
    assert [r.exam.pk for r in rows] == [second.pk, first.pk]
    assert (rows[1].right, rows[1].total, rows[1].percent, rows[1].passed) == (4, 5, 80, True)
    assert (rows[0].percent, rows[0].passed, rows[0].exam.pass_percent) == (80, False, 100)
    assert exam_history.question_times(first) == [20] * 5
    assert rows[1].seconds == 100
    assert exam_history.trend(rows) == 0


def test_trend_compares_latest_with_earlier() -> None:
    user = make_user("schiri")
    owner = Owner.for_user(user)
    for right in (1, 1, 5):
        exam = exam_history.start_practice_exam(owner=owner, size=5)
        _sit(exam, right=right)
    rows = exam_history.history(user)
    assert [r.percent for r in rows] == [100, 20, 20]
    assert exam_history.trend(rows) == 80  # newest 100 vs the earlier mean 20
    assert exam_history.trend(rows[:1]) is None


def test_timed_out_exam_appears_in_history() -> None:
    user = make_user("schiri")
    exam = exam_history.start_practice_exam(owner=Owner.for_user(user), size=5)
    Exam.objects.filter(pk=exam.pk).update(started_at=timezone.now() - timedelta(hours=2))
    [row] = exam_history.history(user)
    assert row.right == 0 and not row.passed and row.answered == 0


def test_unanswered_question_has_no_time() -> None:
    exam = exam_history.start_practice_exam(owner=Owner.for_user(make_user("x")), size=5)
    item = exam.questions.get(position=1)
    services.answer_question(exam=exam, position=1, values=_right(item), now=exam.started_at + timedelta(seconds=7))
    services.finish_exam(exam=exam)
    assert exam_history.question_times(exam) == [7, None, None, None, None]


def test_exam_start_with_pass_mark_and_review_verdict() -> None:
    user = make_user("schiri")
    client = client_for(user)
    page = client.get(reverse("casebook:exam_start")).content.decode()
    assert 'name="bestehen"' in page and 'value="80"' in page
    response = client.post(reverse("casebook:exam_start"), {"fragen": "5", "bestehen": "60"})
    exam = Exam.objects.get(user=user)
    assert response.status_code == 302 and exam.pass_percent == 60
    _sit(exam, right=3)
    review = client.get(reverse("casebook:exam_review", args=[exam.public_id])).content.decode()
    assert 'id="exam-verdict"' in review and "<strong>bestanden</strong>" in review
    history = client.get(reverse("casebook:exam_history")).content.decode()
    assert "bestanden" in history and "60 %" in history and "DSkV" in history
    assert client.post(reverse("casebook:exam_start"), {"fragen": "5", "bestehen": "0"}).status_code == 400


PASSWORD = "herz-dame-und-pik-sieben"


def _anonymous_exam(client: Client, right: int = 5) -> Exam:
    client.post(reverse("casebook:exam_start"), {"fragen": "5"})
    exam = Exam.objects.get(user__isnull=True)
    _sit(exam, right=right)
    return exam


@pytest.fixture
def fast_hasher(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_exams_taken_before_signup_join_the_history(fast_hasher: None) -> None:
    client = Client()
    exam = _anonymous_exam(client)
    response = client.post(
        reverse("accounts:signup"), {"username": "neuer-schiri", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="neuer-schiri")
    [row] = exam_history.history(user)
    assert row.exam.pk == exam.pk and row.right == 5
    page = client.get(reverse("casebook:exam_history")).content.decode()
    assert reverse("casebook:exam_review", args=[exam.public_id]) in page
    assert client.get(reverse("casebook:exam_sheet", args=[exam.public_id])).status_code == 200


def test_exams_taken_before_login_join_the_history(fast_hasher: None) -> None:
    user = get_user_model().objects.create_user("schiri", password=PASSWORD)
    other = Client()
    foreign = _anonymous_exam(other)  # another browser's exam stays there
    client = Client()
    client.post(reverse("casebook:exam_start"), {"fragen": "5"})
    exam = Exam.objects.exclude(pk=foreign.pk).get(user__isnull=True)
    _sit(exam, right=2)
    assert client.post(reverse("accounts:login"), {"username": "schiri", "password": PASSWORD}).status_code == 302
    assert [r.exam.pk for r in exam_history.history(user)] == [exam.pk]
    foreign.refresh_from_db()
    assert foreign.user_id is None and foreign.session_key
    assert exam_history.adopt_session_exams(session_key="", user=user) == 0


def test_history_needs_login() -> None:
    response = client_for(make_user("a")).get(reverse("casebook:exam_history"))
    assert response.status_code == 200
    from django.test import Client

    assert Client().get(reverse("casebook:exam_history")).status_code == 302


def test_result_sheet_says_practice_not_certificate() -> None:
    user = make_user("schiri")
    client = client_for(user)
    exam = exam_history.start_practice_exam(owner=Owner.for_user(user), size=5)
    assert client.get(reverse("casebook:exam_sheet", args=[exam.public_id])).status_code == services.ExamNotOver.status
    _sit(exam, right=2)
    sheet = client.get(reverse("casebook:exam_sheet", args=[exam.public_id])).content.decode()
    assert 'id="not-a-certificate"' in sheet and "kein Zertifikat" in sheet and "DSkV" in sheet
    assert "nicht bestanden" in sheet and "2 von 5 richtig (40 %)" in sheet and "30 s" in sheet
    other = client_for(make_user("fremd"))
    assert other.get(reverse("casebook:exam_sheet", args=[exam.public_id])).status_code == 404


# --- group exams -----------------------------------------------------------------------------------


@pytest.fixture
def course(db: None) -> tuple[User, Classroom, User, User]:
    trainer = make_user("trainer", teacher=True)
    a, b = make_user("anna"), make_user("bert")
    room = classrooms.create_classroom(teacher=trainer, name="Schiri-Kurs")
    classrooms.join(student=a, raw_code=room.join_code)
    classrooms.join(student=b, raw_code=room.join_code)
    return trainer, room, a, b


def test_group_exam_gives_everyone_the_same_questions(course: tuple[User, Classroom, User, User]) -> None:
    trainer, room, a, b = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs Herbst", size=6, pass_percent=50)
    ea = group_exams.sit_group_exam(group=group, user=a)
    eb = group_exams.sit_group_exam(group=group, user=b)
    fields = ("position", "kind", "difficulty", "seed")
    assert list(ea.questions.values_list(*fields)) == list(eb.questions.values_list(*fields))
    assert ea.pass_percent == 50 and ea.group == group and ea.size == 6
    assert group_exams.sit_group_exam(group=group, user=a).pk == ea.pk  # once per person


def test_group_results_and_question_stats(course: tuple[User, Classroom, User, User]) -> None:
    trainer, room, a, b = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs", size=5)
    ea = group_exams.sit_group_exam(group=group, user=a)
    _sit(ea, right=5)
    eb = group_exams.sit_group_exam(group=group, user=b)
    _sit(eb, right=2)
    people = {p.name: p for p in group_exams.participants(group)}
    assert present(people["anna"].summary).passed and not present(people["bert"].summary).passed
    stats = group_exams.question_stats(group)
    assert [(s.position, s.answered, s.right) for s in stats] == [(1, 2, 2), (2, 2, 2), (3, 2, 1), (4, 2, 1), (5, 2, 1)]
    page = client_for(trainer).get(reverse("casebook:group_results", args=[group.pk])).content.decode()
    assert 'data-student="anna"' in page and "2 abgegeben, 1 bestanden" in page
    for user in (a, make_user("fremd", teacher=True)):
        assert client_for(user).get(reverse("casebook:group_results", args=[group.pk])).status_code == 404


def _group_with_a_variant(trainer: User, room: Classroom, size: int = 5) -> GroupExam:
    """A group exam whose fixed seed draws at least one varied case (found by drawing, not assumed)."""
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs", size=size)
    seed = next(
        s
        for s in range(1, 500)
        if any(kind == "fall_variante" for kind, _, _ in services._draw(size, random.Random(s)))
    )
    GroupExam.objects.filter(pk=group.pk).update(seed=seed)
    group.refresh_from_db()
    return group


def test_question_stats_name_a_varied_case_by_its_rule_not_the_case(
    course: tuple[User, Classroom, User, User],
) -> None:
    """Issue 34 §5: a varied case is named by its irregularity and rule, never by the public case."""
    trainer, room, a, b = course
    group = _group_with_a_variant(trainer, room)
    exam = group_exams.sit_group_exam(group=group, user=a)
    _sit(exam, right=5)
    stats = {s.position: s for s in group_exams.question_stats(group)}
    page = client_for(trainer).get(reverse("casebook:group_results", args=[group.pk])).content.decode()
    named = 0
    for item in exam.questions.all():
        stat = stats[item.position]
        varied = services.variant_of(item)
        if varied is None:
            assert stat.variant is None
            continue
        assert varied.engine_input is not None and stat.case_id == ""
        kind = present(stat.variant)
        assert kind.value == varied.engine_input["event"]["type"]
        assert f"Regelverstoß: {kind.name_de} (" in page and f'href="/regeln/{kind.rule_id}' in page
        assert varied.id not in page and f"/faelle/{varied.id}/" not in page
        named += 1
    assert named and "Abwandlung" not in page


def test_group_results_keep_those_who_left_and_deleted_accounts(course: tuple[User, Classroom, User, User]) -> None:
    trainer, room, a, b = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs", size=5)
    _sit(group_exams.sit_group_exam(group=group, user=a), right=5)
    _sit(group_exams.sit_group_exam(group=group, user=b), right=1)
    practice = exam_history.start_practice_exam(owner=Owner.for_user(b), size=5)
    stats_before = [(s.answered, s.right) for s in group_exams.question_stats(group)]
    classrooms.leave(classroom=room, student_id=a.pk)  # anna left the course: her result stays
    assert delete_account(user=b) is True  # bert deleted his account: kept anonymous for the trainer
    people = group_exams.participants(group)
    assert [p.name for p in people][0] == "anna" and present(people[0].summary).right == 5
    [deleted] = [p for p in people if is_deleted_name(p.name)]
    assert present(deleted.summary).right == 1 and deleted.over
    assert [(s.answered, s.right) for s in group_exams.question_stats(group)] == stats_before
    assert not Exam.objects.filter(pk=practice.pk).exists()  # a practice exam is not kept
    page = client_for(trainer).get(reverse("casebook:group_results", args=[group.pk])).content.decode()
    assert "gelöschter Schüler" in page and 'data-student="anna"' in page and ">bert<" not in page
    english = client_for(trainer)
    english.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = english.get(reverse("casebook:group_results", args=[group.pk])).content.decode()
    assert ">deleted student · " in page and ">gelöschter Schüler" not in page


def test_history_page_fits_a_phone_and_gives_minutes() -> None:
    user = make_user("schiri")
    exam = exam_history.start_practice_exam(owner=Owner.for_user(user), size=5)
    _sit(exam, right=4, step=timedelta(seconds=73))  # 5 x 73 s = 6:05
    [row] = exam_history.history(user)
    assert row.seconds == 365 and row.duration == "6:05"
    html = client_for(user).get(reverse("casebook:exam_history")).content.decode()
    assert "4 / 5 (80 %)" in html and "6:05 min" in html
    assert 'class="bar-track"' in html and 'style="width: 80%"' in html


def test_group_exam_by_the_pages(course: tuple[User, Classroom, User, User]) -> None:
    trainer, room, a, b = course
    client = client_for(trainer)
    assert client.get(reverse("casebook:group_create")).status_code == 200
    response = client.post(
        reverse("casebook:group_create"),
        {"title": "Prüfung", "classroom": room.pk, "size": "5", "pass_percent": "80", "open_book": "1"},
    )
    group = GroupExam.objects.get()
    assert response.status_code == 302 and group.open_book and group.size == 5
    student = client_for(a)
    start_page = student.get(reverse("casebook:exam_start")).content.decode()
    assert "Prüfung" in start_page and reverse("casebook:group_sit", args=[group.pk]) in start_page
    sit = student.post(reverse("casebook:group_sit", args=[group.pk]))
    exam = Exam.objects.get(user=a)
    assert sit["Location"] == reverse("casebook:exam", args=[exam.public_id])
    page = student.get(sit["Location"]).content.decode()
    assert 'id="open-book"' in page and reverse("rules:index") in page
    outsider = client_for(make_user("fremd"))
    assert outsider.post(reverse("casebook:group_sit", args=[group.pk])).status_code == 404


def test_start_page_says_whether_a_group_exam_is_new_running_or_handed_in(
    course: tuple[User, Classroom, User, User],
) -> None:
    trainer, room, a, b = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs", size=5)
    client = client_for(a)

    def entry() -> str:
        page = client.get(reverse("casebook:exam_start")).content.decode()
        start = page.index(f'data-group="{group.pk}"')
        return page[start : page.index("</li>", start)]

    assert ">Starten<" in entry() and "Auswertung" not in entry()
    [sitting] = group_exams.sittings_for(a)
    assert sitting.exam is None and not sitting.over
    exam = group_exams.sit_group_exam(group=group, user=a)
    assert ">Fortsetzen<" in entry()
    _sit(exam, right=5)
    [sitting] = group_exams.sittings_for(a)
    assert sitting.over and sitting.exam == exam
    shown = entry()
    assert "abgegeben" in shown and reverse("casebook:exam_review", args=[exam.public_id]) in shown
    assert reverse("casebook:group_sit", args=[group.pk]) not in shown
    assert group_exams.sittings_for(make_user("fremd")) == []


def test_practice_exam_is_not_open_book() -> None:
    user = make_user("schiri")
    exam = exam_history.start_practice_exam(owner=Owner.for_user(user), size=5)
    page = client_for(user).get(reverse("casebook:exam", args=[exam.public_id])).content.decode()
    assert 'id="open-book"' not in page


@pytest.mark.parametrize(
    "change",
    [
        {"title": ""},
        {"title": "\x00\x01"},
        {"size": "3"},
        {"pass_percent": "0"},
        {"classroom": "999999"},
        # "²" passes str.isdigit but not int(): these were 500s; "٨٠" read as 80
        {"classroom": "²"},
        {"size": "²"},
        {"pass_percent": "²"},
        {"pass_percent": "٨٠"},
    ],
)
def test_group_create_refuses_bad_input(course: tuple[User, Classroom, User, User], change: dict[str, str]) -> None:
    trainer, room, a, b = course
    data = {"title": "X", "classroom": room.pk, "size": "5", "pass_percent": "80", **change}
    response = client_for(trainer).post(reverse("casebook:group_create"), data)
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    assert not GroupExam.objects.exists()


def test_group_exam_title_loses_control_characters(course: tuple[User, Classroom, User, User]) -> None:
    trainer, room, a, b = course
    group = group_exams.create_group_exam(trainer=trainer, classroom=room, title="Kurs\x00 Herbst\x07", size=5)
    assert group.title == "Kurs Herbst"


@pytest.mark.parametrize("data", [{"fragen": "²"}, {"fragen": "5", "bestehen": "²"}, {"fragen": "٥"}])
def test_exam_start_refuses_digits_that_are_not_ascii(data: dict[str, str]) -> None:
    client = client_for(make_user("schiri"))
    assert client.post(reverse("casebook:exam_start"), data).status_code == 400
    assert not Exam.objects.exists()


def test_students_cannot_create_group_exams(course: tuple[User, Classroom, User, User]) -> None:
    trainer, room, a, b = course
    assert client_for(a).get(reverse("casebook:group_create")).status_code == 404


# --- Regelkunde -------------------------------------------------------------------------------------


def test_regelkunde_track_counts_solved_cases() -> None:
    user = make_user("leser")
    cases = load_cases()
    services.record_case_answer(user=user, case_id=cases[0].id, correct=True)
    services.record_case_answer(user=user, case_id=cases[1].id, correct=False)
    track = present(regelkunde.track(user))
    assert (track.solved, track.tried, track.total) == (1, 1, len(cases))
    assert sum(c.total for c in track.categories) == len(cases) and sum(c.solved for c in track.categories) == 1
    page = client_for(user).get(reverse("training:dashboard")).content.decode()
    assert 'id="regelkunde"' in page and f"1 von {len(cases)} Fällen gelöst" in page


def test_regelkunde_track_only_for_signed_in_users() -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.test import Client

    assert regelkunde.track(AnonymousUser()) is None
    assert 'id="regelkunde"' not in Client().get(reverse("training:dashboard")).content.decode()
