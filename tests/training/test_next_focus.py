"""After "Nächste Aufgabe" the new question gets the keyboard focus: the link carries
``weiter=1`` and the page it leads to autofocuses the question's heading (only then)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.training.models import IssuedExercise

from .helpers import right_answer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_training")]

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
NEXT = re.compile(r'<a class="btn next-exercise" href="([^"]+)" autofocus>')


@pytest.mark.parametrize(
    "start",
    [
        reverse("training:exercise", kwargs={"kind": "fake_add"}) + "?stufe=2",
        reverse("training:lesson", kwargs={"slug": "addieren"}),
    ],
)
def test_next_link_leads_to_a_focused_question(start: str) -> None:
    client = Client()
    page = client.get(start).content.decode()
    assert " autofocus>" not in page.split('<section class="exercise"')[1].split("</h2>")[0]
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    feedback = client.post(
        reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)}, **HTMX
    ).content.decode()
    found = NEXT.search(feedback)
    assert found, feedback
    href = found.group(1).replace("&amp;", "&")
    assert href.endswith("weiter=1") and href.count("?") == 1
    assert href.split("?")[0] == start.split("?")[0]
    page = client.get(href).content.decode()
    following = IssuedExercise.objects.latest("issued_at", "pk")
    assert following.pk != issued.pk
    assert f'<h2 id="exercise-title-{following.public_id}" tabindex="-1" autofocus>' in page
