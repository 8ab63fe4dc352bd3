"""Computer players: one entry point per decision, at three levels (:class:`BotLevel`).

- :func:`choose_bid` — the auction step (every level bids with the hand evaluation);
- :func:`choose_setup` — take the skat or play hand, discard, declare;
- :func:`choose_card` — the card, with the reason (:class:`CardChoice`); also the hint;
- :func:`bot_move` — whichever of these is due for the seat to move.

Levels: the beginner plays by a rule of thumb, the club player adds a few open-handed
deals of the unseen cards (perfect-information Monte Carlo, under 0.1 s a card), the
strong player more deals, earlier, and only deals that fit the bidding and the declared
game. Every card choice reads only what its seat can know (:class:`SeatView`).
``python -m skatschule.engine.arena`` measures the levels against each other.
"""

from __future__ import annotations

import random

from ..errors import SkatError
from ..game import GameState, Move, Phase, Play
from .declaring import bid_for_limit, choose_bid, choose_contract, choose_discard, choose_setup
from .levels import BotConfig, BotLevel
from .play import LEVEL_CAP, CardChoice, choose_card, random_card, rule_score
from .view import SeatView, bid_reachable, reaches_bid, sample_deal, unseen_cards

__all__ = [
    "LEVEL_CAP",
    "BotConfig",
    "BotLevel",
    "CardChoice",
    "SeatView",
    "bid_for_limit",
    "bid_reachable",
    "bot_move",
    "choose_bid",
    "choose_card",
    "choose_contract",
    "choose_discard",
    "choose_setup",
    "random_card",
    "reaches_bid",
    "rule_score",
    "sample_deal",
    "unseen_cards",
]


def bot_move(state: GameState, *, level: BotLevel = BotLevel.CLUB, rng: random.Random | None = None) -> Move:
    """The move of ``level`` for the seat to move, in any phase before the end."""
    seat = state.to_move
    if seat is None:
        raise SkatError("Das Spiel ist beendet", "The game is over")
    if state.phase is Phase.AUCTION:
        return choose_bid(state.auction, state.deal.hand(seat), level=level)
    if state.phase is Phase.PLAY:
        return Play(choose_card(state, level=level, rng=rng).card)
    return choose_setup(state, level=level)
