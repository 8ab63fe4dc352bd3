"""Group exams for a referee course (issue 18).

A trainer (the teacher of a class) creates a :class:`GroupExam` with a fixed seed: every
participant's sitting draws its questions with ``random.Random(seed)`` through the same
draw as the practice exam (``services._draw``), so the class gets the same questions in the
same order. Each member sits it once; the timing, grading and review are the practice
exam's. The trainer sees each participant's score with the pass mark's verdict and, per
question, how many answered it and how many were right. Open-book: the exam page links the
rules of each question (as in the DSkV's written exam, where the rule book is allowed).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.core.errors import UserError
from skatschule.core.notfound import NotFound
from skatschule.core.text import one_line
from skatschule.engine import Text
from skatschule.engine.rulings import Irregularity

from . import services
from .exam_history import ExamSummary, passed
from .models import Exam, ExamQuestion, GroupExam

__all__ = [
    "create_group_exam",
    "sit_group_exam",
    "group_exams_for",
    "sittings_for",
    "own_group_exam",
    "participants",
    "question_stats",
    "release_review",
]


def create_group_exam(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *, trainer: User, classroom: Classroom, title: str, size: int, pass_percent: int = 80, open_book: bool = True
) -> GroupExam:
    if classroom.teacher_id != trainer.pk:
        raise NotFound("not your class")
    title = one_line(title, 120)
    if not title:
        raise UserError("Bitte gib der Prüfung einen Titel.", "Please give the exam a title.")
    if not services.MIN_SIZE <= size <= services.MAX_SIZE:
        raise services._bad_size()
    if not 1 <= pass_percent <= 100:
        raise UserError("Die Bestehensgrenze liegt zwischen 1 und 100 %.", "The pass mark is between 1 and 100 %.")
    return GroupExam.objects.create(
        classroom=classroom,
        creator=trainer,
        title=title,
        seed=secrets.randbits(62),
        size=size,
        pass_percent=pass_percent,
        open_book=open_book,
    )


def group_exams_for(user: User | AnonymousUser) -> QuerySet[GroupExam]:
    """Group exams of the classes the user joined, newest first."""
    if not user.is_authenticated:
        return GroupExam.objects.none()
    return GroupExam.objects.filter(classroom__memberships__student=user).select_related("classroom").distinct()


@dataclass(frozen=True)
class Sitting:
    """A group exam as one participant sees it: not started (``exam`` None), running, or over."""

    group: GroupExam
    exam: Exam | None
    over: bool


def sittings_for(user: User | AnonymousUser) -> list[Sitting]:
    """The group exams of the user's classes with the user's own sitting of each, newest first."""
    groups = list(group_exams_for(user))
    if not groups or user.pk is None:
        return []
    mine = {e.group_id: e for e in Exam.objects.filter(user_id=user.pk, group__in=groups)}
    result = []
    for group in groups:
        exam = mine.get(group.pk)
        over = exam is not None and (exam.finished_at is not None or services.is_over(exam))
        result.append(Sitting(group, exam, over))
    return result


def member_group_exam(user: User, pk: object) -> GroupExam:
    text = str(pk)
    found = group_exams_for(user).filter(pk=int(text)).first() if services.is_number(text=text) else None
    if found is None:
        raise NotFound("no such group exam")
    return found


def own_group_exam(trainer: User, pk: object) -> GroupExam:
    text = str(pk)
    found = (
        GroupExam.objects.filter(pk=int(text), classroom__teacher_id=trainer.pk).select_related("classroom").first()
        if services.is_number(text=text)
        else None
    )
    if found is None:
        raise NotFound("no such group exam")
    return found


def release_review(*, trainer: User, group: GroupExam) -> GroupExam:
    """Open every sitting's review with the right answers (``selectors.review_open``); once only."""
    if group.creator_id != trainer.pk and group.classroom.teacher_id != trainer.pk:
        raise NotFound("not your exam")
    GroupExam.objects.filter(pk=group.pk, review_released_at__isnull=True).update(review_released_at=timezone.now())
    group.refresh_from_db()
    return group


