"""Reads of the quizzes app: lists, access checks, results, statistics, CSV lines and answer keys.

One write stays here on purpose, as before the split: the results functions first submit the
attempts whose time is over (:func:`~.services.attempts.finalize_expired`), so a table never
shows an attempt as running after its end.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import Case, CharField, Count, FloatField, Max, OuterRef, Prefetch, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce, Concat
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import override as language
from django.utils.translation import pgettext

from skatschule.classrooms.models import Classroom
from skatschule.classrooms.services import classrooms_taught, is_teacher
from skatschule.core.db import streaming_reads
from skatschule.core.notfound import NotFound
from skatschule.core.people import DELETED_PREFIX, person_name, shown_name
from skatschule.core.spreadsheets import guard, local_datetime
from skatschule.engine.numbers import is_plain_number, plain_number
from skatschule.exercises.base import Question
from skatschule.training.lessons import get_lessons
from skatschule.training.registry import exercise_types, get_type

from .answers import answer_words
from .grading import policy_result, shown_points
from .models import LivePoints, LiveSession, OwnItem, Quiz, QuizAnswer, QuizAttempt, QuizItem, ScoreOverride
from .questions import exercise_type, grade_values, question_for, quiz_state
from .services.attempts import finalize_expired


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


def type_levels(kind: str) -> int:
    found = get_type(kind)
    if found is None or found.graded_by_job:  # a job's grading: not within a quiz
        return 0
    return int(getattr(found, "levels", 1) or 1)


def lesson_choices(lang: str) -> list[tuple[str, str]]:
    return [(lesson.slug, lesson.title(lang)) for lesson in get_lessons()]


def kind_choices(lang: str) -> list[tuple[str, str]]:
    return [(slug, kind.title(lang)) for slug, kind in exercise_types().items() if not kind.graded_by_job]


def max_level() -> int:
    return max((int(getattr(k, "levels", 1) or 1) for k in exercise_types().values()), default=1)


def _int(pk: object) -> int:
    number = plain_number(pk)
    if number is None:
        raise NotFound("no such id")
    return number


def own_quiz(user: User, pk: object) -> Quiz:
    """The teacher's own quiz; ``NotFound`` for everyone else."""
    if not is_teacher(user):
        raise NotFound("not a teacher")
    found = Quiz.objects.filter(pk=_int(pk), owner=user).select_related("classroom").first()
    if found is None:
        raise NotFound("no such quiz")
    return found


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
class TaughtQuiz:
    """A teacher's quiz with how many attempts were started and how many submitted."""

    quiz: Quiz
    started: int
    submitted: int


def quizzes_taught_with_counts(user: User) -> list[TaughtQuiz]:
    """The teacher's quizzes with their attempt counts (one query)."""
    rows = (
        Quiz.objects.filter(owner=user)
        .select_related("classroom")
        .annotate(
            started=_count_of(QuizAttempt.objects.filter(quiz=OuterRef("pk"))),
            submitted=_count_of(QuizAttempt.objects.filter(quiz=OuterRef("pk"), submitted_at__isnull=False)),
        )
        .order_by(*(Quiz._meta.ordering or ["pk"]))
    )
    return [TaughtQuiz(quiz, quiz.started, quiz.submitted) for quiz in rows]


