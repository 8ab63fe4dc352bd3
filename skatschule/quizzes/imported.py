"""A teacher's imported question (GIFT or Moodle XML, :mod:`.imports`) as an exercise type.

Unlike the card-picker items, an imported question brings its own answer key and its own
grading (the file's fractions); it is stored with the question (``OwnItem.situation``), never
sent to the browser before the answer, and graded here as Moodle grades it:

- ``choice`` (single choice): the chosen option's fraction (a negative one counts 0);
- ``multi``: the sum of the chosen options' fractions, clipped to 0..1;
- ``truefalse``: 1 for the right one of "wahr"/"falsch";
- ``shortanswer``: the fraction of the first answer that matches (``*`` matches any text; case
  ignored unless ``usecase``);
- ``numerical``: the fraction of the first answer whose range (value ± tolerance) holds the
  number (decimal comma or point; ``*`` matches any number).

The grade is the question's own, as in Moodle: ``Feedback.credit`` carries it, whatever the
quiz's partial-credit rule (:func:`.grading.credit`); the answer is right when it earns 1.
Items stored before issue 34 (``answer``/``tolerance``, ``choice``/``multi`` with percent
options) are read the same way.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from skatschule.engine import Text
from skatschule.exercises.base import AnswerError, Choice, Feedback, Question, Widget, shuffled_options
from skatschule.training.services.issuing import MAX_VALUE_LENGTH, MAX_VALUES

from .models import OwnItem

IMPORTED_KIND = "import"
IMPORTED_TITLE = Text("Eigene Frage (importiert)", "Own question (imported)")
_DECIMAL = re.compile(r"[-+]?\d+(?:[.,]\d+)?")
MAX_TEXT_ANSWER = 200
TRUTH = (Choice("wahr", Text("Wahr", "True")), Choice("falsch", Text("Falsch", "False")))
"""True/false in Moodle's fixed order (both are always shown, so the order tells nothing)."""


KIND_NAMES = {
    "choice": Text("Eine Antwort wählen", "Single choice"),
    "multi": Text("Mehrere Antworten wählen", "Multiple choice"),
    "truefalse": Text("Wahr oder falsch", "True or false"),
    "shortanswer": Text("Kurzantwort", "Short answer"),
    "numerical": Text("Zahl", "Number"),
}
GRADING = {
    "choice": Text("Punkte: der Anteil der gewählten Antwort.", "Points: the chosen answer's fraction."),
    "multi": Text(
        "Punkte: die Summe der Anteile aller gewählten Antworten, zwischen 0 und 1.",
        "Points: the sum of the chosen answers' fractions, between 0 and 1.",
    ),
    "truefalse": Text("Punkte: 1 für die richtige Antwort.", "Points: 1 for the right answer."),
    "shortanswer": Text(
        "Punkte: der Anteil der ersten passenden Antwort (* steht für beliebigen Text).",
        "Points: the fraction of the first answer that matches (* stands for any text).",
    ),
    "numerical": Text(
        "Punkte: der Anteil der ersten Antwort, in deren Bereich die Zahl liegt.",
        "Points: the fraction of the first answer whose range holds the number.",
    ),
}


def shown_number(value: float, lang: str = "de") -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if lang == "de" else text


def _percent(fraction: float, lang: str) -> str:
    return f"{shown_number(fraction, lang)} %"


def wildcard_match(pattern: str, text: str) -> bool:
    """Moodle's short-answer match: ``*`` stands for any text (``\\*`` for a star), the rest must
    match exactly. One left-to-right scan with ``str.find`` (no backtracking pattern)."""
    pieces: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and pattern[i + 1 : i + 2] == "*":
            current.append("*")
            i += 2
            continue
        if pattern[i] == "*":
            pieces.append("".join(current))
            current = []
        else:
            current.append(pattern[i])
        i += 1
    pieces.append("".join(current))
    if len(pieces) == 1:
        return text == pieces[0]
    first, *middle, last = pieces
    if not text.startswith(first) or len(text) < len(first) + len(last) or not text.endswith(last):
        return False
    at, end = len(first), len(text) - len(last)
    for piece in middle:
        found = text.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def _fold(text: str, usecase: bool) -> str:
    text = " ".join(unicodedata.normalize("NFC", text).split())
    return text if usecase else text.lower()


