"""Aus meinen Fehlern, beyond card play: the learner's bidding and discarding in a finished game.

Card play is judged by :func:`.puzzles.mistakes`. This module judges the two decisions before
the first trick, each against its trainer:

- **Reizen**: what the learner did in the auction (:func:`bidding_of`: the highest value he bid
  or held, and the value he refused when he passed) against :func:`.bidplay.grade_bid` for his
  ten cards in his seat. His answer in the trainer's terms is the highest value he showed he
  would accept: the step below the value he refused when he passed, else the highest value he
  bid or held (a lower bound: nobody asked him for more). A real mistake (:func:`judge_bid`):
  *overbid*, he bid or held at least :data:`OVER_STEPS` bid step above the graded limit (there
  the best game already expects a loss); or *underbid*, he passed and his answer lies at least
  :data:`UNDER_STEPS` bid steps below the graded limit (the trainer counts one step below the
  limit as right, so one step is no mistake).
- **Drücken**: when he was declarer and picked up the skat, the two cards he put away against
  :func:`.discard.grade_hand` for the game he declared (his twelve cards). A real mistake
  (:func:`judge_discard`): his pair's expected list score lies at least :data:`DISCARD_MARGIN`
  below the best pair's of that game, and his pair is not among the best :data:`DISCARD_TOP`
  (the Drücken trainer counts those as right). A Null ouvert is not judged (the open hand is
  not modelled by the playout).

Both judgements take the trainer's grading as an argument, so they are tested against the
gradings themselves; :func:`bid_spot` and :func:`discard_spot` read a finished game.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bidding import BID_VALUES, Bid, Hold, Pass
from .bidplay import BidGrading, step_of
from .cards import Card, CardSet
from .discard import HandGrading
from .game import Discard, GameState
from .games import GameType

__all__ = [
    "OVER_STEPS",
    "UNDER_STEPS",
    "DISCARD_MARGIN",
    "DISCARD_TOP",
    "Bidding",
    "BidSpot",
    "DiscardSpot",
    "BidMistake",
    "DiscardMistake",
    "bidding_of",
    "bid_spot",
    "discard_spot",
    "judge_bid",
    "judge_discard",
]

OVER_STEPS = 1
"""Bid steps above the graded limit that make bidding or holding a mistake."""
UNDER_STEPS = 2
"""Bid steps the learner's answer (the step below the value he refused) must lie under the
graded limit for passing to be a mistake."""
DISCARD_MARGIN = 5.0
"""Expected list score by which the learner's pair must trail the best pair of his game."""
DISCARD_TOP = 3
"""A pair among this many best of its game is never a mistake (the Drücken trainer's right answers)."""


@dataclass(frozen=True, slots=True)
class Bidding:
    """What one seat did in the auction."""

    highest: int
    """The highest value the seat bid or held (0: none)."""
    refused: int
    """The value the seat passed at (the bid it would not hold, or the next bid it would not
    say; 18 when it passed first); 0 when it never passed."""

    @property
    def answer(self) -> int:
        """The highest value the seat showed it would accept (0: pass), on the trainer's ladder."""
        if self.refused:
            below = [v for v in BID_VALUES if v < self.refused]
            return max(self.highest, below[-1] if below else 0)
        return self.highest


@dataclass(frozen=True, slots=True)
class BidSpot:
    """The learner's ten cards, his seat and his bidding in one game."""

    cards: tuple[Card, ...]
    position: int
    bidding: Bidding


@dataclass(frozen=True, slots=True)
class DiscardSpot:
    """The declarer's twelve cards after picking up the skat, his game and the pair he put away."""

    cards: tuple[Card, ...]
    game: GameType
    pair: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class BidMistake:
    over: bool
    """True: bid or held too high; False: passed too low."""
    answer: int
    """The learner's answer (:attr:`Bidding.answer`)."""
    limit: int
    """The graded limit."""


@dataclass(frozen=True, slots=True)
class DiscardMistake:
    expected: float
    """The learner's pair's expected list score."""
    best: float
    """The best pair's."""
    rank: int
    """The learner's pair's place of 66 (1 = best)."""


def bidding_of(state: GameState, seat: int) -> Bidding:
    """What ``seat`` did in the auction of ``state``."""
    highest = refused = 0
    value = 0
    pending = False
    for move in state.auction.moves:
        if isinstance(move, Bid):
            value = move.value
            pending = True
            if move.seat == seat:
                highest = max(highest, move.value)
        elif isinstance(move, Hold):
            pending = False
            if move.seat == seat:
                highest = max(highest, value)
        elif isinstance(move, Pass):
            if move.seat == seat and not refused:
                if pending:
                    refused = value
                else:
                    higher = [v for v in BID_VALUES if v > value]
                    refused = higher[0] if higher else value
            pending = False
    return Bidding(highest, refused)


def bid_spot(state: GameState, seat: int) -> BidSpot | None:
    """The learner's bidding in a finished game; None when he took no part (no move of his)."""
    if not any(m.seat == seat for m in state.auction.moves):
        return None
    return BidSpot(tuple(sorted(state.deal.hand(seat))), seat, bidding_of(state, seat))


def discard_spot(state: GameState, seat: int) -> DiscardSpot | None:
    """The learner's discard when he declared a game after picking up the skat; else None."""
    contract = state.contract
    if contract is None or state.declarer != seat or not state.picked_up or contract.ouvert:
        return None
    put = [m for m in state.moves if isinstance(m, Discard)]
    if not put:
        return None
    twelve = tuple(sorted(CardSet(state.declarer_cards().mask)))
    a, b = sorted(put[0].cards)
    return DiscardSpot(twelve, contract.game, (a, b))


def judge_bid(bidding: Bidding, grading: BidGrading) -> BidMistake | None:
    """A real bidding mistake against the graded limit (thresholds in the module's docstring)."""
    limit = grading.limit
    if bidding.highest and step_of(bidding.highest) - step_of(limit) >= OVER_STEPS:
        return BidMistake(True, bidding.highest, limit)
    answer = bidding.answer
    if bidding.refused and step_of(limit) - step_of(answer) >= UNDER_STEPS:
        return BidMistake(False, answer, limit)
    return None


def judge_discard(pair: tuple[Card, Card], grading: HandGrading) -> DiscardMistake | None:
    """A real discarding mistake in the declared game (``grading.chosen``)."""
    chosen = grading.chosen
    mine = chosen.grade_of(pair)
    rank = chosen.rank(pair)
    best = chosen.best.expected
    if rank > DISCARD_TOP and best - mine.expected >= DISCARD_MARGIN:
        return DiscardMistake(mine.expected, best, rank)
    return None
