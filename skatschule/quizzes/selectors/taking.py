"""Reads for the student's pages: the quizzes of the student's classes, the student's own attempts
and answers, and the answer key (computed by the exercise types, never stored)."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.core.notfound import NotFound
from skatschule.engine.numbers import plain_number
from skatschule.exercises.base import Question

from ..models import Quiz, QuizAnswer, QuizAttempt, QuizItem
from ..questions import exercise_type, grade_values, question_for


def plain_id(*, pk: object) -> int:
    """``pk`` as an id; ``NotFound`` for junk (a forged URL)."""
    number = plain_number(pk)
    if number is None:
        raise NotFound("no such id")
    return number


def classes_with_quizzes(user: User) -> list[Classroom]:
    """The classes the user joined, each with ``visible_quizzes`` (published ones, newest first)."""
    if not user.is_authenticated:
        return []
    visible = Quiz.objects.filter(published_at__lte=timezone.now()).order_by("-created_at", "-pk")
    return list(
        Classroom.objects.filter(memberships__student=user)
        .select_related("teacher")
        .prefetch_related(Prefetch("quizzes", queryset=visible, to_attr="visible_quizzes"))
        .order_by("name", "pk")
        .distinct()
    )


def quizzes_for_student(user: User) -> QuerySet[Quiz]:
    if not user.is_authenticated:
        return Quiz.objects.none()
    return (
        Quiz.objects.filter(
            classroom__memberships__student=user, published_at__lte=timezone.now()
        )  # drafts: teacher only
        .select_related("classroom")
        .distinct()
    )


@dataclass(frozen=True)
class StudentQuiz:
    """A quiz of the student's classes with the student's attempts at it, by number."""

    quiz: Quiz
    attempts: list[QuizAttempt]


def quizzes_for_student_with_attempts(user: User) -> list[StudentQuiz]:
    """The student's quizzes, each with the student's attempts (two queries in all)."""
    quizzes = list(quizzes_for_student(user))
    mine: dict[int, list[QuizAttempt]] = {quiz.pk: [] for quiz in quizzes}
    if user.is_authenticated and quizzes:
        for attempt in QuizAttempt.objects.filter(student=user, quiz__in=list(mine)).order_by("number"):
            mine[attempt.quiz_id].append(attempt)
    return [StudentQuiz(quiz, mine[quiz.pk]) for quiz in quizzes]


def student_quiz(user: User, *, pk: object) -> Quiz:
    """A quiz of one of the student's classes; ``NotFound`` for anyone else's."""
    found = quizzes_for_student(user).filter(pk=plain_id(pk=pk)).first()
    if found is None:
        raise NotFound("no such quiz")
    return found


def own_attempt(user: User, *, public_id: UUID | str) -> QuizAttempt:
    """The student's own attempt by its uuid; ``NotFound`` for anyone else's."""
    found = (
        QuizAttempt.objects.filter(public_id=public_id, student=user).select_related("quiz", "quiz__classroom").first()
        if user.is_authenticated
        else None
    )
    if found is None:
        raise NotFound("no such attempt")
    return found


def attempts_left(quiz: Quiz, *, student: User) -> int:
    used = quiz.attempts.filter(student=student).count()
    return max(0, quiz.max_attempts - used)


@dataclass
class KeyEntry:
    item: QuizItem
    title: str
    question: Question
    answer: str


def answer_key(quiz: Quiz, *, lang: str = "de", student_id: int | None = None) -> list[KeyEntry]:
    """Each item's question and right answer, computed by the exercise type (never stored)."""
    entries = []
    for item in quiz.items.all():
        kind = exercise_type(item.kind)
        if kind is None:
            continue
        question = question_for(quiz, item, student_id)
        feedback = grade_values(question, kind.correct_answer(question))
        entries.append(KeyEntry(item, kind.title(lang), question, feedback.answer.get(lang)))
    return entries


def right_answer(quiz: Quiz, *, item: QuizItem, student_id: int | None, lang: str = "de", attempt: int = 1) -> str:
    """The right answer to the student's variant of ``item``, for display (engine-computed)."""
    kind = exercise_type(item.kind)
    if kind is None:
        return ""
    question = question_for(quiz, item, student_id, attempt)
    return grade_values(question, kind.correct_answer(question)).answer.get(lang)


def quiz_items(quiz: Quiz) -> QuerySet[QuizItem]:
    """The quiz's items in their order."""
    return quiz.items.all()


def item_count(quiz: Quiz) -> int:
    return quiz.items.count()


def answers_by_item(attempt: QuizAttempt) -> dict[int, QuizAnswer]:
    """The attempt's saved answers keyed by item id (what the student answered: not the rows that
    only hold a teacher's grade of an unanswered item)."""
    return {answer.item_id: answer for answer in attempt.answers.filter(answered=True)}


def grades_by_item(attempt: QuizAttempt) -> dict[int, QuizAnswer]:
    """Every graded row of the attempt keyed by item id: its answers and the teacher's grades of
    items left unanswered (``answered=False``)."""
    return {answer.item_id: answer for answer in attempt.answers.all()}


def answered_count(attempt: QuizAttempt) -> int:
    return QuizAnswer.objects.filter(attempt=attempt, answered=True).count()


def student_attempts(quiz: Quiz, *, student: User) -> list[QuizAttempt]:
    """The student's attempts at the quiz, first attempt first."""
    return list(quiz.attempts.filter(student=student).order_by("number"))
