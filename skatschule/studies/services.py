"""Writes for studies: create one, save its notes and stops, grade the stops (a job), share it,
answer a stop. Keyword-only and atomic; errors a visitor can cause are :class:`StudyError` (400)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from skatschule.classrooms.selectors import is_teacher, own_classroom
from skatschule.core.errors import UserError
from skatschule.core.notfound import NotFound
from skatschule.engine import SkatError
from skatschule.engine.cards import parse_card
from skatschule.engine.puzzles import Spot
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job
from skatschule.owners import Owner

from . import grading
from .models import Study, StudyAnswer, StudyStop
from .reading import StudyInputError

__all__ = [
    "StudyError",
    "NOTE_CHARS",
    "create_study",
    "save_annotations",
    "grade_waiting",
    "store_grading",
    "share",
    "delete_study",
    "Answered",
    "answer",
    "adopt_session",
]

NOTE_CHARS = 1000
"""The longest note at one card."""


class StudyError(UserError):
    """A study's write that cannot be done as asked (400)."""


class NotTeacher(UserError):
    status = 403

    def __init__(self) -> None:
        super().__init__("Studien legen Lehrkräfte an.", "Studies are made by teachers.")


def _require_teacher(user: Any) -> None:
    if not is_teacher(user=user):
        raise NotTeacher()


@transaction.atomic
def create_study(*, teacher: Any, title: str, spot: Spot, source: str) -> Study:
    """A new study of the game ``spot`` (every card played), not shared yet."""
    _require_teacher(teacher)
    if source not in Study.Source.values:
        raise ValueError(f"unknown source {source!r}")
    return Study.objects.create(
        teacher=teacher, title=title, record=spot.as_dict(), source=source, token=secrets.token_urlsafe(24)
    )


def _check_stop(spot: Spot, moment: int) -> None:
    state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, spot.plays[:moment]).state()
    if state.is_over() or state.to_move is None:
        raise StudyError(
            f"Vor Karte {moment + 1} ist das Spiel schon aus: dort kann kein Halt sein.",
            f"Before card {moment + 1} the game is over: no stop can be there.",
        )
    if len(state.legal_cards()) < 2:
        raise StudyError(
            f"Vor Karte {moment + 1} gibt es nur eine erlaubte Karte: dort ist nichts zu wählen.",
            f"Before card {moment + 1} only one card may be played: there is nothing to choose.",
        )


@transaction.atomic
def save_annotations(*, teacher: Any, study: Study, notes: Mapping[int, str], stops: Iterable[int]) -> Study:
    """Replace the study's notes and stops. ``notes``: moment -> text (empty texts are dropped);
    ``stops``: the moments where the class must choose a card. A stop kept keeps its grading and
    its answers; a stop taken away loses its answers; a new stop waits for :func:`grade_waiting`."""
    if study.teacher_id != teacher.pk:
        raise NotFound("not this teacher's study")
    spot = Spot.from_dict(study.record)
    last = len(spot.plays)
    kept: dict[str, str] = {}
    for moment, text in notes.items():
        if not 0 <= moment <= last:
            raise StudyError("Eine Notiz steht an keiner Karte des Spiels.", "A note is at no card of the game.")
        text = text.replace("\x00", "").strip()  # PostgreSQL stores no NUL
        if len(text) > NOTE_CHARS:
            raise StudyError(
                f"Eine Notiz hat höchstens {NOTE_CHARS} Zeichen.", f"A note has at most {NOTE_CHARS} characters."
            )
        if text:
            kept[str(moment)] = text
    wanted = set(stops)
    for moment in sorted(wanted):
        if not 0 <= moment <= last:
            raise StudyError("Ein Halt steht an keiner Karte des Spiels.", "A stop is at no card of the game.")
        _check_stop(spot, moment)
    study.notes = kept
    study.save(update_fields=["notes"])
    study.stops.exclude(moment__in=wanted).delete()
    have = set(study.stops.values_list("moment", flat=True))
    StudyStop.objects.bulk_create([StudyStop(study=study, moment=m) for m in sorted(wanted - have)])
    return study


def grade_waiting(*, teacher: Any, study: Study, address: str = "") -> Job | None:
    """Submit the job that grades the study's waiting stops (None when none waits). A known result
    (the same deal and stops graded before) is stored at once. Raises ``jobs.LimitReached`` (429)."""
    if study.teacher_id != teacher.pk:
        raise NotFound("not this teacher's study")
    moments = list(study.stops.filter(status=StudyStop.Status.WAITING).values_list("moment", flat=True))
    if not moments:
        return None
    job = jobs.submit(
        owner=Owner.for_user(teacher),
        kind=grading.SOLVE,
        key=grading.key_of(study.record, moments),
        payload=grading.payload_of(study_id=study.pk, record=study.record, moments=moments),
        address=address,
    )
    if job.is_done and job.data is not None:
        store_grading(study_id=study.pk, data=job.data)
    Study.objects.filter(pk=study.pk).update(job=job)
    study.job = job
    return job


