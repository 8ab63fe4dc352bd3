"""How quickly a live class round moves, through the site: ``python -m skatschule.quizzes.bench_live``.

A teacher and ``--learners`` learners (default 30), each a client of its own with its own login,
play a live round of ``--questions`` questions over HTTP and real server-sent events, as the
pages do (issue 35 §4). Measured:

- **answer counted**: from sending a learner's answer until the projector's event stream
  (``/quiz/<id>/live/ereignisse/``) carries the new count ("k von n haben geantwortet"); the
  learners answer one after another, so each figure is one answer;
- **next question, event**: from the teacher's "Nächste Frage" until a learner's stream
  (``/quiz/<id>/mitmachen/ereignisse/``) says ``changed``, for every learner at once;
- **next question, page**: the same until that learner has loaded the page with the question's
  form (what the phone shows);
- **reference**: ``/regeln/``, a plain page, fetched between the steps in the same run.

The round's data (a teacher, a class, the learners, a quiz) is made in the configured database
(migrated, content loaded) with a fresh name each run and deleted at the end. ``--spawn`` starts
``manage.py serve`` (uvicorn) as :mod:`skatschule.table.bench_live` does; else ``--url`` names a
running site on the same database. The figures come last.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import queue
import re
import secrets
import sys
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

__all__ = ["main"]

_STREAM = re.compile(r'sse-connect="(/quiz/\d+/mitmachen/ereignisse/\?stamp=[^"]*)"')
_SETTLE = 0.3
"""Seconds the teacher waits after every learner's stream answered, so each is listening (a
stream subscribes right after its first line); a stream that missed the event would show as a
15-second outlier (its keep-alive read)."""


@dataclass
class Figures:
    counted: list[float] = field(default_factory=list)
    event: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatschule.settings")
    import django

    django.setup()


def _make_round(learners: int, questions: int) -> tuple[Any, list[Any], Any]:
    """A teacher, a class of ``learners`` and a quiz of ``questions`` (fresh names)."""
    from django.contrib.auth import get_user_model

    from skatschule.classrooms import services as classrooms
    from skatschule.quizzes.services import authoring

    def make_user(name: str, teacher: bool = False) -> Any:
        user = get_user_model().objects.create_user(name)
        if teacher:
            classrooms.grant_teacher(user=user)
        return user

    tag = secrets.token_hex(3)
    teacher = make_user(f"bench-lehrerin-{tag}", teacher=True)
    room = classrooms.create_classroom(teacher=teacher, name=f"Bench {tag}")
    people = [make_user(f"bench-{tag}-{n:02d}") for n in range(learners)]
    for person in people:
        classrooms.join(student=person, raw_code=room.join_code)
    quiz = authoring.create_quiz(
        owner=teacher, classroom=room, title=f"Bench {tag}", pool=[("augen", 1)], item_count=questions
    )
    return teacher, people, quiz


def _login(client: Any, user: Any) -> None:
    """Put a logged-in session of ``user`` into ``client``'s cookies."""
    from django.conf import settings
    from django.test import Client as DjangoClient

    django_client = DjangoClient()
    django_client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    host = urllib.parse.urlparse(client.base).hostname or "127.0.0.1"
    client.jar.set_cookie(
        http.cookiejar.Cookie(
            0, name, django_client.cookies[name].value, None, False, host, False, False, "/", True,
            False, None, True, None, None, {},
        )
    )  # fmt: skip


def _open_stream(client: Any, path: str) -> Any:
    request = urllib.request.Request(client.base + path, headers={"Accept": "text/event-stream"})
    return client.opener.open(request, timeout=60)


@dataclass
class Round:
    """What the steps share: the clients, the addresses, the figures."""

    teacher: Any
    phones: list[Any]
    join_path: str
    control: str
    answer_path: str
    figures: Figures
    counts: queue.Queue[tuple[float, str]] = field(default_factory=queue.Queue)
    shown: float = 0.0


def _learner_waits(game: Round, phone: Any, path: str, ready: threading.Barrier) -> None:
    """One phone: listen, and when ``changed`` comes, load the page (as htmx does)."""
    with _open_stream(phone, path) as response:
        response.readline()  # "retry: ..." : the stream is open
        ready.wait()
        for raw in response:
            if raw.decode().strip() == "event: changed":
                game.figures.event.append(time.perf_counter() - game.shown)
                break
    page = phone.request(game.join_path, htmx=False)
    if 'id="live-send"' not in page:
        raise RuntimeError("the learner's page shows no question")
    game.figures.page.append(time.perf_counter() - game.shown)


