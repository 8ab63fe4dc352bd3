"""Bad input to a :class:`GameState` gets the engine's own error on both builds (issue 36 §4).

``game.py`` is compiled with mypyc where a C compiler exists; mypyc checks arguments typed as
built-in types (int, bool, tuple) and raises ``TypeError``. So the public methods take those
arguments as objects and check them first: a wrong seat, bid, seed, deal, card or contract is
a :class:`SkatError` from the compiled and from the pure build alike. The pure build is loaded
beside the compiled one in this process (as the solver benchmark does).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from skatschule.engine import compiled, game
from skatschule.engine.bench import play_random_game, pure_module
from skatschule.engine.bench_naive import play_naive_game
from skatschule.engine.bidding import Bid, Pass
from skatschule.engine.cards import Deal, deal_cards, parse_card
from skatschule.engine.errors import SkatError
from skatschule.engine.games import Contract, GameType
from skatschule.engine.seats import Seat


def _pure_game() -> ModuleType:
    """game.py's source as a module of its own (it is :mod:`game` itself when nothing is compiled)."""
    return pure_module("game")


BUILDS = [pytest.param(lambda: game, id="active"), pytest.param(_pure_game, id="pure")]

DEAL = deal_cards(7)
GRAND_HAND = Contract(GameType.GRAND, hand=True)


def _started(module: ModuleType) -> Any:
    return module.GameState.start(DEAL, declarer=0, bid=18, contract=GRAND_HAND)


def _discarding(module: ModuleType) -> Any:
    """Mittelhand bid 18, the others passed, and he picked up the skat."""
    state = module.GameState(DEAL)
    for move in (Bid(Seat.MIDDLEHAND, 18), Pass(Seat.FOREHAND), Pass(Seat.REARHAND), module.PickUp()):
        state.push(move)
    return state


def _declaring(module: ModuleType) -> Any:
    state = _discarding(module)
    state.push(module.Discard((DEAL.mittelhand[0], DEAL.mittelhand[1])))
    return state


def _twice(deal: Deal) -> Deal:
    """``deal`` with Vorhand's first card given again in place of the skat's first."""
    return Deal(deal.vorhand, deal.mittelhand, deal.hinterhand, (deal.vorhand[0], deal.skat[1]))


BAD: dict[str, Callable[[ModuleType], object]] = {
    "deal is a string": lambda m: m.GameState("CJ SJ"),
    "deal with a card twice": lambda m: m.GameState(_twice(DEAL)),
    "deal of codes": lambda m: m.GameState(Deal(*[tuple(c.code for c in part) for part in DEAL])),  # type: ignore[arg-type]
    "seed is a string": lambda m: m.GameState(seed="7"),
    "rules are a name": lambda m: m.GameState(DEAL, rules="isko"),
    "declarer 3": lambda m: m.GameState.start(DEAL, declarer=3, bid=18, contract=GRAND_HAND),
    "declarer is a string": lambda m: m.GameState.start(DEAL, declarer="0", bid=18, contract=GRAND_HAND),
    "declarer is a bool": lambda m: m.GameState.start(DEAL, declarer=True, bid=18, contract=GRAND_HAND),
    "bid is a string": lambda m: m.GameState.start(DEAL, declarer=0, bid="18", contract=GRAND_HAND),
    "bid 17": lambda m: m.GameState.start(DEAL, declarer=0, bid=17, contract=GRAND_HAND),
    "contract is a name": lambda m: m.GameState.start(DEAL, declarer=0, bid=18, contract="grand"),
    "discard of codes": lambda m: m.GameState.start(
        DEAL, declarer=0, bid=18, contract=Contract(GameType.GRAND), discard=["CJ", "SJ"]
    ),
    "replay with a named contract": lambda m: m.GameState.replay(DEAL, [], "grand"),
    "play a code": lambda m: _started(m).play("CJ"),
    "play None": lambda m: _started(m).play(None),
    "push a Play of a code": lambda m: _started(m).push(m.Play("CJ")),
    "push a Discard of codes": lambda m: _discarding(m).push(m.Discard(("CJ", "SJ"))),
    "push a Declare of a name": lambda m: _declaring(m).push(m.Declare("grand")),
    "hand 3": lambda m: _started(m).hand(3),
    "hand of a string": lambda m: _started(m).hand("0"),
    "side_won of a string": lambda m: _started(m).side_won("0"),
    "score with kontra 'yes'": lambda m: _started(m).score(kontra="yes"),
}


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_gets_the_engines_own_error(build: Callable[[], ModuleType], case: str) -> None:
    with pytest.raises(SkatError):
        BAD[case](build())


