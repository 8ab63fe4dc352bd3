"""Quizzes end to end in Debian's chromium: a teacher, two students, one double click.

1. The teacher (logged in through the login page) creates a class and a quiz of 5 items
   with random variants.
2. Two students (own browser contexts, logged in with a session cookie) join, by link and
   by code, and take the quiz; answers are saved with htmx; one double-clicks "abgeben".
3. The teacher sees both results, the item statistics and a CSV that parses with ``csv``.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from skatschule.classrooms.services import grant_teacher
from skatschule.engine.names import render
from skatschule.quizzes import questions
from skatschule.quizzes.answers import answer_words, shared_question
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt, QuizItem
from skatschule.training.registry import get_type
from tests.browser.answers import fill_answer
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "kreuz-bube-und-herz-dame"
KINDS = ("augen", "spielwert", "stich", "spitzen", "reizen_hoehe")


@pytest.fixture(autouse=True)
def fast_hasher(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _context_for(browser: Browser, live_server: LiveServer, user: User) -> BrowserContext:
    """A browser context logged in as ``user`` with a session made by Django's test client."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context


def _answer_for(quiz: Quiz, item: QuizItem, student: User, right: bool) -> list[str]:
    kind = present(get_type(item.kind))
    question = questions.question_for(quiz, item, student.pk)
    values = kind.correct_answer(question)
    if right:
        return values
    if question.widget == "number":
        return [str(int(values[0]) + 1)]
    if question.widget == "choice":
        return [next(o.value for o in question.options if o.value not in values)]
    raise AssertionError(question.widget)


def _fill(page: Page, quiz: Quiz, item: QuizItem, student: User, values: list[str]) -> None:
    form = page.locator(f"#item-{item.position} form")
    fill_answer(form, questions.question_for(quiz, item, student.pk), values, item.position)


def _take(page: Page, student: User, wrong_positions: set[int], double_click: bool) -> QuizAttempt:
    page.get_by_role("link", name="Erste Runde").click()
    page.get_by_role("button", name="Quiz beginnen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Erste Runde")
    attempt = QuizAttempt.objects.get(student=student)
    quiz = attempt.quiz
    page.evaluate("window.__noReload = true")
    for item in quiz.items.all():
        values = _answer_for(quiz, item, student, right=item.position not in wrong_positions)
        _fill(page, quiz, item, student, values)
        page.locator(f"#save-{item.position}").click()
        expect(page.locator(f"#status-{item.position}")).to_contain_text("Gespeichert")
    expect(page.locator("#answered-count")).to_contain_text("5 von 5")
    assert page.evaluate("window.__noReload === true"), "saving reloaded the page"
    # Policy "after submitting": nothing graded is on the page yet.
    expect(page.locator(".feedback-correct, .feedback-wrong")).to_have_count(0)
    button = page.get_by_role("button", name="Quiz abgeben")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/abgeben/") else None)
    if double_click:
        # Two more submits race the double click: fired from the page, not awaited.
        page.evaluate(
            """() => { const f = document.querySelector('form.submit-quiz');
                       for (let i = 0; i < 2; i++) fetch(f.action, {method: 'POST', body: new FormData(f)}); }"""
        )
        button.dblclick()
    else:
        button.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Mein Ergebnis")
    expect(page.locator("#score")).to_have_text(f"{5 - len(wrong_positions)} / 5")
    assert len(posts) >= (3 if double_click else 1), posts
    return attempt


