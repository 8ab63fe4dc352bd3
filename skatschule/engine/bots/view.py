"""What one seat can know, and deals of the unseen cards that fit it.

A :class:`SeatView` is built from a :class:`~..game.GameState` once; every decision of a
bot or a hint reads only the view, never the other hands. So two positions that look the
same to the seat get the same answer (issue 25, item 6).
"""

from __future__ import annotations

import random
from bisect import bisect
from dataclasses import dataclass
from itertools import accumulate

from ..bidding import BID_VALUES, Auction, Bid, Hold, Pass
from ..cards import Card, CardSet
from ..errors import SkatError
from ..evaluation import bid_limit, check_game
from ..game import GameState
from ..games import Contract, GameType
from ..scoring import game_value, matadors_in_mask

__all__ = ["SeatView", "unseen_cards", "sample_deal", "reaches_bid", "bid_reachable", "TRIES", "BID_REDRAWS"]

_ALL = 0xFFFFFFFF
_ATTEMPTS = 24
"""Deals tried per sample when only deals fitting the bidding count (the best one is kept)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` has seen: its hand, the skat if it put it away itself, the cards
    played (and by whom), who could not follow which group, the auction and the game, and in
    an ouvert game the declarer's cards: he lays them open before the first lead (rule 1.2.5),
    so every seat sees them for the whole play."""

    seat: int
    contract: Contract
    declarer: int
    hand: int
    known_skat: int | None
    """The skat's cards when the seat put them away itself, else None (two unseen cards)."""
    leader: int
    trick: tuple[Card, ...]
    played_by: tuple[int, int, int]
    counts: tuple[int, int, int]
    voids: tuple[int, int, int]
    """For each seat the cards it cannot hold (the groups it did not follow)."""
    declarer_points: int
    bid: int
    picked_up: bool
    auction: Auction
    open_hand: int = 0
    """The declarer's cards in hand as every seat sees them in an ouvert game (else 0)."""

    @classmethod
    def of(cls, state: GameState, seat: int) -> SeatView:
        contract = state.contract
        declarer = state.declarer
        if contract is None or declarer is None:
            raise SkatError("Es wird kein Spiel gespielt", "No game is being played")
        game = contract.game
        played = [0, 0, 0]
        void = [0, 0, 0]
        tricks: list[tuple[int, tuple[Card, ...]]] = [(t.leader, t.cards) for t in state.tricks]
        if state.trick:
            tricks.append((state.leader, tuple(state.trick)))
        for leader, cards in tricks:
            follow = game.follow_mask[cards[0].index]
            for k, card in enumerate(cards):
                who = (leader + k) % 3
                played[who] |= card.bit
                if k and not follow & card.bit:
                    void[who] |= follow
        knows_skat = seat == declarer and state.picked_up
        return cls(
            seat=seat,
            contract=contract,
            declarer=declarer,
            hand=state.hands[seat],
            known_skat=state.skat if knows_skat else None,
            leader=state.leader,
            trick=tuple(state.trick),
            played_by=(played[0], played[1], played[2]),
            counts=(state.hands[0].bit_count(), state.hands[1].bit_count(), state.hands[2].bit_count()),
            voids=(void[0], void[1], void[2]),
            declarer_points=state.declarer_trick_points,
            bid=state.bid,
            picked_up=state.picked_up,
            auction=state.auction,
            open_hand=state.hands[declarer] if contract.ouvert else 0,
        )

    @property
    def game(self) -> GameType:
        return self.contract.game

    @property
    def played(self) -> int:
        return self.played_by[0] | self.played_by[1] | self.played_by[2]

    @property
    def unseen(self) -> int:
        """The cards the seat has not seen: in the other hands or the skat (an ouvert
        declarer's open cards are seen)."""
        return _ALL & ~(self.hand | self.played | (self.known_skat or 0) | self.open_hand)

    def hidden_counts(self) -> list[int]:
        """How many unseen cards each seat holds: none in the seat's own hand, nor in an ouvert
        declarer's open one."""
        return [
            0 if s == self.seat or (self.open_hand and s == self.declarer) else n for s, n in enumerate(self.counts)
        ]


