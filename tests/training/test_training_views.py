from __future__ import annotations

import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from skatschule.owners import Owner
from skatschule.training.models import Attempt, IssuedExercise, ReviewItem
from tests.present import present

from .helpers import right_answer, wrong_answer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_training")]

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def _client(lang: str) -> Client:
    client = Client()
    client.cookies["django_language"] = lang
    return client


def _issued_from_page(client: Client, url: str) -> IssuedExercise:
    response = client.get(url)
    assert response.status_code == 200, url
    return IssuedExercise.objects.latest("issued_at", "pk")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_renders(lang: str) -> None:
    client = _client(lang)
    pages = [
        reverse("training:lessons"),
        reverse("training:lesson", kwargs={"slug": "addieren"}),
        reverse("training:lesson", kwargs={"slug": "waehlen"}) + "?stufe=4",
        reverse("training:lesson", kwargs={"slug": "kneipe"}),
        reverse("training:exercise", kwargs={"kind": "fake_add"}),
        reverse("training:exercise", kwargs={"kind": "fake_add"}) + "?stufe=3",
        reverse("training:exercise", kwargs={"kind": "fake_jacks"}),
        reverse("training:exercise", kwargs={"kind": "fake_order"}),
        reverse("training:exercise", kwargs={"kind": "fake_multi"}),
        reverse("training:exercise", kwargs={"kind": "fake_pick"}) + "?stufe=2",
        reverse("training:dashboard"),
        reverse("training:review"),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'<html lang="{lang}"' in response.content.decode()
    issued = present(IssuedExercise.objects.filter(kind="fake_add").first())
    response = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": wrong_answer(issued)})
    assert response.status_code == 200
    for url in pages[:1] + pages[-2:]:
        assert client.get(url).status_code == 200


def test_language_switches_content() -> None:
    de = _client("de").get(reverse("training:lesson", kwargs={"slug": "addieren"})).content.decode()
    en = _client("en").get(reverse("training:lesson", kwargs={"slug": "addieren"})).content.decode()
    assert "Wie viel ist" in de and "Zwei Karten" in de
    assert "What is" in en and "Two cards" in en and "Zwei Karten" not in en


def test_lesson_page_shows_text_rules_progress_and_exercise() -> None:
    client = Client()
    html = client.get(reverse("training:lesson", kwargs={"slug": "addieren"})).content.decode()
    assert 'href="/regeln/4.1.1' in html
    assert 'class="cards"' in html  # [[cards: ...]] rendered as card pictures
    assert ">21<" in html  # [[points: CA CT]]
    assert 'id="lesson-progress"' in html and "<progress" in html
    assert 'hx-post="/ueben/antwort/' in html
    issued = IssuedExercise.objects.get()
    assert issued.lesson == "addieren" and issued.mode == "lesson" and issued.difficulty == 1


def test_lesson_moves_up_a_step_after_five_right() -> None:
    client = Client()
    url = reverse("training:lesson", kwargs={"slug": "addieren"})
    for _ in range(5):
        issued = _issued_from_page(client, url)
        assert issued.difficulty == 1
        client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)})
    assert _issued_from_page(client, url).difficulty == 2
    assert _issued_from_page(client, url + "?stufe=1").difficulty == 1


def test_variant_lesson_is_marked() -> None:
    html = Client().get(reverse("training:lesson", kwargs={"slug": "kneipe"})).content.decode()
    assert "variant-note" in html


def test_lessons_page_marks_the_suggestion() -> None:
    html = Client().get(reverse("training:lessons")).content.decode()
    assert html.count("lesson-item is-suggested") == 1
    assert 'id="lesson-addieren"' in html
    assert html.index("lesson-item is-suggested") < html.index('id="lesson-waehlen"')


