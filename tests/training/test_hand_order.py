"""Hands are shown the way players sort them (issue 14, section 3).

The check below is written from the rules in the issue, not by calling the engine's sort:

- suit or Grand game: the jacks first in Kreuz, Pik, Herz, Karo order; in a suit game then
  the trump suit; every suit in one block, A 10 K Q 9 8 7; colours alternate where possible;
- Null: every suit in one block A K Q J 10 9 8 7, the jacks in their suits;
- game not known yet: the Grand order, the longest suit first.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.test import Client

from skatschule import exercises
from skatschule.engine import GameType, Rank, Suit, parse_card
from skatschule.exercises.base import Question
from skatschule.training.services.auction_play import Table
from tests.present import present

SUIT_ORDER = [Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN]
NULL_ORDER = [Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN]
BLACK = {Suit.CLUBS, Suit.SPADES}


def _clashes(blocks: list[Suit]) -> int:
    return sum((a in BLACK) == (b in BLACK) for a, b in zip(blocks, blocks[1:]))


def assert_player_sorted(codes: list[str] | tuple[str, ...], game: GameType | None) -> None:
    cards = [parse_card(c) for c in codes]
    null = game is GameType.NULL
    if not null:
        n_jacks = sum(c.rank is Rank.JACK for c in cards)
        head = cards[:n_jacks]
        assert all(c.rank is Rank.JACK for c in head), f"jacks first: {codes}"
        assert [c.suit for c in head] == sorted(c.suit for c in head), f"jacks in Kreuz, Pik, Herz, Karo order: {codes}"
        cards = cards[n_jacks:]
    blocks = [suit for suit, _ in itertools.groupby(c.suit for c in cards)]
    assert len(blocks) == len(set(blocks)), f"each suit in one block: {codes}"
    order = NULL_ORDER if null else SUIT_ORDER
    for suit in blocks:
        ranks = [order.index(c.rank) for c in cards if c.suit == suit]
        assert ranks == sorted(ranks), f"{suit.name}: highest first: {codes}"
    if not blocks:
        return
    trump = game.trump_suit if game is not None else None
    length = {s: sum(c.suit == s for c in cards) for s in blocks}
    if trump is not None and trump in blocks:
        assert blocks[0] == trump, f"the trump suit after the jacks: {codes}"
    if game is None:
        assert length[blocks[0]] == max(length.values()), f"before the game is known, the longest suit first: {codes}"
    fixed = blocks[:1] if (trump in blocks or game is None) else []
    best = min(_clashes(fixed + list(p)) for p in itertools.permutations(blocks[len(fixed) :]))
    assert _clashes(blocks) == best, f"colours alternate where possible: {codes}"


def test_the_check_itself_refuses_unsorted_hands() -> None:
    with pytest.raises(AssertionError):
        assert_player_sorted("HA C8 SA ST DA DJ HQ HT DT CA".split(), None)  # the auction table's old order
    with pytest.raises(AssertionError):
        assert_player_sorted("CA CK CQ CT CJ".split(), GameType.GRAND)  # the jack between queen and nine
    with pytest.raises(AssertionError):
        assert_player_sorted("CJ SA ST HA".split(), GameType.HEARTS)  # trump suit not first
    with pytest.raises(AssertionError):
        assert_player_sorted("CJ CA SA HA DA".split(), GameType.GRAND)  # black black red red
    assert_player_sorted("DJ HA HT HQ CA C8 DA DT SA ST".split(), None)
    assert_player_sorted("CA CJ CT C7 HK HJ".split(), GameType.NULL)


def _game_of(kind: str, question: Question) -> GameType | None:
    """The game the learner is told (the "Spiel:" fact), as the engine's GameType."""
    names = {
        "clubs": GameType.CLUBS,
        "spades": GameType.SPADES,
        "hearts": GameType.HEARTS,
        "diamonds": GameType.DIAMONDS,
        "grand": GameType.GRAND,
        "null": GameType.NULL,
    }
    for de in (fact.de for fact in question.facts):
        m = re.search(r"⟦game:(\w+)⟧|⟦Suit:(\w)⟧", de)
        if m and m.group(1):
            return names[m.group(1)]
    return None


@pytest.mark.parametrize("kind", ["spitzen", "reizen_hoehe", "zugeben", "ueberreizt", "regelverstoss"])
def test_exercise_hands_are_sorted_for_their_game(kind: str) -> None:
    exercise = exercises.REGISTRY[kind]
    shown = 0
    for level in range(1, exercise.levels + 1):
        for seed in range(40):
            question = exercise.generate(level, seed)
            scenario = exercise.scenario(level, seed)  # type: ignore[attr-defined]
            game = getattr(scenario, "game", None) or getattr(getattr(scenario, "contract", None), "game", None)
            hand = [o.value for o in question.options] if kind == "zugeben" else list(question.cards)
            if not hand:
                continue
            shown += 1
            assert_player_sorted(hand, game)
            if kind != "regelverstoss" and _game_of(kind, question) is not None:
                assert _game_of(kind, question) is game  # the game sorted for is the one the learner is told
    assert shown >= 15  # regelverstoss shows the hand only in some questions


def test_casebook_hands_are_sorted_for_the_cases_game() -> None:
    from skatschule.casebook import cases as casebook

    checked = 0
    for case in casebook.load_cases():
        for _, cards in case.hands[:3]:
            assert_player_sorted(cards, case.game)
            checked += 1
    assert checked >= 9


@pytest.mark.django_db
def test_auction_table_shows_the_hand_sorted(client: Client) -> None:
    for _ in range(8):
        page = client.post("/ueben/reizen-am-tisch/", {"action": "new"}) if _ else client.get("/ueben/reizen-am-tisch/")
        assert page.status_code == 200
        html = page.content.decode()
        table = present(Table.from_session(client.session["auction_table"]))
        mine = html[html.index("<h2>") : html.index("</span>", html.index('<span class="cards">'))]
        shown = re.findall(r'data-card="(\w\w)"', mine)
        assert sorted(shown) == sorted(c.code for c in table.hand())
        assert_player_sorted(shown, None)


def test_trump_question_shows_the_hand_sorted_without_giving_the_trumps_away() -> None:
    """ "Which of these are trumps?": the hand is sorted as before a game is known (Null: Null's
    order), never for the game asked about, which would put the answer first."""
    exercise = exercises.REGISTRY["rangfolge"]
    seen = 0
    for level in range(1, exercise.levels + 1):
        for seed in range(40):
            question = exercise.generate(level, seed)
            if question.widget != "cards":
                continue
            scenario = exercise.scenario(level, seed)  # type: ignore[attr-defined]
            shown = [o.value for o in question.options]
            assert_player_sorted(shown, GameType.NULL if scenario.game is GameType.NULL else None)
            seen += 1
    assert seen >= 20
