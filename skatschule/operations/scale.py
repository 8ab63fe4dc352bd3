"""Growth benchmark: does a page get slower as the data grows?

    python -m skatschule.operations.scale                       # SQLite, a throwaway file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python -m skatschule.operations.scale

It fills a throwaway database (a temporary SQLite file; with a PostgreSQL ``DATABASE_URL`` a new
database ``skatschule_scale_<pid>`` on that server, dropped at the end; the named database is
only used to create and drop it) and measures, in this process with Django's test client and
production-like settings (DEBUG off):

- for a learner with 10, 100, 1,000 and 5,000 attempts (a fifth of them due for review, a few
  re-graded): the progress dashboard, the lessons page, the review queue, the progress export;
- for a class of 10, 100, 300 and 1,000 students who all submitted a 20-item quiz: the
  teacher's results page, the results CSV, the quiz list.

Each figure is the median of ``--runs`` requests (after one warm-up; the requests go in rounds
over all pages and sizes, so a busy moment of the machine hits every size alike) and the
number of SQL queries. The two downloads (CSV, progress export) are streamed: their time is the time to the
first 4 kB (what the browser waits for before the download starts); the time to the last
byte is printed beside it and grows with the file, as it must. The last line is
``worst growth: N.NNx``: the largest ratio, over the pages, of the time at the largest size
to the time at the smallest.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

from skatschule.engine.games import TOTAL_POINTS

LEARNER_SIZES = (10, 100, 1000, 5000)
CLASS_SIZES = (10, 100, 300, 1000)
QUIZ_ITEMS = 20
FIRST_BYTES = 4096
"""A streamed download's first figure is the time to its first 4 kB (header plus first rows)."""


@dataclass
class Measure:
    page: str
    size: str
    ms: float
    queries: int
    full_ms: float | None = None


def _prepare_database() -> tuple[Callable[[], None], str]:
    """Point DATABASE_URL at a throwaway database; return its cleanup and a description."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        name = f"skatschule_scale_{os.getpid()}"
        parts = urlparse(url)
        admin = urlunparse(parts._replace(path=parts.path or "/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = urlunparse(parts._replace(path="/" + name))

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')

        return drop, f"PostgreSQL, throwaway database {name}"
    folder = tempfile.mkdtemp(prefix="skatschule-scale-")
    path = Path(folder) / "scale.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"

    def remove() -> None:
        for leftover in Path(folder).glob("*"):
            leftover.unlink()
        os.rmdir(folder)

    return remove, "SQLite, a temporary file"


def _setup_django(*, keep_redis: bool = False) -> None:
    """Production-like settings in this process; ``keep_redis`` keeps ``REDIS_URL`` from the environment."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatschule.settings")
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(40)  # DEBUG off, as in production
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    if not keep_redis:
        os.environ["REDIS_URL"] = ""
    os.environ["CONN_MAX_AGE"] = "600"
    import django
    from django.conf import settings

    django.setup()
    # pages render {% static %}; without collectstatic's manifest use the plain storage
    settings.STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


# --- filling ----------------------------------------------------------------------------------


def _rule_ids_by_step() -> dict[tuple[str, int], list[str]]:
    """Real rule ids per exercise step of the lessons (from one generated question each); steps
    that are activities, not exercises (lesson 16's ``spiel``: a game at the table), are left out."""
    from skatschule.training.lessons import get_activity, get_lessons
    from skatschule.training.models import IssuedExercise
    from skatschule.training.services.issuing import question_for

    steps = sorted(
        {(s.kind, s.level) for lesson in get_lessons() for s in lesson.steps if get_activity(s.kind) is None}
    )
    return {
        step: [str(r) for r in question_for(IssuedExercise(kind=step[0], difficulty=step[1], seed=1)).rule_ids]
        for step in steps
    }