@pytest.mark.parametrize("build", BUILDS)
def test_the_checks_let_a_game_through(build: Callable[[], ModuleType]) -> None:
    module = build()
    state = module.GameState.start(
        DEAL, declarer=2, bid=18, contract=Contract(GameType.CLUBS), discard=(DEAL.skat[0], DEAL.skat[1])
    )
    assert state.declarer == 2 and state.hand(2) == state.hand(2) and len(state.hand(2)) == 10
    while state.legal_mask():
        state.play(min(state.legal_cards()))
    assert state.score(kontra=False).declarer_tricks == state.declarer_trick_count
    assert state.side_won(2) is not None


def test_the_game_is_compiled_where_the_engine_is() -> None:
    assert "game" in compiled.MODULES
    assert game.__file__ is not None
    assert game.__file__.endswith(".py") != compiled.ACTIVE
    assert str(_pure_game().__file__).endswith("game.py")


def test_a_card_parsed_from_a_code_is_played() -> None:
    state = _started(game)
    card = parse_card(min(state.legal_cards()).code.lower())
    state.play(card)
    assert state.moves[-1] == game.Play(card)


def test_the_naive_oracle_plays_the_same_games() -> None:
    """The benchmark's reference (bench_naive) and the engine: the same outcome, seed by seed."""
    for seed in range(300):
        engine = play_random_game(random.Random(seed)).score()
        naive = play_naive_game(random.Random(seed))
        fields = ("contract", "won", "value", "score", "overbid", "matadors", "declarer_points", "declarer_tricks")
        assert [getattr(engine, f) for f in fields + ("termination",)] == [
            getattr(naive, f) for f in fields + ("termination",)
        ], seed


def _view(state: Any) -> tuple[object, ...]:
    """What a game shows from outside, in plain values (each build has its own move classes)."""
    return (
        state.phase.value,
        state.to_move,
        [str(m) for m in state.legal_moves()],
        [str(m) for m in state.moves],
        state.legal_mask(),
        [state.hand(seat).mask for seat in range(3)],
        state.trick,
        [(t.leader, t.cards, t.winner, t.points) for t in state.tricks],
        state.trick_count,
        state.declarer,
        state.contract,
        state.passed_in,
        state.bid,
        state.declarer_augen() if state.contract is not None else None,
        state.defender_augen(),
        state.termination,
        state.is_over(),
        repr(state),
    )


def test_compiled_and_pure_builds_play_alike() -> None:
    """Random games from the auction on, on both builds side by side, with moves taken back and
    made again: the same legal moves, hands, tricks, record and result at every step."""
    pure = _pure_game()
    for seed in range(40):
        rng = random.Random(seed)
        states = [game.GameState(seed=seed), pure.GameState(seed=seed)]
        while not states[0].is_over():
            assert _view(states[0]) == _view(states[1]), seed
            k = rng.randrange(len(states[0].legal_moves()))
            for state in states:
                state.push(state.legal_moves()[k])
            if rng.random() < 0.15:  # take the move back and make it again
                assert str(states[0].pop()) == str(states[1].pop())
                assert _view(states[0]) == _view(states[1]), seed
                for state in states:
                    state.push(state.legal_moves()[k])
        assert _view(states[0]) == _view(states[1]), seed
        assert states[0].record() == states[1].record()
        if states[0].contract is not None:
            assert states[0].score() == states[1].score()
            assert states[0].matadors() == states[1].matadors()
            assert states[0].declarer_cards() == states[1].declarer_cards()
            assert [state.side_won(0) for state in states] == [states[1].side_won(0)] * 2
        while states[0].moves:  # back to the deal, move by move
            assert str(states[0].pop()) == str(states[1].pop())
            assert _view(states[0]) == _view(states[1]), seed
