"""The claim calculator (:mod:`skatschule.engine.claims`) against an exhaustive search of its own.

The brute force below knows the rules from scratch (which cards are trumps, following, who takes
a trick, the Augen) and tries every card of every hand: the claiming side picks, the other side
answers with every legal card. Positions come from real games played at random to their last 3
to 5 cards a hand, some in the middle of a trick. A refuted claim's line is replayed by the
engine's GameState and must really break the claim there.
"""

from __future__ import annotations

import functools
import random

import pytest

from skatschule.engine import Contract, GameState, GameType, Play
from skatschule.engine.cards import CardSet, deal_cards, parse_cards
from skatschule.engine.claims import (
    Claim,
    ClaimError,
    ClaimPosition,
    ClaimVerdict,
    Goal,
    Side,
    Tally,
    check_claim,
    goals_for,
)

# --------------------------------------------------------------------------- the brute force

_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
_SUIT_ORDER = "ATKQ987"  # a plain suit in suit and Grand games, strongest first (no jack)
_NULL_ORDER = "AKQJT987"
_JACKS = "CSHD"
_TRUMP_SUIT = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}


def _trump(game: str, code: str) -> bool:
    if game == "null":
        return False
    return code[1] == "J" or code[0] == _TRUMP_SUIT.get(game)


def _group(game: str, code: str) -> str:
    return "T" if _trump(game, code) else code[0]


def _strength(game: str, code: str) -> int:
    """Higher is stronger within the card's group."""
    if game == "null":
        return 10 - _NULL_ORDER.index(code[1])
    if code[1] == "J":
        return 20 - _JACKS.index(code[0])
    return 10 - _SUIT_ORDER.index(code[1])


def _taker(game: str, trick: tuple[str, ...]) -> int:
    """The index of the card that takes a full trick."""
    trumps = [i for i, c in enumerate(trick) if _trump(game, c)]
    pool = trumps if trumps else [i for i, c in enumerate(trick) if _group(game, c) == _group(game, trick[0])]
    return max(pool, key=lambda i: _strength(game, trick[i]))


def _legal(game: str, hand: frozenset[str], trick: tuple[str, ...]) -> list[str]:
    if not trick:
        return sorted(hand)
    follow = [c for c in hand if _group(game, c) == _group(game, trick[0])]
    return sorted(follow or hand)


def _met(game: str, side: str, goal: str, start: tuple[int, int, int, int], end: tuple[int, int, int, int]) -> bool:
    """The claim's meaning, written out again: (Augen, Augen, tricks, tricks), declarer first."""
    da, fa, dt, ft = end
    decl = side == "declarer"
    my_augen, my_tricks, their_tricks = (da, dt, ft) if decl else (fa, ft, dt)
    my_start, their_start = (start[2], start[3]) if decl else (start[3], start[2])
    if game == "null":
        return (dt == 0) == decl
    if goal == "rest":
        return their_tricks == their_start
    if goal == "trick":
        return my_tricks > my_start
    if goal == "schwarz":
        return their_tricks == 0
    need = {"win": 61 if decl else 60, "schneider": 90, "31": 31}[goal]
    return my_augen >= need


