"""Each page the growth and page benchmarks measure reads a fixed number of queries, whatever
the size of the learner's history or the score sheet (issue 36 §1): the count at a small size is
the most allowed at a larger one. (The teacher's results, CSV and quiz list: test_results_scale.py.)"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from skatschule.operations import scale
from skatschule.puzzles import content
from tests.people import client_for
from tests.responses import streamed

pytestmark = pytest.mark.django_db

LEARNER_PAGES = [
    ("training:dashboard", False),
    ("training:lessons", False),
    ("training:review", False),
    ("accounts:export", True),
    ("home:index", False),
    ("puzzles:index", False),
]


def _count(client: Client, url: str, is_streamed: bool) -> int:
    client.get(url)  # the first visit may build what later ones read (summaries, the review item)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        assert response.status_code == 200, url
        if is_streamed:
            streamed(response)
    return len(queries)


@pytest.fixture(scope="module")
def rule_ids() -> dict[tuple[str, int], list[str]]:
    return scale._rule_ids_by_step()


def test_learner_pages_do_not_read_more_with_a_longer_history(
    rule_ids: dict[tuple[str, int], list[str]], django_assert_max_num_queries: Any
) -> None:
    content.load_shipped()
    rng = random.Random(3)
    small = client_for(scale.fill_learner("kurz", 5, rng, rule_ids))
    large = client_for(scale.fill_learner("lang", 60, rng, rule_ids))
    for name, is_streamed in LEARNER_PAGES:
        url = reverse(name)
        few = _count(small, url, is_streamed)
        large.get(url)
        with django_assert_max_num_queries(few):
            response = large.get(url)
            assert response.status_code == 200
            if is_streamed:
                streamed(response)


def _sheet(games: int) -> tuple[Client, str]:
    client = client_for(get_user_model().objects.create_user(f"liste{games}"))
    new = {
        "player1": "A",
        "player2": "B",
        "player3": "C",
        "dealer": "0",
        "pub": "on",
        "cents": "10",
        "grand_base": "24",
    }
    url = client.post(reverse("scoresheet:index"), new)["Location"].split("#")[0]
    for _ in range(games):
        game = {"declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"}
        assert client.post(f"{url}spiel/", game).status_code == 302
    return client, url


def test_score_sheet_reads_the_same_with_more_games(django_assert_max_num_queries: Any) -> None:
    few = _count(*_sheet(2), False)
    client, url = _sheet(30)
    with django_assert_max_num_queries(few):
        assert client.get(url).status_code == 200


def test_sqlite_commits_to_a_write_ahead_log_without_an_fsync_each() -> None:
    """Every page that writes (an issued exercise, a session) paid a journal fsync per commit on
    SQLite (25 ms on a busy disk; issue 36)."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's journal only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 1  # NORMAL


def _puzzle_learner(name: str, answers: int) -> Client:
    from skatschule.owners import Owner
    from skatschule.puzzles import selectors as puzzles
    from skatschule.puzzles import services as puzzle_services
    from skatschule.puzzles.models import Puzzle

    user = get_user_model().objects.create_user(name)
    owner = Owner.for_user(user)
    for row in Puzzle.objects.filter(owner_user__isnull=True).order_by("pk")[:answers]:
        right = puzzles.engine_puzzle(row).answer[0].code
        puzzle_services.answer(owner=owner, puzzle=row, card=right, mode="normal")
    return client_for(user)


def test_puzzle_overview_reads_the_same_with_a_longer_puzzle_history(django_assert_max_num_queries: Any) -> None:
    """The overview read every rated answer with its puzzle (the chart shows 30) and the theme
    statistics it does not show; now a fixed set of queries of a fixed size."""
    content.load_shipped()
    url = reverse("puzzles:index")
    few = _count(_puzzle_learner("wenig", 2), url, False)
    many = _puzzle_learner("viel", 40)
    many.get(url)
    with django_assert_max_num_queries(few):
        page = many.get(url)
    assert page.status_code == 200
    assert "<dd>40</dd>" in page.content.decode()  # the count of rated answers, not the chart's 30


def test_the_other_pages_of_the_benchmark_do_not_read_more_with_a_longer_history(
    rule_ids: dict[tuple[str, int], list[str]], django_assert_max_num_queries: Any
) -> None:
    """The page benchmark's chapter, lesson, exercise, card table and a puzzle (issue 36 §1)."""
    from skatschule.puzzles.models import Puzzle
    from skatschule.training.lessons import get_lessons
    from tests.present import present

    content.load_shipped()
    rng = random.Random(4)
    small = client_for(scale.fill_learner("kurz2", 5, rng, rule_ids))
    large = client_for(scale.fill_learner("lang2", 60, rng, rule_ids))
    pages = {
        "rules chapter": reverse("rules:chapter", args=["3"]),
        "lesson": reverse("training:lesson", args=[get_lessons()[2].slug]),
        "exercise": reverse("training:exercise", args=["spielwert"]),
        "table": reverse("table:play"),
        "puzzle": reverse("puzzles:puzzle", args=[present(Puzzle.objects.order_by("pk").first()).pk]),
    }
    for name, url in pages.items():
        few = _count(small, url, False)
        large.get(url)
        with django_assert_max_num_queries(few, info=name):
            assert large.get(url).status_code == 200