def fill_learner(name: str, attempts: int, rng: random.Random, rule_ids: dict[tuple[str, int], list[str]]) -> Any:
    """A user with ``attempts`` attempts over the last year (lesson steps, 75 % right), one in
    fifty re-graded, and ``attempts // 5`` review items that are due."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from skatschule.training.models import (
        Attempt,
        AttemptGrade,
        IssuedExercise,
        ReviewItem,
    )

    user = get_user_model().objects.create_user(name)
    now = timezone.now()
    steps = sorted(rule_ids)
    issued, rows = [], []
    for n in range(attempts):
        kind, level = rng.choice(steps)
        when = now - timedelta(minutes=(attempts - n) * 90)
        issued.append(IssuedExercise(user=user, kind=kind, difficulty=level, seed=rng.randrange(2**31), issued_at=when))
    IssuedExercise.objects.bulk_create(issued, batch_size=500)
    for item in IssuedExercise.objects.filter(user=user).order_by("issued_at"):
        rows.append(
            Attempt(
                issued=item,
                user=user,
                kind=item.kind,
                difficulty=item.difficulty,
                seed=item.seed,
                answer=["61"],
                normalized="61",
                correct=rng.random() < 0.75,
                time_taken_ms=rng.randrange(2000, 60000),
                rule_ids=rule_ids[(item.kind, item.difficulty)],
                created_at=item.issued_at + timedelta(seconds=20),
            )
        )
    Attempt.objects.bulk_create(rows, batch_size=500)
    regrade = [
        AttemptGrade(attempt_id=pk, correct=rng.random() < 0.5)
        for pk in Attempt.objects.filter(user=user).values_list("pk", flat=True)[::50]
    ]
    AttemptGrade.objects.bulk_create(regrade)
    due = []
    for n in range(attempts // 5):
        kind, level = rng.choice(steps)
        card = {
            "card_id": n + 1,
            "state": 2,
            "step": None,
            "stability": 3.0,
            "difficulty": 5.0,
            "due": (now - timedelta(hours=n + 1)).isoformat(),
            "last_review": (now - timedelta(days=4)).isoformat(),
        }
        due.append(
            ReviewItem(
                user=user,
                kind=kind,
                difficulty=level,
                seed=n,
                card=card,
                due=now - timedelta(hours=n + 1),
                reviews=1,
                created_at=now - timedelta(days=5),
                updated_at=now - timedelta(days=4),
            )
        )
    ReviewItem.objects.bulk_create(due, batch_size=500)
    return user


def fill_class(name: str, students: int, rng: random.Random) -> tuple[Any, Any]:
    """A teacher, a class of ``students`` and a 20-item quiz that every student submitted."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from skatschule.classrooms import services as classrooms
    from skatschule.classrooms.models import Membership
    from skatschule.quizzes.models import QuizAnswer, QuizAttempt
    from skatschule.quizzes.services import authoring

    User = get_user_model()
    teacher = User.objects.create_user(f"{name}-lehrkraft")
    classrooms.grant_teacher(user=teacher)
    room = classrooms.create_classroom(teacher=teacher, name=f"Klasse {name}")
    unusable = make_password(None)
    User.objects.bulk_create(
        [User(username=f"{name}-s{n:04d}", password=unusable) for n in range(students)], batch_size=500
    )
    people = list(User.objects.filter(username__startswith=f"{name}-s").order_by("pk"))
    Membership.objects.bulk_create([Membership(classroom=room, student=p) for p in people], batch_size=500)
    quiz = authoring.create_quiz(
        owner=teacher,
        classroom=room,
        title=f"Quiz {name}",
        pool=[("augen", 1), ("spitzen", 1), ("spielwert", 1)],
        item_count=QUIZ_ITEMS,
    )
    items = list(quiz.items.order_by("position"))
    now = timezone.now()
    QuizAttempt.objects.bulk_create(
        [
            QuizAttempt(
                quiz=quiz,
                student=p,
                number=1,
                started_at=now - timedelta(minutes=30),
                updated_at=now - timedelta(minutes=10),
                submitted_at=now - timedelta(minutes=10),
                score=0,
            )
            for p in people
        ],
        batch_size=500,
    )
    answers = []
    for attempt in QuizAttempt.objects.filter(quiz=quiz):
        for item in items:
            right = rng.random() < 0.7
            value = "61" if right else str(rng.randrange(0, TOTAL_POINTS))
            answers.append(QuizAnswer(attempt=attempt, item=item, values=[value], normalized=value, correct=right))
    QuizAnswer.objects.bulk_create(answers, batch_size=1000)
    return teacher, quiz


# --- measuring --------------------------------------------------------------------------------


