"""Data protection: export everything about an account as JSON, then delete the account.

Deleting keeps what other people rely on and nothing personal:

- A student's **quiz results** stay with the teacher's quiz, and their sittings of a
  trainer's **group exam** (issue 18) stay with the group exam, so the trainer's results and
  per-question statistics do not change. The account row is kept only for them and made
  anonymous: the name becomes "gelöschter Schüler · <4 hex digits>" (a name signup cannot
  produce: it contains spaces), email, names, password and last login are cleared, the
  account is inactive. Its id stays, because random quiz variants are derived
  from it, so the teacher's result pages still show the questions the student answered.
  The name is stored in German and shown in the reader's language ("deleted student ·
  <hex>" in English) by ``skatschule.core.people.shown_name``.
- Everything else that points at the account is deleted (every table with a foreign key
  to the user, found generically): practice (attempts, reviews), practice referee exams, class
  memberships, classes and quizzes the person teaches (with their students' results in
  them), and the login-limiter records under the name.
- Without quiz results or group-exam sittings the account row is deleted outright.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone

from skatschule.casebook.models import Exam, SolvedCase
from skatschule.classrooms.models import Classroom, Membership
from skatschule.core.people import DELETED_PREFIX, is_deleted_name
from skatschule.learners.selectors import learner_data
from skatschule.owners import Owner
from skatschule.puzzles.models import PuzzleAttempt, PuzzleRating
from skatschule.quizzes.models import OwnItem, QuizAttempt
from skatschule.training.services.portability import export_data

__all__ = ["DELETED_PREFIX", "export_account", "delete_account", "is_deleted_name"]

ACCOUNT_FORMAT = "skatschule-konto"


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def export_account(*, user: User) -> dict[str, Any]:
    """Everything stored about ``user``: account, practice, classes, quiz answers, exams."""
    attempts = (
        QuizAttempt.objects.filter(student=user)
        .select_related("quiz", "quiz__classroom")
        .prefetch_related("answers__item")
        .order_by("started_at", "pk")
    )
    exams = (
        Exam.objects.filter(user=user)
        .select_related("group")
        .prefetch_related("questions")
        .order_by("started_at", "pk")
    )
    return {
        "format": ACCOUNT_FORMAT,
        "version": 1,
        "exported_at": _iso(timezone.now()),
        "account": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "date_joined": _iso(getattr(user, "date_joined", None)),
            "last_login": _iso(user.last_login),
        },
        "practice": export_data(owner=Owner.for_user(user)),
        "daily_goal": learner_data(user=user),
        "classes_joined": [
            {"name": m.classroom.name, "joined_at": _iso(m.joined_at)}
            for m in Membership.objects.filter(student=user).select_related("classroom").order_by("joined_at", "pk")
        ],
        "classes_taught": [
            {"name": c.name, "created_at": _iso(c.created_at), "students": c.memberships.count()}
            for c in Classroom.objects.filter(teacher=user).order_by("created_at", "pk")
        ],
        "quiz_attempts": [
            {
                "quiz": a.quiz.title,
                "class": a.quiz.classroom.name,
                "number": a.number,
                "started_at": _iso(a.started_at),
                "submitted_at": _iso(a.submitted_at),
                "score": a.score,
                "answers": [
                    {
                        "position": ans.item.position,
                        "kind": ans.item.kind,
                        "answer": ans.values,
                        "correct": ans.correct,
                        "answered_at": _iso(ans.answered_at),
                    }
                    for ans in sorted(a.answers.all(), key=lambda ans: ans.item.position)
                    if ans.answered  # not a teacher's grade of an item left unanswered
                ],
            }
            for a in attempts
        ],
        "solved_cases": [
            {
                "case": row.case_id,
                "attempts": row.attempts,
                "solved": row.solved,
                "first_solved_at": _iso(row.first_solved_at),
            }
            for row in SolvedCase.objects.filter(user=user).order_by("case_id")
        ],
        "own_quiz_items": [
            {"title": item.title, "kind": item.kind, "situation": item.situation, "created_at": _iso(item.created_at)}
            for item in OwnItem.objects.filter(owner=user).order_by("created_at", "pk")
        ],
        "referee_exams": [
            {
                "started_at": _iso(e.started_at),
                "finished_at": _iso(e.finished_at),
                "size": e.size,
                "pass_percent": e.pass_percent,
                "group_exam": e.group.title if e.group is not None else None,
                "questions": [
                    {
                        "position": q.position,
                        "kind": q.kind,
                        "difficulty": q.difficulty,
                        "seed": q.seed,
                        "answer": q.answer,
                        "correct": q.correct,
                        "answered_at": _iso(q.answered_at),
                    }
                    for q in e.questions.all()
                ],
            }
            for e in exams
        ],
        "puzzle_attempts": [
            {"puzzle": a.puzzle_id, "card": a.card, "correct": a.correct, "mode": a.mode, "created_at": _iso(a.created)}
            for a in PuzzleAttempt.objects.filter(user=user).order_by("created", "pk")
        ],
        "puzzle_rating": [
            {"rating": round(r.rating), "deviation": round(r.deviation), "best_streak": r.best_streak}
            for r in PuzzleRating.objects.filter(user=user)
        ],
    }


def _anonymous_name() -> str:
    User = get_user_model()
    while True:
        name = DELETED_PREFIX + secrets.token_hex(2)
        if not User.objects.filter(username=name).exists():
            return name


@transaction.atomic
def delete_account(*, user: User) -> bool:
    """Delete ``user``'s data; True if the row was kept (anonymous) for quiz results."""
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    old_name = user.get_username()
    _forget_logins(old_name)
    if not _has_results_for_others(user):
        user.delete()
        return False
    _delete_related(user)
    user.groups.clear()
    user.user_permissions.clear()
    user.username = _anonymous_name()
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.last_login = None
    user.date_joined = timezone.now()
    user.set_unusable_password()
    user.save()
    return True


def _has_results_for_others(user: User) -> bool:
    """Quiz attempts or group-exam sittings: results a teacher or trainer relies on."""
    return (
        QuizAttempt.objects.filter(student=user).exists()
        or Exam.objects.filter(user=user, group__isnull=False).exists()
    )


def _delete_related(user: User) -> None:
    """Delete (or unlink, where the field says SET_NULL) every row pointing at ``user``
    except the quiz attempts and the group-exam sittings. Generic, so tables added later are
    covered too."""
    for rel in type(user)._meta.related_objects:
        if rel.many_to_many or rel.related_model is QuizAttempt:
            continue
        rows = rel.related_model._base_manager.filter(**{rel.field.name: user.pk})
        if rel.related_model is Exam:
            rows = rows.filter(group__isnull=True)  # a practice exam; a group exam's sitting stays
        if rel.on_delete is models.SET_NULL:
            rows.update(**{rel.field.name: None})
        else:
            rows.delete()


def _forget_logins(username: str) -> None:
    """The login limiter (django-axes) keeps failed logins by name and address."""
    try:
        from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    except ImportError:  # pragma: no cover - axes is a dependency
        return
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=username).delete()