def unseen_cards(state: GameState, seat: int) -> tuple[int, list[int], int]:
    """What ``seat`` cannot see: the mask of unseen cards, how many each other seat holds,
    and how many of them lie in the skat (0 when the seat put the skat away itself)."""
    view = SeatView.of(state, seat)
    return view.unseen, view.hidden_counts(), 0 if view.known_skat is not None else 2


# ---------------------------------------------------------------- inference from the bidding


@dataclass(frozen=True, slots=True)
class _Bounds:
    """What the auction says about each seat's bidding limit (as the bots bid): at least
    ``low`` (the highest value it bid or held) and below ``high`` (what it passed at)."""

    low: tuple[int, int, int]
    high: tuple[int | None, int | None, int | None]


def _bounds(auction: Auction) -> _Bounds:
    low = [0, 0, 0]
    high: list[int | None] = [None, None, None]
    step = Auction()
    for move in auction.moves:
        if isinstance(move, Bid):
            low[move.seat] = max(low[move.seat], move.value)
        elif isinstance(move, Hold):
            low[move.seat] = max(low[move.seat], step.value)
        elif isinstance(move, Pass):
            if step.phase == "vorhand_alone":
                high[move.seat] = BID_VALUES[0]
            elif step.pending:
                high[move.seat] = step.value
            else:
                higher = [v for v in BID_VALUES if v > step.value]
                high[move.seat] = higher[0] if higher else None
        step = step.apply(move)
    return _Bounds((low[0], low[1], low[2]), (high[0], high[1], high[2]))


def _misfits(view: SeatView, hands: list[int], bounds: _Bounds) -> int:
    """How many of the other seats' hands contradict what the bidding and the game say."""
    misses = 0
    for s in range(3):
        if s == view.seat:
            continue
        cards = hands[s] | view.played_by[s]
        if s == view.declarer:
            if view.picked_up:
                # his ten cards after the discard: the game he declared is one the evaluation calls playable
                if not view.game.is_null and not check_game(CardSet(cards), view.game).playable:
                    misses += 1
                continue
            if bid_limit(CardSet(cards)) < view.bid:
                misses += 1
            continue
        limit = bid_limit(CardSet(cards))
        high = bounds.high[s]
        if limit < bounds.low[s] or (high is not None and limit >= high):
            misses += 1
    return misses


# ---------------------------------------------------------------- sampling


TRIES = 30
"""Shuffles per deal before :func:`sample_deal` gives up on the voids (then None)."""
BID_REDRAWS = 4
"""Deals drawn per sample with ``reach_bid`` before :func:`sample_deal` gives up (then None)."""


def _deal_once(view: SeatView, rng: random.Random, tries: int) -> tuple[list[int], int] | None:
    unseen = view.unseen
    counts = view.hidden_counts()
    skat_count = 0 if view.known_skat is not None else 2
    voids = view.voids
    cards = [i for i in range(32) if unseen >> i & 1]
    # the seats that may take each card (room for it, not void in its group), worked out once
    takers = {i: [s for s in range(3) if counts[s] and not voids[s] >> i & 1] for i in cards}
    few = {i: len(seats) for i, seats in takers.items()}
    draw = rng.random
    for _ in range(tries):
        rng.shuffle(cards)
        room = counts + [skat_count]
        hands = [0, 0, 0, 0]
        ok = True
        # the most constrained cards first: those only few places can take
        for i in sorted(cards, key=few.__getitem__):
            places = [s for s in takers[i] if room[s]]
            if room[3]:
                places.append(3)
            if not places:
                ok = False
                break
            # a place with the chance of its room: random.choices(places, weights) done by hand
            # (one draw of rng.random(), as choices makes it, so the deals stay the same)
            bounds = list(accumulate(room[p] for p in places))
            place = places[bisect(bounds, draw() * (bounds[-1] + 0.0), 0, len(places) - 1)]
            hands[place] |= 1 << i
            room[place] -= 1
        if ok:
            hands[view.seat] = view.hand
            if view.open_hand:
                hands[view.declarer] = view.open_hand
            skat = view.known_skat if view.known_skat is not None else hands[3]
            return hands[:3], skat
    return None


