"""The live round's event streams, read through the test client (under WSGI a stream sends the
state once and ends; the browser reconnects): the projector gets the count, a phone only that
the round moved on, nothing about answers."""

from __future__ import annotations

from typing import cast

import pytest
from django.http import StreamingHttpResponse
from django.test import Client

from skatschule.classrooms import services as classrooms
from skatschule.quizzes.services import authoring, live
from skatschule.quizzes.views_live import _stamp
from tests.people import make_user

pytestmark = pytest.mark.django_db


def _body(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    return cast(StreamingHttpResponse, response).getvalue().decode()


def test_the_projector_hears_the_count_and_a_phone_only_that_the_round_moved_on() -> None:
    teacher, anna = make_user("frau-herz", teacher=True), make_user("anna")
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=anna, raw_code=room.join_code)
    quiz = authoring.create_quiz(owner=teacher, classroom=room, title="Live", pool=[("augen", 1)], item_count=2)
    session = live.start_live(quiz=quiz, teacher=teacher)
    live.show_item(session=session, teacher=teacher, position=1)
    projector, phone = Client(), Client()
    projector.force_login(teacher)
    phone.force_login(anna)

    body = _body(projector, f"/quiz/{quiz.pk}/live/ereignisse/")
    assert "event: count" in body and "haben geantwortet" in body
    assert phone.get(f"/quiz/{quiz.pk}/live/ereignisse/").status_code == 404  # not the teacher's page

    session.refresh_from_db()
    shown = _stamp(session=session)
    url = f"/quiz/{quiz.pk}/mitmachen/ereignisse/?stamp={shown}"
    assert "event:" not in _body(phone, url)  # the page is current: nothing to say
    live.show_item(session=session, teacher=teacher, position=2)
    moved = _body(phone, url)
    assert "event: changed" in moved and "data: \n" in moved  # that is all a phone hears