def _projector_events(client: Any, path: str, counts: queue.Queue[tuple[float, str]], stop: threading.Event) -> None:
    """The teacher's screen: every ``count`` event with the time it came."""
    with _open_stream(client, path) as response:
        name = ""
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[len("event: ") :]
            elif line.startswith("data: ") and name == "count":
                counts.put((time.perf_counter(), line[len("data: ") :]))
            if stop.is_set():
                return


def _reference(client: Any, figures: Figures) -> None:
    start = time.perf_counter()
    client.request("/regeln/", htmx=False)
    figures.reference.append(time.perf_counter() - start)


def _next_question(game: Round, position: int) -> None:
    """Every phone listens; the teacher shows item ``position``; each phone loads it."""
    ready = threading.Barrier(len(game.phones) + 1)
    threads = []
    for phone in game.phones:
        found = _STREAM.search(phone.request(game.join_path, htmx=False))
        if found is None:
            raise RuntimeError("the learner's page has no event stream")
        path = found.group(1).replace("&amp;", "&")
        threads.append(threading.Thread(target=_learner_waits, args=(game, phone, path, ready)))
        threads[-1].start()
    ready.wait(timeout=60)
    time.sleep(_SETTLE)
    game.shown = time.perf_counter()
    game.teacher.request(game.control, {"action": "show", "position": str(position)}, htmx=False)
    for thread in threads:
        thread.join(timeout=60)


def _answers(game: Round, position: int) -> None:
    """The phones answer one after another; each answer until the projector counts it."""
    while not game.counts.empty():
        game.counts.get_nowait()
    for number, phone in enumerate(game.phones, 1):
        sent = time.perf_counter()
        phone.request(game.answer_path, {"position": str(position), "answer": "0"}, htmx=False)
        wanted = f"{number} von {len(game.phones)}"
        arrived, html = game.counts.get(timeout=30)
        while wanted not in html:
            arrived, html = game.counts.get(timeout=30)
        game.figures.counted.append(arrived - sent)
        if number % 5 == 0:
            _reference(game.teacher, game.figures)


def _run(base: str, learners: int, questions: int, figures: Figures) -> None:
    from django.urls import reverse

    from skatschule.table.bench_live import Client
    from skatschule.table.bench_live import Figures as TableFigures  # CPU figures, not reported here

    teacher, people, quiz = _make_round(learners, questions)
    try:
        game = Round(
            Client(base, TableFigures()),
            [],
            reverse("quizzes:live_join", args=[quiz.pk]),
            reverse("quizzes:live_control", args=[quiz.pk]),
            reverse("quizzes:live_answer", args=[quiz.pk]),
            figures,
        )
        _login(game.teacher, teacher)
        game.teacher.request(reverse("quizzes:live", args=[quiz.pk]), htmx=False)  # the CSRF cookie
        game.teacher.request(game.control, {"action": "start", "seconds": "300"}, htmx=False)
        for person in people:
            phone = Client(base, TableFigures())
            _login(phone, person)
            phone.request(game.join_path, htmx=False)
            phone.request(reverse("quizzes:live_join_round", args=[quiz.pk]), {}, htmx=False)
            game.phones.append(phone)
        stop = threading.Event()
        events = reverse("quizzes:live_events", args=[quiz.pk])
        watcher = threading.Thread(
            target=_projector_events, args=(game.teacher, events, game.counts, stop), daemon=True
        )
        watcher.start()
        game.counts.get(timeout=30)  # the first count: the projector listens
        for position in range(1, questions + 1):
            _next_question(game, position)
            _reference(game.teacher, figures)
            _answers(game, position)
            game.teacher.request(game.control, {"action": "reveal"}, htmx=False)
        game.teacher.request(game.control, {"action": "end"}, htmx=False)
        stop.set()
    finally:
        quiz.classroom.delete()
        quiz.delete()
        for person in [*people, teacher]:
            person.delete()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--spawn", action="store_true", help="start manage.py serve on a free port")
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--questions", type=int, default=3)
    args = parser.parse_args(argv)
    _setup_django()
    from skatschule.table.bench_live import figure_line, spawn

    process = None
    base = args.url
    if args.spawn:
        process, base = spawn()
    figures = Figures()
    try:
        _run(base, args.learners, args.questions, figures)
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
    print(figure_line("reference /regeln/", figures.reference))
    print(figure_line(f"next question, event at each of {args.learners} learners", figures.event))
    print(figure_line(f"next question, page with the question at each of {args.learners} learners", figures.page))
    print(figure_line("a learner's answer counted on the projector (pushed)", figures.counted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