def test_htmx_answer_returns_the_partial() -> None:
    client = Client()
    issued = _issued_from_page(client, reverse("training:lesson", kwargs={"slug": "addieren"}))
    response = client.post(
        reverse("training:answer", args=[issued.public_id]), {"answer": wrong_answer(issued)}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and "<body" not in html
    assert "feedback-wrong" in html
    assert right_answer(issued)[0] in html  # the correct answer is shown after answering
    assert 'href="/regeln/4.1.1' in html  # rule links
    assert "Nächste Aufgabe" in html
    assert 'id="lesson-progress" class="lesson-progress" hx-swap-oob="true"' in html
    assert f'id="submit-{issued.public_id}" hx-swap-oob="true" disabled' in html
    assert Attempt.objects.count() == 1


def test_htmx_answer_right_moves_the_progress_bar() -> None:
    client = Client()
    issued = _issued_from_page(client, reverse("training:lesson", kwargs={"slug": "addieren"}))
    html = client.post(
        reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)}, **HTMX
    ).content.decode()
    assert "feedback-correct" in html
    assert f'value="{round(100 / 8)}"' in html


def test_plain_answer_returns_the_full_page() -> None:
    client = Client()
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    response = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html and "feedback-correct" in html
    assert "?stufe=1" in html  # next exercise: same type and level
    # the practice page shows the progress of the lesson that has this step
    assert 'id="lesson-progress"' in html


def test_english_feedback() -> None:
    client = _client("en")
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_pick"}))
    html = client.post(
        reverse("training:answer", args=[issued.public_id]), {"answer": wrong_answer(issued)}, **HTMX
    ).content.decode()
    assert "letter" in html and "Buchstabe" not in html
    assert "Next exercise" in html and "Correct answer" in html and "Nächste Aufgabe" not in html


def test_double_submit_via_views() -> None:
    client = Client()
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    url = reverse("training:answer", args=[issued.public_id])
    first = client.post(url, {"answer": wrong_answer(issued)}, **HTMX)
    second = client.post(url, {"answer": right_answer(issued)}, **HTMX)
    assert first.status_code == second.status_code == 200
    assert "feedback-wrong" in second.content.decode()
    assert Attempt.objects.count() == 1


def test_forged_and_foreign_uuids_are_404() -> None:
    client = Client()
    assert client.post(reverse("training:answer", args=[uuid.uuid4()]), {"answer": "1"}).status_code == 404
    issued = _issued_from_page(Client(), reverse("training:exercise", kwargs={"kind": "fake_add"}))
    response = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)})
    assert response.status_code == 404
    assert client.post("/ueben/antwort/not-a-uuid/", {"answer": "1"}).status_code == 404
    assert not Attempt.objects.exists()


def test_read_only_pages_start_no_session() -> None:
    client = Client()
    for name in ("training:lessons", "training:dashboard", "training:review"):
        assert client.get(reverse(name)).status_code == 200
    assert "sessionid" not in client.cookies
    client.get(reverse("training:exercise", kwargs={"kind": "fake_add"}))
    assert "sessionid" in client.cookies


def test_review_skips_items_of_vanished_types_and_levels(owner: Owner) -> None:
    client = Client()
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    key = issued.session_key
    now = timezone.now() - timedelta(seconds=1)
    for kind, level in (("gone", 1), ("fake_add", 9)):
        ReviewItem.objects.create(session_key=key, kind=kind, difficulty=level, seed=1, card={}, due=now)
    response = client.get(reverse("training:review"))
    assert response.status_code == 200 and "keine Wiederholung" in response.content.decode()


def test_bad_input_statuses() -> None:
    client = Client()
    assert client.get(reverse("training:exercise", kwargs={"kind": "nope"})).status_code == 404
    assert client.get(reverse("training:lesson", kwargs={"slug": "nope"})).status_code == 404
    for level in ("0", "4", "x", "-1", "1.5", "99999999999999999999", "²", "٢", "２"):
        response = client.get(reverse("training:exercise", kwargs={"kind": "fake_add"}) + f"?stufe={level}")
        assert response.status_code == 400, level
    for step in ("0", "3", "x", "²", "٢", "２", "9" * 5000):  # "٢" and "２" are no plain 2
        response = client.get(reverse("training:lesson", kwargs={"slug": "addieren"}) + f"?stufe={step}")
        assert response.status_code == 400, step
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    assert client.get(reverse("training:answer", args=[issued.public_id])).status_code == 405


