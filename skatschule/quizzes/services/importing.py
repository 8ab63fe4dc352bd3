"""Importing a teacher's questions from a GIFT or Moodle XML file (issue 28 §2).

- ``read_file(*, owner, data, fmt) -> Parsed``: the file read by :mod:`..imports`, for the
  preview: every question as it will be asked, every refusal and change with its line.
- ``import_questions(*, owner, data, fmt) -> ImportResult``: after the preview, every accepted
  question becomes one of the teacher's own items, in one transaction; the refused ones are
  returned with their lines (nothing at all is saved when the whole file is refused).

Both raise ``QuizError`` (413) for a file over 64 kB, (400) for an unknown format or a file that is
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
    """The questions refused, with line and reason (nothing of them is saved)."""
    changes: list[Problem] = field(default_factory=list)
    """Where a saved question looks or behaves differently from Moodle, by line."""


def read_file(*, owner: User, data: bytes, fmt: str) -> Parsed:
    """The file read (for the preview): every question, refusal and change; nothing saved."""
    if not is_teacher(user=owner):
        raise NotFound("not a teacher")
    if fmt not in FORMATS:
        raise QuizError("Unbekanntes Format: möglich sind GIFT und Moodle-XML.", "Unknown format: GIFT or Moodle XML.")
    if len(data) > MAX_BYTES:
        raise FileTooLargeError(
            f"Die Datei ist zu groß (höchstens {MAX_BYTES // 1024} kB).",
            f"The file is too large (at most {MAX_BYTES // 1024} kB).",
        )
    try:
        parsed = parse_gift(data.decode("utf-8-sig")) if fmt == "gift" else parse_moodle_xml(data)
    except UnicodeDecodeError:
        raise QuizError("Die Datei ist kein UTF-8-Text.", "The file is not UTF-8 text.") from None
    except FileTooLarge:  # pragma: no cover (checked above)
        raise FileTooLargeError("Die Datei ist zu groß.", "The file is too large.") from None
    parsed.problems.sort(key=lambda p: p.line)
    parsed.changes.sort(key=lambda p: p.line)
    return parsed


def import_questions(*, owner: User, data: bytes, fmt: str) -> ImportResult:
    """Save every question the file's reading accepts (the teacher has seen the preview with the
    refusals and changes); nothing when a problem concerns the whole file (line 0)."""
    parsed = read_file(owner=owner, data=data, fmt=fmt)
    result = ImportResult(problems=parsed.problems, changes=parsed.changes)
    if any(p.line == 0 for p in parsed.problems) or not parsed.questions:
        return result
    with transaction.atomic():
        result.items = [
            OwnItem.objects.create(owner=owner, kind=IMPORTED_KIND, title=q.title[:120], situation=q.as_json())
            for q in parsed.questions
        ]
    return result
