"""A teacher's imported question (GIFT or Moodle XML, :mod:`.imports`) as an exercise type.

Unlike the card-picker items, an imported question brings its own answer key (the file's
numbers and right options); it is stored with the question (``OwnItem.situation``), never
sent to the browser before the answer, and graded here:

- ``numerical``: a number (decimal comma or point) within the tolerance is right;
- ``choice``: the one right option; ``multi``: exactly the options with a positive share
  (partial credit then follows the quiz's rule, :mod:`.grading`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from skatschule.engine import Text
from skatschule.exercises.base import AnswerError, Choice, Feedback, Question, Widget, shuffled_options

from .models import OwnItem

IMPORTED_KIND = "import"
IMPORTED_TITLE = Text("Eigene Frage (importiert)", "Own question (imported)")
_DECIMAL = re.compile(r"[-+\u2212]?\d+(?:[.,]\d+)?")


def _shown(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".").replace(".", ",")


class ImportedType:
    """The parts of an exercise type the quiz pages use, for one imported question."""

    levels = 1

    def __init__(self, item: OwnItem, slug: str) -> None:
        self.item = item
        self.slug = slug
        self.data: dict[str, Any] = item.situation or {}

    def title(self, lang: str = "de") -> str:
        return IMPORTED_TITLE.get(lang)

    def _options(self) -> tuple[Choice, ...]:
        options = [
            Choice(str(i), Text(text, text)) for i, (text, _f) in enumerate(self.data.get("options", []), start=1)
        ]
        return shuffled_options(self.slug, 1, self.item.pk, options)

    def _right(self) -> list[str]:
        options = self.data.get("options", [])
        if self.data.get("type") == "choice":
            return [str(i) for i, (_t, f) in enumerate(options, start=1) if float(f) >= 100]
        return [str(i) for i, (_t, f) in enumerate(options, start=1) if float(f) > 0]

    def generate(self, difficulty: int, seed: int) -> Question:
        prompt = str(self.data.get("prompt", ""))
        kind = self.data.get("type")
        widget: Widget = "number" if kind == "numerical" else ("choice" if kind == "choice" else "multi")
        options = () if widget == "number" else self._options()
        return Question(self.slug, 1, 0, Text(prompt, prompt), widget, options=options)

    def correct_answer(self, question: Question) -> list[str]:
        if self.data.get("type") == "numerical":
            return [_shown(float(self.data.get("answer", 0))).replace(",", ".")]
        return self._right()

    def grade(self, question: Question, values: Sequence[str]) -> Feedback:
        given = [str(v).strip() for v in values if str(v).strip()]
        question = replace(question, options=self._options()) if question.widget != "number" else question
        if question.widget == "number":
            if len(given) != 1 or not _DECIMAL.fullmatch(given[0]):
                raise AnswerError("Bitte gib eine Zahl ein.", "Please enter a number.")
            number = float(given[0].replace("\u2212", "-").replace(",", "."))
            answer, tolerance = float(self.data.get("answer", 0)), float(self.data.get("tolerance", 0))
            shown = f"{_shown(answer)} ± {_shown(tolerance)}" if tolerance else _shown(answer)
            return Feedback(
                correct=abs(number - answer) <= tolerance + 1e-9,
                answer=Text(shown, shown.replace(",", ".")),
                given=Text(_shown(number), _shown(number).replace(",", ".")),
                normalized=_shown(number).replace(",", "."),
            )
        labels = {o.value: o.label.de for o in question.options}
        if any(v not in labels for v in given) or len(set(given)) != len(given):
            raise AnswerError("Diese Antwort steht nicht zur Auswahl.", "That answer is not one of the options.")
        if question.widget == "choice" and len(given) != 1:
            raise AnswerError("Bitte wähle genau eine der Antworten.", "Please choose exactly one of the answers.")
        right = self._right()
        order = [o.value for o in question.options]
        chosen = [v for v in order if v in given]
        words = "; ".join(labels[v] for v in chosen) or "–"
        key = "; ".join(labels[v] for v in order if v in right)
        return Feedback(
            correct=set(chosen) == set(right),
            answer=Text(key, key),
            given=Text(words, words),
            normalized=" ".join(chosen),
        )