def _once(client: Any, url: str, streamed: bool) -> tuple[float, float | None, int]:
    """One request: (seconds to the page or to the first FIRST_BYTES, seconds to the last byte, queries)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {response.status_code}")
        full = None
        if streamed:
            received = 0
            first = None
            for chunk in response.streaming_content:
                received += len(chunk)
                if first is None and received >= FIRST_BYTES:
                    first = time.perf_counter() - start
            full = time.perf_counter() - start
            if first is None:  # a file smaller than FIRST_BYTES
                first = full
        else:
            first = time.perf_counter() - start
        response.close()
    return first, full, len(queries)


def run(
    runs: int,
    out: Callable[[str], None],
    learner_sizes: tuple[int, ...] = LEARNER_SIZES,
    class_sizes: tuple[int, ...] = CLASS_SIZES,
) -> list[Measure]:
    """Fill all sizes first, then measure in rounds (every page at every size once per round),
    so that a busy moment of the machine hits all sizes alike; medians over the rounds."""
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    call_command("migrate", verbosity=0, interactive=False)
    rng = random.Random(17)
    rule_ids = _rule_ids_by_step()
    cases: list[tuple[str, str, Any, str, bool]] = []  # page, size, client, url, streamed
    learner_pages = [
        ("progress dashboard", reverse("training:dashboard"), False),
        ("lessons page", reverse("training:lessons"), False),
        ("review queue", reverse("training:review"), False),
        ("progress export", reverse("accounts:export"), True),
    ]
    for size in learner_sizes:
        out(f"filling: a learner with {size} attempts")
        client = Client()
        client.force_login(fill_learner(f"lerner{size}", size, rng, rule_ids))
        cases.extend((page, f"{size} attempts", client, url, streamed) for page, url, streamed in learner_pages)
    for size in class_sizes:
        out(f"filling: a class of {size} students")
        teacher, quiz = fill_class(f"k{size}", size, rng)
        client = Client()
        client.force_login(teacher)
        cases.extend(
            (page, f"{size} students", client, url, streamed)
            for page, url, streamed in [
                ("teacher results", reverse("quizzes:results", args=[quiz.pk]), False),
                ("results CSV", reverse("quizzes:results_csv", args=[quiz.pk]), True),
                ("quiz list", reverse("quizzes:index"), False),
            ]
        )
    for _page, _size, client, url, streamed in cases:
        _once(client, url, streamed)  # warm-up: caches, the progress summary's first build
    samples: list[list[tuple[float, float | None, int]]] = [[] for _ in cases]
    for _round in range(runs):
        for index, (_page, _size, client, url, streamed) in enumerate(cases):
            samples[index].append(_once(client, url, streamed))
    order = {page: n for n, page in enumerate(dict.fromkeys(case[0] for case in cases))}
    measures = []
    for (page, label, _client, _url, streamed), got in zip(cases, samples):
        full = statistics.median(g[1] for g in got if g[1] is not None) * 1000 if streamed else None
        measures.append(Measure(page, label, statistics.median(g[0] for g in got) * 1000, got[-1][2], full))
    measures.sort(key=lambda m: order[m.page])  # stable: sizes stay in order
    return measures


def table(measures: list[Measure]) -> tuple[list[str], float]:
    lines = [f"{'page':<20} {'size':<15} {'ms':>8} {'queries':>8} {'last byte ms':>13}"]
    worst = 0.0
    pages = list(dict.fromkeys(m.page for m in measures))
    for page in pages:
        rows = [m for m in measures if m.page == page]
        for m in rows:
            full = f"{m.full_ms:13.1f}" if m.full_ms is not None else f"{'':>13}"
            lines.append(f"{m.page:<20} {m.size:<15} {m.ms:8.1f} {m.queries:8d} {full}")
        growth = rows[-1].ms / rows[0].ms if rows[0].ms else 0.0
        worst = max(worst, growth)
        lines.append(f"{page:<20} growth {growth:.2f}x")
    return lines, worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="requests per page and size (median)")
    parser.add_argument("--smallest", action="store_true", help="only the smallest size of each (a smoke run)")
    args = parser.parse_args(argv)
    sizes = (LEARNER_SIZES[:1], CLASS_SIZES[:1]) if args.smallest else (LEARNER_SIZES, CLASS_SIZES)
    cleanup, where = _prepare_database()
    try:
        _setup_django()
        print(f"database: {where}", flush=True)
        lines, worst = table(run(args.runs, lambda line: print(line, flush=True), *sizes))
        for line in lines:
            print(line)
    finally:
        cleanup()
    print(f"worst growth: {worst:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
