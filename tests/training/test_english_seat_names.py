"""English texts name the seats in English: every exercise type at every level, question and
feedback, says forehand, middlehand and rearhand, never Vorhand, Mittelhand or Hinterhand
(the German words belong to the German texts; the glossary links them)."""

from __future__ import annotations

import re

import pytest

from tests.training.test_deck_words import CASES, _raw_texts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_gradings")]

GERMAN_SEATS = re.compile(r"\b(Vorhand|Mittelhand|Hinterhand)\b")


@pytest.mark.parametrize(("kind", "level"), CASES)
def test_english_texts_name_seats_in_english(kind: str, level: int) -> None:
    for seed in (3, 11):
        german_words = [
            text for lang, text in _raw_texts(kind, level, seed) if lang == "en" and GERMAN_SEATS.search(text)
        ]
        assert german_words == [], f"{kind} level {level} seed {seed}"