def test_unreadable_answer_without_htmx_is_400_with_message() -> None:
    client = Client()
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    response = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": "zwölf"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "keine ganze Zahl" in html and "<form" in html
    assert not Attempt.objects.exists()


def test_unreadable_answer_with_htmx_is_swapped() -> None:
    client = _client("en")
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    response = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": "twelve"}, **HTMX)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "innerHTML"
    html = response.content.decode()
    assert 'role="alert"' in html and "not a whole number" in html and "<html" not in html


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"answer": ""},
        {"answer": ["1", "2", "3"]},
        {"answer": "x" * 5000},
        {"answer": ["1"] * 150},
        {"answer": "\x00"},
        {"answer": "CJ SJ"},
        {"antwort": "1"},
        {"answer": "-0"},
        {"answer": "١٢"},
    ],
)
@pytest.mark.parametrize("kind", ["fake_add", "fake_pick", "fake_jacks", "fake_order", "fake_multi"])
def test_junk_posts_never_500(kind: str, data: dict[str, Any]) -> None:
    client = Client(raise_request_exception=False)
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": kind}))
    response = client.post(reverse("training:answer", args=[issued.public_id]), data)
    assert response.status_code in (200, 400), (kind, data, response.status_code)
    response = client.post(reverse("training:answer", args=[issued.public_id]), data, **HTMX)
    assert response.status_code == 200


def test_csrf_is_enforced() -> None:
    client = Client(enforce_csrf_checks=True)
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    response = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)})
    assert response.status_code == 403


def test_review_page_serves_a_fresh_variant() -> None:
    client = Client()
    issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
    client.post(reverse("training:answer", args=[issued.public_id]), {"answer": wrong_answer(issued)})
    html = client.get(reverse("training:dashboard")).content.decode()
    assert "Wiederholen (0 fällig)" in html
    ReviewItem.objects.update(due=timezone.now() - timedelta(seconds=1))
    html = client.get(reverse("training:dashboard")).content.decode()
    assert "Wiederholen (1 fällig)" in html
    response = client.get(reverse("training:review"))
    assert response.status_code == 200
    again = IssuedExercise.objects.latest("issued_at", "pk")
    assert again.seed != issued.seed and again.mode == "review" and again.pk != issued.pk
    assert again.kind == issued.kind and again.difficulty == issued.difficulty
    client.get(reverse("training:review"))  # a reload shows the same variant
    assert IssuedExercise.objects.latest("issued_at", "pk") == again
    response = client.post(reverse("training:answer", args=[again.public_id]), {"answer": right_answer(again)})
    # nothing is due any more: the next step is no longer the (empty) review queue but a lesson step
    next_link = re.search(r'<a class="btn next-exercise" href="([^"]+)"', response.content.decode())
    assert next_link and next_link.group(1).startswith("/ueben/lektion/") and "stufe=" in next_link.group(1)
    assert ReviewItem.objects.get().reviews == 1
    assert "keine Wiederholung fällig" in client.get(reverse("training:review")).content.decode()


def test_dashboard_shows_stats_and_chart() -> None:
    client = Client()
    for correct in (True, True, False):
        issued = _issued_from_page(client, reverse("training:exercise", kwargs={"kind": "fake_add"}))
        answer = right_answer(issued) if correct else wrong_answer(issued)
        client.post(reverse("training:answer", args=[issued.public_id]), {"answer": answer})
    html = client.get(reverse("training:dashboard")).content.decode()
    assert "67 %" in html  # 2 of 3
    assert 'class="chart"' in html and 'style="width: 67%"' in html
    assert 'href="/regeln/4.1.1' in html
    assert "Registriere dich" in html


def test_lesson_cards_follow_the_deck() -> None:
    client = Client()
    client.cookies["skatschule_deck"] = "german"
    html = client.get(reverse("training:lesson", kwargs={"slug": "addieren"})).content.decode()
    assert "card-german" in html and "card-french" not in html
