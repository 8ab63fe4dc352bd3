"""How a game ends: :class:`Termination` on the game and on its :class:`Outcome`, the
:class:`Phase` enum, and the bilingual :class:`Text`."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatschule.engine import (
    Bid,
    Contract,
    Deal,
    Declare,
    Discard,
    GameState,
    GameType,
    IllegalMove,
    Pass,
    Phase,
    PickUp,
    Step,
    Termination,
    Text,
    parse_card,
    score_game,
)
from skatschule.engine.explain import plural
from skatschule.engine.games import TOTAL_POINTS
from skatschule.engine.names import render
from skatschule.engine.seats import Seat
from tests.present import present

from .test_game_properties import contracts, random_game


def _lost_whatever_comes(contract: Contract, state: GameState) -> bool:
    """Would the declarer lose even with the best rest of the game for him? Scored by
    :func:`score_game` from the figures of that best case: in Null he takes no further trick, in
    a suit or Grand game every trick still to play, with all the Augen still out."""
    left = 10 - state.trick_count
    best = score_game(
        contract,
        state.matadors(),
        bid=state.bid,
        declarer_points=state.declarer_augen() if contract.game.is_null else TOTAL_POINTS - state.defender_augen(),
        declarer_tricks=state.declarer_trick_count + (0 if contract.game.is_null else left),
        declarer_cards=state.declarer_cards() if contract.game.is_null else None,
    )
    return not best.won


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), contracts, st.integers(0, 2), st.randoms(use_true_random=False))
def test_every_finished_game_says_how_it_ended(
    seed: int, contract: Contract, declarer: int, rng: random.Random
) -> None:
    state = random_game(seed, contract, declarer, rng)
    termination = state.termination
    assert state.phase is Phase.OVER and termination is not None
    assert termination.is_early == (state.trick_count < 10)
    if termination.is_early:
        # only a declaration that asks for more than 61 Augen (or a trickless Null), only when no rest
        # of the game could win it any more, and not a trick earlier
        assert contract.game.is_null or contract.schneider_announced
        assert _lost_whatever_comes(contract, state)
        lost = state.outcome()
        assert lost is not None and not lost.won
        taken_back = [state.pop() for _ in range(3)]  # the state right after the trick before
        # the move changed the state: mypy still holds the narrowing from the assert before it
        assert state.termination is None and state.phase is Phase.PLAY  # type: ignore[comparison-overlap]
        for move in reversed(taken_back):
            state.push(move)
        assert state.termination is termination
    last = state.tricks[-1]
    if termination is Termination.NULL_TRICK:
        assert state.declarer_trick_count == 1 and last.winner == state.declarer
    elif termination in (Termination.SCHWARZ_TRICK, Termination.OUVERT_TRICK):
        assert state.defender_trick_count == 1 and last.winner != state.declarer
    elif termination is Termination.SCHNEIDER_MISSED:
        assert state.defender_augen() >= 31 > state.defender_augen() - last.points
    # the outcome carries it; the result itself is the one scored from the figures
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is termination
    plain = score_game(
        contract,
        state.matadors(),
        bid=state.bid,
        declarer_points=state.declarer_augen(),
        declarer_tricks=state.declarer_trick_count,
        declarer_cards=state.declarer_cards() if contract.game.is_null else None,
    )
    assert plain.termination is None
    assert (plain.won, plain.value, plain.score, plain.overbid) == (
        outcome.won,
        outcome.value,
        outcome.score,
        outcome.overbid,
    )
    assert plain.steps == outcome.steps
    # taking the last card back reopens the game
    state.pop()
    # the move changed the state: mypy still holds the narrowing from the assert before it
    assert state.termination is None and state.phase is Phase.PLAY  # type: ignore[comparison-overlap]


def test_a_null_game_ends_with_the_declarers_first_trick() -> None:
    deal = Deal.from_codes(
        [
            "CA CK CQ C9 C8 C7 DA DK DQ D9".split(),
            "SA SK SQ S9 S8 S7 HA HK HQ H9".split(),
            "CJ SJ HJ DJ CT ST HT DT D8 D7".split(),
            ["H8", "H7"],
        ]
    )
    state = GameState.start(deal, declarer=0, bid=23, contract=Contract(GameType.NULL, hand=True))
    for code in ("CA", "SA", "CJ"):  # Vorhand's ace of clubs takes the trick: nobody can follow
        state.play(parse_card(code))
    assert state.is_over() and state.termination is Termination.NULL_TRICK and state.trick_count == 1
    outcome = state.outcome()
    assert outcome is not None and not outcome.won and outcome.termination is Termination.NULL_TRICK


def test_passing_in_ends_the_game_without_an_outcome_and_pop_reopens_it() -> None:
    state = GameState(seed=7)
    for move in (Pass(Seat(1)), Pass(Seat(2)), Pass(Seat(0))):
        state.push(move)
    assert state.phase is Phase.OVER and state.termination is Termination.PASSED_IN
    assert state.outcome() is None and not Termination.PASSED_IN.is_early
    state.pop()
    # the move changed the state: mypy still holds the narrowing from the assert before it
    assert state.phase is Phase.AUCTION and state.termination is None  # type: ignore[comparison-overlap]


def test_undo_of_the_setup_restores_each_step() -> None:
    rng = random.Random(3)
    state = GameState(seed=11)
    for move in (Pass(Seat(1)), Pass(Seat(2)), Bid(Seat(0), 18)):
        state.push(move)
    before_pick_up = (state.phase, list(state.hands), state.skat, state.picked_up)
    state.push(PickUp())
    a, b = rng.sample(list(state.hand(0)), 2)
    before_discard = (state.phase, list(state.hands), state.skat, state.picked_up)
    state.push(Discard((a, b)))
    state.push(Declare(Contract(GameType.GRAND)))
    assert state.phase is Phase.PLAY
    # the move changed the state: mypy still holds the narrowing from the assert before it
    assert isinstance(state.pop(), Declare) and state.phase is Phase.DECLARE and state.contract is None  # type: ignore[comparison-overlap]
    assert isinstance(state.pop(), Discard)
    assert (state.phase, list(state.hands), state.skat, state.picked_up) == before_discard
    assert isinstance(state.pop(), PickUp)
    assert (state.phase, list(state.hands), state.skat, state.picked_up) == before_pick_up
    assert state.pop() == Bid(Seat(0), 18) and state.phase is Phase.AUCTION and state.declarer is None


def test_phase_names_in_messages_stay_plain_words() -> None:
    state = GameState(seed=5)
    with pytest.raises(IllegalMove) as err:
        state.push(Declare(Contract(GameType.GRAND)))
    assert str(err.value).endswith("(auction)") and err.value.text.en.endswith("(auction)")
    assert repr(state) == "<GameState phase=auction moves=0>"


def test_text_picks_the_language_and_is_german_as_a_string() -> None:
    text = Text("Stich", "trick")
    assert (text.get("de"), text.get("en"), str(text)) == ("Stich", "trick", "Stich")
    assert text.get() == "Stich" and text.get("fr") == "Stich"  # German first
    assert text.get("en-gb") == "trick" and Text("Stich", "").get("en") == "Stich"  # no English: German
    assert render(Text("⟦card:CJ⟧", "⟦card:CJ⟧").get("en"), "en") == "jack of clubs"
    assert (Step.of(text).text("fr"), plural(2, "Stich", "fr")) == ("Stich", "2 Stiche")  # the same rule
    step = Step.of(text, ("4.1.1",))
    assert (step.de, step.en, step.rules, step.line) == ("Stich", "trick", ("4.1.1",), text)
    assert present(Termination.NULL_TRICK.text.get("en")).startswith("null game over")
    assert len({t.text.de for t in Termination}) == len({t.text.en for t in Termination}) == len(Termination)
