"""Draft, publish and copy quizzes (issue 18).

- A quiz made in the builder starts as a **draft** (``published_at`` empty): students of the
  class do not see it; the teacher previews it (``quizzes:preview``).
- **Publish** now or at a set time (``published_at``); students see it from then on. A
  scheduled quiz can go back to draft until then, a published one only while nobody started.
- **Copy** duplicates a quiz for another class or year: same title (with "Kopie"), settings
  and item kinds and levels, but a new secret and new item seeds (so last year's answers do
  not fit), no times, no attempts, as a draft.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from skatschule.classrooms.models import Classroom
from skatschule.core.notfound import NotFound

from .errors import QuizError
from .models import Quiz, QuizItem
from .questions import SEED_LIMIT
from .selectors.teaching import has_attempts
from .services.authoring import checked_settings

__all__ = ["publication_state", "publish", "unpublish", "copy_quiz", "is_visible"]

DRAFT, SCHEDULED, PUBLISHED = "draft", "scheduled", "published"


def publication_state(quiz: Quiz, now: datetime | None = None) -> str:
    """``"draft"``, ``"scheduled"`` (published from a later time) or ``"published"``."""
    if quiz.published_at is None:
        return DRAFT
    return SCHEDULED if quiz.published_at > (now or timezone.now()) else PUBLISHED


def is_visible(quiz: Quiz, now: datetime | None = None) -> bool:
    return publication_state(quiz, now) == PUBLISHED


def _own(quiz: Quiz, owner: User) -> None:
    if quiz.owner_id != owner.pk:
        raise NotFound("not your quiz")


def publish(*, quiz: Quiz, owner: User, at: datetime | None = None, now: datetime | None = None) -> Quiz:
    """Publish now (``at`` empty) or from ``at``; a time in the past counts as now."""
    _own(quiz, owner)
    now = now or timezone.now()
    when = now if at is None or at <= now else at
    if quiz.closes_at is not None and when >= quiz.closes_at:
        raise QuizError(
            "Das Quiz endet, bevor es veröffentlicht wäre. Ändere zuerst das Ende.",
            "The quiz ends before it would be published. Change its end first.",
        )
    if publication_state(quiz, now) == PUBLISHED:
        return quiz  # already visible: publishing again changes nothing
    Quiz.objects.filter(pk=quiz.pk).update(published_at=when)
    quiz.published_at = when
    return quiz


def unpublish(*, quiz: Quiz, owner: User) -> Quiz:
    """Back to draft, as long as no student has started it."""
    _own(quiz, owner)
    if has_attempts(quiz):
        raise QuizError(
            "Schüler haben das Quiz schon begonnen; es bleibt veröffentlicht.",
            "Students have started the quiz already; it stays published.",
        )
    Quiz.objects.filter(pk=quiz.pk).update(published_at=None)
    quiz.published_at = None
    return quiz


def copy_title(title: str, lang: str = "de") -> str:
    with override(lang):
        suffix = " " + _("(Kopie)")
    return (title[: 120 - len(suffix)] + suffix) if not title.endswith(suffix) else title


@transaction.atomic
def copy_quiz(*, quiz: Quiz, owner: User, classroom: Classroom, title: str) -> Quiz:
    """A draft copy of ``quiz`` for ``classroom`` (one of the owner's classes)."""
    _own(quiz, owner)
    if classroom.teacher_id != owner.pk:
        raise NotFound("not your class")
    show = quiz.show_answers
    if show == Quiz.ShowAnswers.AFTER_CLOSE:  # the copy has no end yet
        show = Quiz.ShowAnswers.AFTER_SUBMIT
    settings = checked_settings(
        title=title,
        opens_at=None,
        closes_at=None,
        time_limit_minutes=quiz.time_limit_minutes,
        max_attempts=quiz.max_attempts,
        show_answers=show,
    )
    secret = secrets.token_hex(16)
    while secret == quiz.secret:  # pragma: no cover - 128 random bits
        secret = secrets.token_hex(16)
    copy = Quiz.objects.create(
        owner=owner,
        classroom=classroom,
        sources=dict(quiz.sources or {}),
        difficulty=quiz.difficulty,
        variants=quiz.variants,
        secret=secret,
        published_at=None,
        **settings,
    )
    rng = random.Random(secret)
    QuizItem.objects.bulk_create(
        QuizItem(
            quiz=copy,
            position=item.position,
            kind=item.kind,
            difficulty=item.difficulty,
            seed=rng.randrange(SEED_LIMIT),
        )
        for item in quiz.items.all()
    )
    return copy