class ImportedType:
    """The parts of an exercise type the quiz pages use, for one imported question."""

    levels = 1

    def __init__(self, item: OwnItem, slug: str) -> None:
        self.item = item
        self.slug = slug
        self.data: dict[str, Any] = item.situation or {}

    def title(self, lang: str = "de") -> str:
        return IMPORTED_TITLE.get(lang)

    @property
    def kind(self) -> str:
        return str(self.data.get("type", ""))

    def fractions(self) -> list[tuple[str, float]]:
        return [(str(text), float(f)) for text, f in self.data.get("options", [])]

    def numbers(self) -> list[tuple[float | None, float, float]]:
        if "answers" in self.data:
            return [(None if v is None else float(v), float(t), float(f)) for v, t, f in self.data["answers"]]
        return [(float(self.data.get("answer", 0)), float(self.data.get("tolerance", 0)), 100.0)]  # before issue 34

    def _options(self) -> tuple[Choice, ...]:
        if self.kind == "truefalse":
            return TRUTH
        options = [Choice(str(i), Text(text, text)) for i, (text, _f) in enumerate(self.fractions(), start=1)]
        return shuffled_options(self.slug, 1, self.item.pk, options)

    def widget(self) -> Widget:
        return {"numerical": "decimal", "shortanswer": "text", "multi": "multi"}.get(self.kind, "choice")  # type: ignore[return-value]

    def generate(self, difficulty: int, seed: int) -> Question:
        prompt = str(self.data.get("prompt", ""))
        widget = self.widget()
        options = self._options() if widget in ("choice", "multi") else ()
        return Question(self.slug, 1, 0, Text(prompt, prompt), widget, options=options)

    def correct_answer(self, question: Question) -> list[str]:
        """An answer that earns full marks."""
        if self.kind == "numerical":
            value = next((v for v, _t, f in self.numbers() if f >= 100 and v is not None), 0.0)
            return [shown_number(value, "en")]
        if self.kind == "shortanswer":
            return [next(p.replace("\\*", "*").replace("*", "") for p, f in self.fractions() if f >= 100)]
        if self.kind == "truefalse":
            return ["wahr" if self.data.get("answer") else "falsch"]
        options = self.fractions()
        if self.kind == "choice":
            return [str(i) for i, (_t, f) in enumerate(options, start=1) if f >= 100][:1]
        return [str(i) for i, (_t, f) in enumerate(options, start=1) if f > 0]

    def rule(self, lang: str) -> str:
        """How the question is graded, in words (the preview and the teacher's item page)."""
        text = GRADING.get(self.kind, GRADING["choice"]).get(lang)
        if self.kind == "shortanswer":
            case = (
                ("Groß- und Kleinschreibung zählt.", "Case matters.")
                if self.data.get("usecase")
                else (
                    "Groß- und Kleinschreibung egal.",
                    "Case is ignored.",
                )
            )
            text += " " + (case[0] if lang == "de" else case[1])
        return text

    def shares(self, lang: str) -> str:
        """Every option with its fraction (choice questions; "" otherwise), for the teacher."""
        if self.kind not in ("choice", "multi"):
            return ""
        return "; ".join(f"{text}: {_percent(fraction, lang)}" for text, fraction in self.fractions())

    def key(self, lang: str) -> str:
        """The answer key in words, with the shares that are not 100 %."""
        if self.kind == "truefalse":
            return TRUTH[0 if self.data.get("answer") else 1].label.get(lang)
        if self.kind == "numerical":
            parts = []
            for value, tolerance, fraction in self.numbers():
                if fraction <= 0:
                    continue
                shown = "*" if value is None else shown_number(value, lang)
                shown += f" ± {shown_number(tolerance, lang)}" if tolerance and value is not None else ""
                parts.append(shown if fraction >= 100 else f"{shown} ({_percent(fraction, lang)})")
            return "; ".join(parts)
        parts = [
            text if fraction >= 100 else f"{text} ({_percent(fraction, lang)})"
            for text, fraction in self.fractions()
            if fraction > 0
        ]
        return "; ".join(parts)

    def fraction(self, question: Question, given: Sequence[str]) -> float:
        """Moodle's grade of the (checked) answer, 0 to 1."""
        if self.kind == "truefalse":
            return 1.0 if given == ["wahr" if self.data.get("answer") else "falsch"] else 0.0
        if self.kind == "numerical":
            number = float(given[0].replace(",", "."))
            for value, tolerance, fraction in self.numbers():
                if value is None or abs(number - value) <= tolerance + 1e-9 * max(1.0, abs(value)):
                    return _clipped(fraction)
            return 0.0
        if self.kind == "shortanswer":
            usecase = bool(self.data.get("usecase"))
            text = _fold(given[0], usecase)
            for pattern, fraction in self.fractions():
                if wildcard_match(_fold(pattern, usecase), text):
                    return _clipped(fraction)
            return 0.0
        shares = {str(i): f for i, (_t, f) in enumerate(self.fractions(), start=1)}
        if self.kind == "choice":
            return _clipped(shares[given[0]])
        return _clipped(sum(shares[v] for v in given))

    def _checked(self, question: Question, values: Sequence[str]) -> list[str]:
        if len(values) > MAX_VALUES or any(len(str(v)) > max(MAX_VALUE_LENGTH, MAX_TEXT_ANSWER) for v in values):
            raise AnswerError("Diese Antwort ist zu lang.", "This answer is too long.")
        given = [str(v).strip() for v in values if str(v).strip()]
        if question.widget == "decimal":
            number = given[0].replace("\u2212", "-").replace(" ", "") if len(given) == 1 else ""
            if not _DECIMAL.fullmatch(number):
                raise AnswerError("Bitte gib eine Zahl ein.", "Please enter a number.")
            return [number]
        if question.widget == "text":
            if len(given) != 1:
                raise AnswerError("Bitte gib eine Antwort ein.", "Please enter an answer.")
            return given
        values_allowed = {o.value for o in question.options}
        if any(v not in values_allowed for v in given) or len(set(given)) != len(given):
            raise AnswerError("Diese Antwort steht nicht zur Auswahl.", "That answer is not one of the options.")
        if question.widget == "choice" and len(given) != 1:
            raise AnswerError("Bitte wähle genau eine der Antworten.", "Please choose exactly one of the answers.")
        order = [o.value for o in question.options]
        return [v for v in order if v in given]

    def grade(self, question: Question, values: Sequence[str]) -> Feedback:
        if question.widget in ("choice", "multi"):
            question = replace(question, options=self._options())
        given = self._checked(question, values)
        earned = round(self.fraction(question, given), 4)
        key = Text(self.key("de"), self.key("en"))
        if question.widget in ("decimal", "text"):
            shown = given[0] if question.widget == "text" else shown_number(float(given[0].replace(",", ".")))
            words = Text(shown, shown if question.widget == "text" else shown.replace(",", "."))
            normalized = given[0] if question.widget == "text" else words.en
        else:
            labels = {o.value: o.label for o in question.options}
            words = Text("; ".join(labels[v].de for v in given) or "–", "; ".join(labels[v].en for v in given) or "–")
            normalized = " ".join(given)
        return Feedback(correct=earned >= 1, answer=key, given=words, normalized=normalized[:500], credit=earned)


def _clipped(percent: float) -> float:
    return min(1.0, max(0.0, percent / 100))
