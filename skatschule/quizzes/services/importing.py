"""Importing a teacher's questions from a GIFT or Moodle XML file (issue 28 §2).

``import_questions(*, owner, data, fmt) -> ImportResult``: parse the file (:mod:`..imports`);
when any question cannot be imported, nothing is saved and every problem is returned with its
line; otherwise every question becomes one of the teacher's own items, in one transaction.
Raises ``QuizError`` (413) for a file over 64 kB, (400) for an unknown format or a file that is
not UTF-8 text; ``NotFound`` for someone who is not a teacher.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction

from skatschule.classrooms.services import is_teacher
from skatschule.core.notfound import NotFound

from ..errors import QuizError
from ..imported import IMPORTED_KIND
from ..imports import MAX_BYTES, FileTooLarge, Parsed, Problem, parse_gift, parse_moodle_xml
from ..models import OwnItem

FORMATS = ("gift", "moodle_xml")


class FileTooLargeError(QuizError):
    status = 413


@dataclass
class ImportResult:
    items: list[OwnItem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def import_questions(*, owner: User, data: bytes, fmt: str) -> ImportResult:
    if not is_teacher(owner):
        raise NotFound("not a teacher")
    if fmt not in FORMATS:
        raise QuizError("Unbekanntes Format: möglich sind GIFT und Moodle-XML.", "Unknown format: GIFT or Moodle XML.")
    if len(data) > MAX_BYTES:
        raise FileTooLargeError(
            f"Die Datei ist zu groß (höchstens {MAX_BYTES // 1024} kB).",
            f"The file is too large (at most {MAX_BYTES // 1024} kB).",
        )
    try:
        if fmt == "gift":
            parsed: Parsed = parse_gift(data.decode("utf-8-sig"))
        else:
            parsed = parse_moodle_xml(data)
    except UnicodeDecodeError:
        raise QuizError("Die Datei ist kein UTF-8-Text.", "The file is not UTF-8 text.") from None
    except FileTooLarge:  # pragma: no cover (checked above)
        raise FileTooLargeError("Die Datei ist zu groß.", "The file is too large.") from None
    if parsed.problems:
        return ImportResult(problems=sorted(parsed.problems, key=lambda p: p.line))
    with transaction.atomic():
        items = [
            OwnItem.objects.create(owner=owner, kind=IMPORTED_KIND, title=q.title[:120], situation=q.as_json())
            for q in parsed.questions
        ]
    return ImportResult(items=items)