def sit_group_exam(*, group: GroupExam, user: User) -> Exam:
    """The participant's sitting: the existing one, or a new one with the group's questions."""
    existing = Exam.objects.filter(group=group, user=user).first()
    if existing is not None:
        return existing
    questions = services._draw(group.size, random.Random(group.seed))
    try:
        with transaction.atomic():
            exam = Exam.objects.create(
                user=user,
                size=group.size,
                time_limit_s=group.size * services.SECONDS_PER_QUESTION,
                started_at=timezone.now(),
                pass_percent=group.pass_percent,
                group=group,
            )
            ExamQuestion.objects.bulk_create(
                ExamQuestion(exam=exam, position=i, kind=kind, difficulty=level, seed=seed)
                for i, (kind, level, seed) in enumerate(questions, start=1)
            )
    except IntegrityError:  # a double click started it twice: use the first
        return Exam.objects.get(group=group, user=user)
    return exam


@dataclass(frozen=True)
class Participant:
    name: str
    summary: ExamSummary | None
    """None: not started yet."""
    over: bool


def participants(group: GroupExam) -> list[Participant]:
    """Every member of the class with their sitting's score, and everyone else who sat it (a
    student who left the class, or a deleted account shown as "gelöschter Schüler"), by name."""
    exams = {
        e.user_id: e
        for e in Exam.objects.filter(group=group)
        .select_related("user")
        .annotate(
            right=Count("questions", filter=Q(questions__correct=True)),
            answered=Count("questions", filter=Q(questions__answered_at__isnull=False)),
        )
    }
    people = {m.student_id: m.student for m in group.classroom.memberships.select_related("student")}
    for user_id, exam in exams.items():
        if user_id is not None and exam.user is not None:
            people.setdefault(user_id, exam.user)
    result = []
    for user_id, person in sorted(people.items(), key=lambda pair: pair[1].get_username()):
        sitting = exams.get(user_id)
        if sitting is None:
            result.append(Participant(person.get_username(), None, False))
            continue
        over = sitting.finished_at is not None or services.is_over(sitting)
        summary = ExamSummary(sitting, sitting.right, sitting.answered, sitting.size)
        result.append(Participant(person.get_username(), summary, over))
    return result


@dataclass(frozen=True)
class QuestionStat:
    position: int
    kind: str
    case_id: str
    """The case the question is; "" for a varied case or a drawn irregularity."""
    answered: int
    right: int
    variant: Irregularity | None = None
    """For a varied case: the irregularity it turns on (named with its rule, never the case)."""

    def variant_name(self, lang: str) -> str:
        if self.variant is None:
            return ""
        return Text(self.variant.name_de, self.variant.name_en).get(lang)

    @property
    def percent(self) -> int | None:
        return round(100 * self.right / self.answered) if self.answered else None


def question_stats(group: GroupExam) -> list[QuestionStat]:
    """Per question (same for everyone): how many answered it and how many were right."""
    rows = (
        ExamQuestion.objects.filter(exam__group=group)
        .values("position", "kind", "difficulty", "seed")
        .annotate(
            answered=Count("pk", filter=Q(answered_at__isnull=False)),
            right=Count("pk", filter=Q(correct=True)),
        )
        .order_by("position")
    )
    stats = []
    for row in rows:
        item = ExamQuestion(kind=row["kind"], difficulty=row["difficulty"], seed=row["seed"])
        case = services.case_of(item)
        stats.append(
            QuestionStat(
                row["position"],
                row["kind"],
                case.id if case else "",
                row["answered"],
                row["right"],
                variant=services.variant_kind(item),
            )
        )
    return stats


def is_passed(summary: ExamSummary) -> bool:
    return passed(summary.right, summary.total, summary.exam.pass_percent)
