"""Page benchmark: each page's time to first byte against ``/healthz`` in the same run.

    python -m skatschule.operations.pages                       # SQLite, a throwaway file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python -m skatschule.operations.pages
    python -m skatschule.operations.pages --in-process          # Django's test client, no gunicorn
    python -m skatschule.operations.pages --in-process --cpu    # the same in CPU time per request

It fills a throwaway database (as :mod:`.scale` does: a temporary SQLite file, or a new PostgreSQL
database dropped at the end) with the shipped puzzles, a learner with ``--attempts`` answers, a
class with a quiz the learner has begun and a score sheet of ``--games`` games, then starts
gunicorn with production settings (:func:`.load.spawn`: DEBUG off, ``--workers``; ``REDIS_URL``
is used if set) and asks, as the logged-in learner, one request at a time, in ``--rounds``
rounds (every page once a round, so a busy moment of the machine hits all alike):
``/healthz``, the home page, a rules chapter, a lesson, an exercise, the puzzles (the index with
its themes, and one puzzle), the card table,
the quiz being taken and the score sheet. Each figure is the median time to the first byte of
the answer; the ratio is that over ``/healthz``'s median. The last line is
``worst ratio: N.NNx``, the largest ratio over the pages (goal: at most 5).
"""

from __future__ import annotations

import argparse
import http.client
import io
import random
import statistics
import sys
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skatschule.operations import load, scale

QUIZ_ITEMS = 20
LESSON = 3
"""The lesson measured: its position in the curriculum (a lesson with several exercise steps)."""
CHAPTER = "3"
EXERCISE = "spielwert"


@dataclass(frozen=True)
class Page:
    name: str
    path: str