def brute_force(position: ClaimPosition, claim: Claim) -> bool:
    """Does the claim hold against every play of the other side, the claimer choosing? Every card tried."""
    game = position.game.value
    declarer = position.declarer
    claimer_is_declarer = claim.side is Side.DECLARER
    t = position.tally
    start = (t.declarer_augen, t.defender_augen, t.declarer_tricks, t.defender_tricks)

    @functools.cache
    def value(hands: tuple[frozenset[str], ...], leader: int, trick: tuple[str, ...], tally: tuple[int, ...]) -> bool:
        if len(trick) == 3:
            winner = (leader + _taker(game, trick)) % 3
            pts = sum(_POINTS.get(c[1], 0) for c in trick)
            da, fa, dt, ft = tally
            tally = (da + pts, fa, dt + 1, ft) if winner == declarer else (da, fa + pts, dt, ft + 1)
            if not hands[winner]:
                return _met(game, claim.side.value, claim.goal.value, start, (tally[0], tally[1], tally[2], tally[3]))
            return value(hands, winner, (), tally)
        seat = (leader + len(trick)) % 3
        claimer_moves = (seat == declarer) == claimer_is_declarer
        results = []
        for card in _legal(game, hands[seat], trick):
            after = list(hands)
            after[seat] = hands[seat] - {card}
            results.append(value(tuple(after), leader, trick + (card,), tally))
        return any(results) if claimer_moves else all(results)

    hands = tuple(frozenset(c.code for c in h) for h in position.hands)
    return value(hands, position.leader, tuple(c.code for c in position.trick), start)


# --------------------------------------------------------------------------- positions from real games

GAMES = [GameType.CLUBS, GameType.HEARTS, GameType.GRAND, GameType.NULL, GameType.SPADES, GameType.DIAMONDS]


def random_game(seed: int, cards_left: int) -> GameState:
    """A game played at random until every hand holds ``cards_left`` cards; odd seeds stop with
    one or two cards in the current trick. Always the same game for the same arguments."""
    rng = random.Random(seed)
    game = GAMES[seed % len(GAMES)]
    extra = seed % 3 if seed % 2 else 0
    while True:
        contract = Contract(game, hand=True)
        state = GameState.start(deal_cards(rng=rng), declarer=seed % 3, bid=18, contract=contract)
        while not state.is_over() and 3 * state.trick_count + len(state.trick) < 3 * (10 - cards_left) + extra:
            state.play(rng.choice(list(state.legal_cards())))
        if not state.is_over():  # a Null game may have ended at the declarer's first trick: deal again
            return state


def _replayed(seed: int, cards_left: int, verdict: ClaimVerdict) -> Tally:
    """Play the refuting line on the engine's game; the tally where it ends."""
    state = random_game(seed, cards_left)
    for card in verdict.line:
        if state.is_over():
            break
        state.push(Play(card))
    return Tally(state.declarer_augen(), state.defender_augen(), state.declarer_trick_count, state.defender_trick_count)


def _cases() -> list[tuple[int, int]]:
    return [(seed, 3 + seed % 2) for seed in range(24)]


FIVE_CARDS = [(seed, 5) for seed in (2, 5, 9)]
"""Five cards a hand: the brute force needs about half a second a claim here."""


@pytest.mark.parametrize(
    ("seed", "cards_left"), _cases() + [pytest.param(*case, marks=pytest.mark.slow) for case in FIVE_CARDS]
)
def test_the_calculator_agrees_with_the_exhaustive_search(seed: int, cards_left: int) -> None:
    state = random_game(seed, cards_left)
    position = ClaimPosition.of(state)
    for side in Side:
        for goal in goals_for(position.game):
            claim = Claim(side, goal)
            verdict = check_claim(position, claim)
            assert verdict.holds == brute_force(position, claim), (seed, claim)
            if verdict.holds:
                assert verdict.line == ()
                continue
            end = _replayed(seed, cards_left, verdict)
            t = position.tally
            start = (t.declarer_augen, t.defender_augen, t.declarer_tricks, t.defender_tricks)
            final = (end.declarer_augen, end.defender_augen, end.declarer_tricks, end.defender_tricks)
            assert not _met(position.game.value, side.value, goal.value, start, final), (seed, claim, verdict.line)
            if not position.game.is_null:  # a Null game ends at the declarer's first trick
                assert end == verdict.end


def test_both_answers_occur_and_the_positions_vary() -> None:
    answers = set()
    tricks_open = set()
    for seed, left in _cases()[:12]:
        position = ClaimPosition.of(random_game(seed, left))
        tricks_open.add(len(position.trick))
        for goal in goals_for(position.game):
            answers.add(check_claim(position, Claim(Side.DEFENDERS, goal)).holds)
            answers.add(check_claim(position, Claim(Side.DECLARER, goal)).holds)
    assert answers == {True, False}
    assert tricks_open == {0, 1, 2}


