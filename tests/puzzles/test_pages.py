"""Puzzle pages end to end with Django's test client: answer, ratings, streak, daily, themes, history.

The answer is taken from the engine (the shipped record's proof is re-checked in test_shipped.py).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from freezegun.api import TickingDateTimeFactory

from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.engine.puzzles import Theme
from skatschule.owners import Owner
from skatschule.puzzles import content, selectors
from skatschule.puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleRating
from tests.clock import FALL_BACK, SPRING_FORWARD, berlin
from tests.people import client_for, make_user
from tests.present import present

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded() -> list[Puzzle]:
    added, total = content.load_shipped()
    assert total >= 5, "the site ships puzzles (rules_content/puzzles/)"
    return list(Puzzle.objects.all())


def _engine(row: Puzzle) -> EnginePuzzle:
    return selectors.engine_puzzle(row)


def _right(row: Puzzle) -> str:
    return _engine(row).answer[0].code


def _wrong(row: Puzzle) -> str:
    puzzle = _engine(row)
    return next(c.code for c in puzzle.values if c not in puzzle.answer)


def _url(row: Puzzle) -> str:
    return reverse("puzzles:puzzle", kwargs={"puzzle_id": row.pk})


def test_load_content_is_idempotent(loaded: list[Puzzle]) -> None:
    assert content.load_shipped()[0] == 0
    assert Puzzle.objects.count() == len(content.read())


def test_index_and_next(loaded: list[Puzzle], client: Client) -> None:
    page = client.get(reverse("puzzles:index"))
    assert page.status_code == 200 and "1500" in page.content.decode()
    nxt = client.get(reverse("puzzles:next"))
    assert nxt.status_code == 302 and re.search(r"/ueben/aufgaben/[0-9a-f]{12}/$", nxt["Location"])


def test_the_index_in_english_offers_the_next_puzzle_not_an_exercise(loaded: list[Puzzle], client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get(reverse("puzzles:index")).content.decode()
    assert f'href="{reverse("puzzles:next")}">Next puzzle</a>' in html
    assert "Next exercise" not in html


def test_the_page_shows_a_form_per_card_and_nothing_of_the_answer(loaded: list[Puzzle], client: Client) -> None:
    row = loaded[0]
    html = client.get(_url(row)).content.decode()
    puzzle = _engine(row)
    state = puzzle.spot.state()
    hand = [c.code for c in state.hand(state.to_move or 0)]
    assert html.count('name="karte"') == len(hand)
    # every legal card's form is the same apart from the card: nothing marks the answer
    buttons = re.findall(r"<button[^>]*>", html)
    live = {re.sub(r'aria-label="[^"]*"', "", b) for b in buttons if "card-button" in b and "disabled" not in b}
    assert len(live) == 1
    for word in ("Lösung:", "So ergibt sich", "keeps the result", "hält das Ergebnis"):
        assert word not in html
    shown = set(re.findall(r'data-card="([CSHD][ATKQJ987])"', html))
    assert set(hand) <= shown
    seat = state.to_move or 0
    hidden = {c.code for s in (1, 2) for c in state.hand((seat + s) % 3)}
    if puzzle.view.value == "spieler":
        assert not hidden & shown  # the other hands stay hidden
    else:
        assert hidden <= shown


def test_no_page_shows_the_hidden_hands(loaded: list[Puzzle], client: Client) -> None:
    for row in loaded:
        puzzle = _engine(row)
        if puzzle.view.value != "spieler":
            continue
        state = puzzle.spot.state()
        seat = state.to_move or 0
        html = client.get(_url(row)).content.decode()
        shown = set(re.findall(r'data-card="([CSHD][ATKQJ987])"', html))
        assert not {c.code for s in (1, 2) for c in state.hand((seat + s) % 3)} & shown


def test_a_right_answer_raises_the_rating_and_explains(loaded: list[Puzzle], client: Client) -> None:
    row = loaded[0]
    page = client.post(_url(row), {"karte": _right(row), "modus": "normal"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Richtig" in html and "So ergibt sich die Antwort" in html and "/regeln/" in html
    attempt = PuzzleAttempt.objects.get()
    assert attempt.correct and attempt.rated and attempt.rating_after > 1500
    row.refresh_from_db()
    assert row.rating < _engine(row).rating + 1e-9 and row.plays == 1


def test_a_wrong_answer_lowers_it_and_a_second_answer_is_not_rated(loaded: list[Puzzle], client: Client) -> None:
    row = loaded[0]
    client.post(_url(row), {"karte": _wrong(row)})
    again = client.post(_url(row), {"karte": _right(row)})
    assert "zählt nicht für die Wertung" in again.content.decode()
    first, second = PuzzleAttempt.objects.order_by("pk")
    assert not first.correct and first.rated and first.rating_after < 1500
    assert second.correct and not second.rated and second.rating_after == first.rating_after


@pytest.mark.parametrize("card", ["", "XX", "²", "C" * 300, "CJ CJ"])
def test_junk_cards_are_a_400_and_lose_nothing(loaded: list[Puzzle], client: Client, card: str) -> None:
    row = loaded[0]
    page = client.post(_url(row), {"karte": card})
    assert page.status_code == 400
    assert 'name="karte"' in page.content.decode()
    assert not PuzzleAttempt.objects.exists()


def test_a_card_of_another_hand_or_not_allowed_is_a_400(loaded: list[Puzzle], client: Client) -> None:
    for row in loaded[:20]:
        state = _engine(row).spot.state()
        seat = state.to_move or 0
        other = next(iter(state.hand((seat + 1) % 3)))
        assert client.post(_url(row), {"karte": other.code}).status_code == 400
        illegal = [c for c in state.hand(seat) if c not in state.legal_cards()]
        if illegal:
            page = client.post(_url(row), {"karte": illegal[0].code})
            assert page.status_code == 400 and "3.2.1" in page.content.decode()
    assert not PuzzleAttempt.objects.exists()


def _with_forbidden_cards(loaded: list[Puzzle]) -> tuple[Puzzle, list[str], list[str]]:
    """A shipped puzzle whose mover holds cards the rules forbid here: (row, legal codes, forbidden codes)."""
    for row in loaded:
        state = _engine(row).spot.state()
        hand = list(state.hand(state.to_move or 0))
        legal = state.legal_cards()
        forbidden = [c.code for c in hand if c not in legal]
        if forbidden:
            return row, [c.code for c in hand if c in legal], forbidden
    pytest.fail("no shipped puzzle has a card that may not be played")


def test_cards_the_rules_forbid_are_disabled_as_at_the_table(loaded: list[Puzzle], client: Client) -> None:
    """A forbidden card is shown but cannot be sent (no 400, no console error); the legal ones are live."""
    row, legal, forbidden = _with_forbidden_cards(loaded)
    html = client.get(_url(row)).content.decode()
    forms = re.findall(r'name="karte" value="([CSHD][ATKQJ987])"><button([^>]*)>', html)
    assert sorted(code for code, _ in forms) == sorted(legal + forbidden)
    assert sorted(code for code, attrs in forms if " disabled" in attrs) == sorted(forbidden)
    assert all("nicht erlaubt" in attrs for code, attrs in forms if code in forbidden)


def test_a_refused_card_starts_the_page_at_the_message(loaded: list[Puzzle], client: Client) -> None:
    """A card the rules do not allow here (the engine says which): the 400 page has the keyboard
    on the message (autofocus), the learner's cards right after it."""
    for row in loaded:
        state = _engine(row).spot.state()
        illegal = [c for c in state.hand(state.to_move or 0) if c not in state.legal_cards()]
        if illegal:
            break
    else:
        pytest.fail("no shipped puzzle has a card that may not be played")
    html = client.post(_url(row), {"karte": illegal[0].code}).content.decode()
    assert re.search(r'role="alert" tabindex="-1" autofocus>[^<]*3\.2\.1', html)
    assert html.index("autofocus") < html.index('class="puzzle-cards"')


