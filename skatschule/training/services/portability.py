"""Export and import a user's practice as JSON (``/konto/export/``, ``/konto/import/``).

Format (``"format": "skatschule-progress", "version": 1``)::

    {"format": "skatschule-progress", "version": 1, "exported_at": "2026-11-21T12:00:00+00:00",
     "attempts": [{"kind": "augen", "difficulty": 1, "seed": 123, "lesson": null, "mode": "practice",
                   "answer": ["61"], "correct": true, "time_taken_ms": 5400,
                   "issued_at": "...", "created_at": "...", "rule_ids": ["4.1.3"]}, ...],
     "reviews": [{"kind": "augen", "difficulty": 1, "seed": 99, "card": {...fsrs...}, "due": "...",
                  "reviews": 2, "created_at": "...", "updated_at": "..."}, ...]}

Import rules:

- **strict**: the whole file is checked first; any problem rejects it with a message that
  names the entry (:class:`ImportProblem`), and nothing is stored;
- **graded by the engine**: an exercise is determined by ``(kind, difficulty, seed)``, so each
  imported answer is graded again; the file's ``correct`` is only a cross-check and is never
  trusted (a file cannot make a wrong answer right);
- **idempotent**: an attempt that is already there (same exercise and the same time) is
  skipped, so importing the same file twice changes nothing, also when two imports of it run
  at once (the unique key ``attempt_imported_once``: the later insert is skipped);
- **dated, never backdated**: an attempt keeps its time from the file and records the moment of
  the import (``imported_at``); where it counts (``Attempt.objects.counting()``) it counts from
  that moment, so an import can never complete homework before it happened;
- **never loses data**: it only adds rows; a review card the user already has is kept.

Signature (the layer in :func:`sign_export` / :func:`signature_state`, apart from the checks):

- the export carries ``"signature"``: an HMAC-SHA256, keyed with the site's ``SECRET_KEY``
  and bound to the exporting account, over the header fields and then every entry of the
  lists in order, each as canonical JSON (sorted keys, no spaces, UTF-8), so the streamed
  export signs what it sends as it goes and puts the signature last;
- only a file whose signature verifies for the importing account raises mastery and
  streaks; its attempts are stored with ``counts_for_mastery=True``;
- a file without a signature, or with one that does not verify (edited after the export,
  exported by another account, or by another Skatschule installation with another key),
  is NOT refused: it is imported as history, graded by the engine as always, but with
  ``counts_for_mastery=False``, so it can never make a lesson mastered or a streak longer.
  The import page says which of the two happened. (Refusing a tampered file would gain
  nothing: an attacker can always drop the signature and import the file as history.)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from skatschule.core.db import streaming_reads
from skatschule.engine import Text
from skatschule.owners import Owner

from ..lessons import ACTIVITIES
from ..models import Attempt, IssuedExercise, ReviewItem
from ..registry import get_type
from .import_checks import FUTURE_DUE, bad_text, card_problem, is_whole, parse_time
from .issuing import (
    MAX_VALUE_LENGTH,
    MAX_VALUES,
    SEED_LIMIT,
    TIME_CAP_MS,
    AnswerError,
    exercise_type,
    grade_answer,
    question_for,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "MAX_BYTES",
    "MAX_ENTRIES",
    "ImportProblem",
    "ImportResult",
    "export_data",
    "export_stream",
    "import_data",
    "parse",
    "SIGNATURE_FIELD",
    "SIGNED",
    "UNSIGNED",
    "INVALID",
    "sign_export",
    "signature_state",
]

FORMAT = "skatschule-progress"
VERSION = 1
MAX_BYTES = 5 * 1024 * 1024
MAX_ENTRIES = 20_000
_SLUG = re.compile(r"^[a-z0-9_-]{1,40}$")
_LESSON = re.compile(r"^[a-z0-9_-]{1,60}$")


class ImportProblem(ValueError):
    """The file cannot be imported; ``text`` (a :class:`Text`) says why."""

    def __init__(self, de: str, en: str) -> None:
        super().__init__(de)
        self.text = Text(de, en)


@dataclass(frozen=True)
class ImportResult:
    attempts_added: int
    attempts_skipped: int
    reviews_added: int
    reviews_kept: int


def _iso(value: datetime) -> str:
    return value.isoformat()


def _attempt_entries(owner: Owner) -> Iterator[dict[str, Any]]:
    """The owner's attempts as export entries, oldest first, read with ``.iterator()``."""
    # activities (a game finished at the table) stay out: an import grades every answer again
    # with the engine, and a finished activity is no question it could grade (.activities)
    attempts = (
        Attempt.objects.owned_by(owner)
        .exclude(kind__in=list(ACTIVITIES))
        .with_grade()
        .order_by("created_at", "pk")
        .values_list(
            "kind",
            "difficulty",
            "seed",
            "lesson",
            "issued__mode",
            "answer",
            "effective_correct",
            "time_taken_ms",
            "issued__issued_at",
            "created_at",
            "rule_ids",
        )
    )
    for kind, difficulty, seed, lesson, mode, answer, correct, taken, issued_at, created, rule_ids in attempts.iterator(
        chunk_size=100  # rows per fetch: the first ones travel at once
    ):
        yield {
            "kind": kind,
            "difficulty": difficulty,
            "seed": seed,
            "lesson": lesson,
            "mode": mode,
            "answer": list(answer),
            "correct": bool(correct),
            "time_taken_ms": taken,
            "issued_at": _iso(issued_at),
            "created_at": _iso(created),
            "rule_ids": list(rule_ids or []),
        }


