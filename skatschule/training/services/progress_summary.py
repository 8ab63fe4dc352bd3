"""The progress derivation as a running state per owner, so a page reads one row, not a history.

:mod:`.progress` defines progress as a function of the owner's attempts, oldest first, with
their effective grades. Every figure it shows is a *fold* over that sequence: counts, the
streak (reset by a wrong answer), the best streak, the last ``STEP_PASS`` grades of each step,
the last ``mastery_window`` grades of each lesson, counts per rule and per chapter. This module
keeps that fold's state in :class:`~..models.ProgressSummary`:

- :func:`record` folds one new attempt in, inside the transaction that stores the attempt
  (``issuing.submit``); it is O(1) in the length of the history;
- :func:`load` returns the state for a page. It first checks the state against the attempts
  with two index-only aggregates (how many attempts, the newest attempt id, the newest
  re-grade id); if anything differs (an import added old attempts, a re-grade changed a grade,
  anonymous practice moved to an account, the lessons changed) it rebuilds the state from the
  history with :func:`build` (the old derivation's cost, once) and stores it.

So the summary can never be wrong for long: at worst it is rebuilt. The test
``tests/training/test_progress_summary.py`` compares pages built from it with the old
derivation over random histories with re-grades and imports.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Func, JSONField, Max, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from skatschule.owners import NOBODY, Owner

from ..lessons import Lesson, get_activity, get_lessons
from ..models import Attempt, AttemptGrade, ProgressSummary

__all__ = ["FORMAT", "build", "load", "record", "rows_in_order"]

FORMAT = 3
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


# A step counts as passed after this many right answers in a row; the dashboard's chapters.
STEP_PASS = 5
CHAPTERS = (
    ("1", _("Spielgrundlagen")),
    ("2", _("Spieleinleitung")),
    ("3", _("Spieldurchführung")),
    ("4", _("Spielbewertung")),
    ("K", _("Kneipenregeln")),
    ("A", _("Abrechnung")),
)


def _chapter_of(rule_id: str) -> str:
    return rule_id.split(".", 1)[0]


def _micros(when: datetime) -> int:
    return (when - _EPOCH) // timedelta(microseconds=1)


@lru_cache(maxsize=4)
def _layout(
    lessons: tuple[Lesson, ...], step_pass: int, chapters: tuple[str, ...]
) -> tuple[str, dict[str, list[tuple[str, int]]]]:
    """A signature of what the fold depends on, and the lessons (slug, window) of each step key."""
    by_key: dict[str, list[tuple[str, int]]] = {}
    parts = [f"v{FORMAT}", f"pass{step_pass}", ",".join(chapters)]
    for lesson in lessons:
        keys = sorted({f"{step.kind}|{step.level}" for step in lesson.steps})
        parts.append(f"{lesson.slug}:{lesson.mastery_window}:{' '.join(keys)}")
        for key in keys:
            by_key.setdefault(key, []).append((lesson.slug, lesson.mastery_window))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16], by_key


def _current_layout() -> tuple[str, dict[str, list[tuple[str, int]]]]:
    return _layout(get_lessons(), STEP_PASS, tuple(code for code, _label in CHAPTERS))


def _empty(signature: str) -> dict[str, Any]:
    return {
        "sig": signature,
        "count": 0,
        "last_pk": 0,
        "last_grade": 0,
        "last": [0, 0],
        "right": 0,
        "activities": 0,
        "run": 0,
        "best": 0,
        "keys": {},
        "lessons": {},
        "rules": {},
        "chapters": {},
    }


def _fold(  # noqa: PLR0913 - over the budget since issue 27; to be split
    state: dict[str, Any],
    kind: str,
    difficulty: int,
    correct: bool,
    rule_ids: Iterable[str],
    by_key: dict[str, list[tuple[str, int]]],
    step_pass: int,
    chapters: frozenset[str],
    counts: bool = True,
) -> None:
    """Add one attempt. ``counts`` False (history from an unsigned import) adds it to the
    counts and the accuracy but not to streaks, mastery windows or step passes. An activity
    (a finished table game, no answer to grade) counts only for its lesson and step."""
    bit = "1" if correct else "0"
    key = f"{kind}|{difficulty}"
    if get_activity(kind) is not None:
        state["activities"] = state.get("activities", 0) + 1
    else:
        state["right"] += int(correct)
        if counts:
            state["run"] = state["run"] + 1 if correct else 0
            state["best"] = max(state["best"], state["run"])
    if counts:
        entry = state["keys"].setdefault(key, [0, 0, ""])
        entry[0] += 1
        entry[1] += int(correct)
        entry[2] = (entry[2] + bit)[-step_pass:]
    for slug, window in by_key.get(key, ()):
        lesson = state["lessons"].setdefault(slug, [0, 0, 0, ""])
        lesson[0] += 1
        lesson[1] += int(correct)
        if counts:
            lesson[2] = lesson[2] + 1 if correct else 0
            lesson[3] = (lesson[3] + bit)[-window:]
    rules = list(rule_ids)
    for rule in set(rules):
        tally = state["rules"].setdefault(rule, [0, 0])
        tally[0] += 1
        tally[1] += int(correct)
    for chapter in {_chapter_of(rule) for rule in rules}:
        if chapter in chapters:
            tally = state["chapters"].setdefault(chapter, [0, 0])
            tally[0] += 1
            tally[1] += int(correct)


def rows_in_order(*, owner: Owner) -> Iterator[tuple[str, int, bool, list[str], datetime, int, bool]]:
    """(kind, difficulty, effective grade, rule ids, created_at, pk, counts for mastery) of every
    attempt, oldest first."""
    qs = Attempt.objects.owned_by(owner).with_grade().order_by("created_at", "pk")
    for kind, difficulty, correct, rule_ids, created, pk, counts in qs.values_list(
        "kind", "difficulty", "effective_correct", "rule_ids", "created_at", "pk", "counts_for_mastery"
    ).iterator(chunk_size=2000):
        yield kind, difficulty, bool(correct), list(rule_ids or ()), created, pk, bool(counts)


def build(*, owner: Owner) -> dict[str, Any]:
    """The state from the whole history (what :func:`load` does when the stored state is stale)."""
    signature, by_key = _current_layout()
    chapters = frozenset(code for code, _label in CHAPTERS)
    state = _empty(signature)
    for kind, difficulty, correct, rule_ids, created, pk, counts in rows_in_order(owner=owner):
        _fold(state, kind, difficulty, correct, rule_ids, by_key, STEP_PASS, chapters, counts)
        state["count"] += 1
        state["last_pk"] = max(state["last_pk"], pk)
        state["last"] = [_micros(created), pk]
    return state


def _fingerprint(owner: Owner) -> tuple[int, int, int]:
    """(attempts, newest attempt id, newest re-grade id): what the state must agree with."""
    counts = Attempt.objects.owned_by(owner).order_by().aggregate(n=Count("pk"), top=Max("pk"))
    if not counts["n"]:
        return 0, 0, 0
    grade = AttemptGrade.objects.filter(attempt__in=Attempt.objects.owned_by(owner).order_by().values("pk"))
    top_grade = grade.order_by().aggregate(top=Max("pk"))["top"] or 0
    return counts["n"], counts["top"] or 0, top_grade


def _scalar(rows: Any, function: str, field: str = "pk") -> Any:
    """``SELECT <function>(field) FROM rows`` as a subquery (no GROUP BY: one value)."""
    return Coalesce(Subquery(rows.order_by().annotate(v=Func(field, function=function)).values("v")[:1]), 0)


def load(*, owner: Owner) -> dict[str, Any]:
    """The owner's state, checked against the attempts (rebuilt and stored if it does not match).

    One query when a state is stored: the summary row with the fingerprint as subqueries.
    """
    signature, _by_key = _current_layout()
    if owner.session_key == NOBODY:
        return _empty(signature)
    summary = _stored(owner)
    if summary is not None:
        summary_pk, state, count, last_pk, last_grade = summary
    else:
        count, last_pk, last_grade = _fingerprint(owner)
    if count == 0:
        return _empty(signature)
    if summary is not None and (
        state.get("sig") == signature
        and state.get("count") == count
        and state.get("last_pk") == last_pk
        and state.get("last_grade") == last_grade
    ):
        return state
    state = build(owner=owner)
    state["last_grade"] = last_grade
    try:
        with transaction.atomic():
            if summary is None:
                ProgressSummary.objects.create(**owner.fields(), state=state)
            else:
                ProgressSummary.objects.filter(pk=summary_pk).update(state=state, updated_at=timezone.now())
    except IntegrityError:  # another request stored one meanwhile: use ours for this page
        pass
    return state


def _summary_rows(owner: Owner) -> Any:
    """The owner's summary row with the fingerprint of the attempts as subqueries."""
    attempts = Attempt.objects.owned_by(owner)
    grades = AttemptGrade.objects.filter(attempt__in=attempts.order_by().values("pk"))
    return (
        ProgressSummary.objects.owned_by(owner)
        .annotate(fp_n=_scalar(attempts, "COUNT"), fp_top=_scalar(attempts, "MAX"), fp_grade=_scalar(grades, "MAX"))
        .order_by("pk")
        .values_list("pk", "state", "fp_n", "fp_top", "fp_grade")[:1]
    )