def test_a_defender_plays_open_too_early() -> None:
    """F-37: forehand on lead holds two clubs winners, so "all ours" is wrong."""
    position = ClaimPosition(
        GameType.GRAND,
        0,
        (CardSet("CA CT S7 H7 H8 D7"), CardSet("SA ST SK DA DT DK"), CardSet("HA HT HK HQ CK DQ")),
        leader=0,
        tally=Tally(14, 0, 4, 0),
    )
    verdict = check_claim(position, Claim(Side.DEFENDERS, Goal.REST))
    assert not verdict.holds
    first = verdict.tricks()[0]
    assert first.leader == 0 and first.winner == 0  # the declarer leads and takes the first trick
    assert verdict.to_data() == ClaimVerdict.from_data(verdict.to_data()).to_data()


def test_a_defender_plays_open_rightly() -> None:
    """F-38: middlehand on lead with spades and diamonds forehand can never beat."""
    position = ClaimPosition(
        GameType.GRAND,
        0,
        (CardSet("CA CT H8 H7 D7"), CardSet("ST SK DA DT DK"), CardSet("CK HA HT HK DQ")),
        leader=1,
        tally=Tally(14, 14, 4, 1),
    )
    assert check_claim(position, Claim(Side.DEFENDERS, Goal.REST)).holds
    # the declarer has lost his game, and is Schneider: 14 + 0 Augen to come
    assert check_claim(position, Claim(Side.DEFENDERS, Goal.SCHNEIDER)).holds
    assert not check_claim(position, Claim(Side.DECLARER, Goal.OUT_OF_SCHNEIDER)).holds


def test_schwarz_after_a_lost_trick_is_refuted_by_any_line() -> None:
    position = ClaimPosition(
        GameType.GRAND,
        0,
        (CardSet("CA CT H8 H7 D7"), CardSet("ST SK DA DT DK"), CardSet("CK HA HT HK DQ")),
        leader=1,
        tally=Tally(14, 14, 4, 1),
    )
    verdict = check_claim(position, Claim(Side.DEFENDERS, Goal.SCHWARZ))
    assert not verdict.holds and len(verdict.line) == 15


@pytest.mark.parametrize(
    ("hands", "trick", "tally", "message"),
    [
        (("CA CT", "SA ST", "HA CA"), "", (0, 0, 8, 0), "Doppelt angegeben: CA"),
        (("CA CT", "SA ST", "HA"), "", (0, 0, 8, 0), "Kartenzahlen passen nicht"),
        (("CA CT", "SA ST", "HA HT"), "", (0, 0, 7, 0), "Gespielt sind 8 Stiche"),
        (("CA CT", "SA ST", "HA HT"), "", (10, 0, 8, 0), "Die Augen passen nicht"),
        (("CA", "SA ST", "HA HT"), "CT", (0, 0, 8, 0), "Die Augen passen nicht"),
        (("CA", "C7", "HA HT"), "CT SA", (0, 0, 8, 0), "Bedienfehler"),
    ],
)
def test_impossible_positions_are_refused(
    hands: tuple[str, str, str], trick: str, tally: tuple[int, int, int, int], message: str
) -> None:
    with pytest.raises(ClaimError, match=message):
        ClaimPosition(
            GameType.GRAND,
            0,
            (CardSet(hands[0]), CardSet(hands[1]), CardSet(hands[2])),
            leader=0,
            trick=tuple(parse_cards(trick)),
            tally=Tally(*tally),
        )


def test_null_takes_only_the_game_as_claim() -> None:
    position = ClaimPosition.of(random_game(3, 3))
    assert position.game is GameType.NULL
    with pytest.raises(ClaimError):
        check_claim(position, Claim(Side.DECLARER, Goal.REST))