def _review_entries(owner: Owner) -> Iterator[dict[str, Any]]:
    for r in ReviewItem.objects.owned_by(owner).order_by("created_at", "pk").iterator(chunk_size=1000):
        yield {
            "kind": r.kind,
            "difficulty": r.difficulty,
            "seed": r.seed,
            "card": r.card,
            "due": _iso(r.due),
            "reviews": r.reviews,
            "created_at": _iso(r.created_at),
            "updated_at": _iso(r.updated_at),
        }


def export_data(*, owner: Owner) -> dict[str, Any]:
    """Everything the owner practised, as plain JSON data."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _iso(timezone.now()),
        "attempts": list(_attempt_entries(owner)),
        "reviews": list(_review_entries(owner)),
    }


# --------------------------------------------------------------------------- signature

SIGNATURE_FIELD = "signature"
SIGNED = "signed"
UNSIGNED = "unsigned"
INVALID = "invalid"
_SIGNATURE_SALT = "skatschule.training.progress-export.v2"
_HEADER = ("format", "version", "exported_at")
_LISTS = ("attempts", "reviews")


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _signer(owner: Owner) -> Any:
    """An HMAC-SHA256 keyed with SECRET_KEY and bound to the owner's account, fed piece by piece
    (so the streamed export can sign what it sends without holding it)."""
    salt = f"{_SIGNATURE_SALT}:user:{owner.user_id}"
    key = hashlib.sha256((salt + settings.SECRET_KEY).encode("utf-8")).digest()
    return hmac.new(key, digestmod=hashlib.sha256)


def _feed_header(mac: Any, data: dict[str, Any]) -> None:
    mac.update(_canonical({key: data.get(key) for key in _HEADER}) + b"\n")


def _feed_entry(mac: Any, name: str, entry: Any) -> None:
    mac.update(name.encode("ascii") + b":" + _canonical(entry) + b"\n")


def _signature(data: dict[str, Any], owner: Owner) -> str:
    """What is signed: the header fields, then every entry of each list in order, each as
    canonical JSON (sorted keys, no spaces, UTF-8); other fields are not signed."""
    mac = _signer(owner)
    _feed_header(mac, data)
    for name in _LISTS:
        entries = data.get(name)
        for entry in entries if isinstance(entries, list) else ():
            _feed_entry(mac, name, entry)
    return str(mac.hexdigest())


def sign_export(*, data: dict[str, Any], owner: Owner) -> dict[str, Any]:
    """``data`` (an :func:`export_data` result) with its signature for ``owner``'s account."""
    return {**data, SIGNATURE_FIELD: _signature(data, owner)}