def test_unknown_mode_and_puzzle(loaded: list[Puzzle], client: Client) -> None:
    row = loaded[0]
    assert client.post(_url(row), {"karte": _right(row), "modus": "x"}).status_code == 400
    assert client.get("/ueben/aufgaben/000000000000/").status_code == 404
    assert client.get(reverse("puzzles:theme", kwargs={"slug": "nope"})).status_code == 404
    assert client.get(reverse("puzzles:next") + "?thema=nope").status_code == 404


def _daily_id(client: Client) -> str:
    html = client.get(reverse("puzzles:daily")).content.decode()
    return present(re.search(r"/ueben/aufgaben/([0-9a-f]{12})/", html)).group(1)


def test_the_daily_puzzle_is_the_same_for_everyone(loaded: list[Puzzle], clock: TickingDateTimeFactory) -> None:
    assert _daily_id(Client()) == _daily_id(Client())


def test_the_daily_puzzle_changes_at_the_learners_midnight(loaded: list[Puzzle], clock: TickingDateTimeFactory) -> None:
    """The puzzle of the day is the learner's local day, like the daily goal: on the 23-hour
    day in Berlin, from its first minute to its last, and a minute later the next day's."""
    saturday, monday = SPRING_FORWARD - timedelta(days=1), SPRING_FORWARD + timedelta(days=1)
    clock.move_to(berlin(SPRING_FORWARD, 0, 1))  # still Saturday evening in New York
    here, new_york = Client(), Client()
    new_york.post(reverse("learners:settings"), {"goal": "10", "time_zone": "America/New_York"})
    sunday_puzzle = _daily_id(here)
    assert _daily_id(new_york) == DailyPuzzle.objects.get(day=saturday).puzzle_id
    assert sunday_puzzle == DailyPuzzle.objects.get(day=SPRING_FORWARD).puzzle_id
    clock.move_to(berlin(SPRING_FORWARD, 23, 59))
    assert _daily_id(here) == sunday_puzzle and DailyPuzzle.objects.count() == 2
    clock.move_to(berlin(monday, 0, 0))
    assert _daily_id(here) == DailyPuzzle.objects.get(day=monday).puzzle_id


