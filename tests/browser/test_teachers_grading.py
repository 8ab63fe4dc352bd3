"""Issue 28 §2 in Debian's chromium at 375 px: partial credit and a grading policy changing a
result; a teacher's override with a comment the student sees."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.classrooms import services as classrooms
from skatschule.quizzes import questions
from skatschule.quizzes.models import OwnItem, Quiz, QuizAttempt
from skatschule.quizzes.services import attempts, authoring
from tests.browser.answers import fill_answer
from tests.browser.phones import phone
from tests.people import make_user
from tests.present import present
from tests.quizzes.helpers import wrong_values

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seed_with_two_right_cards() -> int:
    kind = questions.exercise_type("zugeben")
    for seed in range(500):
        question = kind.generate(1, seed)
        right = kind.correct_answer(question)
        if len(right) == 2 and len(question.options) > 2:
            return seed
    raise AssertionError("no such seed")


def _one_item_quiz() -> tuple[User, User, Quiz]:
    """Frau Kreuz's class with Anna in it and a quiz of one "Augen" item: (teacher, Anna, quiz)."""
    teacher = make_user("frau-kreuz", teacher=True)
    anna = make_user("anna")
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=anna, raw_code=room.join_code)
    quiz = authoring.create_quiz(
        owner=teacher, classroom=room, title="Augen", pool=[("augen", 1)], item_count=1, variants="random"
    )
    return teacher, anna, quiz


def _take(page: Page, live_server: LiveServer, quiz: Quiz, student: User, values: list[str]) -> None:
    """Start an attempt in the browser, answer the one item with ``values`` and submit."""
    page.goto(f"{live_server.url}/quiz/{quiz.pk}/start/")
    page.locator("#start-quiz").click()
    item = quiz.items.get()
    attempt = present(QuizAttempt.objects.filter(student=student).order_by("-number").first())
    question = questions.question_for(quiz, item, student.pk, attempt.number)
    fill_answer(page.locator(f"#item-{item.position} form"), question, values, item.position)
    page.locator(f"#save-{item.position}").click()
    expect(page.locator(f"#status-{item.position}")).to_contain_text("Gespeichert")
    page.locator("#submit-quiz").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Mein Ergebnis")


def test_partial_credit_and_a_grading_policy_change_the_result(browser: Browser, live_server: LiveServer) -> None:
    teacher = make_user("frau-kreuz", teacher=True)
    anna = make_user("anna")
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=anna, raw_code=room.join_code)
    quiz = authoring.create_quiz(
        owner=teacher,
        classroom=room,
        title="Zugeben",
        pool=[("zugeben", 1)],
        item_count=1,
        max_attempts=2,
        closes_at=timezone.now() + timedelta(hours=2),
        show_answers=Quiz.ShowAnswers.AFTER_CLOSE,
        partial_credit=Quiz.PartialCredit.RIGHT_MINUS_WRONG,
        grading_policy=Quiz.GradingPolicy.HIGHEST,
    )
    quiz.items.update(seed=_seed_with_two_right_cards())
    item = quiz.items.get()
    right = questions.exercise_type("zugeben").correct_answer(questions.question_for(quiz, item, anna.pk))

    student = phone(browser, live_server, anna)
    teacher_ctx = phone(browser, live_server, teacher)
    try:
        page = student.new_page()
        page.goto(f"{live_server.url}/quiz/{quiz.pk}/start/")
        expect(page.locator("#partial-credit-rule")).to_contain_text("richtige minus falsche")
        _take(page, live_server, quiz, anna, right[:1])  # one of the two right cards: half a point
        _take(page, live_server, quiz, anna, right)  # both: the full point

        t = teacher_ctx.new_page()
        t.goto(f"{live_server.url}/quiz/{quiz.pk}/ergebnisse/")
        scores = t.locator('tr[data-student="anna"] .score')
        expect(scores).to_have_text(["0,5 / 1", "1 / 1"])
        expect(t.locator('tr.grade-row[data-student="anna"] .grade')).to_have_text("1 / 1")  # highest
        assert t.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

        t.goto(f"{live_server.url}/quiz/{quiz.pk}/bearbeiten/")
        t.get_by_label("Erster Versuch").check()
        t.get_by_role("button", name="Änderungen speichern").click()
        expect(t.locator("#grading-policy")).to_have_text("Erster Versuch")
        t.goto(f"{live_server.url}/quiz/{quiz.pk}/ergebnisse/")
        expect(t.locator('tr.grade-row[data-student="anna"] .grade')).to_have_text("0,5 / 1")  # first
    finally:
        student.close()
        teacher_ctx.close()


