"""Help on a puzzle and puzzles again later (issue 37 §4): a hint (the themes, then where the
solution lies), "Lösung zeigen", the retry queue spaced over days, and the rating chart's axes.

Help is honest: a puzzle solved with a hint or with the solution shown is rated as not solved,
and it comes back later until it is solved alone."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone

from skatschule.engine.games import is_trump
from skatschule.engine.names import render
from skatschule.owners import Owner
from skatschule.puzzles import content, selectors, services
from skatschule.puzzles.models import Puzzle, PuzzleAttempt

pytestmark = pytest.mark.django_db


def _rows(n: int) -> list[Puzzle]:
    content.load_shipped()
    return list(Puzzle.objects.order_by("pk")[:n])


def _right(row: Puzzle) -> str:
    return selectors.engine_puzzle(row).answer[0].code


def _url(row: Puzzle, name: str = "puzzles:puzzle") -> str:
    return reverse(name, kwargs={"puzzle_id": row.pk})


def test_two_hints_name_the_themes_then_where_the_solution_lies_never_the_card(client: Client) -> None:
    (row,) = _rows(1)
    puzzle = selectors.engine_puzzle(row)
    assert client.post(_url(row, "puzzles:hint"), {"modus": "normal"}).status_code == 302
    page = client.get(_url(row)).content.decode()
    assert all(theme.title.get("de") in page for theme in puzzle.themes) and "Noch ein Tipp" in page
    client.post(_url(row, "puzzles:hint"), {"modus": "normal"})
    page = client.get(_url(row)).content.decode()
    state = puzzle.spot.state()
    assert state.contract is not None
    game = state.contract.game
    if any(is_trump(game, c) for c in puzzle.answer):
        assert "ein Trumpf" in page
    for card in puzzle.answer:
        if not is_trump(game, card):
            assert render(f"Farbe ⟦suit:{card.suit.letter}⟧", "de") in page
    assert "Noch ein Tipp" not in page  # two hints, then only the solution
    client.post(_url(row, "puzzles:hint"), {"modus": "normal"})
    assert selectors.hint_level(owner=Owner.for_session(client.session.session_key or ""), puzzle=row) == 2


def test_a_puzzle_solved_after_a_hint_is_rated_as_not_solved() -> None:
    helped_row, alone_row = _rows(2)
    helped, alone = Owner.for_session("h" * 32), Owner.for_session("a" * 32)
    services.take_hint(owner=helped, puzzle=helped_row, mode="normal")
    with_hint = services.answer(owner=helped, puzzle=helped_row, card=_right(helped_row), mode="normal")
    without = services.answer(owner=alone, puzzle=alone_row, card=_right(alone_row), mode="normal")
    assert with_hint.attempt.correct and with_hint.attempt.helped and with_hint.rated
    assert with_hint.attempt.rating_after < with_hint.attempt.rating_before  # rated as a miss
    assert without.attempt.rating_after > without.attempt.rating_before


def test_a_streak_takes_no_hint(client: Client) -> None:
    (row,) = _rows(1)
    response = client.post(_url(row, "puzzles:hint"), {"modus": "serie"})
    assert response.status_code == 400 and "keine Tipps" in response.content.decode()


def test_the_shown_solution_counts_as_not_solved_and_explains_itself(client: Client) -> None:
    (row,) = _rows(1)
    page = client.get(_url(row)).content.decode()
    assert "Lösung zeigen" in page and _right(row) not in page.split("puzzle-help")[1]
    response = client.post(_url(row, "puzzles:solution"), {"modus": "normal"})
    page = response.content.decode()
    attempt = PuzzleAttempt.objects.get()
    assert response.status_code == 200 and "Lösung gezeigt" in page and "So ergibt sich die Antwort" in page
    assert (attempt.card, attempt.correct, attempt.helped, attempt.rated) == ("", False, True, True)
    assert attempt.rating_after < attempt.rating_before


def test_a_puzzle_not_solved_alone_comes_back_spaced_out_until_it_is(clock: Any) -> None:
    wrong_row, hinted_row, right_row = _rows(3)
    owner = Owner.for_session("r" * 32)
    wrong_card = next(
        c.code for c in selectors.engine_puzzle(wrong_row).values if c not in selectors.engine_puzzle(wrong_row).answer
    )
    services.answer(owner=owner, puzzle=wrong_row, card=wrong_card, mode="normal")
    services.take_hint(owner=owner, puzzle=hinted_row, mode="normal")
    services.answer(owner=owner, puzzle=hinted_row, card=_right(hinted_row), mode="normal")
    services.answer(owner=owner, puzzle=right_row, card=_right(right_row), mode="normal")
    now = timezone.now()
    queue = selectors.retries(owner=owner, now=now)
    assert {r.puzzle_id for r in queue} == {wrong_row.pk, hinted_row.pk}  # the one solved alone stays away
    assert all(now + timedelta(days=1) - timedelta(minutes=1) < r.due <= now + timedelta(days=1) for r in queue)
    clock.move_to(now + timedelta(days=1, minutes=1))
    later = timezone.now()
    assert {r.puzzle_id for r in selectors.retries(owner=owner, now=later) if r.due <= later} == {
        wrong_row.pk,
        hinted_row.pk,
    }
    # a second miss waits three days; solving it alone takes it out; neither retry is rated
    again = services.answer(owner=owner, puzzle=wrong_row, card=wrong_card, mode="normal")
    solved = services.answer(owner=owner, puzzle=hinted_row, card=_right(hinted_row), mode="normal")
    assert not again.rated and not solved.rated and not solved.attempt.helped
    (left,) = selectors.retries(owner=owner, now=later)
    assert left.puzzle_id == wrong_row.pk and left.tries == 2
    assert later + timedelta(days=3) <= left.due <= later + timedelta(days=3, minutes=1)


def test_the_retry_page_lists_what_is_due(client: Client) -> None:
    (row,) = _rows(1)
    client.post(_url(row, "puzzles:solution"), {"modus": "normal"})
    page = client.get(reverse("puzzles:retry")).content.decode()
    assert "Nichts fällig." in page and f"Aufgabe {row.pk} · ab" in page


def test_the_rating_chart_has_axes_with_ratings_and_dates(client: Client) -> None:
    rows = _rows(3)
    for row in rows:
        client.post(_url(row), {"modus": "normal", "karte": _right(row)})
    chart = client.get(reverse("puzzles:history")).content.decode()
    chart = chart[chart.index("<svg") : chart.index("</svg>")]
    ticks = [int(t.split(">")[1].split("<")[0]) for t in chart.split('class="tick"')[1:]]
    assert len(ticks) >= 2 and ticks == sorted(ticks)  # round ratings from the bottom up
    day = PuzzleAttempt.objects.latest("created").created
    assert formats.date_format(timezone.localtime(day), "SHORT_DATE_FORMAT") in chart
    assert chart.count('class="axis"') == 2
