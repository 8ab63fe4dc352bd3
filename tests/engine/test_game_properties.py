"""Property tests over random legal games (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skatschule.engine import (
    BID_VALUES,
    CARDS,
    Bid,
    CardSet,
    Contract,
    Deal,
    Declare,
    Discard,
    GameOver,
    GameState,
    GameType,
    IllegalMove,
    Pass,
    Phase,
    PickUp,
    Play,
    legal_cards,
    trick_winner,
)
from skatschule.engine.names import render
from skatschule.engine.seats import Seat

contracts = st.builds(
    lambda game, hand, announce: Contract(
        game,
        hand=hand or announce > 0,
        schneider_announced=announce == 1 and game is not GameType.NULL,
        schwarz_announced=announce == 2 and game is not GameType.NULL,
        ouvert=announce == 3,
    ),
    st.sampled_from(list(GameType)),
    st.booleans(),
    st.integers(0, 3),
)


def random_game(seed: int, contract: Contract, declarer: int, rng: random.Random) -> GameState:
    state = GameState(seed=seed)
    openings: tuple[list[Bid | Pass], ...] = (
        [Pass(Seat(1)), Pass(Seat(2)), Bid(Seat(0), 18)],
        [Bid(Seat(1), 18), Pass(Seat(0)), Pass(Seat(2))],
        [Pass(Seat(1)), Bid(Seat(2), 18), Pass(Seat(0))],
    )
    for move in openings[declarer]:
        state.push(move)
    if not contract.hand:
        state.push(PickUp())
        twelve = list(state.hand(declarer))
        a, b = rng.sample(twelve, 2)
        state.push(Discard((a, b)))
    state.push(Declare(contract))
    while not state.is_over():
        cards = list(state.legal_cards())
        state.play(rng.choice(cards))
    return state


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), contracts, st.integers(0, 2), st.randoms(use_true_random=False))
def test_random_games_keep_the_invariants(seed: int, contract: Contract, declarer: int, rng: random.Random) -> None:
    state = random_game(seed, contract, declarer, rng)
    # every card once: hands + tricks + skat
    played = [c for t in state.tricks for c in t.cards]
    rest = [c for s in range(3) for c in state.hand(s)]
    skat = list(CardSet(state.skat))
    assert len(set(played + rest + skat)) == 32 == len(played + rest + skat)
    # 120 Augen in all; the declarer's share includes the skat
    defender_points = sum(t.points for t in state.tricks) - state.declarer_trick_points
    assert state.declarer_augen() + defender_points + sum(c.points for c in rest) == 120
    # every trick: its winner by the rules, every card legal when it was played
    hands = {s: CardSet(state.deal.hand(s)) for s in range(3)}
    if not contract.hand:
        hands[declarer] = (hands[declarer] | CardSet(state.deal.skat)) - CardSet(state.skat)
    for trick in state.tricks:
        for i, card in enumerate(trick.cards):
            seat = trick.seat_of(i)
            assert card in legal_cards(contract.game, hands[seat], trick.cards[:i])
            hands[seat] = hands[seat] - CardSet([card])
        assert trick.winner == trick.seat_of(trick_winner(contract.game, trick.cards))
    # the result agrees with Augen and tricks
    outcome = state.outcome()
    assert outcome is not None
    if contract.game.is_null:
        assert outcome.won == (state.declarer_trick_count == 0)
    elif len(state.tricks) == 10 and not contract.schneider_announced:
        assert outcome.won == (
            state.declarer_augen() >= 61 and (state.declarer_trick_count == 10 or not contract.schwarz_announced)
        )
        assert outcome.schwarz == (state.declarer_trick_count in (0, 10))
    if outcome.won:
        assert outcome.value in BID_VALUES
        assert outcome.score == outcome.value
    else:
        assert outcome.score == -2 * outcome.value


def snapshot(state: GameState) -> tuple[object, ...]:
    return (
        state.phase,
        list(state.hands),
        state.skat,
        list(state.trick),
        list(state.tricks),
        state.leader,
        state.declarer_trick_points,
        state.declarer_trick_count,
        state.defender_trick_count,
        list(state.moves),
        state.auction,
        state.declarer,
        state.contract,
        state.termination,
    )


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), contracts, st.integers(0, 2), st.randoms(use_true_random=False), st.integers(1, 40))
def test_undo_restores_the_state_exactly(
    seed: int, contract: Contract, declarer: int, rng: random.Random, back: int
) -> None:
    state = random_game(seed, contract, declarer, rng)
    history = []
    replay = GameState(state.deal)
    for move in state.moves:
        history.append(snapshot(replay))
        replay.push(move)
        assert replay.legal_mask() == legal_now(replay)
    assert snapshot(replay) == snapshot(state)
    for _ in range(min(back, len(history))):
        replay.pop()
        assert snapshot(replay) == history[len(replay.moves)]
        assert replay.legal_mask() == legal_now(replay)


def legal_now(state: GameState) -> int:
    """The legal cards of the player to move, computed from scratch (legal_mask keeps them);
    none before the declaration or after the end."""
    if state.phase is not Phase.PLAY:
        return 0
    hand = CardSet(state.hands[(state.leader + len(state.trick)) % 3])
    game = state.contract.game if state.contract is not None else GameType.GRAND  # no trick yet
    return legal_cards(game, hand, state.trick).mask


def test_illegal_cards_are_refused_with_a_reason() -> None:
    deal = Deal.from_codes(
        [
            "HA C8 D8 SK SQ S9 CJ DQ CK HQ".split(),
            "DJ DA DT DK D9 CA CT SA H7 H8".split(),
            "ST C7 CQ HT C9 HK SJ D7 H9 HJ".split(),
            ["S7", "S8"],
        ]
    )
    state = GameState.start(deal, declarer=1, bid=18, contract=Contract(GameType.DIAMONDS), discard=deal.skat)
    state.play(CARDS[2 * 8 + 3])  # HQ
    try:
        state.play(CARDS[0 * 8 + 0])  # CA from Mittelhand, who holds H7 H8
    except IllegalMove as err:
        assert render(str(err)) == "Kreuz-Ass ist nicht erlaubt: Herz muss bedient werden (ISkO 3.2.1)"
        assert render(err.text.en, "en") == "The ace of clubs is not allowed: hearts must be followed (ISkO 3.2.1)"
    else:  # pragma: no cover
        raise AssertionError("revoke accepted")
    assert state.phase is Phase.PLAY and len(state.trick) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), contracts, st.integers(0, 2), st.randoms(use_true_random=False))
def test_play_returns_the_next_legal_cards_and_zero_at_the_end(
    seed: int, contract: Contract, declarer: int, rng: random.Random
) -> None:
    finished = random_game(seed, contract, declarer, rng)
    replay = GameState(finished.deal)
    for move in finished.moves:
        if isinstance(move, Play):
            after = replay.play(move.card)
            assert after == replay.legal_mask() == legal_now(replay)
            assert (after == 0) == replay.is_over()
        else:
            replay.push(move)
    assert replay.is_over() and replay.trick_count == len(finished.tricks)


def test_no_card_can_be_played_before_the_declaration() -> None:
    state = GameState(seed=4)
    state.push(Bid(Seat(1), 18))
    assert state.legal_mask() == 0 and not state.legal_cards()
    try:
        state.play(list(state.hand(0))[0])
    except GameOver as err:
        assert "das Spiel läuft nicht" in str(err)
    else:  # pragma: no cover
        raise AssertionError("a card was played during the auction")
