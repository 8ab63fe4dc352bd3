"""How strong a computer player is: :class:`BotLevel` and the budgets behind it."""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["BotLevel", "BotConfig"]


@dataclass(frozen=True, slots=True)
class BotConfig:
    """What a level may spend on one card.

    ``samples`` deals of the unseen cards are solved open-handed (0: the rule of thumb
    alone), each search with at most ``max_nodes`` nodes, and only once the bot holds at
    most ``max_hand`` cards (earlier a full search rarely fits the budget). ``time_cap``
    (seconds, None: no limit) stops sampling early; without it a choice depends only on
    the position and the random generator. ``inference`` keeps only deals that fit the
    bidding and the declared game (as the bots bid and declare).
    """

    samples: int
    max_nodes: int
    max_hand: int
    time_cap: float | None
    inference: bool
    schneider: bool = False
    schneider_hand: int = 0


class BotLevel(enum.Enum):
    """The computer players' levels, weakest first (the value is the stable id)."""

    BEGINNER = "beginner"
    """The rule of thumb only: take a sure trick with Augen, else throw the cheapest card."""
    CLUB = "club"
    """A few open-handed deals from the fifth trick on: quick (under 0.1 s a card)."""
    STRONG = "strong"
    """Twice the deals with a bigger budget, from the first card on (10 cards in hand), only
    deals that fit the bidding and the declared game, and a second look at the game after
    the skat. Its time cap keeps a card at about 1 s at worst."""

    @property
    def config(self) -> BotConfig:
        return _CONFIGS[self]


_CONFIGS = {
    BotLevel.BEGINNER: BotConfig(samples=0, max_nodes=0, max_hand=0, time_cap=None, inference=False),
    BotLevel.CLUB: BotConfig(samples=8, max_nodes=3_000, max_hand=6, time_cap=0.09, inference=False),
    BotLevel.STRONG: BotConfig(
        samples=16, max_nodes=120_000, max_hand=10, time_cap=1.0, inference=True, schneider=True, schneider_hand=7
    ),
}
