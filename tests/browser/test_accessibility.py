"""Accessibility of the casebook, the referee exam and the quizzes in Debian's chromium.

- The referee exam of 5 questions, answered and submitted with the keyboard only (Tab, arrow
  keys, Space, typing, Enter): every focused control shows a visible focus ring, answer
  options sit in a fieldset with a legend, every input has a label.
- Answering a training exercise with the keyboard: after the htmx swap the focus lands on
  "Nächste Aufgabe" (``autofocus`` in the feedback), not on the page body.
- Saving a quiz answer with the keyboard: the feedback lands in a live region and the focus
  is not lost when the swap replaces the focused button.
- At phone width (390 px) the casebook, a case, an exam question and the quiz results do not
  scroll sideways; the results tables scroll inside their wrapper.
- In English the exam page keeps no German of its chrome (status line, timer, labels).
- No console errors and no CSP violations on any of these pages.

Right answers come from the exercise types (``correct_answer``), graded by the engine.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import ConsoleMessage, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.casebook import services as casebook
from skatschule.casebook.models import Exam
from skatschule.classrooms import services as classrooms
from skatschule.exercises.answers import signed_choice
from skatschule.quizzes import questions
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import attempts, authoring
from skatschule.training.registry import get_type
from tests.people import make_user
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The element that has the focus, when it shows no focus ring (its own outline or box shadow,
# or for the hidden card checkboxes the card drawn next to it). "" means: the ring is visible.
FOCUS_WITHOUT_RING = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "<body>";
  const ring = (x) => { const s = getComputedStyle(x);
    return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none"; };
  const next = e.nextElementSibling;
  return ring(e) || (next && ring(next)) ? "" : e.outerHTML.slice(0, 160);
}"""

# Inputs without a label, and radio buttons or checkboxes outside a fieldset with a legend.
FORM_PROBLEMS = """() => {
  const fields = [...document.querySelectorAll("main input:not([type=hidden]), main select, main textarea")];
  const unlabelled = fields.filter(e => !(e.labels && e.labels.length) && !e.getAttribute("aria-label")
                                        && !e.getAttribute("aria-labelledby"));
  const loose = fields.filter(e => (e.type === "radio" || e.type === "checkbox")
                                   && !(e.closest("fieldset") && e.closest("fieldset").querySelector("legend")));
  return unlabelled.concat(loose).map(e => e.outerHTML.slice(0, 160));
}"""


def _watch(page: Page) -> list[str]:
    """Collect console errors (CSP violations are reported there too) and uncaught exceptions."""
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    return problems


