"""ISS records of whole games for the tests of the record viewer (and the site-wide junk test)."""

from __future__ import annotations

import random

from skatschule.engine import GameState, Pass, Phase
from skatschule.engine.bidding import Bid
from skatschule.engine.iss import write_record


def played_record(seed: int) -> str:
    """A whole game of random legal moves (the auction kept low), written as an ISS record."""
    rng = random.Random(seed)
    state = GameState(seed=seed)
    while not state.is_over():
        moves = state.legal_moves()
        if state.phase is Phase.AUCTION:
            low = [m for m in moves if not isinstance(m, Bid) or m.value <= 20]
            moves = [m for m in low if isinstance(m, Pass)] if state.auction.value >= 18 and rng.random() < 0.8 else low
            moves = moves or state.legal_moves()
        state.push(rng.choice(moves))
    return write_record(state, game_id=str(seed))
