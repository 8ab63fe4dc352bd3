"""Issues 28 §2 and 35 §4 in Debian's chromium at 375 px: a live class round with three learners
and the teacher.

The learners join in the lobby (Anna types the code shown on the projector, which counts who
joined). Anna's and Carla's phones run JavaScript (a pushed event reloads the page when the teacher
moves on; the timer counts down); Ben's does not and uses the plain reload link. Nothing graded
reaches a phone before the reveal; after it the projector shows the leaderboard (Anna under the
name her LMS sent), at the end the final standings, and the scores are in the quiz's results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.classrooms import services as classrooms
from skatschule.quizzes import questions
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import authoring
from tests.browser.answers import fill_answer
from tests.browser.phones import phone
from tests.people import make_user
from tests.quizzes.helpers import right_values, wrong_values

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _answer(page: Page, quiz: Quiz, position: int, values: list[str]) -> None:
    item = quiz.items.get(position=position)
    expect(page.locator("#live-send")).to_be_visible()  # a JavaScript phone: reloaded when pushed
    fill_answer(page.locator(".answer-form"), questions.question_for(quiz, item, None), values, position)
    page.locator("#live-send").click()
    expect(page.locator("#live-status")).to_contain_text("Deine Antwort ist gespeichert")


def test_a_live_round_with_three_learners(browser: Browser, live_server: LiveServer) -> None:
    teacher = make_user("frau-kreuz", teacher=True)
    anna, ben, carla = make_user("anna"), make_user("ben"), make_user("carla")
    anna.first_name, anna.last_name = "Anna", "Pik"  # as an LMS sends it
    anna.save()
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    for learner in (anna, ben, carla):
        classrooms.join(student=learner, raw_code=room.join_code)
    quiz = authoring.create_quiz(owner=teacher, classroom=room, title="Augen live", pool=[("augen", 1)], item_count=2)
    first, second = quiz.items.get(position=1), quiz.items.get(position=2)

    t_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    phone_teacher = phone(browser, live_server, teacher)  # only for the login cookie
    # the cookies a context gives are cookies another accepts (two TypedDicts for one shape in the stubs)
    t_ctx.add_cookies(cast("list[SetCookieParam]", phone_teacher.cookies()))
    a_ctx = phone(browser, live_server, anna)
    b_ctx = phone(browser, live_server, ben, java_script_enabled=False)
    c_ctx = phone(browser, live_server, carla)
    try:
        t = t_ctx.new_page()
        t.goto(f"{live_server.url}/quiz/{quiz.pk}/")
        t.get_by_role("link", name="Live in der Klasse").click()
        t.locator("#live-seconds").fill("120")
        t.locator("#live-start").click()
        code = t.locator("#live-code").inner_text().strip()

        a, b, c = a_ctx.new_page(), b_ctx.new_page(), c_ctx.new_page()
        a.goto(f"{live_server.url}/quiz/mitmachen/")
        a.locator("#live-code").fill(code)
        a.get_by_role("button", name="Weiter").click()
        for p in (b, c):
            p.goto(f"{live_server.url}/quiz/{quiz.pk}/mitmachen/")
        for p in (a, b, c):
            p.locator("#live-join-button").click()
            expect(p.locator("#live-status")).to_contain_text("Du bist dabei")
        expect(t.locator("#live-count")).to_contain_text("3 Personen sind dabei")  # pushed

        t.locator("#live-next").click()
        expect(t.locator("#live-title")).to_contain_text("Frage 1 von 2")
        expect(t.locator("#live-timer")).to_contain_text("Sekunden")
        b.get_by_role("link", name="Neu laden").click()
        _answer(a, quiz, 1, right_values(quiz, first, None))
        _answer(b, quiz, 1, wrong_values(quiz, first, None))
        _answer(c, quiz, 1, right_values(quiz, first, None))
        for p in (a, b, c):  # no grade, no right answer, no points before the reveal
            expect(p.locator(".feedback")).to_have_count(0)
            expect(p.locator("body")).not_to_contain_text("Richtige Antwort")
            expect(p.locator("#live-my-place")).to_have_count(0)
        expect(t.locator("#live-count")).to_contain_text("3 von 3 haben geantwortet")  # pushed

        t.locator("#live-reveal-button").click()
        rows = t.locator(".live-distribution tbody tr")
        expect(rows).to_have_count(2)
        expect(t.locator(".live-distribution")).to_contain_text("✓ richtig")
        expect(t.locator(".live-distribution")).to_contain_text("✗ falsch")
        board = t.locator("#live-leaderboard tbody tr")
        expect(board).to_have_count(3)
        expect(board.last).to_contain_text("ben")  # wrong: 0 points, last
        expect(t.locator("#live-leaderboard")).to_contain_text("Anna Pik")
        expect(a.locator("#live-my-place")).to_contain_text("von 3")

        expect(a.locator(".feedback-correct")).to_be_visible()  # htmx: reloaded by the poll
        b.get_by_role("link", name="Neu laden").click()  # no JavaScript: the plain link
        expect(b.locator(".feedback-wrong")).to_be_visible()

        t.locator("#live-next").click()
        expect(t.locator("#live-title")).to_contain_text("Frage 2 von 2")
        expect(a.locator("#live-send")).to_be_visible()
        _answer(a, quiz, 2, right_values(quiz, second, None))  # Ben does not answer this one
        t.locator("#live-reveal-button").click()
        b.get_by_role("link", name="Neu laden").click()
        expect(b.locator("#live-status")).to_contain_text("nicht beantwortet")

        t.locator("#live-end").click()
        expect(t.locator("#live-leaderboard caption")).to_have_text("Endstand")
        expect(t.locator("#live-leaderboard tbody tr").first).to_contain_text("Anna Pik")  # two right answers
        t.locator("#live-results").click()
        expect(t.locator('tr.result-row[data-student="anna"] .score')).to_have_text("2 / 2")
        expect(t.locator('tr.result-row[data-student="ben"] .score')).to_have_text("0 / 2")
        expect(a.get_by_role("link", name="Mein Ergebnis")).to_be_visible()
    finally:
        for ctx in (t_ctx, phone_teacher, a_ctx, b_ctx, c_ctx):
            ctx.close()
