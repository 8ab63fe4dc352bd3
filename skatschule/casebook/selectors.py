"""Reads of the casebook: finding cases (search and filters), a reader's solved cases, and an exam's
review and score.

:func:`find_cases` filters by category, by rule or section (``3.2`` finds every case that
cites a rule ``3.2.x``; ``3`` every case of chapter 3), by level (1: the decision only;
2: the decision and the list entry, as in the exercise ``fall``) and by words. The words are
looked up in what the page shows BEFORE an answer (id, titles, situation, question, choices,
rules), in German and English, without case and accents (``ueberreizt`` finds
``überreizt``); never in the ruling or the explanation, so a search cannot give an answer away.
A bad value raises :class:`~skatschule.casebook.services.BadFilter` (the view answers 400).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from skatschule.content.ids import is_rule_id
from skatschule.core.limits import TooLarge, bounded
from skatschule.engine import Text
from skatschule.engine.rulings import Irregularity
from skatschule.exercises.base import Feedback, Question

from . import cases as casebook
from . import services
from .models import Exam, ExamQuestion, SolvedCase
from .services import BadFilter

__all__ = [
    "LEVELS",
    "MAX_QUERY_LENGTH",
    "ReviewRow",
    "case_level",
    "find_cases",
    "fold",
    "review",
    "review_open",
    "score",
    "solved_states",
]

LEVELS = (1, 2)
MAX_QUERY_LENGTH = 100
_CHAPTER = re.compile(r"^(?:[1-9]\d?|[A-Z])$")
_UMLAUTS = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})
_SPELLED = (("ae", "a"), ("oe", "o"), ("ue", "u"))


def fold(*, text: str) -> str:
    """Lower case without accents, umlauts as plain vowels (``ä``, ``ae`` and ``a`` match)."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_UMLAUTS))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    for spelled, plain in _SPELLED:
        text = text.replace(spelled, plain)
    return " ".join(re.sub(r"[^\w.\-]+", " ", text).split())


def case_level(*, case: casebook.Case) -> int:
    """1: the case asks for the decision only; 2: the decision and the list entry."""
    return 2 if case.score_asked else 1


_texts: dict[int, tuple[tuple[casebook.Case, ...], dict[str, str]]] = {}


def _haystacks(all_cases: tuple[casebook.Case, ...]) -> dict[str, str]:
    """Per case id: the folded text a reader sees before answering (both languages).

    Kept per loaded casebook (the tuple itself is kept too, so its id is not reused)."""
    cached = _texts.get(id(all_cases))
    if cached is not None and cached[0] is all_cases:
        return cached[1]
    table: dict[str, str] = {}
    for case in all_cases:
        parts: list[str] = [case.id, *case.rule_ids]
        for lang in ("de", "en"):
            parts += [case.title(lang), case.situation(lang), case.question(lang), case.category_obj.name(lang)]
            parts += [c.label.get(lang) for c in case.choices]
        table[case.id] = fold(text=" ".join(parts))
    _texts.clear()
    _texts[id(all_cases)] = (all_cases, table)
    return table


def _cites(case: casebook.Case, section: str) -> bool:
    return any(r == section or r.startswith(section + ".") for r in case.rule_ids)


def find_cases(
    *, category: str | None = None, rule: str | None = None, level: str | int | None = None, query: str | None = None
) -> tuple[casebook.Case, ...]:
    """The cases that pass every given filter; empty values do not filter (see the module doc)."""
    category = (category or "").strip()
    rule = (rule or "").strip()
    level_text = str(level if level is not None else "").strip()
    query = " ".join((query or "").split())
    every = casebook.load_cases()
    found: Iterable[casebook.Case] = every
    if category:
        if category not in {c.slug for c in casebook.CATEGORIES}:
            raise BadFilter(
                f"Die Kategorie „{category[:40]}“ gibt es nicht.", f"There is no category “{category[:40]}”."
            )
        found = [c for c in found if c.category == category]
    if rule:
        if not (is_rule_id(rule) or _CHAPTER.match(rule)):  # a rule, a section or a whole chapter
            raise BadFilter(
                f"„{rule[:40]}“ ist keine Regel- oder Abschnittsnummer (Beispiele: 3.2.3, 3.2).",
                f"“{rule[:40]}” is not a rule or section number (examples: 3.2.3, 3.2).",
            )
        found = [c for c in found if _cites(c, rule)]
    if level_text:
        if level_text not in {str(n) for n in LEVELS}:
            raise BadFilter(
                f"Die Stufe „{level_text[:10]}“ gibt es nicht (1 oder 2).",
                f"There is no level “{level_text[:10]}” (1 or 2).",
            )
        found = [c for c in found if case_level(case=c) == int(level_text)]
    if query:
        try:  # the one size check (core.limits); a query in the URL is a bad filter (400), not a body
            bounded(query, limit=MAX_QUERY_LENGTH, chars=True)
        except TooLarge as exc:
            raise BadFilter(exc.text.de, exc.text.en) from None
        words = fold(text=query).split()
        texts = _haystacks(every)
        found = [c for c in found if all(w in texts[c.id] for w in words)]
    return tuple(found)