def _count_of(rows: QuerySet[QuizAttempt]) -> Any:
    """``COUNT(*)`` of ``rows`` as a subquery (an index range count, no join of all attempts)."""
    from django.db.models import Func, IntegerField, Subquery

    counted = rows.order_by().annotate(n=Func("pk", function="COUNT")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


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


def student_quiz(user: User, pk: object) -> Quiz:
    """A quiz of one of the student's classes; ``NotFound`` for anyone else's."""
    found = quizzes_for_student(user).filter(pk=_int(pk)).first()
    if found is None:
        raise NotFound("no such quiz")
    return found


def own_attempt(user: User, public_id: UUID | str) -> QuizAttempt:
    """The student's own attempt by its uuid; ``NotFound`` for anyone else's."""
    found = (
        QuizAttempt.objects.filter(public_id=public_id, student=user).select_related("quiz", "quiz__classroom").first()
        if user.is_authenticated
        else None
    )
    if found is None:
        raise NotFound("no such attempt")
    return found


def quiz_attempt(quiz: Quiz, pk: object) -> QuizAttempt:
    found = quiz.attempts.filter(pk=_int(pk)).select_related("student").first()
    if found is None:
        raise NotFound("no such attempt")
    return found


def item_at(quiz: Quiz, position: object) -> QuizItem:
    found = quiz.items.filter(position=_int(position)).first() if is_plain_number(position) else None
    if found is None:
        raise NotFound("no such item")
    return found


def attempts_left(quiz: Quiz, student: User) -> int:
    used = quiz.attempts.filter(student=student).count()
    return max(0, quiz.max_attempts - used)


def key_open(quiz: Quiz, now: datetime | None = None) -> bool:
    """May right answers of this quiz be shown at all now? With random variants each student has
    own questions: yes. Items "the same for everyone" share one key, which a second account
    (joined with the class code, handing in an empty attempt) could pass on: only once the quiz
    is closed (its end, or the teacher's "Beenden", which is the release)."""
    return quiz.variants == Quiz.Variants.RANDOM or quiz_state(quiz, now) == "closed"


def immediate_feedback(quiz: Quiz, now: datetime | None = None) -> bool:
    """Right answers right after each answer (the teacher's choice, and :func:`key_open`)."""
    return quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY and key_open(quiz, now)


def answers_visible(attempt: QuizAttempt, now: datetime | None = None) -> bool:
    """May the student see the right answers of this attempt now? Until then: the score only."""
    now = now or timezone.now()
    policy = attempt.quiz.show_answers
    if not key_open(attempt.quiz, now):
        return False
    if policy == Quiz.ShowAnswers.IMMEDIATELY:
        return True
    if policy == Quiz.ShowAnswers.AFTER_SUBMIT:
        return attempt.submitted_at is not None
    return attempt.submitted_at is not None and quiz_state(attempt.quiz, now) == "closed"


@dataclass
class ResultRow:
    attempt: QuizAttempt
    answers: dict[int, QuizAnswer]
    total: int

    @property
    def seconds(self) -> int | None:
        if self.attempt.submitted_at is None:
            return None
        return max(0, int((self.attempt.submitted_at - self.attempt.started_at).total_seconds()))

    @property
    def duration(self) -> str:
        seconds = self.seconds
        if seconds is None:
            return "–"
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def percent(self) -> int:
        return round(100 * (self.attempt.score or 0) / self.total) if self.total else 0


_BY_NAME = (
    Case(When(student__username__startswith=DELETED_PREFIX, then=Value(1)), default=Value(0)),
    "student__username",
)
"""Attempts by student name, deleted accounts last (their name reads differently per language)."""


def student_results(quiz: Quiz, now: datetime | None = None) -> list[ResultRow]:
    """One row per attempt (submitted or not), by student name and attempt number."""
    finalize_expired(attempts=quiz.attempts.all(), now=now)
    positions = dict(quiz.items.values_list("pk", "position"))
    attempts = list(quiz.attempts.select_related("student").order_by(*_BY_NAME, "number"))
    by_attempt: dict[int, dict[int, QuizAnswer]] = {a.pk: {} for a in attempts}
    for answer in QuizAnswer.objects.filter(attempt__quiz=quiz, answered=True):
        by_attempt.setdefault(answer.attempt_id, {})[positions[answer.item_id]] = answer
    return [ResultRow(a, by_attempt[a.pk], len(positions)) for a in attempts]


RESULTS_PER_PAGE = 50
"""Attempts per page of the teacher's results table (the page stays the same size for any class)."""


@dataclass(frozen=True)
class ResultLine:
    """One attempt as the results table and the CSV show it: only the columns they use."""

    pk: int
    username: str
    number: int
    started_at: datetime
    submitted_at: datetime | None
    score: int | None
    total: int
    cells: tuple[float | None, ...]
    """Per item in position order: the credit it earns (the teacher's override where there is
    one, else the grade, 0 to 1), or None if not answered and not graded."""
    given: tuple[str, ...] = ()
    """Per item the normalised answer ("" if none); only filled for the CSV."""
    points: float | None = None
    """The graded result (partial credit and overrides); None while running."""
    full_name: str = ""
    """The name the person goes by (an LMS sends it), if known."""

    @property
    def name(self) -> str:
        """The person as a page names them (the full name where known, else the username)."""
        return shown_name(self.username, full_name=self.full_name)

    @property
    def shown_points(self) -> str:
        return shown_points(self.points)

    @property
    def seconds(self) -> int | None:
        if self.submitted_at is None:
            return None
        return max(0, int((self.submitted_at - self.started_at).total_seconds()))

    @property
    def duration(self) -> str:
        seconds = self.seconds
        return "–" if seconds is None else f"{seconds // 60}:{seconds % 60:02d}"


ResultRowValues = tuple[int, str, int, datetime, datetime | None, int | None, float | None, str]

_FULL_NAME = Concat("student__first_name", Value(" "), "student__last_name", output_field=CharField())


def _result_attempts(quiz: Quiz) -> QuerySet[QuizAttempt, ResultRowValues]:
    return (
        quiz.attempts.order_by(*_BY_NAME, "number", "pk")
        .annotate(full_name=_FULL_NAME)
        .values_list("pk", "student__username", "number", "started_at", "submitted_at", "score", "points", "full_name")
    )


def _result_lines(
    rows: Sequence[ResultRowValues], items: Sequence[tuple[int, int]], *, with_given: bool
) -> list[ResultLine]:
    """ResultLines for attempt rows from :func:`_result_attempts`; one query for their answers."""
    index = {item_pk: i for i, (item_pk, _position) in enumerate(items)}
    cells: dict[int, list[float | None]] = {row[0]: [None] * len(items) for row in rows}
    given: dict[int, list[str]] = {row[0]: [""] * len(items) for row in rows} if with_given else {}
    answers = QuizAnswer.objects.filter(attempt_id__in=list(cells)).order_by()
    fields = ("attempt_id", "item_id", "answered", "credit", "override_credit", "normalized")
    for attempt_id, item_id, answered, earned, override, normalized in answers.values_list(*fields):
        if item_id in index:
            if answered or override is not None:  # an unanswered item the teacher graded counts too
                cells[attempt_id][index[item_id]] = float(earned if override is None else override)
            if with_given and answered:
                given[attempt_id][index[item_id]] = normalized
    return [
        ResultLine(
            pk,
            username,
            number,
            started,
            submitted,
            score,
            len(items),
            tuple(cells[pk]),
            tuple(given.get(pk, ())),
            points,
            full_name,
        )
        for pk, username, number, started, submitted, score, points, full_name in rows
    ]


def results_page(quiz: Quiz, page: int | str | None = 1, now: datetime | None = None) -> tuple[Any, list[ResultLine]]:
    """One page of the results table (:data:`RESULTS_PER_PAGE` attempts) and its lines.

    A page number that is not a number or out of range gives the first or last page.
    """
    from django.core.paginator import Paginator

    finalize_expired(attempts=quiz.attempts.all(), now=now)
    items = list(quiz.items.order_by("position").values_list("pk", "position"))
    shown = Paginator(_result_attempts(quiz), RESULTS_PER_PAGE).get_page(page)
    return shown, _result_lines(list(shown.object_list), items, with_given=False)


def result_lines(quiz: Quiz, now: datetime | None = None, chunk: int = 200) -> Iterator[ResultLine]:
    """Every attempt's line, read in chunks (for the streamed CSV)."""
    finalize_expired(attempts=quiz.attempts.all(), now=now)
    items = list(quiz.items.order_by("position").values_list("pk", "position"))
    batch: list[ResultRowValues] = []
    # the first batch about fills the first 4 kB (a browser starts the download then), the next
    # ones double: the start does not wait for a whole chunk, whatever the class size
    size = min(30, chunk)
    with streaming_reads():
        for row in _result_attempts(quiz).iterator(chunk_size=100):
            batch.append(row)
            if len(batch) == size:
                yield from _result_lines(batch, items, with_given=True)
                batch, size = [], min(2 * size, chunk)
        if batch:
            yield from _result_lines(batch, items, with_given=True)


@dataclass
class ItemStat:
    item: QuizItem
    title: str
    answered: int = 0
    correct: int = 0
    wrong: list[tuple[str, int]] = field(default_factory=list)
    facility: float | None = None
    """The facility index: the mean credit on the item over submitted attempts (0 to 1)."""
    discrimination: float | None = None
    """The discrimination index: mean credit of the top third minus that of the bottom third
    (attempts ranked by points; -1 to 1; None with fewer than 3 submitted attempts)."""

    @property
    def percent(self) -> int | None:
        return round(100 * self.correct / self.answered) if self.answered else None

    @property
    def facility_percent(self) -> int | None:
        return None if self.facility is None else round(100 * self.facility)

    @property
    def shown_discrimination(self) -> str:
        if self.discrimination is None:
            return "–"
        text = number_format(self.discrimination, decimal_pos=2)  # "+0,50" on German pages
        return text if self.discrimination < 0 else "+" + text


def item_stats(quiz: Quiz, lang: str = "de", top: int = 3) -> list[ItemStat]:
    """Per item, over submitted attempts: how many answered, % correct, most common wrong answers.

    Counted in SQL (``GROUP BY``). The counts are cached under a fingerprint of the submitted
    attempts (how many, the newest id and time, from the ``(quiz, submitted_at)`` index): the
    answers of a submitted attempt never change, so the same fingerprint means the same counts,
    and a new submission makes a new key. A repeated view costs one small aggregate.
    """
    from django.core.cache import cache

    stats = {item.pk: ItemStat(item, teacher_item_title(item.kind, lang)) for item in quiz.items.all()}
    submitted = quiz.attempts.filter(submitted_at__isnull=False).order_by()
    mark = submitted.aggregate(n=Count("pk"), top=Max("pk"), last=Max("submitted_at"))
    overridden = ScoreOverride.objects.filter(answer__attempt__quiz=quiz).aggregate(top=Max("pk"))["top"]
    key = (
        f"quizzes:item-stats:v2:{quiz.pk}:{mark['n']}:{mark['top']}:{mark['last'] and mark['last'].timestamp()}:"
        f"{overridden}:{hashlib.sha256(repr(sorted(stats)).encode()).hexdigest()[:12]}"
    )
    counted = cache.get(key)
    if counted is None:
        counted = (_count_item_answers(quiz, set(stats)), item_indices(quiz, set(stats)))
        cache.set(key, counted, timeout=24 * 3600)
    answers, indices = counted
    for pk, (answered, correct, wrong) in answers.items():
        if pk in stats:
            stats[pk].answered, stats[pk].correct = answered, correct
            stats[pk].wrong = [(value, n) for value, n in wrong[:top]]
    for pk, (facility, discrimination) in indices.items():
        if pk in stats:
            stats[pk].facility, stats[pk].discrimination = facility, discrimination
    return list(stats.values())


def item_indices(quiz: Quiz, item_pks: set[int]) -> dict[int, tuple[float | None, float | None]]:
    """Per item: (facility index, discrimination index) over the submitted attempts.

    An item an attempt left unanswered counts 0 (or the teacher's grade of it). Attempts are ranked
    by their points (ties by id); the top and bottom thirds have ``n // 3`` attempts each, so the
    middle is left out.
    """
    ranked = list(
        quiz.attempts.filter(submitted_at__isnull=False).order_by("-points", "pk").values_list("pk", flat=True)
    )
    if not ranked:
        return {pk: (None, None) for pk in item_pks}
    effective = Coalesce("override_credit", "credit", output_field=FloatField())
    credits: dict[tuple[int, int], float] = {
        (attempt_id, item_id): float(value)
        for attempt_id, item_id, value in QuizAnswer.objects.filter(attempt_id__in=ranked)
        .order_by()
        .values_list("attempt_id", "item_id", effective)
    }
    third = len(ranked) // 3

    def mean(attempt_ids: Sequence[int], item_pk: int) -> float:
        return sum(credits.get((a, item_pk), 0.0) for a in attempt_ids) / len(attempt_ids)

    return {
        pk: (
            mean(ranked, pk),
            round(mean(ranked[:third], pk) - mean(ranked[-third:], pk), 4) if third else None,
        )
        for pk in item_pks
    }


def _count_item_answers(quiz: Quiz, item_pks: set[int]) -> dict[int, tuple[int, int, list[tuple[str, int]]]]:
    """Per item: answers in submitted attempts, right ones, wrong answers by frequency (GROUP BY)."""
    answers = QuizAnswer.objects.filter(
        attempt__quiz=quiz, attempt__submitted_at__isnull=False, answered=True
    ).order_by()
    totals = {pk: [0, 0] for pk in item_pks}
    for row in answers.values("item_id").annotate(n=Count("pk"), right=Count("pk", filter=Q(correct=True))):
        if row["item_id"] in totals:
            totals[row["item_id"]] = [row["n"], row["right"]]
    wrong: dict[int, Counter[str]] = {pk: Counter() for pk in item_pks}
    for item_id, normalized, n in (
        answers.filter(correct=False)
        .values("item_id", "normalized")
        .annotate(n=Count("pk"))
        .values_list("item_id", "normalized", "n")
    ):
        if item_id in wrong:
            wrong[item_id][normalized or "–"] += n
    return {
        pk: (totals[pk][0], totals[pk][1], sorted(wrong[pk].items(), key=lambda pair: (-pair[1], pair[0]))[:10])
        for pk in item_pks
    }


def kind_title(kind: str, lang: str) -> str:
    found = exercise_type(kind)
    return found.title(lang) if found else kind


def teacher_item_title(kind: str, lang: str) -> str:
    """An item's name on the teacher's pages: an own item by the title its teacher gave it, with its
    type ("Kreuz sticht · Wer bekommt den Stich?"); students only ever see the type (:func:`kind_title`),
    since a title may tell the answer."""
    found = exercise_type(kind)
    item = getattr(found, "item", None)
    if isinstance(item, OwnItem):
        return f"{item.title} · {found.title(lang)}"
    return kind_title(kind, lang)


def csv_rows(quiz: Quiz, lang: str = "de") -> list[list[Any]]:
    """The results as a table: a header row, then one row per attempt."""
    return list(csv_lines(quiz, lang))


def csv_lines(quiz: Quiz, lang: str = "de") -> Iterator[list[Any]]:
    """The rows of :func:`csv_rows` one by one, reading the attempts in chunks (for streaming).

    Answers are in words in ``lang`` (``answers.answer_text``: "Vorhand", "Pik-König", never the
    stored "vorhand", "SK"); start and submission are date cells in the site's time zone
    (``core.spreadsheets.local_datetime``)."""
    from .answers import answer_text, shared_question

    items = list(quiz.items.order_by("position"))
    readers = [(*shared_question(quiz, item), item.kind) for item in items]
    said: dict[tuple[int, str], str] = {}
    with language(lang):  # left before the first row is yielded: a generator must not hold the language
        header = [
            pgettext("Tabellenkopf", "Benutzername"),
            pgettext("Tabellenkopf", "Versuch"),
            pgettext("Tabellenkopf", "Beginn"),
            pgettext("Tabellenkopf", "Abgabe"),
            pgettext("Tabellenkopf", "Dauer (Sekunden)"),
            pgettext("Tabellenkopf", "Punkte"),
            pgettext("Tabellenkopf", "Aufgaben"),
        ]
        per_item = (
            pgettext("Tabellenkopf", "Aufgabe %(n)d Antwort"),
            pgettext("Tabellenkopf", "Aufgabe %(n)d Punkte"),
        )
    for item in items:
        header.extend(label % {"n": item.position} for label in per_item)
    yield header
    for row in result_lines(quiz):
        line: list[Any] = [
            shown_name(row.username, lang),
            row.number,
            local_datetime(row.started_at),
            local_datetime(row.submitted_at) or "",
            "" if row.seconds is None else row.seconds,
            "" if row.submitted_at is None or row.points is None else round(row.points, 2),
            row.total,
        ]
        for position, ((question, widget, kind), earned, given) in enumerate(zip(readers, row.cells, row.given)):
            words = said.get((position, given))
            if words is None:  # students give the same answers: each is read once per export
                words = said[(position, given)] = answer_text(given, lang, question, widget, kind)
            line.extend(["", ""] if earned is None else [words, round(earned, 2)])
        yield [csv_safe(cell) if isinstance(cell, str) else cell for cell in line]


def csv_safe(cell: str) -> str:
    """Keep spreadsheet programs from reading a cell as a formula (user names are free text)."""
    return guard(cell)


@dataclass
class KeyEntry:
    item: QuizItem
    title: str
    question: Question
    answer: str


def answer_key(quiz: Quiz, lang: str = "de", student_id: int | None = None) -> list[KeyEntry]:
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


def right_answer(quiz: Quiz, item: QuizItem, student_id: int | None, lang: str = "de", attempt: int = 1) -> str:
    """The right answer to the student's variant of ``item``, for display (engine-computed)."""
    kind = exercise_type(item.kind)
    if kind is None:
        return ""
    question = question_for(quiz, item, student_id, attempt)
    return grade_values(question, kind.correct_answer(question)).answer.get(lang)


def has_attempts(quiz: Quiz) -> bool:
    """Has anyone started the quiz? Then its items, variants, difficulty and class are locked."""
    return quiz.attempts.exists()


def quiz_sources(quiz: Quiz) -> dict[str, list[str]]:
    """What the items were drawn from: exercise types, lessons and rule ids, sorted.

    A quiz made without a record of its choice (by code) counts as chosen from its items' types.
    """
    stored = quiz.sources if isinstance(quiz.sources, dict) else {}
    found = {key: sorted_names(stored.get(key) or []) for key in ("kinds", "lessons", "rules")}
    if not any(found.values()):
        found["kinds"] = sorted_names(item.kind for item in quiz.items.all() if get_type(item.kind) is not None)
    return found


def sorted_names(values: Iterable[Any]) -> list[str]:
    return sorted({str(v) for v in values if str(v)})


def quiz_summary(quiz: Quiz) -> dict[str, int]:
    counts = quiz.attempts.aggregate(started=Count("pk"), submitted=Count("pk", filter=Q(submitted_at__isnull=False)))
    return {"started": counts["started"] or 0, "submitted": counts["submitted"] or 0}


# --- small reads for the views (so that views run no queries of their own) -------------------


def quiz_items(quiz: Quiz) -> QuerySet[QuizItem]:
    """The quiz's items in their order."""
    return quiz.items.all()


def item_count(quiz: Quiz) -> int:
    return quiz.items.count()


def item_positions(quiz: Quiz) -> list[int]:
    """The item positions, for the column heads of the results table."""
    return list(quiz.items.order_by("position").values_list("position", flat=True))


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


def student_attempts(quiz: Quiz, student: User) -> list[QuizAttempt]:
    """The student's attempts at the quiz, first attempt first."""
    return list(quiz.attempts.filter(student=student).order_by("number"))


def classes_of(teacher: User) -> QuerySet[Classroom]:
    """The teacher's classes, for a class choice (as the forms offer them)."""
    return Classroom.objects.filter(teacher=teacher)


def teaches_a_class(user: User) -> bool:
    return classrooms_taught(user).exists()


def taught_class_pk(user: User, wanted: str) -> int | None:
    """``wanted`` as a class id when it names one of the user's classes, else None."""
    number = plain_number(wanted)
    if number is not None and classrooms_taught(user).filter(pk=number).exists():
        return number
    return None


def own_items_of(owner: User) -> QuerySet[OwnItem]:
    """The teacher's own items."""
    return OwnItem.objects.filter(owner=owner)


def own_item(owner: User, pk: object) -> OwnItem:
    """The teacher's own item by its id; ``NotFound`` for junk or anyone else's."""
    number = plain_number(pk)
    found = OwnItem.objects.filter(pk=number, owner=owner).first() if number is not None else None
    if found is None:
        raise NotFound("no such item")
    return found


def quizzes_open_for_items(owner: User) -> QuerySet[Quiz]:
    """The owner's quizzes nobody has started yet (an own item may still be added to them)."""
    return Quiz.objects.filter(owner=owner, attempts__isnull=True).select_related("classroom").distinct()


def owned_quiz_or_none(owner: User, raw: str) -> Quiz | None:
    """The owner's quiz with the id ``raw`` (form input), or None for junk or another's quiz."""
    number = plain_number(raw)
    if number is None:
        return None
    return Quiz.objects.filter(pk=number, owner=owner).first()


# --- grading (issue 28 §2): the quiz's grading policy over attempts, overrides ---


@dataclass(frozen=True)
class StudentGrade:
    """One student's result under the quiz's grading policy."""

    username: str
    attempts: tuple[float, ...]
    """The submitted attempts' points, in attempt order."""
    result: float | None
    total: int
    full_name: str = ""

    @property
    def name(self) -> str:
        """The person as a page names them (the full name where known, else the username)."""
        return shown_name(self.username, full_name=self.full_name)

    @property
    def shown(self) -> str:
        return shown_points(self.result)

    @property
    def shown_attempts(self) -> list[str]:
        return [shown_points(p) for p in self.attempts]


GRADES_PER_PAGE = 50
"""Students a page of the results' grades table shows (a class's table no longer grows with the class)."""


def student_grades(quiz: Quiz, students: Iterable[int] | None = None) -> list[StudentGrade]:
    """Per student (by name, deleted accounts last; only ``students`` if given): the points of
    each submitted attempt and the result under ``quiz.grading_policy``."""
    total = item_count(quiz)
    points: dict[str, list[float]] = {}
    names: dict[str, str] = {}
    rows = quiz.attempts.filter(submitted_at__isnull=False)
    if students is not None:
        rows = rows.filter(student_id__in=list(students))
    ordered = rows.order_by(*_BY_NAME, "number").annotate(full_name=_FULL_NAME)
    for username, value, full_name in ordered.values_list("student__username", "points", "full_name"):
        points.setdefault(username, []).append(float(value or 0.0))
        names[username] = full_name
    return [
        StudentGrade(username, tuple(values), policy_result(values, quiz.grading_policy), total, names[username])
        for username, values in points.items()
    ]


def grades_page(quiz: Quiz, page: int | str | None = 1) -> tuple[Any, list[StudentGrade]]:
    """One page of :func:`student_grades` (:data:`GRADES_PER_PAGE` students, in the same order).

    A page number that is not a number or out of range gives the first or last page."""
    from django.core.paginator import Paginator

    students = (
        quiz.attempts.filter(submitted_at__isnull=False)
        .order_by(*_BY_NAME, "student_id")
        .values_list("student_id", flat=True)
        .distinct()  # one row per student: the ordering's columns are the student's too
    )
    shown = Paginator(students, GRADES_PER_PAGE).get_page(page)
    return shown, student_grades(quiz, students=list(shown.object_list))


def graded_result(quiz: Quiz, student_id: int) -> float | None:
    """The student's result under the quiz's grading policy (None before a submitted attempt)."""
    rows = quiz.attempts.filter(student_id=student_id, submitted_at__isnull=False).order_by("number")
    return policy_result([float(p or 0.0) for p in rows.values_list("points", flat=True)], quiz.grading_policy)


def overrides_of(answer: QuizAnswer) -> list[ScoreOverride]:
    """Every override of the answer, oldest first, with who made it."""
    return list(answer.overrides.select_related("by"))


def newest_overrides(attempt_ids: Iterable[int]) -> dict[int, ScoreOverride]:
    """Per attempt id: the newest override of any of its answers (attempts without one are left out)."""
    newest: dict[int, ScoreOverride] = {}
    for override in ScoreOverride.objects.filter(answer__attempt_id__in=list(attempt_ids)).select_related("answer"):
        attempt_id = override.answer.attempt_id
        if attempt_id not in newest or override.pk > newest[attempt_id].pk:
            newest[attempt_id] = override
    return newest


# --- live rounds (issue 28 §2) ----------------------------------------------------------------


def open_live_session(quiz: Quiz) -> LiveSession | None:
    """The quiz's live round that has not ended, if any."""
    return quiz.live_sessions.filter(ended_at__isnull=True).select_related("quiz").first()


def latest_live_session(quiz: Quiz) -> LiveSession | None:
    """The quiz's open live round, else the last one (a student's page after the end)."""
    return quiz.live_sessions.select_related("quiz").first()


def live_stamp(session: LiveSession | None) -> str:
    """What a learner's page shows, in one token: a change means the page must be loaded again."""
    if session is None:
        return "none"
    return f"{session.pk}:{session.position}:{int(session.revealed)}:{int(session.ended_at is not None)}"


LIVE_STAMP_KEY = "quizzes.live.stamp.{}"
LIVE_STAMP_SECONDS = 10


def live_round_stamp(quiz_pk: int) -> str:
    """:func:`live_stamp` of the quiz's latest round, as the phones' event streams read it: from
    the cache, so thirty phones reading at once after a step cost no thirty database reads. Each
    step of the teacher (``services.live``) drops the cached stamp at once and sets the new one
    when it is committed; a miss reads the database and only *adds* (a reader that read before
    the commit cannot overwrite the stamp the step set)."""
    key = LIVE_STAMP_KEY.format(quiz_pk)
    found = cache.get(key)
    if isinstance(found, str):
        return found
    stamp = live_stamp(LiveSession.objects.filter(quiz_id=quiz_pk).first())
    cache.add(key, stamp, LIVE_STAMP_SECONDS)
    return stamp


def in_open_live_session(attempt: QuizAttempt) -> bool:
    """Is this attempt being answered in a live round that has not ended? (Then only the live
    pages take its answers, one item at a time.)"""
    return attempt.live_sessions.filter(ended_at__isnull=True).exists()


def live_attempt(session: LiveSession, student: User) -> QuizAttempt | None:
    return session.attempts.filter(student=student).first()


@dataclass
class LiveCount:
    joined: int
    answered: int


def live_count(session: LiveSession) -> LiveCount:
    """How many learners joined the round (the lobby: answered or not) and how many answered the item shown."""
    answered = QuizAnswer.objects.filter(
        attempt__live_sessions=session, item__quiz=session.quiz, item__position=session.position, answered=True
    ).count()
    return LiveCount(session.participants.count(), answered if session.position else 0)


def open_live_by_code(code: str) -> LiveSession | None:
    """The open live round with this join code (six digits; anything else finds none)."""
    code = code.strip()
    if len(code) != 6 or not code.isdigit():
        return None
    return LiveSession.objects.filter(code=code, ended_at__isnull=True).select_related("quiz").first()


def live_joined(session: LiveSession, student: User) -> bool:
    return session.participants.filter(student=student).exists()


def live_seconds_left(session: LiveSession, now: datetime | None = None) -> int | None:
    """Whole seconds until the shown item's time is up (0 once it is), ``None`` without a timer."""
    if session.deadline is None or not session.position:
        return None
    left = (session.deadline - (now or timezone.now())).total_seconds()
    return max(0, math.ceil(left))


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    name: str
    points: int
    last: int
    """The points of the item shown (0 before it was answered)."""
    student_id: int


def live_leaderboard(session: LiveSession, lang: str | None = None) -> list[LeaderRow]:
    """Everyone in the round by speed points, most first (equal points share a rank, then by
    name); names as the LMS sent them (:func:`person_name`)."""
    totals: dict[int, int] = {}
    last: dict[int, int] = {}
    for student_id, item_position, points in LivePoints.objects.filter(session=session).values_list(
        "student_id", "item__position", "points"
    ):
        totals[student_id] = totals.get(student_id, 0) + points
        if item_position == session.position:
            last[student_id] = points
    people = [p.student for p in session.participants.select_related("student")]
    rows = sorted(
        ((totals.get(p.pk, 0), person_name(p, lang), p.pk) for p in people),
        key=lambda row: (-row[0], row[1].casefold()),
    )
    board: list[LeaderRow] = []
    for index, (points, name, pk) in enumerate(rows):
        rank = board[-1].rank if board and board[-1].points == points else index + 1
        board.append(LeaderRow(rank, name, points, last.get(pk, 0), pk))
    return board


def live_distribution(session: LiveSession, lang: str) -> list[tuple[str, int, bool]]:
    """The shown item's answers in the round: (answer in words, how many, right?), most frequent first."""
    item = session.quiz.items.filter(position=session.position).first()
    if item is None:
        return []
    rows = (
        QuizAnswer.objects.filter(attempt__live_sessions=session, item=item, answered=True)
        .order_by()
        .values("normalized", "correct")
        .annotate(n=Count("pk"))
        .values_list("normalized", "correct", "n")
    )
    question = question_for(session.quiz, item, None)
    shown = [(answer_words(normalized, lang, question) or "–", n, correct) for normalized, correct, n in rows]
    return sorted(shown, key=lambda row: (-row[1], row[0]))