def reaches_bid(view: SeatView, hands: list[int], skat: int) -> bool:
    """Do the declarer's twelve cards in a drawn deal (his hand, the cards he played, the skat)
    reach his bid, with every level up to Schneider counted? Null always does (its value is
    fixed); a declarer cannot have bid more than his game could be worth."""
    if view.game.is_null:
        return True
    declarer = view.declarer
    twelve = hands[declarer] | view.played_by[declarer] | skat
    best = game_value(view.contract, matadors_in_mask(view.game, twelve), schneider=True).value
    return best >= view.bid


def bid_reachable(view: SeatView) -> bool:
    """Could any deal of the cards ``view`` cannot see give the declarer twelve cards that reach
    his bid as :func:`reaches_bid` counts it? False: the game was overbid, as the seat can tell
    from what it saw (then no drawn deal can fit the bid). Exact over which trumps the declarer
    can hold; the voids are left aside, so False is sure and True a possibility."""
    if view.game.is_null:
        return True
    declarer = view.declarer
    known = view.played_by[declarer] | view.open_hand
    if view.seat == declarer:
        known |= view.hand | (view.known_skat or 0)
    unseen = view.unseen
    free = 12 - known.bit_count()
    order = view.game.trumps_in_order
    for k in range(len(order), 0, -1):
        top = 0
        for trump in order[:k]:
            top |= trump.bit
        after = order[k].bit if k < len(order) else 0
        for holds, keeps_out in ((top, after), (after, top)):  # "mit k", then "ohne k"
            if holds & ~(known | unseen) or keeps_out & known:
                continue
            if not (holds & unseen).bit_count() <= free <= (unseen & ~keeps_out).bit_count():
                continue
            matadors = k if holds == top else -k
            return game_value(view.contract, matadors, schneider=True).value >= view.bid
    return False


def sample_deal(
    view: SeatView,
    rng: random.Random,
    *,
    inference: bool = False,
    reach_bid: bool = False,
    tries: int = TRIES,
) -> tuple[list[int], int] | None:
    """The three hands and the skat (masks), the unseen cards dealt at random so that nobody
    holds a card of a group it did not follow (``tries`` shuffles at most; None when none fits
    the voids). The one sampler of hidden cards: the bots, the hint, the puzzles' view of a
    player and "Hätte ich es wissen können?" all draw with it.

    ``reach_bid``: only deals in which the declarer's twelve cards reach his bid
    (:func:`reaches_bid`), at most :data:`BID_REDRAWS` draws, else None. ``inference``: the
    deal also fits the bidding as the bots bid (see :func:`.declaring.choose_bid`) and the
    declared game; of a few draws the best fitting one is kept."""
    for _ in range(BID_REDRAWS if reach_bid else 1):
        deal = _fitting_deal(view, rng, tries) if inference else _deal_once(view, rng, tries)
        if deal is None:
            return None
        if not reach_bid or reaches_bid(view, deal[0], deal[1]):
            return deal
    return None


def _fitting_deal(view: SeatView, rng: random.Random, tries: int) -> tuple[list[int], int] | None:
    bounds = _bounds(view.auction)
    best: tuple[list[int], int] | None = None
    best_misses = 4
    for _ in range(_ATTEMPTS):
        deal = _deal_once(view, rng, tries)
        if deal is None:
            return None
        misses = _misfits(view, deal[0], bounds)
        if misses < best_misses:
            best, best_misses = deal, misses
            if misses == 0:
                break
    return best
