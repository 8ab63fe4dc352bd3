"""Editing a quiz: free before the first attempt, items locked after it, times under the timing rules.

The quizzes here are made through the builder page (``_build``), so their choice of exercises
is stored the way teachers make them. "Full" POSTs are what the page sends while every field is
enabled; "browser" POSTs after the first attempt leave out the disabled fields, as browsers do.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.classrooms.services import create_classroom
from skatschule.core.notfound import NotFound
from skatschule.quizzes import errors, questions
from skatschule.quizzes.models import Quiz, QuizAttempt
from skatschule.quizzes.questions import kind_title
from skatschule.quizzes.selectors.teaching import quiz_sources
from skatschule.quizzes.services import attempts, authoring
from tests.people import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]  # local times typed into forms

LOCKED_NAMES = ("classroom", "kinds", "lessons", "rules", "item_count", "difficulty", "variants", "redraw")
FREE_NAMES = ("title", "opens_at", "closes_at", "time_limit_minutes", "max_attempts", "show_answers")


def _edit_url(quiz: Quiz) -> str:
    return reverse("quizzes:edit", kwargs={"pk": quiz.pk})


def _local(moment: datetime | None) -> str:
    """A time as the datetime-local input sends it."""
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M") if moment else ""


def _build(teacher: User, classroom: Classroom, **change: Any) -> Quiz:
    data: dict[str, Any] = {
        "title": "Zählen",
        "classroom": classroom.pk,
        "kinds": ["augen", "spielwert"],
        "item_count": 3,
        "difficulty": 1,
        "variants": "fixed",
        "max_attempts": 1,
        "show_answers": "after_submit",
    }
    data.update(change)
    response = client_for(teacher).post(reverse("quizzes:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Quiz.objects.get(title=" ".join(data["title"].split()))


def _full(quiz: Quiz, **change: Any) -> dict[str, Any]:
    """Every field as the page sends it while nothing is locked (unchanged unless ``change``)."""
    sources = quiz_sources(quiz)
    data = {
        "title": quiz.title,
        "classroom": quiz.classroom_id,
        "kinds": sources["kinds"],
        "lessons": sources["lessons"],
        "rules": ", ".join(sources["rules"]),
        "item_count": quiz.items.count(),
        "difficulty": quiz.difficulty,
        "variants": quiz.variants,
        **_free(quiz),
    }
    data.update(change)
    return data


def _free(quiz: Quiz, **change: Any) -> dict[str, Any]:
    """What a browser sends once the quiz is locked: only the enabled fields."""
    data = {
        "title": quiz.title,
        "opens_at": _local(quiz.opens_at),
        "closes_at": _local(quiz.closes_at),
        "time_limit_minutes": quiz.time_limit_minutes or "",
        "max_attempts": quiz.max_attempts,
        "show_answers": quiz.show_answers,
    }
    data.update(change)
    return data


def _snapshot(quiz: Quiz) -> tuple[dict[str, Any], list[tuple[int, str, int, int]]]:
    row = Quiz.objects.filter(pk=quiz.pk).values().get()
    items = list(quiz.items.order_by("position").values_list("position", "kind", "difficulty", "seed"))
    return dict(row), items


def _tag(page: str, name: str) -> str:
    """The first input or select named ``name``."""
    found = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', page)
    assert found, name
    return found.group(0)


# --- before the first attempt ----------------------------------------------------------------------


def test_detail_links_to_a_filled_in_edit_form(teacher: User, classroom: Classroom) -> None:
    closes = timezone.now() + timedelta(days=2)
    quiz = _build(teacher, classroom, item_count=4, difficulty=2, time_limit_minutes=20, closes_at=_local(closes))
    client = client_for(teacher)
    detail = client.get(reverse("quizzes:detail", kwargs={"pk": quiz.pk})).content.decode()
    assert f'href="{_edit_url(quiz)}"' in detail
    page = client.get(_edit_url(quiz)).content.decode()
    assert "<h1>Quiz bearbeiten</h1>" in page and "Änderungen speichern" in page
    assert 'value="Zählen"' in _tag(page, "title")
    assert 'value="4"' in _tag(page, "item_count") and 'value="20"' in _tag(page, "time_limit_minutes")
    assert f'value="{_local(closes)}"' in _tag(page, "closes_at")
    for kind in ("augen", "spielwert"):
        assert re.search(rf'<input[^>]*value="{kind}"[^>]*checked', page), kind
    assert not re.search(r'<input[^>]*value="stich"[^>]*checked', page)
    assert " disabled" not in page.split('class="quiz-builder"')[1]
    assert 'name="redraw"' in page


def test_item_changes_before_any_attempt_reach_new_attempts(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build(teacher, classroom)
    response = client_for(teacher).post(
        _edit_url(quiz),
        _full(quiz, title="Stiche", kinds=["stich"], item_count=4, difficulty=2, variants="random", max_attempts=2),
    )
    assert response.status_code == 302 and response["Location"] == reverse("quizzes:detail", kwargs={"pk": quiz.pk})
    quiz.refresh_from_db()
    assert (quiz.title, quiz.variants, quiz.difficulty, quiz.max_attempts) == ("Stiche", "random", 2, 2)
    assert quiz.sources["kinds"] == ["stich"]
    expected = authoring.build_pool(kinds=["stich"], difficulty=2)
    assert [(i.kind, i.difficulty) for i in quiz.items.all()] == expected * 4
    # A student starting now (once it is published) gets the new items.
    client_for(teacher).post(reverse("quizzes:publish", kwargs={"pk": quiz.pk}))
    client = client_for(student)
    start = client.post(reverse("quizzes:start", kwargs={"pk": quiz.pk}))
    page = client.get(start["Location"]).content.decode()
    assert page.count('class="answer-form"') == 4
    assert kind_title("stich", "de") in page and kind_title("augen", "de") not in page


def test_a_new_title_keeps_the_items_and_redraw_replaces_them(teacher: User, classroom: Classroom) -> None:
    quiz = _build(teacher, classroom, item_count=6)
    client = client_for(teacher)
    _, items = _snapshot(quiz)
    secret = quiz.secret
    assert client.post(_edit_url(quiz), _full(quiz, title="Neuer Titel")).status_code == 302
    row, same = _snapshot(quiz)
    assert row["title"] == "Neuer Titel" and same == items and row["secret"] == secret
    assert client.post(_edit_url(quiz), _full(quiz, redraw="on")).status_code == 302
    row, redrawn = _snapshot(quiz)
    assert row["secret"] != secret
    assert [seed for *_, seed in redrawn] != [seed for *_, seed in items]
    assert sorted(kind for _, kind, _, _ in redrawn) == sorted(kind for _, kind, _, _ in items)


# --- after the first attempt --------------------------------------------------------------------------


def test_started_quiz_shows_the_locked_fields_disabled_with_a_reason(
    teacher: User, classroom: Classroom, student: User
) -> None:
    quiz = _build(teacher, classroom)
    attempts.start_attempt(quiz=quiz, student=student)
    page = client_for(teacher).get(_edit_url(quiz)).content.decode()
    assert "Dieses Quiz wurde schon begonnen" in page and 'id="locked-note"' in page
    for name in LOCKED_NAMES:
        tag = _tag(page, name)
        assert " disabled" in tag and 'aria-describedby="locked-note"' in tag, name
    for name in FREE_NAMES:
        assert " disabled" not in _tag(page, name), name


def test_the_locked_form_in_english(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build(teacher, classroom)
    attempts.start_attempt(quiz=quiz, student=student)
    client = client_for(teacher)
    client.cookies["django_language"] = "en"
    page = client.get(_edit_url(quiz)).content.decode()
    assert "<h1>Edit quiz</h1>" in page and "Save changes" in page
    assert "Students have already started this quiz" in page and "Dieses Quiz wurde schon begonnen" not in page
    assert "attempts that are running" in page


@pytest.mark.parametrize(
    "forged, name_de",
    [
        ({"item_count": 5}, "Anzahl der Aufgaben"),
        ({"kinds": ["augen", "stich"]}, "Auswahl der Aufgaben"),
        ({"rules": "4.1.2"}, "Auswahl der Aufgaben"),
        ({"difficulty": 2}, "Schwierigkeit"),
        ({"variants": "random"}, "Varianten"),
        ({"redraw": "on"}, "neue Aufgaben ziehen"),
        ({"classroom": "other"}, "Klasse"),
    ],
)
def test_a_forged_post_cannot_change_locked_fields(
    teacher: User, classroom: Classroom, student: User, forged: dict[str, object], name_de: str
) -> None:
    quiz = _build(teacher, classroom)
    attempts.start_attempt(quiz=quiz, student=student)
    if forged.get("classroom") == "other":
        forged = {"classroom": create_classroom(teacher=teacher, name="Zweite Gruppe").pk}
    before = _snapshot(quiz)
    response = client_for(teacher).post(_edit_url(quiz), _full(quiz, title="Gefälscht", **forged))
    body = response.content.decode()
    assert response.status_code == 409
    assert "nicht mehr ändern lässt sich" in body and name_de in body and "Nichts wurde gespeichert" in body
    assert _snapshot(quiz) == before


def test_a_single_forged_locked_field_is_refused_too(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build(teacher, classroom)
    attempts.start_attempt(quiz=quiz, student=student)
    before = _snapshot(quiz)
    response = client_for(teacher).post(_edit_url(quiz), _free(quiz, title="Gefälscht", item_count=9))
    assert 400 <= response.status_code < 500 and 'class="errorlist' in response.content.decode()
    assert _snapshot(quiz) == before


def test_the_page_loaded_before_the_first_start_still_saves_what_is_allowed(
    teacher: User, classroom: Classroom, student: User
) -> None:
    quiz = _build(teacher, classroom)
    unchanged = _full(quiz, title="Nur der Titel")  # the teacher opened the form before anyone started
    changed = _full(quiz, title="Mit Aufgaben", item_count=5)
    attempts.start_attempt(quiz=quiz, student=student)
    client = client_for(teacher)
    before_items = _snapshot(quiz)[1]
    response = client.post(_edit_url(quiz), changed)
    assert response.status_code == 409
    assert " disabled" in _tag(response.content.decode(), "item_count")  # now shown locked
    assert Quiz.objects.get(pk=quiz.pk).title == "Zählen"
    assert client.post(_edit_url(quiz), unchanged).status_code == 302
    row, items = _snapshot(quiz)
    assert row["title"] == "Nur der Titel" and items == before_items


def test_times_limits_and_answers_may_change_after_an_attempt(
    teacher: User, classroom: Classroom, student: User
) -> None:
    closes = timezone.now() + timedelta(hours=2)
    quiz = _build(teacher, classroom, time_limit_minutes=10, closes_at=_local(closes))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    _, items = _snapshot(quiz)
    later = closes + timedelta(hours=1)
    response = client_for(teacher).post(
        _edit_url(quiz),
        _free(
            quiz,
            title="Zweite Runde",
            closes_at=_local(later),
            time_limit_minutes=30,
            max_attempts=3,
            show_answers="after_close",
        ),
    )
    assert response.status_code == 302
    row, same_items = _snapshot(quiz)
    assert same_items == items
    assert (row["title"], row["time_limit_minutes"], row["max_attempts"], row["show_answers"]) == (
        "Zweite Runde",
        30,
        3,
        "after_close",
    )
    assert _local(row["closes_at"]) == _local(later)
    attempt.refresh_from_db()
    assert attempt.deadline == attempt.started_at + timedelta(minutes=30)  # the longer limit counts now


def test_an_unchanged_time_keeps_its_seconds(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build(teacher, classroom)
    attempts.start_attempt(quiz=quiz, student=student)
    authoring.close_quiz(quiz=quiz)  # closes at "now", with seconds
    quiz.refresh_from_db()
    closed_at = quiz.closes_at
    assert client_for(teacher).post(_edit_url(quiz), _free(quiz, title="Archiv")).status_code == 302
    quiz.refresh_from_db()
    assert quiz.title == "Archiv" and quiz.closes_at == closed_at


def test_running_attempts_are_never_cut_retroactively(
    make_quiz: Callable[..., Quiz], teacher: User, student: User, other_student: User
) -> None:
    now = timezone.now()
    quiz = make_quiz(count=2, time_limit_minutes=30)
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=now - timedelta(minutes=10))
    promised = attempt.deadline
    # A shorter limit is for new attempts; the running one keeps its 30 minutes.
    authoring.update_quiz(quiz=quiz, editor=teacher, now=now, changes=authoring.QuizChanges(time_limit_minutes=15))
    attempt.refresh_from_db()
    assert attempt.deadline == promised and questions.is_open(attempt, now)
    newcomer = attempts.start_attempt(quiz=Quiz.objects.get(pk=quiz.pk), student=other_student, now=now)
    assert newcomer.deadline == now + timedelta(minutes=15)
    # An earlier end cuts running attempts, from now on.
    soon = now + timedelta(minutes=5)
    authoring.update_quiz(quiz=quiz, editor=teacher, now=now, changes=authoring.QuizChanges(closes_at=soon))
    attempt.refresh_from_db()
    assert questions.cutoff(attempt) == soon
    before = _snapshot(quiz)
    changes: list[dict[str, Any]] = [
        {"closes_at": now - timedelta(minutes=1)},
        {"opens_at": now + timedelta(minutes=2)},
    ]
    for change in changes:
        with pytest.raises(errors.QuizLocked):
            authoring.update_quiz(quiz=quiz, editor=teacher, now=now, changes=authoring.QuizChanges(**change))
    assert _snapshot(quiz) == before


def test_a_later_end_gives_capped_attempts_their_whole_time(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    now = timezone.now()
    quiz = make_quiz(count=1, time_limit_minutes=30, closes_at=now + timedelta(minutes=10))
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=now)
    assert questions.cutoff(attempt) == now + timedelta(minutes=10)
    authoring.update_quiz(
        quiz=quiz, editor=teacher, now=now, changes=authoring.QuizChanges(closes_at=now + timedelta(hours=2))
    )
    attempt = QuizAttempt.objects.select_related("quiz").get(pk=attempt.pk)
    assert questions.cutoff(attempt) == now + timedelta(minutes=30)


def test_an_extension_does_not_revive_an_attempt_whose_time_ran_out(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    now = timezone.now()
    quiz = make_quiz(count=1, time_limit_minutes=10)
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=now - timedelta(minutes=15))
    authoring.update_quiz(quiz=quiz, editor=teacher, now=now, changes=authoring.QuizChanges(time_limit_minutes=60))
    attempt.refresh_from_db()
    assert attempt.submitted_at == attempt.started_at + timedelta(minutes=10)
    assert not questions.is_open(attempt, now)


def test_answers_shown_right_away_stay_shown_while_attempts_run(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    quiz = make_quiz(count=1, show_answers="immediately")
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    client = client_for(teacher)
    response = client.post(_edit_url(quiz), _free(quiz, show_answers="after_submit"))
    assert response.status_code == 409 and "bis alle abgegeben haben" in response.content.decode()
    assert Quiz.objects.get(pk=quiz.pk).show_answers == "immediately"
    attempts.submit(attempt=attempt)
    assert client.post(_edit_url(quiz), _free(quiz, show_answers="after_submit")).status_code == 302
    assert Quiz.objects.get(pk=quiz.pk).show_answers == "after_submit"


# --- who may edit, bad input, wording -------------------------------------------------------------------


def test_only_the_owner_may_edit(teacher: User, classroom: Classroom, other_teacher: User, student: User) -> None:
    quiz = _build(teacher, classroom)
    before = _snapshot(quiz)
    for user in (other_teacher, student):
        client = client_for(user)
        assert client.get(_edit_url(quiz)).status_code == 404, user
        assert client.post(_edit_url(quiz), _full(quiz, title="Übernommen")).status_code == 404, user
    anonymous = Client()
    for response in (anonymous.get(_edit_url(quiz)), anonymous.post(_edit_url(quiz), _full(quiz, title="X"))):
        assert response.status_code == 302 and response["Location"].startswith(reverse("accounts:login"))
    with pytest.raises(NotFound):
        authoring.update_quiz(quiz=quiz, editor=other_teacher, changes=authoring.QuizChanges(title="Übernommen"))
    assert _snapshot(quiz) == before


def test_another_teachers_class_is_refused(teacher: User, classroom: Classroom, other_teacher: User) -> None:
    quiz = _build(teacher, classroom)
    theirs = create_classroom(teacher=other_teacher, name="Fremde Klasse")
    response = client_for(teacher).post(_edit_url(quiz), _full(quiz, classroom=theirs.pk))
    assert response.status_code == 400  # not offered in the form
    with pytest.raises(NotFound):  # nor taken by the service
        authoring.update_quiz(quiz=quiz, editor=teacher, changes=authoring.QuizChanges(classroom=theirs))
    assert Quiz.objects.get(pk=quiz.pk).classroom_id == classroom.pk


@pytest.mark.parametrize(
    "change, message",
    [
        ({"title": "   "}, "Dieses Feld ist zwingend erforderlich"),
        ({"title": "ä" * 300}, "höchstens 120 Zeichen"),
        ({"closes_at": "morgen früh"}, "gültiges Datum"),
        ({"opens_at": "2030-01-02T10:00", "closes_at": "2030-01-01T10:00"}, "nach dem Beginn"),
        ({"show_answers": "after_close", "closes_at": ""}, "braucht das Quiz ein Ende"),
        ({"item_count": 0}, "größer oder gleich 1"),
        ({"item_count": str(10**20)}, "kleiner oder gleich"),
        ({"max_attempts": 99}, "kleiner oder gleich"),
        ({"kinds": ["erfunden"], "lessons": []}, "erfunden"),
        ({"kinds": [], "lessons": []}, "Bitte wähle"),
        ({"difficulty": 99}, "gültige Auswahl"),
        ({"classroom": "9" * 30}, "gültige Auswahl"),
        ({"time_limit_minutes": "-5"}, "größer oder gleich 1"),
    ],
)
def test_bad_input_gives_the_form_with_a_message(
    teacher: User, classroom: Classroom, change: dict[str, str], message: str
) -> None:
    quiz = _build(teacher, classroom)
    before = _snapshot(quiz)
    response = client_for(teacher).post(_edit_url(quiz), _full(quiz, **change))
    body = response.content.decode()
    assert response.status_code == 400 and 'class="quiz-builder"' in body
    assert message in body
    assert _snapshot(quiz) == before


@pytest.mark.parametrize("htmx", [False, True])
def test_bad_input_after_the_first_attempt_and_empty_posts(
    teacher: User, classroom: Classroom, student: User, htmx: bool
) -> None:
    quiz = _build(teacher, classroom)
    attempts.start_attempt(quiz=quiz, student=student)
    before = _snapshot(quiz)
    client = client_for(teacher)
    extra: dict[str, Any] = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(_edit_url(quiz), _free(quiz, title="", max_attempts="viele"), **extra)
    body = response.content.decode()
    assert response.status_code == 400
    assert "Dieses Feld ist zwingend erforderlich" in body and "ganze Zahl" in body
    assert client.post(_edit_url(quiz), {}, **extra).status_code == 400
    assert _snapshot(quiz) == before


def test_messages_in_german_and_english(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build(teacher, classroom)
    german = client_for(teacher)
    saved = german.post(_edit_url(quiz), _full(quiz, title="Deutsch"), follow=True).content.decode()
    assert "Die Änderungen sind gespeichert." in saved
    english = client_for(teacher)
    english.cookies["django_language"] = "en"
    saved = english.post(_edit_url(quiz), _full(quiz, title="English"), follow=True).content.decode()
    assert "The changes have been saved." in saved and "Die Änderungen" not in saved
    attempts.start_attempt(quiz=quiz, student=student)
    quiz.refresh_from_db()
    refused = english.post(_edit_url(quiz), _full(quiz, item_count=7, difficulty=2))
    body = refused.content.decode()
    assert refused.status_code == 409
    assert "Students have already started this quiz" in body and "number of items, difficulty" in body
    assert "Nothing was saved." in body and "Nichts wurde gespeichert" not in body
    closed = english.post(_edit_url(quiz), _free(quiz, closes_at=_local(timezone.now() - timedelta(hours=1))))
    assert closed.status_code == 409 and "Close the quiz now" in closed.content.decode()


# --- an edit racing the first start -------------------------------------------------------------------


def _until_a_query_waits_for_a_lock(seconds: float = 10.0) -> None:
    """On PostgreSQL: return once another connection waits for a row lock (the edit behind the
    start), read from pg_stat_activity instead of guessing with a sleep. SQLite lets one writer
    in at a time anyway, so there the order needs no waiting."""
    if connections["default"].vendor != "postgresql":
        return
    with connections["default"].cursor() as cursor:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # a transaction reads the view once otherwise
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
    raise AssertionError("the edit never waited for the lock")


@pytest.mark.django_db(transaction=True)
def test_an_edit_waiting_for_a_first_start_finds_the_items_locked(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    """The student's start holds its transaction open; the edit must wait for it and then refuse.

    On PostgreSQL this needs the quiz row lock in both (``select_for_update``): without it the
    edit would not see the uncommitted attempt and would replace the items under it. On SQLite
    the writers queue anyway.
    """
    quiz = make_quiz(count=3, kinds=("augen",))
    before_items = _snapshot(quiz)[1]
    started, editing = threading.Event(), threading.Event()
    results: dict[str, object] = {}

    def student_starts() -> None:
        try:
            with transaction.atomic():
                results["attempt"] = attempts.start_attempt(quiz=Quiz.objects.get(pk=quiz.pk), student=student)
                started.set()
                editing.wait(5)
                _until_a_query_waits_for_a_lock()  # the edit is now waiting for the lock
        finally:
            connections.close_all()

    def teacher_edits() -> None:
        try:
            started.wait(5)
            editing.set()
            authoring.update_quiz(
                quiz=Quiz.objects.get(pk=quiz.pk),
                editor=teacher,
                changes=authoring.QuizChanges(kinds=["stich"], item_count=4),
            )
            results["edit"] = "saved"
        except errors.QuizLocked:
            results["edit"] = "locked"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=student_starts), threading.Thread(target=teacher_edits)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert results.get("edit") == "locked" and QuizAttempt.objects.filter(quiz=quiz).count() == 1
    assert _snapshot(quiz)[1] == before_items