# A stand-in owner: the SQL is compiled with it once, its value marks where the owner goes.
_STAND_INS = {True: Owner(user_id=-73401779), False: Owner.for_session("summary~stand~in")}
_compiled: dict[tuple[str, bool], tuple[str, list[Any], list[int]]] = {}


def _stored(owner: Owner) -> tuple[int, dict[str, Any], int, int, int] | None:
    """(row id, state, attempts, newest attempt id, newest re-grade id), or None without a row.

    One query of a fixed SQL text: the ORM builds and compiles it once per process, database and
    kind of owner (building three subqueries cost ten times what the database takes to answer
    them, on every page with a progress bar); each read puts the owner's value in its places."""
    stand_in = _STAND_INS[owner.is_user]
    key = (connection.vendor, owner.is_user)
    found = _compiled.get(key)
    if found is None:
        sql, params = _summary_rows(stand_in).query.sql_with_params()
        marker = stand_in.user_id if owner.is_user else stand_in.session_key
        found = (sql, list(params), [i for i, p in enumerate(params) if p == marker])
        if not found[2]:  # pragma: no cover - the ORM always passes a filter's value as a parameter
            raise RuntimeError("the owner is not a parameter of the summary query")
        _compiled[key] = found
    sql, params, places = found
    value = owner.user_id if owner.is_user else owner.session_key
    filled = [value if i in places else p for i, p in enumerate(params)]
    with connection.cursor() as cursor:
        cursor.execute(sql, filled)
        row = cursor.fetchone()
    if row is None:
        return None
    field = ProgressSummary._meta.get_field("state")
    assert isinstance(field, JSONField)
    state = field.from_db_value(row[1], field.get_col(ProgressSummary._meta.db_table), connection)
    return int(row[0]), state, int(row[2] or 0), int(row[3] or 0), int(row[4] or 0)