def test_an_override_with_a_comment_the_student_sees(browser: Browser, live_server: LiveServer) -> None:
    teacher, anna, quiz = _one_item_quiz()
    item = quiz.items.get()
    attempt = attempts.start_attempt(quiz=quiz, student=anna)
    attempts.save_answer(attempt=attempt, item=item, values=wrong_values(quiz, item, anna.pk))
    attempts.submit(attempt=attempt)

    teacher_ctx = phone(browser, live_server, teacher)
    student = phone(browser, live_server, anna)
    try:
        t = teacher_ctx.new_page()
        t.goto(f"{live_server.url}/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/")
        t.get_by_label("Punkte (0 bis 1)").fill("0.5")
        t.get_by_label("Kommentar für die Person").fill("Richtig gezählt, nur den Skat vergessen.")
        t.get_by_role("button", name="Punkte speichern").click()
        expect(t.locator(".item-grade")).to_contain_text("0,5 / 1")
        t.locator(".override-history summary").click()
        expect(t.locator(".override-history li")).to_contain_text("frau-kreuz")
        assert t.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

        s = student.new_page()
        s.goto(f"{live_server.url}/quiz/versuch/{attempt.public_id}/ergebnis/")
        expect(s.locator("#score")).to_have_text("0,5 / 1")
        expect(s.locator(".override-comment")).to_contain_text("nur den Skat vergessen")
        expect(s.locator("form.override-form")).to_have_count(0)
    finally:
        teacher_ctx.close()
        student.close()


def test_an_unanswered_item_graded_after_an_oral_answer(browser: Browser, live_server: LiveServer) -> None:
    teacher, anna, quiz = _one_item_quiz()
    attempt, _done = attempts.submit(attempt=attempts.start_attempt(quiz=quiz, student=anna))

    teacher_ctx = phone(browser, live_server, teacher)
    student = phone(browser, live_server, anna)
    try:
        t = teacher_ctx.new_page()
        t.goto(f"{live_server.url}/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/")
        expect(t.locator("#item-1")).to_contain_text("Nicht beantwortet.")
        expect(t.get_by_label("Punkte (0 bis 1)")).to_have_value("0")
        t.get_by_label("Punkte (0 bis 1)").fill("0.5")
        t.get_by_label("Kommentar für die Person").fill("Mündlich richtig gezählt.")
        t.get_by_role("button", name="Punkte speichern").click()
        expect(t.locator(".item-grade")).to_contain_text("0,5 / 1")
        expect(t.locator("#item-1")).to_contain_text("Nicht beantwortet.")
        t.goto(f"{live_server.url}/quiz/{quiz.pk}/ergebnisse/")
        expect(t.locator('tr[data-student="anna"] .score')).to_have_text("0,5 / 1")

        s = student.new_page()
        s.goto(f"{live_server.url}/quiz/versuch/{attempt.public_id}/ergebnis/")
        expect(s.locator("#score")).to_have_text("0,5 / 1")
        expect(s.locator("#item-1")).to_contain_text("Nicht beantwortet.")
        expect(s.locator(".override-comment")).to_contain_text("Mündlich richtig gezählt.")
        expect(s.locator("form.override-form")).to_have_count(0)
    finally:
        teacher_ctx.close()
        student.close()


GIFT_ONE_BAD_LINE = """::Spielwert:: Kreuz mit Zweien, einfach gewonnen: Wie viel ist das Spiel wert? {#36}

::Schneider:: Erkläre, wann ein Spiel Schneider ist. {}

::Trumpf:: Welche Karte ist im Grand der höchste Trumpf? {=Kreuz-Bube ~Herz-Ass ~Pik-Zehn}
"""


def test_an_imported_gift_file_with_one_bad_line(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    teacher = make_user("frau-kreuz", teacher=True)
    path = tmp_path / "fragen.gift"
    path.write_text(GIFT_ONE_BAD_LINE, encoding="utf-8")
    context = phone(browser, live_server, teacher)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/quiz/eigene/")
        page.get_by_role("link", name="Fragen importieren (GIFT, Moodle-XML)").click()
        page.get_by_label("Datei (höchstens 64 kB)").set_input_files(str(path))
        page.get_by_role("button", name="Vorschau zeigen").click()
        problems = page.locator("#import-problems li")
        expect(problems).to_have_count(1)
        expect(problems).to_have_text("Zeile 3: Freitextfragen werden nicht unterstützt.")
        # the preview: each accepted question as learners see it, with its key; nothing saved yet
        expect(page.locator(".import-preview > li")).to_have_count(2)
        expect(page.locator("#preview-2")).to_contain_text("Lösung: Kreuz-Bube")
        assert not OwnItem.objects.exists()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

        page.get_by_role("button", name="2 Fragen speichern").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Eigene Aufgaben")
        expect(page.locator("#own-items li")).to_have_count(2)
        assert sorted(OwnItem.objects.values_list("title", flat=True)) == ["Spielwert", "Trumpf"]
    finally:
        context.close()