@transaction.atomic
def store_grading(*, study_id: int, data: Mapping[str, Any]) -> int:
    """Store a job's grading (:func:`.grading.grade_stops`) on the study's waiting stops; returns
    how many were graded. A stop's grading depends only on the game and its moment."""
    done = 0
    graded: Mapping[str, Any] = data.get("stops", {})
    for stop in StudyStop.objects.select_for_update().filter(study_id=study_id, status=StudyStop.Status.WAITING):
        found = graded.get(str(stop.moment))
        if found is None:
            continue
        if found.get("too_big"):
            stop.status = StudyStop.Status.TOO_BIG
        else:
            stop.status = StudyStop.Status.GRADED
            stop.right = list(found["right"])
            stop.values = dict(found["values"])
            stop.goal = str(found["goal"])
        stop.save(update_fields=["status", "right", "values", "goal"])
        done += 1
    return done


@transaction.atomic
def share(*, teacher: Any, study: Study, classroom_pk: object, link: bool) -> Study:
    """Share the study with one of the teacher's classes (``classroom_pk`` empty: with none) and,
    with ``link``, with anyone who has its address."""
    if study.teacher_id != teacher.pk:
        raise NotFound("not this teacher's study")
    study.classroom = own_classroom(teacher, pk=classroom_pk) if classroom_pk not in (None, "") else None
    study.link_shared = link
    study.save(update_fields=["classroom", "link_shared"])
    return study


@transaction.atomic
def new_link(*, teacher: Any, study: Study) -> Study:
    """A new address: the old link stops working."""
    if study.teacher_id != teacher.pk:
        raise NotFound("not this teacher's study")
    study.token = secrets.token_urlsafe(24)
    study.save(update_fields=["token"])
    return study


@transaction.atomic
def delete_study(*, teacher: Any, study: Study) -> None:
    if study.teacher_id != teacher.pk:
        raise NotFound("not this teacher's study")
    study.delete()


@dataclass(frozen=True)
class Answered:
    answer: StudyAnswer
    created: bool
    """False when the owner had answered this stop before (the first answer counts)."""


def _legal_card(spot: Spot, moment: int, raw: str) -> str:
    try:
        card = parse_card(raw[:4])
    except SkatError as exc:
        raise StudyInputError(exc.text.de, exc.text.en) from None
    state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, spot.plays[:moment]).state()
    seat = state.to_move
    assert seat is not None
    if not state.hands[seat] & card.bit:
        raise StudyInputError("Diese Karte ist nicht auf der Hand.", "That card is not in the hand.")
    if card not in state.legal_cards():
        raise StudyInputError(
            "Diese Karte darf hier nicht gespielt werden: es muss bedient werden (ISkO 3.2.1).",
            "That card may not be played here: suit must be followed (ISkO 3.2.1).",
        )
    return card.code


@transaction.atomic
def answer(*, owner: Owner, study: Study, moment: int, card: str) -> Answered:
    """A learner's card at the stop before card ``moment``, graded by the stop's grading."""
    stop = StudyStop.objects.filter(study=study, moment=moment).first()
    if stop is None:
        raise NotFound("no such stop")
    if stop.status != StudyStop.Status.GRADED:
        raise StudyError(
            "Dieser Halt ist noch nicht bewertet. Versuche es gleich noch einmal.",
            "This stop is not graded yet. Try again in a moment.",
        )
    code = _legal_card(Spot.from_dict(study.record), moment, card)
    before = StudyAnswer.objects.owned_by(owner).filter(stop=stop).first()
    if before is not None:
        return Answered(before, False)
    try:
        with transaction.atomic():
            row = StudyAnswer.objects.create(**owner.fields(), stop=stop, card=code, correct=code in stop.right)
    except IntegrityError:  # the same owner's answer from another tab at the same moment
        return Answered(StudyAnswer.objects.owned_by(owner).get(stop=stop), False)
    return Answered(row, True)


@transaction.atomic
def adopt_session(*, session_key: str, user: Any) -> int:
    """Move an anonymous session's answers to ``user`` when they sign in; where the user had
    answered the same stop already, the user's answer stays (the first one counts). Returns how
    many answers were moved."""
    if not session_key or user is None or user.pk is None:
        return 0
    theirs = StudyAnswer.objects.filter(user__isnull=True, session_key=session_key)
    answered = StudyAnswer.objects.filter(user=user).values("stop_id")
    theirs.filter(stop_id__in=answered).delete()
    return theirs.update(user=user, session_key="")
