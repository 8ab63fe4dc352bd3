"""Issue 18, own questions: situations from the card picker, answers from the engine."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from skatschule.classrooms.models import Classroom
from skatschule.engine import CardSet, GameType, legal_cards, parse_card, trick_winner
from skatschule.quizzes import own_items
from skatschule.quizzes.models import OwnItem, Quiz
from tests.people import client_for

pytestmark = pytest.mark.django_db

SEATS = ("vorhand", "mittelhand", "hinterhand")


def test_trick_item_answer_is_the_engines(teacher: User) -> None:
    item = own_items.create_own_item(
        owner=teacher, kind="stich", title="Herz-Bube sticht", game="hearts", leader=1, trick=["SA", "S7", "HJ"]
    )
    question, right = own_items.own_question(item)
    winner = trick_winner(GameType.HEARTS, [parse_card(c) for c in ("SA", "S7", "HJ")])
    expected = SEATS[(1 + winner) % 3]
    assert question.widget == "choice" and list(question.trick) == ["SA", "S7", "HJ"]
    assert right.correct and own_items.grade_own(item, [expected]).correct
    assert not own_items.grade_own(item, [next(s for s in SEATS if s != expected)]).correct


def test_play_item_answer_is_the_engines(teacher: User) -> None:
    hand = ["CJ", "SA", "S9", "HT", "D7"]
    item = own_items.create_own_item(
        owner=teacher, kind="zugeben", title="Bedienen", game="grand", leader=0, trick=["ST"], hand=hand
    )
    question, right = own_items.own_question(item)
    allowed = legal_cards(GameType.GRAND, CardSet([parse_card(c) for c in hand]), [parse_card("ST")])
    codes = sorted(c.code for c in allowed)
    assert question.widget == "cards" and right.correct
    assert own_items.grade_own(item, codes).correct
    assert not own_items.grade_own(item, hand).correct


@pytest.mark.parametrize(
    "kind,trick,hand,message",
    [
        ("stich", ["SA", "SA", "HJ"], [], "doppelt"),
        ("stich", ["SA", "XX", "HJ"], [], "keine Karte"),
        ("stich", ["SA", "S7"], [], "drei Karten"),
        ("zugeben", ["SA"], ["SA", "S7"], "doppelt"),
        ("zugeben", ["SA"], [], "Hand"),
        ("zugeben", ["SA"], ["C7", "C8", "C9", "CT", "CK", "CQ", "CA", "D7", "D8", "D9", "DT"], "zehn Karten"),
    ],
)
def test_impossible_situations_are_refused_with_the_engines_message(
    teacher: User, kind: str, trick: list[str], hand: list[str], message: str
) -> None:
    with pytest.raises(own_items.OwnItemError) as info:
        own_items.create_own_item(owner=teacher, kind=kind, title="X", game="grand", leader=0, trick=trick, hand=hand)
    assert message in info.value.text.de
    assert not OwnItem.objects.exists()


def test_builder_page_and_post(teacher: User) -> None:
    client = client_for(teacher)
    page = client.get(reverse("quizzes:own_create") + "?art=stich").content.decode()
    assert page.count('name="trick1"') == 32 and page.count('name="trick3"') == 32 and 'name="answer"' not in page
    response = client.post(
        reverse("quizzes:own_create"),
        {
            "art": "stich",
            "title": "Mein Stich",
            "game": "clubs",
            "leader": "2",
            "trick1": "DA",
            "trick2": "DT",
            "trick3": "CJ",
        },
    )
    item = OwnItem.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("quizzes:own_detail", args=[item.pk])
    detail = client.get(response["Location"]).content.decode()
    # the engine's answer is shown to the teacher: in Kreuz the Kreuz-Bube of Mittelhand takes it
    assert "Mittelhand" in detail.split('id="own-right"')[1][:200]
    tried = client.post(response["Location"], {"answer": "mittelhand"})
    assert tried.status_code == 200 and 'id="own-tried"' in tried.content.decode()
    assert client.post(response["Location"], {"answer": "niemand"}).status_code == 400


def test_builder_shows_the_engines_refusal(teacher: User) -> None:
    response = client_for(teacher).post(
        reverse("quizzes:own_create"),
        {"art": "stich", "title": "X", "game": "clubs", "leader": "0", "trick1": "DA", "trick2": "DA", "trick3": "CJ"},
    )
    assert response.status_code == 400 and "Karten doppelt gegeben: DA" in response.content.decode()


def test_own_items_are_the_teachers_only(teacher: User, other_teacher: User, student: User) -> None:
    item = own_items.create_own_item(
        owner=teacher, kind="stich", title="X", game="null", leader=0, trick=["HA", "HT", "H7"]
    )
    for user in (other_teacher, student):
        assert client_for(user).get(reverse("quizzes:own_detail", args=[item.pk])).status_code == 404
    assert client_for(student).get(reverse("quizzes:own_create")).status_code == 404


HAND = ["CJ", "SJ", "HA", "HT", "HK", "HQ", "H9", "DA", "DT", "C7"]


def test_value_item_counts_spitzen_from_the_cards(teacher: User) -> None:
    from skatschule.engine import Contract, game_value, matadors

    item = own_items.create_own_item(
        owner=teacher,
        kind="spielwert",
        title="Herz Hand",
        game="hearts",
        hand=HAND,
        skat=["S7", "S8"],
        flags=["hand"],
        result="schneider",
    )
    question, right = own_items.own_question(item)
    spitzen = matadors(GameType.HEARTS, [parse_card(c) for c in HAND + ["S7", "S8"]])
    value = game_value(Contract(GameType.HEARTS, hand=True), spitzen, schneider=True, schwarz=False).value
    assert question.widget == "number" and right.correct
    assert own_items.grade_own(item, [str(value)]).correct and not own_items.grade_own(item, [str(value + 1)]).correct


@pytest.mark.parametrize(
    "flags,result,skat,message",
    [
        (["ouvert"], "schwarz", ["S7", "S8"], "Handspiel"),  # Contract.problems: open only as hand
        (["schneider_announced"], "einfach", ["S7", "S8"], "Handspiel"),
        (["hand", "schneider_announced"], "einfach", ["S7", "S8"], "nur mit Schneider"),
        (["hand", "schwarz_announced"], "schneider", ["S7", "S8"], "keinen Stich"),
        (["hand"], "schneider", ["S7"], "zehn Karten"),  # the engine's deal check
        ([], "einfach", ["S7", "CJ"], "doppelt"),
    ],
)
def test_value_item_refuses_what_the_rules_forbid(
    teacher: User, flags: list[str], result: str, skat: list[str], message: str
) -> None:
    with pytest.raises(own_items.OwnItemError) as info:
        own_items.create_own_item(
            owner=teacher, kind="spielwert", title="X", game="hearts", hand=HAND, skat=skat, flags=flags, result=result
        )
    assert message in info.value.text.de


def test_value_item_by_the_builder(teacher: User) -> None:
    client = client_for(teacher)
    page = client.get(reverse("quizzes:own_create") + "?art=spielwert").content.decode()
    assert page.count('name="hand"') == 32 and page.count('name="skat"') == 32
    data = {
        "art": "spielwert",
        "title": "Grand",
        "game": "grand",
        "hand": HAND,
        "skat": ["S7", "S8"],
        "flags": ["hand"],
        "result": "einfach",
    }
    response = client.post(reverse("quizzes:own_create"), data)
    assert response.status_code == 302
    item = OwnItem.objects.get()
    assert item.situation["flags"] == ["hand"] and sorted(item.situation["skat"]) == ["S7", "S8"]
    assert item.situation["result"] == "einfach" and sorted(item.situation["hand"]) == sorted(HAND)


# --- own items in quizzes ------------------------------------------------------------------------


def test_own_item_in_a_quiz_is_graded_by_the_engine(
    teacher: User, classroom: Classroom, student: User, make_quiz: Callable[..., Quiz]
) -> None:
    from skatschule.quizzes import questions
    from skatschule.quizzes.questions import kind_title
    from skatschule.quizzes.selectors.taking import right_answer
    from skatschule.quizzes.services import attempts

    quiz = make_quiz(count=1, kinds=("augen",), variants="random")
    item = own_items.create_own_item(
        owner=teacher, kind="stich", title="Herz-Bube sticht", game="hearts", leader=1, trick=["SA", "S7", "HJ"]
    )
    client = client_for(teacher)
    response = client.post(reverse("quizzes:own_add", args=[item.pk]), {"quiz": quiz.pk})
    assert response.status_code == 302
    quiz_item = quiz.items.get(position=2)
    assert quiz_item.kind == f"eigen-{item.pk}"
    winner = trick_winner(GameType.HEARTS, [parse_card(c) for c in ("SA", "S7", "HJ")])
    expected = SEATS[(1 + winner) % 3]
    # the same question for everyone (random variants do not change a fixed situation)
    q1 = questions.question_for(quiz, quiz_item, student.pk)
    q2 = questions.question_for(quiz, quiz_item, teacher.pk)
    assert q1 == q2 and list(q1.trick) == ["SA", "S7", "HJ"]
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    saved = attempts.save_answer(attempt=attempt, item=quiz_item, values=[expected])
    assert saved.feedback.correct
    wrong = next(s for s in SEATS if s != expected)
    assert not questions.grade_for_display(quiz, quiz_item, student.pk, [wrong]).correct
    assert kind_title(quiz_item.kind, "de") == "Wer bekommt den Stich?"  # never the teacher's title
    page = client_for(student).get(reverse("quizzes:take", args=[attempt.public_id])).content.decode()
    assert "Herz-Bube sticht" not in page
    printed = client.get(reverse("quizzes:print", args=[quiz.pk])).content.decode()
    from skatschule.engine.names import render

    assert render(right_answer(quiz, item=quiz_item, student_id=None), "de", "french") in printed


def test_own_item_cannot_join_a_started_quiz(
    teacher: User, classroom: Classroom, student: User, make_quiz: Callable[..., Quiz]
) -> None:
    from skatschule.quizzes.services import attempts

    quiz = make_quiz(count=1, kinds=("augen",))
    attempts.start_attempt(quiz=quiz, student=student)
    item = own_items.create_own_item(
        owner=teacher, kind="stich", title="X", game="grand", leader=0, trick=["CA", "CT", "CJ"]
    )
    response = client_for(teacher).post(reverse("quizzes:own_add", args=[item.pk]), {"quiz": quiz.pk})
    assert response.status_code == 400 and quiz.items.count() == 1
    assert client_for(teacher).post(reverse("quizzes:own_add", args=[item.pk]), {"quiz": "x"}).status_code == 400


def test_own_item_only_into_own_quizzes(
    teacher: User, other_teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]
) -> None:
    quiz = make_quiz(count=1, kinds=("augen",))
    item = own_items.create_own_item(
        owner=other_teacher, kind="stich", title="X", game="grand", leader=0, trick=["CA", "CT", "CJ"]
    )
    assert client_for(teacher).post(reverse("quizzes:own_add", args=[item.pk]), {"quiz": quiz.pk}).status_code == 404
    assert (
        client_for(other_teacher).post(reverse("quizzes:own_add", args=[item.pk]), {"quiz": quiz.pk}).status_code == 400
    )
    assert quiz.items.count() == 1


def test_teachers_quiz_page_lists_own_items_by_their_titles(
    teacher: User, classroom: Classroom, student: User, make_quiz: Callable[..., Quiz]
) -> None:
    """The teacher's quiz page and results name an own item by its title (with its type); the
    student's page keeps the type only, since a title may tell the answer."""
    from skatschule.quizzes.services import attempts

    quiz = make_quiz(count=1, kinds=("augen",), variants="random")
    item = own_items.create_own_item(
        owner=teacher, kind="stich", title="Herz-Bube sticht", game="hearts", leader=1, trick=["SA", "S7", "HJ"]
    )
    own_items.add_to_quiz(owner=teacher, item=item, quiz=quiz)
    client = client_for(teacher)
    detail = client.get(reverse("quizzes:detail", args=[quiz.pk])).content.decode()
    assert "Herz-Bube sticht · Wer bekommt den Stich?" in detail
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    attempts.save_answer(attempt=attempt, item=quiz.items.get(position=2), values=["vorhand"])
    attempts.submit(attempt=attempt)
    results = client.get(reverse("quizzes:results", args=[quiz.pk])).content.decode()
    assert "Herz-Bube sticht" in results
    taken = client_for(student).get(reverse("quizzes:take", args=[attempt.public_id])).content.decode()
    assert "Herz-Bube sticht" not in taken
