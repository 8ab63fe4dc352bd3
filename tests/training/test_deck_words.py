"""The chosen deck is used in words: every exercise type at every level, fetched as a page
with the German deck in German and in English, names cards, suits and games as the
German deck does (Eichel, Grün, Rot, Schellen; Daus, Ober, Unter), never with the
French names, in the prompt, the facts, the options and the feedback."""

from __future__ import annotations

import html
import itertools
import re
import secrets

import pytest
from django.test import Client
from django.urls import reverse

from skatschule import exercises
from skatschule.engine.names import render
from skatschule.training.models import IssuedExercise
from tests.present import present

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_gradings")]

# Where a card, suit or game is named, the French deck says these words (and the German deck never does).
FRENCH_DE = re.compile(r"(?<![\wäöüÄÖÜß])(Kreuz|Pik|Herz|Karo|Buben?|Damen?|Asse?)(?![a-zäöüß])")
FRENCH_EN = re.compile(r"\b(clubs|spades|diamonds|jacks?|queens?|aces?)\b", re.IGNORECASE)
GERMAN_DE = re.compile(r"\b(Eichel|Grün|Rot|Schellen|Daus|Ober|Unter)")
GERMAN_EN = re.compile(r"\b(acorns|leaves|hearts|bells|Daus|Ober|Unter)", re.IGNORECASE)


# Texts the engine writes itself (skatschule/engine/scoring.py: "× Kreuz 12 = 24"; games.py:
# "Karo ouvert ist nur als Handspiel erlaubt"; rulings.py: "... den Reizwert 20 erreicht: Karo").
# The branch ``derivations`` turns them into references; until it is merged they are left out
# of the check. DELETE this allowance then.
def _checked(text: str) -> str:
    return text


_RULE_LINK = re.compile(r'<a class="rule-ref".*?</a>', re.S)
_TAGS = re.compile(r"<[^>]+>")


def _exercise_text(page: str) -> str:
    """The visible text of the exercise section (without rule links, whose titles quote the ISkO)."""
    start = page.index('<section class="exercise"')
    section = page[start : page.index("</section>", start)]
    return html.unescape(_TAGS.sub(" ", _RULE_LINK.sub(" ", section)))


def _german_client(lang: str) -> Client:
    client = Client()
    client.cookies["django_language"] = lang
    client.cookies["skatschule_deck"] = "german"
    return client


def _raw_texts(kind: str, difficulty: int, seed: int) -> list[tuple[str, str]]:
    """Every text of the question and its feedback as (language, text), references unrendered."""
    exercise = exercises.REGISTRY[kind]
    question = exercise.generate(difficulty, seed)
    feedback = exercise.grade(question, exercise.correct_answer(question))
    pairs = [(question.prompt.de, question.prompt.en), *((f.de, f.en) for f in question.facts)]
    pairs += [(o.label.de, o.label.en) for o in question.options]
    pairs += [(feedback.answer.de, feedback.answer.en), *((s.de, s.en) for s in feedback.steps)]
    return [(lang, text) for pair in pairs for lang, text in zip(("de", "en"), pair)]


CASES = [(kind, level) for kind, t in exercises.REGISTRY.items() for level in range(1, t.levels + 1)]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("kind", "level"), CASES)
def test_exercise_page_names_cards_as_the_german_deck(
    kind: str, level: int, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = itertools.count(1000 * level + 7)
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: next(seeds))
    client = _german_client(lang)
    french, german = (FRENCH_DE, GERMAN_DE) if lang == "de" else (FRENCH_EN, GERMAN_EN)
    named_somewhere = False
    for _ in range(3):
        page = client.get(reverse("training:exercise", kwargs={"kind": kind}) + f"?stufe={level}")
        assert page.status_code == 200
        issued = IssuedExercise.objects.latest("issued_at", "pk")
        exercise = exercises.REGISTRY[kind]
        question = exercise.generate(issued.difficulty, issued.seed)
        right = exercise.correct_answer(question)
        action = re.search(r'class="answer-form" method="post" action="([^"]+)"', page.content.decode())
        assert action, "no answer form"
        answered = client.post(action.group(1), {"answer": right})  # where the page's form posts
        assert answered.status_code == 200
        for response in (page, answered):
            text = _exercise_text(response.content.decode())
            assert "⟦" not in text, text
            found = french.findall(_checked(text))
            assert not found, f"{kind} {level} {lang} seed {issued.seed}: French names {found} in {text!r}"
        raw = _raw_texts(kind, issued.difficulty, issued.seed)
        if any(render(t, lang, "german") != render(t, lang, "french") for _, t in raw):  # a deck-specific name
            named_somewhere = True
            assert german.search(_exercise_text(answered.content.decode())), (kind, level, lang, issued.seed)
    if kind in ("augen", "rangfolge", "stich", "zugeben", "spitzen", "ueberreizt"):
        # these types name cards in every question; the German names must show up
        assert named_somewhere, f"{kind} {level}: no card named in three questions"


@pytest.mark.parametrize(("kind", "level"), CASES)
def test_exercise_texts_use_references_for_many_seeds(kind: str, level: int) -> None:
    """Over many seeds (pure Python, no pages): rendered with the German deck, no text of a
    question or its feedback keeps a French card, suit or rank name."""
    exercise = exercises.REGISTRY[kind]
    # a type graded by a job plays out every discard even with few deals: fewer seeds
    for seed in range(6 if exercise.graded_by_job else 25):
        for lang, text in _raw_texts(kind, level, seed):
            rendered = render(text, lang, "german")
            found = (FRENCH_DE if lang == "de" else FRENCH_EN).findall(_checked(rendered))
            assert not found, f"{kind} {level} seed {seed} ({lang}): {found} in {rendered!r}"


@pytest.mark.parametrize("deck", ["tournament", "french"])
def test_french_and_tournament_decks_keep_the_isko_names(deck: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = itertools.count(5)
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: next(seeds))
    client = Client()
    client.cookies["skatschule_deck"] = deck
    for kind in ("stich", "zugeben", "spitzen"):
        page = client.get(reverse("training:exercise", kwargs={"kind": kind})).content.decode()
        text = _exercise_text(page)
        assert FRENCH_DE.search(text), (kind, text)
        assert not re.search(r"\b(Eichel|Grün|Schellen|Unter|Ober|Daus)\b", text), (kind, text)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_lessons_name_cards_suits_and_games_in_the_chosen_deck(lang: str) -> None:
    """Every lesson page with the German deck names cards, suits and games as that deck does
    (issue 26 §3: /ueben/lektion/spitzen/ said "Kreuz-Bube" beside the Eichel-Unter pictures)."""
    from skatschule.training.lessons import get_lessons

    client = _german_client(lang)
    french = FRENCH_DE if lang == "de" else FRENCH_EN
    german = GERMAN_DE if lang == "de" else GERMAN_EN
    for lesson in get_lessons():
        page = client.get(reverse("training:lesson", args=[lesson.slug])).content.decode()
        start = page.index('<div class="lesson-text">')
        text = html.unescape(_TAGS.sub(" ", _RULE_LINK.sub(" ", page[start : page.index("</div>", start)])))
        text = re.sub(r"\bclubs (add|only)\b|Club players", " ", text)  # Skat clubs, not the suit
        assert not french.search(text), (lesson.slug, present(french.search(text)).group(0), text[:300])
        if lesson.slug == "spitzen":
            assert german.search(text) and ("Eichel-Unter" in text if lang == "de" else "Unter of acorns" in text)
        assert "⟦" not in text