def signature_state(*, data: dict[str, Any], owner: Owner) -> str:
    """:data:`SIGNED` (verifies for ``owner``), :data:`UNSIGNED` (none) or :data:`INVALID`."""
    given = data.get(SIGNATURE_FIELD)
    if given is None:
        return UNSIGNED
    if not isinstance(given, str) or not owner.is_user:
        return INVALID
    return SIGNED if constant_time_compare(given, _signature(data, owner)) else INVALID


def export_stream(*, owner: Owner) -> Iterator[str]:
    """:func:`sign_export` of :func:`export_data` as JSON text in pieces (one per entry), for a
    streamed download; the signature is computed on the way and sent as the last key.

    The pieces joined are a JSON document equal to ``sign_export(export_data(owner), owner)``;
    memory stays small however long the history is.
    """
    with streaming_reads():
        yield from _export_pieces(owner)


def _export_pieces(owner: Owner) -> Iterator[str]:
    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    header = {"format": FORMAT, "version": VERSION, "exported_at": _iso(timezone.now())}
    mac = _signer(owner)
    _feed_header(mac, header)
    yield "{" + ", ".join(f"{dump(key)}: {dump(value)}" for key, value in header.items())
    for name, entries in (("attempts", _attempt_entries(owner)), ("reviews", _review_entries(owner))):
        yield f",\n {dump(name)}: ["
        first = True
        for entry in entries:
            _feed_entry(mac, name, entry)
            yield ("\n  " if first else ",\n  ") + dump(entry)
            first = False
        yield "\n ]"
    yield f",\n {dump(SIGNATURE_FIELD)}: {dump(mac.hexdigest())}\n}}\n"


def _problem(where: str, de: str, en: str) -> ImportProblem:
    return ImportProblem(f"{where}: {de}", f"{where}: {en}")


def parse(*, raw: bytes) -> dict[str, Any]:
    """Bytes of an uploaded file to the top-level object (checks size, UTF-8, JSON, format)."""
    if len(raw) > MAX_BYTES:
        raise ImportProblem("Die Datei ist größer als 5 MB.", "The file is larger than 5 MB.")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ImportProblem("Die Datei ist keine JSON-Datei (UTF-8).", "The file is not a JSON file (UTF-8).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportProblem(
            "Das ist kein Fortschritts-Export der Skatschule.", "This is not a Skatschule progress export."
        )
    if not is_whole(value=data.get("version"), low=VERSION, high=VERSION):  # True == 1, but true is no version
        raise ImportProblem(
            f"Unbekannte Version {str(data.get('version'))[:10]!r} (erwartet: {VERSION}).",
            f"Unknown version {str(data.get('version'))[:10]!r} (expected: {VERSION}).",
        )
    for key in ("attempts", "reviews"):
        if not isinstance(data.get(key, []), list):
            raise ImportProblem(f"„{key}“ muss eine Liste sein.", f"“{key}” must be a list.")
    if len(data.get("attempts", [])) + len(data.get("reviews", [])) > MAX_ENTRIES:
        raise ImportProblem(f"Mehr als {MAX_ENTRIES} Einträge.", f"More than {MAX_ENTRIES} entries.")
    _check_tree(data)
    return data


def _check_tree(data: dict[str, Any]) -> None:
    """What no field may hold anywhere in the file (import_checks.bad_text), and the export time."""
    reason = bad_text(data=data)
    if reason is not None:
        raise ImportProblem(
            "Die Datei enthält Werte, die keine Skatschule-Datei enthält (zu tief verschachtelt, "
            "Steuerzeichen oder ungültige Zeichen).",
            "The file holds values no Skatschule file holds (nested too deeply, control characters "
            "or invalid characters).",
        )
    if (
        "exported_at" in data
        and parse_time(value=data["exported_at"], latest=timezone.now() + timedelta(minutes=5)) is None
    ):
        raise ImportProblem("„exported_at“ ist kein gültiger Zeitpunkt.", "“exported_at” is not a valid time.")


