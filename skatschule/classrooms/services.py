"""The classrooms app's logic: the teacher role, classes, join codes and memberships.

Views only translate HTTP to these calls; the reads (whose classes, homework status, class
progress) are in :mod:`.selectors`. Errors:

- :class:`ClassroomError` (a 400 with its message a ``Text``): a wrong or used-up code,
  an empty class name ...; its subclass :class:`WrongCode` is a code that matches nothing
  (what :mod:`.join_limit` counts as a guess);
- ``NotFound`` for a class that is not the teacher's own (``selectors.own_classroom``).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import Group, User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from skatschule.core.errors import UserError
from skatschule.core.notfound import NotFound
from skatschule.core.text import one_line
from skatschule.training.lessons import get_lesson

from .models import CODE_LENGTH, TEACHER_GROUP, Assignment, Classroom, Membership, TeacherInvitation

# Reads live in .selectors; these two are also imported from here by the quizzes app.
from .selectors import classrooms_taught, is_id, is_teacher

__all__ = [
    "ClassroomError",
    "WrongCode",
    "CODE_ALPHABET",
    "is_teacher",
    "grant_teacher",
    "redeem_invitation",
    "new_join_code",
    "normalize_code",
    "create_classroom",
    "rotate_code",
    "classrooms_taught",
    "find_by_code",
    "join",
    "Joined",
    "leave",
    "assign_homework",
    "withdraw_homework",
]

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Join codes: no 0/O, 1/I/L or U, so a code read aloud or copied from a board survives."""
_NAME_MAX = 100


class ClassroomError(UserError):
    """A wrong or used-up code, an empty class name ... (400)."""


class WrongCode(ClassroomError):
    """A join or invitation code that matches no class or no usable invitation: a guess that
    missed. The join limit (:mod:`.join_limit`) counts these and nothing else."""


# --- the teacher role -------------------------------------------------------------------------


def grant_teacher(*, user: User) -> None:
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=TEACHER_GROUP)
        user.groups.add(group)
    user._skatschule_is_teacher = True  # type: ignore[attr-defined]


def redeem_invitation(*, user: User, raw_code: object) -> bool:
    """Make ``user`` a teacher with an invitation code. False if they already were one.

    The use is counted with a conditional ``UPDATE ... WHERE uses_left > 0``, so two people
    racing for the last use cannot both get it.
    """
    code = str(raw_code or "").strip().upper()[:40]
    if is_teacher(user=user):
        return False
    if not code:
        raise ClassroomError("Bitte gib den Einladungscode ein.", "Please enter the invitation code.")
    if not code.isprintable():
        code = "-"  # matches no invitation (and keeps NUL bytes away from the database)
    with transaction.atomic():
        used = TeacherInvitation.objects.filter(code=code, uses_left__gt=0).update(uses_left=F("uses_left") - 1)
        if not used:
            raise WrongCode(
                "Diesen Einladungscode gibt es nicht, oder er ist schon aufgebraucht.",
                "This invitation code does not exist or has been used up.",
            )
        grant_teacher(user=user)
    return True


# --- join codes -------------------------------------------------------------------------------


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(*, raw: object) -> str:
    """Upper-case, without spaces or dashes ("" if malformed)."""
    text = re.sub(r"[\s\-]", "", str(raw or ""))[:40].upper()
    if len(text) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in text):
        return ""
    return text


def _save_with_new_code(classroom: Classroom) -> Classroom:
    for _ in range(10):
        classroom.join_code = new_join_code()
        try:
            with transaction.atomic():
                classroom.save()
            return classroom
        except IntegrityError:
            continue  # the code is taken (1 in 30^8): draw again
    raise RuntimeError("could not find a free join code")


# --- classes ----------------------------------------------------------------------------------