@pytest.mark.parametrize(
    "day",
    [FALL_BACK, date(2026, 11, 29), date(2026, 11, 30), date(2026, 12, 31)],
    ids=["25-hour-day", "week", "month", "year"],
)
def test_the_daily_puzzle_holds_the_whole_local_day(
    loaded: list[Puzzle], clock: TickingDateTimeFactory, day: date
) -> None:
    """From local midnight to 23:59, through the hour the 25-hour day repeats and over the end of
    a week (Sunday), a month and a year, one puzzle; at the next local midnight the next day's."""
    here = Client()
    clock.move_to(berlin(day, 0, 0))
    first = _daily_id(here)
    assert first == DailyPuzzle.objects.get(day=day).puzzle_id
    for hour, minute, fold in ((2, 30, 0), (2, 30, 1), (23, 59, 0)):
        clock.move_to(berlin(day, hour, minute, fold=fold))
        assert _daily_id(here) == first, (hour, minute, fold)
    clock.move_to(berlin(day + timedelta(days=1), 0, 0))
    assert _daily_id(here) == DailyPuzzle.objects.get(day=day + timedelta(days=1)).puzzle_id
    assert DailyPuzzle.objects.count() == 2


def test_the_daily_puzzle_once_answered_shows_its_result(loaded: list[Puzzle], client: Client) -> None:
    """After the answer the daily puzzle says "heute gelöst" with the result, and offers no card again."""
    html = client.get(reverse("puzzles:daily")).content.decode()
    assert 'name="karte"' in html
    pid = present(re.search(r'action="/ueben/aufgaben/([0-9a-f]{12})/"', html)).group(1)
    row = Puzzle.objects.get(pk=pid)
    client.post(_url(row), {"karte": _wrong(row), "modus": "taeglich"})
    again = client.get(reverse("puzzles:daily")).content.decode()
    assert 'name="karte"' not in again
    assert "Heute gelöst: leider nicht richtig" in again and "So ergibt sich die Antwort" in again
    attempt = PuzzleAttempt.objects.get()
    assert f"Wertung {round(attempt.rating_after - attempt.rating_before)} → {round(attempt.rating_after)}" in again
    assert f'data-card="{_wrong(row)}"' in again.split("Deine Karte")[1].split("Lösung")[0]
    index = client.get(reverse("puzzles:index")).content.decode()
    assert "heute gelöst: leider nicht richtig" in index
    # another visitor has not answered it
    fresh = Client().get(reverse("puzzles:daily")).content.decode()
    assert 'name="karte"' in fresh and "Heute gelöst" not in fresh