def test_teacher_class_quiz_two_students_results(browser: Browser, live_server: LiveServer) -> None:
    User = get_user_model()
    teacher = User.objects.create_user("frau-kreuz", password=PASSWORD)
    grant_teacher(user=teacher)
    anna = User.objects.create_user("anna")
    ben = User.objects.create_user("ben")

    # 1. The teacher logs in, creates a class and a quiz with random variants.
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    teacher_ctx.set_default_timeout(15_000)
    t = teacher_ctx.new_page()
    t.goto(live_server.url + "/klassen/")
    expect(t).to_have_url(re.compile(r"/konto/anmelden/\?next=/klassen/$"))
    t.locator("#id_username").fill("frau-kreuz")
    t.locator("#id_password").fill(PASSWORD)
    t.locator("main").get_by_role("button", name="Anmelden").click()
    expect(t).to_have_url(re.compile(r"/klassen/$"))
    t.get_by_label("Name der neuen Klasse").fill("Skatclub Donnerstag")
    t.get_by_role("button", name="Klasse anlegen").click()
    expect(t.get_by_role("heading", level=1)).to_have_text("Skatclub Donnerstag")
    code = t.locator("#join-code").inner_text()
    join_link = present(t.locator("#join-link").get_attribute("href"))
    t.get_by_role("link", name="Neues Quiz für diese Klasse").click()
    t.get_by_label("Titel").fill("Erste Runde")
    for kind in KINDS:
        t.locator(f'input[name="kinds"][value="{kind}"]').check()
    t.get_by_label("Anzahl der Aufgaben").fill("5")
    t.get_by_label("Zufällige Varianten je Person").check()
    t.get_by_role("button", name="Quiz anlegen").click()
    expect(t.get_by_role("heading", level=1)).to_have_text("Erste Runde")
    quiz = Quiz.objects.get()
    assert quiz.variants == "random" and sorted(i.kind for i in quiz.items.all()) == sorted(KINDS)
    expect(t.locator("#publication-state")).to_contain_text("Entwurf")  # a new quiz is a draft
    t.get_by_role("button", name="Jetzt veröffentlichen").click()
    expect(t.locator("#publication-state")).to_contain_text("Veröffentlicht")

    # 2. Two students join (by link, by code) and take it; Anna double-clicks "abgeben".
    anna_ctx = _context_for(browser, live_server, anna)
    a = anna_ctx.new_page()
    a.goto(join_link)
    a.get_by_role("button", name="Beitreten").click()
    expect(a.get_by_role("status")).to_contain_text("Skatclub Donnerstag")
    anna_attempt = _take(a, anna, wrong_positions=set(), double_click=True)

    ben_ctx = _context_for(browser, live_server, ben)
    b = ben_ctx.new_page()
    b.goto(live_server.url + "/klassen/")
    b.get_by_label("Beitrittscode").fill(code.lower())
    b.get_by_role("button", name="Beitreten").click()
    ben_attempt = _take(b, ben, wrong_positions={2, 4}, double_click=False)

    # The double click recorded one attempt, submitted once, with one answer per item.
    assert QuizAttempt.objects.filter(student=anna).count() == 1
    anna_attempt.refresh_from_db()
    assert anna_attempt.submitted_at is not None and anna_attempt.score == 5
    assert QuizAnswer.objects.filter(attempt=anna_attempt).count() == 5
    # Random variants: the two students got different questions for at least one item.
    assert any(
        questions.derive_seed(quiz, item, anna.pk) != questions.derive_seed(quiz, item, ben.pk)
        for item in quiz.items.all()
    )

    # 3. The teacher sees both results, the item statistics and the CSV.
    t.get_by_role("link", name="Ergebnisse", exact=True).click()
    rows = t.locator("tr.result-row")
    expect(rows).to_have_count(2)
    expect(t.locator('tr[data-student="anna"] .score')).to_have_text("5 / 5")
    expect(t.locator('tr[data-student="ben"] .score')).to_have_text("3 / 5")
    expect(t.locator("tr.item-stat")).to_have_count(5)
    expect(t.locator("#stat-1 .percent")).to_have_text("100 %")
    expect(t.locator("#stat-2 .percent")).to_have_text("50 %")
    ben_wrong = QuizAnswer.objects.get(attempt=ben_attempt, item__position=2)
    # the statistics name a wrong answer in words ("mit 1" for "+1"), as the presenter reads it
    wrong_words = answer_words(ben_wrong.normalized, "de", *shared_question(quiz, ben_wrong.item), ben_wrong.item.kind)
    expect(t.locator("#stat-2")).to_contain_text(render(wrong_words, "de", "french"))

    response = t.request.get(live_server.url + f"/quiz/{quiz.pk}/ergebnisse.csv")
    assert response.ok and response.headers["content-type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(response.body().decode("utf-8-sig"))))
    assert sorted((r["Benutzername"], r["Punkte"], r["Aufgabe 2 Punkte"]) for r in table) == [
        ("anna", "5", "1"),
        ("ben", "3", "0"),
    ]
    for context in (teacher_ctx, anna_ctx, ben_ctx):
        context.close()
