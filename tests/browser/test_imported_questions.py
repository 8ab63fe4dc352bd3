"""Issue 34 §6 in Debian's chromium at 375 px: imported questions answered as typed text, a number
with a decimal comma, graded as Moodle grades them (a short answer's alternative, a numerical
question's 50 % range), and the part credit shown as such."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.classrooms import services as classrooms
from skatschule.quizzes import own_items, questions
from skatschule.quizzes.models import QuizAttempt
from skatschule.quizzes.services import authoring, importing
from tests.browser.answers import fill_answer
from tests.browser.phones import phone
from tests.people import make_user
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GIFT = """::Kurz:: Wie heißt das Spiel ohne Trümpfe? {=Null =Nullspiel =%50%Null ouvert}

::Zahl:: Was ist Kreuz mit 2, Spiel 3, wert? {#=36:0 =%50%36:12}
"""


def test_imported_text_and_decimal_answers(browser: Browser, live_server: LiveServer) -> None:
    teacher = make_user("frau-kreuz", teacher=True)
    anna = make_user("anna")
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=anna, raw_code=room.join_code)
    quiz = authoring.create_quiz(
        owner=teacher, classroom=room, title="Import", pool=[("augen", 1)], item_count=1, variants="random"
    )
    quiz.items.all().delete()
    for own in importing.import_questions(owner=teacher, data=GIFT.encode(), fmt="gift").items:
        own_items.add_to_quiz(owner=teacher, item=own, quiz=quiz)
    context = phone(browser, live_server, anna)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/quiz/{quiz.pk}/start/")
        page.locator("#start-quiz").click()
        attempt = present(QuizAttempt.objects.filter(student=anna).first())
        for item, typed in zip(quiz.items.order_by("position"), ("nullspiel", "40,5")):
            question = questions.question_for(quiz, item, anna.pk, attempt.number)
            fill_answer(page.locator(f"#item-{item.position} form"), question, [typed], item.position)
            page.locator(f"#save-{item.position}").click()
            expect(page.locator(f"#status-{item.position}")).to_contain_text("Gespeichert")
        page.locator("#submit-quiz").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Mein Ergebnis")
        expect(page.locator("#score")).to_have_text("1,5 / 2")
        expect(page.locator("#item-1 .feedback-verdict")).to_have_text("Richtig!")
        expect(page.locator("#item-2 .feedback-verdict")).to_have_text("Teilweise richtig: 0,5 von 1 Punkt.")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        context.close()