def _login(page: Page, live_server: LiveServer, user: User) -> None:
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def _tab_until(page: Page, predicate: str, limit: int = 80) -> None:
    """Press Tab until ``predicate`` (JS, on document.activeElement) holds; each stop shows its focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUS_WITHOUT_RING) == "", "focus without a visible ring"
        if page.evaluate(f"(e => !!({predicate}))(document.activeElement)"):
            return
    raise AssertionError(f"Tab never reached {predicate}")


def _pick_radio(page: Page, value: str, count: int) -> None:
    """With the focus on a radio group: Space checks the focused option, arrows move on."""
    page.keyboard.press("Space")
    for _ in range(count):
        if page.evaluate("document.activeElement.checked && document.activeElement.value") == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"option {value} not reached with the arrow keys")


def _quiz_with_result(
    teacher: User,
    student: User,
    show_answers: str = Quiz.ShowAnswers.AFTER_SUBMIT,
    submit: bool = True,
    variants: str = Quiz.Variants.FIXED,
) -> Quiz:
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=student, raw_code=room.join_code)
    pool = [("augen", 1), ("stich", 1), ("spielwert", 1), ("spitzen", 1), ("reizen_hoehe", 1)]
    quiz = authoring.create_quiz(
        owner=teacher,
        classroom=room,
        title="Erste Runde",
        pool=pool,
        item_count=5,
        show_answers=show_answers,
        variants=variants,
    )
    if submit:
        attempt = attempts.start_attempt(quiz=quiz, student=student)
        for item in quiz.items.all():
            question = questions.question_for(quiz, item, student.pk)
            attempts.save_answer(
                attempt=attempt, item=item, values=present(get_type(item.kind)).correct_answer(question)
            )
        attempts.submit(attempt=attempt)
    return quiz


def test_exam_of_five_by_keyboard_only(page: Page, live_server: LiveServer) -> None:
    problems = _watch(page)
    page.goto(live_server.url + "/faelle/pruefung/?fragen=5")
    _tab_until(page, "e.type === 'submit' && e.closest('main')")
    page.keyboard.press("Enter")
    expect(page.locator("#exam-status")).to_contain_text("Frage 1 von 5", timeout=15_000)
    exam = Exam.objects.latest("started_at", "pk")
    for item in exam.questions.order_by("position"):
        expect(page.locator("#exam-status")).to_contain_text(f"Frage {item.position} von 5", timeout=15_000)
        assert page.evaluate(FORM_PROBLEMS) == []
        question = casebook.question_of(item)
        right = casebook.exam_type(kind=item.kind).correct_answer(question)
        if question.widget in ("choice", "case"):
            _tab_until(page, "e.type === 'radio' && e.closest('form.answer-form')")
            _pick_radio(page, right[0], len(question.options))
        if question.widget in ("number", "case"):
            _tab_until(page, "e.type === 'number' && e.closest('form.answer-form')")
            page.keyboard.type(right[-1])
        _tab_until(page, "e.type === 'submit' && e.closest('form.answer-form')")
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Auswertung der Prüfung", timeout=15_000)
    expect(page.locator("#exam-score")).to_contain_text("5 von 5 richtig")
    expect(page.locator(".review-item.feedback-correct")).to_have_count(5)
    assert problems == []


def test_quiz_feedback_is_announced_and_keeps_the_focus(page: Page, live_server: LiveServer) -> None:
    teacher, student = make_user("lehrerin", teacher=True), make_user("schueler")
    # random variants: feedback at once (a fixed quiz keeps its shared key until it closes)
    quiz = _quiz_with_result(
        teacher, student, show_answers=Quiz.ShowAnswers.IMMEDIATELY, submit=False, variants=Quiz.Variants.RANDOM
    )
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    _login(page, live_server, student)
    problems = _watch(page)
    page.goto(live_server.url + f"/quiz/versuch/{attempt.public_id}/")
    assert page.evaluate(FORM_PROBLEMS) == []
    item = quiz.items.get(position=1)
    question = questions.question_for(quiz, item, student.pk)
    right = present(get_type(item.kind)).correct_answer(question)
    _tab_until(page, "e.name === 'answer' && e.closest('#item-1')")
    if signed_choice(question):  # Spitzen: the mit/ohne pair, then the number, by keyboard
        _pick_radio(page, right[0][0], 2)
        page.keyboard.press("Tab")
        page.keyboard.type(right[0][1:])
    elif question.widget == "number":
        page.keyboard.type(right[0])
    elif question.widget == "choice":
        _pick_radio(page, right[0], len(question.options))
    else:  # other widgets: fill them, the point here is the swap
        for value in right:
            page.locator(f'#item-1 input[value="{value}"]').check()
    _tab_until(page, "e.id === 'save-1'")
    page.keyboard.press("Enter")
    status = page.locator("#status-1")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(status.locator(".feedback-correct[role=status]")).to_be_visible(timeout=15_000)
    expect(page.locator("#save-1")).to_be_disabled()
    # The focused button was replaced: the focus moved to the announced status area, not to <body>.
    expect(status).to_be_focused()
    expect(page.locator("#answered-count")).to_contain_text("1 von 5")
    assert problems == []


def test_phone_width_no_sideways_scrolling(phone_page: Page, live_server: LiveServer) -> None:
    page = phone_page
    page.set_viewport_size({"width": 390, "height": 844})
    teacher, student = make_user("lehrerin", teacher=True), make_user("schueler")
    quiz = _quiz_with_result(teacher, student)
    problems = _watch(page)
    # A number, not window.innerWidth: a mobile viewport widens itself to fit wide content.
    wide = "document.documentElement.scrollWidth > 390"

    for path in ("/faelle/", "/faelle/F-24/"):
        page.goto(live_server.url + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert not page.evaluate(wide), path
    page.goto(live_server.url + "/faelle/pruefung/?fragen=5")
    page.get_by_role("button", name="Prüfung starten").click()
    expect(page.locator("#exam-status")).to_contain_text("Frage 1 von 5", timeout=15_000)
    assert not page.evaluate(wide), "exam question"

    _login(page, live_server, teacher)
    page.goto(live_server.url + f"/quiz/{quiz.pk}/ergebnisse/")
    expect(page.locator("tr.result-row")).to_have_count(1)
    assert not page.evaluate(wide), "quiz results"
    # Both tables sit in a scrolling wrapper; the wider one scrolls there, not the page.
    for table in ("table.results-table", "table.item-stats"):
        assert page.evaluate(f"!!document.querySelector('{table}').closest('.table-wrap')"), table
    assert page.evaluate("[...document.querySelectorAll('.table-wrap')].some(w => w.scrollWidth > w.clientWidth)")
    assert problems == []


def test_english_exam_page_has_no_german_chrome(page: Page, live_server: LiveServer) -> None:
    problems = _watch(page)
    page.goto(live_server.url + "/faelle/pruefung/?fragen=5")
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("button", name="Start the exam").click()
    status = page.locator("#exam-status")
    expect(status).to_contain_text("Question 1 of 5", timeout=15_000)
    expect(page.locator(".exam-timer")).to_contain_text(re.compile(r"time left \d+:\d\d"))
    expect(page.locator("progress.progress")).to_have_attribute("aria-label", "Answered")
    expect(page.locator("form.answer-form button[type=submit]")).to_have_text("Answer")
    chrome = " ".join(
        page.locator(selector).first.inner_text()
        for selector in ("#exam-status", "form.answer-form legend, form.answer-form label", "form.exam-finish")
    )
    german = re.compile(r"\b(Frage|Abgabe|Uhr|noch|Sekunden|Wähle|Antwort\w*|Prüfung|Beantwortet|Listeneintrag)\b")
    assert not german.search(chrome), chrome
    assert problems == []


def test_training_answer_by_keyboard_moves_focus_to_next_exercise(page: Page, live_server: LiveServer) -> None:
    problems = _watch(page)
    page.goto(live_server.url + "/ueben/aufgabe/stich/?stufe=1")
    _tab_until(page, "e.type === 'radio'")
    page.keyboard.press("Space")
    _tab_until(page, "e.type === 'submit' && e.closest('form.answer-form')")
    page.keyboard.press("Enter")
    expect(page.locator(".feedback[role=status]")).to_be_visible(timeout=15_000)
    expect(page.locator("a.next-exercise")).to_be_focused(timeout=15_000)
    assert problems == []