def fill(attempts: int, games: int, out: Callable[[str], None]) -> tuple[list[Page], dict[str, str]]:
    """The data and the pages; returns the pages and the learner's cookies (a database session)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from skatschule.classrooms import services as classrooms
    from skatschule.classrooms.models import Membership
    from skatschule.puzzles.models import Puzzle
    from skatschule.quizzes.services import attempts as quiz_attempts
    from skatschule.quizzes.services import authoring
    from skatschule.training.lessons import get_lessons

    call_command("migrate", verbosity=0, interactive=False)
    out("filling: the shipped puzzles")
    call_command("load_puzzles", stdout=io.StringIO())
    rng = random.Random(17)
    out(f"filling: a learner with {attempts} answers")
    learner = scale.fill_learner("lernerin", attempts, rng, scale._rule_ids_by_step())
    teacher = get_user_model().objects.create_user("lehrkraft")
    classrooms.grant_teacher(user=teacher)
    room = classrooms.create_classroom(teacher=teacher, name="Klasse")
    Membership.objects.create(classroom=room, student=learner)
    quiz = authoring.create_quiz(
        owner=teacher,
        classroom=room,
        title="Quiz",
        pool=[("augen", 1), ("spitzen", 1), ("spielwert", 1), ("stich", 1)],
        item_count=QUIZ_ITEMS,
    )
    attempt = quiz_attempts.start_attempt(quiz=quiz, student=learner)
    client = Client()
    client.force_login(learner)
    out(f"filling: a score sheet with {games} games")
    new = {
        "player1": "Anna",
        "player2": "Bernd",
        "player3": "Carla",
        "dealer": "0",
        "pub": "on",
        "cents": "10",
        "grand_base": "24",
    }
    made = client.post(reverse("scoresheet:index"), new)
    sheet = made["Location"].split("#")[0]
    game = {"declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"}
    for n in range(games):
        done = client.post(f"{sheet}spiel/", game)
        if done.status_code != 302:
            raise RuntimeError(f"score sheet game {n + 1}: HTTP {done.status_code}")
    puzzle = Puzzle.objects.filter(owner_user__isnull=True).order_by("pk").first()
    if puzzle is None:
        raise RuntimeError("no shipped puzzles")
    lesson = get_lessons()[LESSON - 1]
    pages = [
        Page("healthz", "/healthz"),
        Page("home", reverse("home:index")),
        Page("rules chapter", reverse("rules:chapter", args=[CHAPTER])),
        Page("lesson", reverse("training:lesson", args=[lesson.slug])),
        Page("exercise", reverse("training:exercise", args=[EXERCISE])),
        Page("puzzle index", reverse("puzzles:index")),
        Page("puzzle", reverse("puzzles:puzzle", args=[puzzle.pk])),
        Page("table", reverse("table:play")),
        Page("quiz take", reverse("quizzes:take", args=[attempt.public_id])),
        Page("score sheet", sheet),
    ]
    client.get(reverse("table:play"))  # the table's first visit deals; the measured ones show it
    cookies = {key: morsel.value for key, morsel in client.cookies.items()}
    cookies.setdefault(settings.SESSION_COOKIE_NAME, client.session.session_key or "")
    return pages, cookies


class Http:
    """One keep-alive connection with the learner's cookies; the time to the answer's headers."""

    def __init__(self, base: str, cookies: dict[str, str]) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def __call__(self, path: str) -> tuple[float, int, int]:
        for retry in (False, True):
            try:
                start = time.perf_counter()
                self.conn.request("GET", path, headers={"Cookie": self.cookie, "Accept-Language": "de"})
                response = self.conn.getresponse()
                first = time.perf_counter() - start
                body = response.read()
                return first, response.status, len(body)
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()  # the server closed an idle keep-alive connection
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if retry:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


class InProcess:
    """Django's test client in this process (no server): for profiling and the smoke test.
    ``cpu``: the request's CPU time (``time.process_time``) instead of the time on the clock,
    the figure a busy shared machine disturbs least."""

    def __init__(self, cookies: dict[str, str], *, cpu: bool = False) -> None:
        from django.test import Client

        self.client = Client(HTTP_ACCEPT_LANGUAGE="de")
        self.clock = time.process_time if cpu else time.perf_counter
        for key, value in cookies.items():
            self.client.cookies[key] = value

    def __call__(self, path: str) -> tuple[float, int, int]:
        start = self.clock()
        response: Any = self.client.get(path)
        first = self.clock() - start
        body = b"".join(response.streaming_content) if response.streaming else response.content
        return first, response.status_code, len(body)

    def close(self) -> None:
        pass


@dataclass
class Result:
    page: Page
    ms: float
    ratio: float
    size: int


def measure(get: Callable[[str], tuple[float, int, int]], pages: list[Page], rounds: int) -> list[Result]:
    """One warm-up, then ``rounds`` rounds over all pages (in a fresh random order each round)."""
    times: dict[str, list[float]] = {p.name: [] for p in pages}
    sizes: dict[str, int] = {}
    order = list(pages)
    shuffle = random.Random(5).shuffle
    for n in range(rounds + 1):
        shuffle(order)
        for page in order:
            seconds, status, size = get(page.path)
            if status != 200:
                raise RuntimeError(f"{page.name} {page.path}: HTTP {status}")
            if n:
                times[page.name].append(seconds)
            sizes[page.name] = size
    floor = statistics.median(times["healthz"])
    return [
        Result(p, statistics.median(times[p.name]) * 1000, statistics.median(times[p.name]) / floor, sizes[p.name])
        for p in pages
    ]


def table(results: list[Result]) -> tuple[list[str], float]:
    lines = [f"{'page':<15} {'ms':>8} {'ratio':>7} {'kB':>7}"]
    for r in results:
        lines.append(f"{r.page.name:<15} {r.ms:8.1f} {r.ratio:6.2f}x {r.size / 1000:7.1f}")
    return lines, max(r.ratio for r in results if r.page.name != "healthz")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="requests per page (median)")
    parser.add_argument("--attempts", type=int, default=1000, help="the learner's answers")
    parser.add_argument("--games", type=int, default=100, help="games on the score sheet")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--in-process", action="store_true", help="Django's test client instead of gunicorn")
    parser.add_argument("--cpu", action="store_true", help="with --in-process: CPU time per request, not the clock")
    args = parser.parse_args(argv)
    cleanup, where = scale._prepare_database()
    proc = static = None
    try:
        scale._setup_django(keep_redis=True)
        print(f"database: {where}", flush=True)
        pages, cookies = fill(args.attempts, args.games, lambda line: print(line, flush=True))
        get: Any
        if args.in_process:
            get = InProcess(cookies, cpu=args.cpu)
        else:
            from django.db import connections

            connections.close_all()  # SQLite: gunicorn's workers write to the same file
            proc, base, static = load.spawn(args.workers, 1)
            get = Http(base, cookies)
        how = ("in process, CPU time" if args.cpu else "in process") if args.in_process else "gunicorn"
        print(f"measuring: {args.rounds} rounds, {how}", flush=True)
        try:
            lines, worst = table(measure(get, pages, args.rounds))
        finally:
            get.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=20)
        if static is not None:
            static.cleanup()
        cleanup()
    for line in lines:
        print(line)
    print(f"worst ratio: {worst:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