def record(*, owner: Owner, attempt: Attempt) -> dict[str, Any] | None:
    """Fold a new attempt into the stored state (call inside the transaction that created it).

    Without a stored state nothing is done (the first read builds one). An attempt that is not
    the newest of the history, or a state made for other lessons, marks the state stale.
    Returns the new state when it is current (the answer's page can use it without a read).
    """
    summary = ProgressSummary.objects.select_for_update().owned_by(owner).first()
    if summary is None:
        return None
    state = summary.state
    signature, by_key = _current_layout()
    position = [_micros(attempt.created_at), attempt.pk]
    if state.get("sig") != signature or list(state.get("last", [0, 0])) > position or state.get("count", -1) < 0:
        state["count"] = -1  # stale: the next read rebuilds it
    else:
        chapters = frozenset(code for code, _label in CHAPTERS)
        _fold(
            state,
            attempt.kind,
            attempt.difficulty,
            bool(attempt.correct),
            attempt.rule_ids or (),
            by_key,
            STEP_PASS,
            chapters,
            bool(attempt.counts_for_mastery),
        )
        state["count"] += 1
        state["last_pk"] = max(state["last_pk"], attempt.pk)
        state["last"] = position
    ProgressSummary.objects.filter(pk=summary.pk).update(state=state, updated_at=timezone.now())
    return state if state["count"] >= 0 else None