def _int(entry: dict[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = entry.get(key)
    if not is_whole(value=value, low=low, high=high):
        raise _problem(
            where,
            f"„{key}“ muss eine ganze Zahl von {low} bis {high} sein.",
            f"“{key}” must be a whole number from {low} to {high}.",
        )
    assert isinstance(value, int)  # is_whole checked it
    return value


def _time(entry: dict[str, Any], key: str, where: str, now: datetime) -> datetime:
    value = entry.get(key)
    parsed = parse_time(value=value, latest=datetime.max.replace(tzinfo=UTC))
    if parsed is None:
        raise _problem(
            where,
            f"„{key}“ ist kein Zeitpunkt mit Zeitzone (ab dem Jahr 2000).",
            f"“{key}” is not a time with a time zone (from the year 2000).",
        )
    if parsed > now + timedelta(minutes=5):
        raise _problem(where, f"„{key}“ liegt in der Zukunft.", f"“{key}” is in the future.")
    return parsed


def _exercise(entry: Any, where: str) -> tuple[str, int, int]:
    if not isinstance(entry, dict):
        raise _problem(where, "Eintrag ist kein Objekt.", "entry is not an object.")
    kind = entry.get("kind")
    if not isinstance(kind, str) or not _SLUG.match(kind) or get_type(kind) is None:
        raise _problem(where, f"unbekannte Übungsart {str(kind)[:40]!r}.", f"unknown exercise type {str(kind)[:40]!r}.")
    exercise = get_type(kind)
    assert exercise is not None  # checked just above
    difficulty = _int(entry, "difficulty", where, 1, exercise.levels)
    seed = _int(entry, "seed", where, 0, SEED_LIMIT - 1)
    return kind, difficulty, seed


def _check_attempt(entry: Any, where: str, now: datetime) -> dict[str, Any]:
    kind, difficulty, seed = _exercise(entry, where)
    answer = entry.get("answer")
    if (
        not isinstance(answer, list)
        or len(answer) > MAX_VALUES
        or not all(isinstance(v, str) and len(v) <= MAX_VALUE_LENGTH for v in answer)
    ):
        raise _problem(
            where, "„answer“ muss eine Liste kurzer Texte sein.", "“answer” must be a list of short strings."
        )
    lesson = entry.get("lesson")
    if lesson is not None and (not isinstance(lesson, str) or not _LESSON.match(lesson)):
        raise _problem(where, "„lesson“ ist kein Lektionsname.", "“lesson” is not a lesson name.")
    mode = entry.get("mode", IssuedExercise.Mode.PRACTICE)
    if mode not in IssuedExercise.Mode.values:
        raise _problem(where, "unbekannter Modus.", "unknown mode.")
    if not isinstance(entry.get("correct"), bool):
        raise _problem(where, "„correct“ muss true oder false sein.", "“correct” must be true or false.")
    created = _time(entry, "created_at", where, now)
    issued_at = _time(entry, "issued_at", where, now) if "issued_at" in entry else created
    taken = _int(entry, "time_taken_ms", where, 0, TIME_CAP_MS) if "time_taken_ms" in entry else 0
    issued = IssuedExercise(kind=kind, difficulty=difficulty, seed=seed)
    question = question_for(issued)
    try:
        feedback = grade_answer(question=question, values=answer)
    except AnswerError as exc:
        raise _problem(where, f"Antwort nicht lesbar ({exc.text.de})", f"unreadable answer ({exc.text.en})") from None
    return {
        "kind": kind,
        "difficulty": difficulty,
        "seed": seed,
        "lesson": lesson or None,
        "mode": mode,
        "answer": answer,
        "claimed": entry["correct"],
        "correct": bool(feedback.correct),
        "normalized": (feedback.normalized or "")[:500],
        "created_at": created,
        "issued_at": min(issued_at, created),
        "time_taken_ms": taken,
        "rule_ids": [str(r) for r in (*question.rule_ids, *feedback.rule_ids)][:50],
        # graded here against today's question: the grade belongs to today's generator
        "generator": exercise_type(kind=kind).generator,
    }


def _check_review(entry: Any, where: str, now: datetime) -> dict[str, Any]:
    from fsrs import Card

    kind, difficulty, seed = _exercise(entry, where)
    card = entry.get("card")
    try:
        if card_problem(card=card, now=now) is not None or len(json.dumps(card)) > 2000:
            raise ValueError
        restored = Card.from_dict(card)
    except Exception:  # fsrs raises KeyError/ValueError/TypeError for a broken card
        raise _problem(
            where, "„card“ ist keine gültige Wiederholungskarte.", "“card” is not a valid review card."
        ) from None
    parsed_due = parse_time(value=entry.get("due"), latest=now + FUTURE_DUE)
    if parsed_due is None:
        raise _problem(
            where,
            "„due“ ist kein Zeitpunkt mit Zeitzone (ab dem Jahr 2000, höchstens 100 Jahre voraus).",
            "“due” is not a time with a time zone (from the year 2000, at most 100 years ahead).",
        )
    return {
        "kind": kind,
        "difficulty": difficulty,
        "seed": seed,
        "card": restored.to_dict(),
        "due": parsed_due,
        "reviews": _int(entry, "reviews", where, 0, 100_000),
        "created_at": _time(entry, "created_at", where, now),
        "updated_at": _time(entry, "updated_at", where, now),
    }


def _existing_keys(owner: Owner) -> set[tuple[Any, ...]]:
    """(kind, difficulty, seed, created_at) of the owner's attempts: what an import skips."""
    return set(Attempt.objects.owned_by(owner).values_list("kind", "difficulty", "seed", "created_at"))


def _add_attempt(owner: Owner, a: dict[str, Any], *, counts_for_mastery: bool, imported_at: datetime) -> None:
    issued = IssuedExercise.objects.create(
        **owner.fields(),
        kind=a["kind"],
        difficulty=a["difficulty"],
        seed=a["seed"],
        lesson=a["lesson"],
        mode=a["mode"],
        issued_at=a["issued_at"],
    )
    Attempt.objects.create(
        issued=issued,
        **owner.fields(),
        kind=a["kind"],
        difficulty=a["difficulty"],
        seed=a["seed"],
        lesson=a["lesson"],
        answer=a["answer"],
        normalized=a["normalized"],
        correct=a["correct"],
        time_taken_ms=a["time_taken_ms"],
        rule_ids=list(dict.fromkeys(a["rule_ids"])),
        generator=a["generator"],
        created_at=a["created_at"],
        counts_for_mastery=counts_for_mastery,
        imported_at=imported_at,
    )


def import_data(
    *, owner: Owner, data: dict[str, Any], now: datetime | None = None, counts_for_mastery: bool = False
) -> ImportResult:
    """Check everything (raise :class:`ImportProblem`), then add what is new, in one transaction.

    The attempts count towards mastery and streaks only with ``counts_for_mastery`` (give
    it only for a file whose :func:`signature_state` is :data:`SIGNED`); otherwise they are
    history.
    """
    if not owner.is_user:
        raise ImportProblem("Nur mit Konto möglich.", "Only with an account.")
    now = now or timezone.now()
    attempts = [_check_attempt(e, f"attempts[{i}]", now) for i, e in enumerate(data.get("attempts", []))]
    reviews = [_check_review(e, f"reviews[{i}]", now) for i, e in enumerate(data.get("reviews", []))]
    added = skipped = reviews_added = reviews_kept = 0
    with transaction.atomic():
        existing = _existing_keys(owner)
        for a in attempts:
            key = (a["kind"], a["difficulty"], a["seed"], a["created_at"])
            if key in existing:
                skipped += 1
                continue
            existing.add(key)
            try:
                with transaction.atomic():  # a savepoint: a parallel import of the same file may win
                    _add_attempt(owner, a, counts_for_mastery=counts_for_mastery, imported_at=now)
            except IntegrityError:  # Attempt's attempt_imported_once: already there
                skipped += 1
                continue
            added += 1
        have = set(ReviewItem.objects.owned_by(owner).values_list("kind", "difficulty", "seed"))
        for r in reviews:
            card_key = (r["kind"], r["difficulty"], r["seed"])
            if card_key in have:
                reviews_kept += 1  # the user's own card wins
                continue
            have.add(card_key)
            ReviewItem.objects.create(**owner.fields(), **r)
            reviews_added += 1
    return ImportResult(added, skipped, reviews_added, reviews_kept)