def _clean_name(raw: object) -> str:
    name = one_line(raw)
    if not name:
        raise ClassroomError("Bitte gib der Klasse einen Namen.", "Please give the class a name.")
    if len(name) > _NAME_MAX:
        raise ClassroomError(
            f"Der Name darf höchstens {_NAME_MAX} Zeichen lang sein.",
            f"The name may be at most {_NAME_MAX} characters long.",
        )
    return name


def _require_teacher(user: User) -> None:
    if not is_teacher(user=user):
        raise NotFound("not a teacher")


def create_classroom(*, teacher: User, name: object) -> Classroom:
    _require_teacher(teacher)
    return _save_with_new_code(Classroom(teacher=teacher, name=_clean_name(name)))


def rotate_code(*, classroom: Classroom) -> Classroom:
    """A new join code; the old one stops working at once. Members stay."""
    return _save_with_new_code(classroom)


def find_by_code(*, raw: object) -> Classroom:
    code = normalize_code(raw=raw)
    found = Classroom.objects.filter(join_code=code).select_related("teacher").first() if code else None
    if found is None:
        raise WrongCode(
            "Zu diesem Code gibt es keine Klasse. Bitte prüfe ihn noch einmal.",
            "There is no class with this code. Please check it again.",
        )
    return found


@dataclass(frozen=True)
class Joined:
    """The class :func:`join` put the student in, and whether they were new to it."""

    classroom: Classroom
    created: bool


def join(*, student: User, raw_code: object) -> Joined:
    """Put ``student`` in the class with this code."""
    classroom = find_by_code(raw=raw_code)
    if classroom.teacher_id == student.pk:
        raise ClassroomError(
            "Das ist deine eigene Klasse; du leitest sie schon.", "This is your own class; you already teach it."
        )
    try:
        with transaction.atomic():
            _, created = Membership.objects.get_or_create(classroom=classroom, student=student)
    except IntegrityError:  # a concurrent join of the same student won
        created = False
    return Joined(classroom, created)


def leave(*, classroom: Classroom, student_id: object) -> bool:
    """Remove a student from the teacher's class (their quiz results stay)."""
    if not is_id(value=student_id):
        raise NotFound("no such student")
    deleted, _ = Membership.objects.filter(classroom=classroom, student_id=int(str(student_id))).delete()
    if not deleted:
        raise NotFound("no such student")
    return True


# --- homework (issue 18) ---------------------------------------------------------------------


def assign_homework(*, teacher: User, classroom: Classroom, task: str, due_at: datetime) -> Assignment:
    """Give ``task`` (``lesson:<slug>`` or ``quiz:<id>``) to the class, due at ``due_at``."""
    if classroom.teacher_id != teacher.pk:
        raise NotFound("not your class")
    kind, _, value = str(task).partition(":")
    if due_at <= timezone.now():
        raise ClassroomError("Der Termin muss in der Zukunft liegen.", "The due date must be in the future.")
    if kind == Assignment.Kind.LESSON:
        if get_lesson(value) is None:
            raise ClassroomError("Diese Lektion gibt es nicht.", "There is no such lesson.")
        return Assignment.objects.create(classroom=classroom, kind=kind, lesson_slug=value, due_at=due_at)
    if kind == Assignment.Kind.QUIZ and is_id(value=value):
        quiz = classroom.quizzes.filter(pk=int(value)).first()
        if quiz is None:
            raise ClassroomError("Dieses Quiz gehört nicht zur Klasse.", "This quiz is not one of the class's.")
        if quiz.published_at is None:
            raise ClassroomError(
                "Veröffentliche das Quiz zuerst; einen Entwurf sieht die Klasse nicht.",
                "Publish the quiz first; the class cannot see a draft.",
            )
        return Assignment.objects.create(classroom=classroom, kind=kind, quiz=quiz, due_at=due_at)
    raise ClassroomError("Bitte wähle eine Lektion oder ein Quiz.", "Please choose a lesson or a quiz.")


def withdraw_homework(*, teacher: User, assignment: Assignment) -> None:
    if assignment.classroom.teacher_id != teacher.pk:
        raise NotFound("not your class")
    assignment.delete()