def solved_states(*, user: Any) -> dict[str, str]:
    """``{case id: "solved" | "tried"}`` for a signed-in user; empty for anyone else."""
    if user is None or not getattr(user, "is_authenticated", False):
        return {}
    rows = SolvedCase.objects.filter(user=user).values_list("case_id", "solved")
    return {case_id: "solved" if solved else "tried" for case_id, solved in rows}


@dataclass(frozen=True)
class ReviewRow:
    item: ExamQuestion
    question: Question
    case: casebook.Case | None
    feedback: Feedback
    answered: bool
    variant: Irregularity | None = None
    """For a varied case: the irregularity it turns on (the review names it and its rule, not the case)."""

    def variant_name(self, lang: str) -> str:
        """The irregularity of a varied case in ``lang``."""
        if self.variant is None:
            return ""
        return Text(self.variant.name_de, self.variant.name_en).get(lang)

    @property
    def correct(self) -> bool:
        return self.answered and bool(self.item.correct)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        seen: dict[str, None] = dict.fromkeys(self.question.rule_ids)
        for rule in self.feedback.rule_ids:
            seen.setdefault(rule, None)
        return tuple(seen)


def review_open(exam: Exam, *, now: datetime | None = None) -> bool:
    """May the right answers of this (finished) sitting be shown? Always for a practice exam; for
    a group exam only after the trainer's release or when every member's sitting is over: one
    account that joins with the class code and hands in an empty sitting must not learn the key."""
    group = exam.group
    if group is None or group.review_released_at is not None:
        return True
    members = set(group.classroom.memberships.values_list("student_id", flat=True))
    sittings = list(Exam.objects.filter(group=group, user_id__in=members))
    return bool(members) and len(sittings) == len(members) and all(services.is_over(e, now=now) for e in sittings)


def review(exam: Exam, *, now: datetime | None = None) -> list[ReviewRow]:
    """Every question with the answer given and the ruling; only after the exam (and, for a
    group exam, only once :func:`review_open`). A read: an exam whose time ran out is closed by
    :func:`~skatschule.casebook.services.finish_exam`, which the pages call first."""
    if not services.is_over(exam, now=now):
        raise services.ExamNotOver(
            "Die Auswertung gibt es erst nach der Prüfung.", "The review is available only after the exam."
        )
    if not review_open(exam, now=now):
        raise services.ReviewLocked(
            "Die Lösungen gibt die Kursleitung frei, wenn alle fertig sind; bis dahin siehst du dein Ergebnis.",
            "The course leader releases the answers once everyone is done; until then you see your score.",
        )
    rows = []
    for item in exam.questions.order_by("position"):
        question = services.question_of(item)
        kind = services.exam_type(kind=item.kind)
        if item.answered_at is not None:
            feedback = kind.grade(question, [str(v) for v in item.answer or []])
        else:
            feedback = kind.grade(question, kind.correct_answer(question))
        rows.append(
            ReviewRow(
                item,
                question,
                services.case_of(item),
                feedback,
                item.answered_at is not None,
                services.variant_kind(item),
            )
        )
    return rows


def score(exam: Exam) -> tuple[int, int]:
    """(right answers, questions)."""
    return exam.questions.filter(correct=True).count(), exam.size
