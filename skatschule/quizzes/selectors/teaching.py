"""Reads for the teacher's pages: the teacher's own quizzes, attempts, items and own items, what
a quiz was drawn from, and the classes a quiz may go to."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce

from skatschule.classrooms.models import Classroom
from skatschule.classrooms.services import classrooms_taught, is_teacher
from skatschule.core.notfound import NotFound
from skatschule.engine.numbers import is_plain_number, plain_number
from skatschule.training.registry import get_type

from ..models import OwnItem, Quiz, QuizAttempt, QuizItem
from .taking import plain_id


def own_quiz(user: User, *, pk: object) -> Quiz:
    """The teacher's own quiz; ``NotFound`` for everyone else."""
    if not is_teacher(user=user):
        raise NotFound("not a teacher")
    found = Quiz.objects.filter(pk=plain_id(pk=pk), owner=user).select_related("classroom").first()
    if found is None:
        raise NotFound("no such quiz")
    return found


@dataclass(frozen=True)
class TaughtQuiz:
    """A teacher's quiz with how many attempts were started and how many submitted."""

    quiz: Quiz
    started: int
    submitted: int


def quizzes_taught_with_counts(user: User) -> list[TaughtQuiz]:
    """The teacher's quizzes with their attempt counts (one query)."""
    rows = (
        Quiz.objects.filter(owner=user)
        .select_related("classroom")
        .annotate(
            started=_count_of(QuizAttempt.objects.filter(quiz=OuterRef("pk"))),
            submitted=_count_of(QuizAttempt.objects.filter(quiz=OuterRef("pk"), submitted_at__isnull=False)),
        )
        .order_by(*(Quiz._meta.ordering or ["pk"]))
    )
    return [TaughtQuiz(quiz, quiz.started, quiz.submitted) for quiz in rows]


def _count_of(rows: QuerySet[QuizAttempt]) -> Any:
    """``COUNT(*)`` of ``rows`` as a subquery (an index range count, no join of all attempts)."""
    from django.db.models import Func, IntegerField, Subquery

    counted = rows.order_by().annotate(n=Func("pk", function="COUNT")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def quiz_attempt(quiz: Quiz, *, pk: object) -> QuizAttempt:
    found = quiz.attempts.filter(pk=plain_id(pk=pk)).select_related("student").first()
    if found is None:
        raise NotFound("no such attempt")
    return found


def item_at(quiz: Quiz, *, position: object) -> QuizItem:
    found = quiz.items.filter(position=plain_id(pk=position)).first() if is_plain_number(position) else None
    if found is None:
        raise NotFound("no such item")
    return found


def has_attempts(quiz: Quiz) -> bool:
    """Has anyone started the quiz? Then its items, variants, difficulty and class are locked."""
    return quiz.attempts.exists()


def quiz_sources(quiz: Quiz) -> dict[str, list[str]]:
    """What the items were drawn from: exercise types, lessons and rule ids, sorted.

    A quiz made without a record of its choice (by code) counts as chosen from its items' types.
    """
    stored = quiz.sources if isinstance(quiz.sources, dict) else {}
    found = {key: sorted_names(values=stored.get(key) or []) for key in ("kinds", "lessons", "rules")}
    if not any(found.values()):
        found["kinds"] = sorted_names(
            values=(item.kind for item in quiz.items.all() if get_type(item.kind) is not None)
        )
    return found


def sorted_names(*, values: Iterable[Any]) -> list[str]:
    return sorted({str(v) for v in values if str(v)})


def quiz_summary(quiz: Quiz) -> dict[str, int]:
    counts = quiz.attempts.aggregate(started=Count("pk"), submitted=Count("pk", filter=Q(submitted_at__isnull=False)))
    return {"started": counts["started"] or 0, "submitted": counts["submitted"] or 0}


def item_positions(quiz: Quiz) -> list[int]:
    """The item positions, for the column heads of the results table."""
    return list(quiz.items.order_by("position").values_list("position", flat=True))


def classes_of(teacher: User) -> QuerySet[Classroom]:
    """The teacher's classes, for a class choice (as the forms offer them)."""
    return Classroom.objects.filter(teacher=teacher)


def teaches_a_class(user: User) -> bool:
    return classrooms_taught(user).exists()


def taught_class_pk(user: User, *, wanted: str) -> int | None:
    """``wanted`` as a class id when it names one of the user's classes, else None."""
    number = plain_number(wanted)
    if number is not None and classrooms_taught(user).filter(pk=number).exists():
        return number
    return None


def own_items_of(owner: User) -> QuerySet[OwnItem]:
    """The teacher's own items."""
    return OwnItem.objects.filter(owner=owner)


def own_item(owner: User, *, pk: object) -> OwnItem:
    """The teacher's own item by its id; ``NotFound`` for junk or anyone else's."""
    number = plain_number(pk)
    found = OwnItem.objects.filter(pk=number, owner=owner).first() if number is not None else None
    if found is None:
        raise NotFound("no such item")
    return found


def quizzes_open_for_items(owner: User) -> QuerySet[Quiz]:
    """The owner's quizzes nobody has started yet (an own item may still be added to them)."""
    return Quiz.objects.filter(owner=owner, attempts__isnull=True).select_related("classroom").distinct()


def owned_quiz_or_none(owner: User, *, raw: str) -> Quiz | None:
    """The owner's quiz with the id ``raw`` (form input), or None for junk or another's quiz."""
    number = plain_number(raw)
    if number is None:
        return None
    return Quiz.objects.filter(pk=number, owner=owner).first()