def test_the_daily_puzzle_solved_right_in_english(loaded: list[Puzzle], client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get(reverse("puzzles:daily")).content.decode()
    pid = present(re.search(r'action="/ueben/aufgaben/([0-9a-f]{12})/"', html)).group(1)
    row = Puzzle.objects.get(pk=pid)
    client.post(_url(row), {"karte": _right(row), "modus": "taeglich"})
    assert "Solved today: right" in client.get(reverse("puzzles:daily")).content.decode()
    assert "solved today: right" in client.get(reverse("puzzles:index")).content.decode()


def test_a_streak_counts_and_ends_at_the_first_mistake(loaded: list[Puzzle], client: Client) -> None:
    for _ in range(2):
        html = client.get(reverse("puzzles:streak")).content.decode()
        pid = present(re.search(r'action="/ueben/aufgaben/([0-9a-f]{12})/"', html)).group(1)
        row = Puzzle.objects.get(pk=pid)
        client.post(_url(row), {"karte": _right(row), "modus": "serie"})
    rating = PuzzleRating.objects.get()
    assert (rating.streak, rating.best_streak) == (2, 2)
    html = client.get(reverse("puzzles:streak")).content.decode()
    pid = present(re.search(r'action="/ueben/aufgaben/([0-9a-f]{12})/"', html)).group(1)
    row = Puzzle.objects.get(pk=pid)
    page = client.post(_url(row), {"karte": _wrong(row), "modus": "serie"})
    assert "Serie beendet nach 2" in page.content.decode()
    rating.refresh_from_db()
    assert (rating.streak, rating.best_streak) == (0, 2)
    again = client.post(_url(row), {"karte": _right(row), "modus": "serie"}).content.decode()
    assert "zählt weder für die Wertung noch für die Serie" in again
    rating.refresh_from_db()
    assert (rating.streak, rating.best_streak) == (0, 2)


def test_themes_show_accuracy(loaded: list[Puzzle]) -> None:
    user = make_user("lena")
    client = client_for(user)
    row = next(
        r for r in loaded if f" {Theme.GEGENSPIEL.value} " in r.themes or f" {Theme.ALLEINSPIEL.value} " in r.themes
    )
    client.post(_url(row), {"karte": _right(row)})
    page = client.get(reverse("puzzles:themes")).content.decode()
    assert "100 % (1/1)" in page
    theme = Theme.GEGENSPIEL if f" {Theme.GEGENSPIEL.value} " in row.themes else Theme.ALLEINSPIEL
    one = client.get(reverse("puzzles:theme", kwargs={"slug": theme.value})).content.decode()
    assert "100 % (1/1)" in one
    nxt = client.get(reverse("puzzles:next") + f"?thema={theme.value}")
    if nxt.status_code == 302:
        picked = Puzzle.objects.get(pk=nxt["Location"].split("/")[-2])
        assert f" {theme.value} " in picked.themes


def test_history_is_an_svg_chart(loaded: list[Puzzle], client: Client) -> None:
    assert "Noch keine gewertete Aufgabe" in client.get(reverse("puzzles:history")).content.decode()
    for row in loaded[:3]:
        client.post(_url(row), {"karte": _right(row)})
    html = client.get(reverse("puzzles:history")).content.decode()
    assert "<svg" in html and "<polyline" in html and "<script" not in html.split("<svg")[1].split("</svg>")[0]


def test_english_and_the_german_deck(loaded: list[Puzzle], client: Client) -> None:
    row = loaded[0]
    client.cookies["django_language"] = "en"
    html = client.get(_url(row)).content.decode()
    assert "Your cards" in html and "Deine Karten" not in html
    done = client.post(_url(row), {"karte": _right(row)}).content.decode()
    assert "How the answer comes about" in done and "keeps the result" in done


@pytest.mark.parametrize("deck", ["french", "german", "tournament"])
def test_every_deck_names_the_cards_of_the_explanation(loaded: list[Puzzle], client: Client, deck: str) -> None:
    row = loaded[0]
    client.cookies["skatschule_deck"] = deck
    done = client.post(_url(row), {"karte": _right(row)}).content.decode()
    assert "⟦" not in done and "card-" + deck in done
    if deck == "german":
        assert "Eichel" in done or "Grün" in done or "Rot" in done or "Schellen" in done


def test_a_visitors_puzzles_follow_them_when_they_sign_in(loaded: list[Puzzle], client: Client) -> None:
    row = loaded[0]
    client.post(_url(row), {"karte": _right(row), "modus": "serie"})
    user = make_user("ida")
    client.force_login(user)
    attempt = PuzzleAttempt.objects.get()
    assert attempt.user == user and attempt.session_key == ""
    rating = PuzzleRating.objects.get()
    assert rating.user == user and rating.best_streak == 1
    assert "100 % (1/1)" in client.get(reverse("puzzles:themes")).content.decode()


def test_the_account_export_has_the_puzzles(loaded: list[Puzzle]) -> None:
    from skatschule.accounts.deletion import export_account

    user = make_user("eva")
    row = loaded[0]
    client_for(user).post(_url(row), {"karte": _right(row)})
    data = export_account(user=user)
    assert data["puzzle_attempts"][0]["puzzle"] == row.pk and data["puzzle_attempts"][0]["correct"]
    assert data["puzzle_rating"][0]["rating"] > 1500


def test_theme_statistics_take_two_grouped_queries_and_count_as_one_query_per_theme_would(
    loaded: list[Puzzle], django_assert_max_num_queries: object
) -> None:
    """They took two LIKE queries per theme (30 a request on the puzzle index), then one LIKE per
    theme and puzzle; now each query groups by the stored theme string."""
    user = make_user("theo")
    client = client_for(user)
    for row in loaded[:4]:
        client.post(_url(row), {"karte": _right(row) if row.pk != loaded[1].pk else _wrong(row)})
    owner = Owner.for_user(user)
    with django_assert_max_num_queries(2) as captured:  # type: ignore[operator]
        stats = selectors.theme_stats(owner=owner)
    assert not any(" LIKE " in q["sql"].upper() for q in captured.captured_queries)  # no scan per theme
    rated = PuzzleAttempt.objects.filter(user=user, rated=True)
    for s in stats:
        needle = f" {s.theme.value} "
        assert s.puzzles == Puzzle.objects.filter(themes__contains=needle).count()
        assert s.answered == rated.filter(puzzle__themes__contains=needle).count()
        assert s.correct == rated.filter(puzzle__themes__contains=needle, correct=True).count()
    assert sum(s.answered for s in stats) >= 4 and any(s.answered > s.correct for s in stats)
