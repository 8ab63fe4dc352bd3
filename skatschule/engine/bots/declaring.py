"""The bots before the first card: bidding, taking the skat, discarding and declaring.

Every level bids alike, with the engine's hand evaluation (:mod:`..evaluation`, lesson 7):
up to the value of the game the evaluation would declare, and pass without one. This is
the one bidding rule of the site (the auction table and the game table both call
:func:`choose_bid`); the strong level's card play relies on it when it reads the bidding.

After picking up, the beginner and the club player declare the game they bid on. The strong
player looks at his twelve cards again: for each suit game and Grand it discards as below
and keeps the games the evaluation calls playable with the ten cards left and whose value
(with the Spitzen of the twelve cards) reaches the bid; of those the most valuable. Without
one it keeps the game it bid on if that still reaches the bid, else the game worth at least
the bid with the most trumps, so that it is not overbid.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bidding import BID_VALUES, Auction, AuctionMove, Bid, Hold, Pass
from ..cards import Card, CardSet, Rank
from ..errors import SkatError
from ..evaluation import bid_limit, check_game, evaluate, null_unsafe_cards
from ..game import Declare, Discard, GameState, Move, Phase, PickUp
from ..games import Contract, GameType
from ..scoring import game_value, matadors_in_mask
from .levels import BotLevel

__all__ = ["choose_bid", "bid_for_limit", "choose_setup", "choose_contract", "choose_discard"]

_SUIT_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)


def bid_for_limit(auction: Auction, limit: int) -> AuctionMove:
    """The bots' step in the auction for a hand worth ``limit`` (0: pass): bid the next
    value, or hold, while it is within the limit, else pass."""
    seat = auction.to_move
    if seat is None:
        raise SkatError("Das Reizen ist beendet", "The auction is over")
    if auction.phase == "vorhand_alone":
        return Bid(seat, BID_VALUES[0]) if limit >= BID_VALUES[0] else Pass(seat)
    if auction.pending:
        return Hold(seat) if auction.value <= limit else Pass(seat)
    higher = [v for v in BID_VALUES if v > auction.value]
    return Bid(seat, higher[0]) if higher and higher[0] <= limit else Pass(seat)


def choose_bid(auction: Auction, hand: CardSet | Sequence[Card], *, level: BotLevel = BotLevel.CLUB) -> AuctionMove:
    """The auction step of the seat to move, holding ``hand`` (its ten cards): every level
    bids up to the evaluation's limit (:func:`..evaluation.bid_limit`)."""
    del level  # all levels bid alike (see the module text)
    cards = hand if isinstance(hand, CardSet) else CardSet(hand)
    return bid_for_limit(auction, bid_limit(cards))


def _planned(state: GameState) -> Contract | None:
    declarer = state.declarer
    assert declarer is not None
    return evaluate(state.deal.hand(declarer)).contract


def _rethink(twelve: list[Card], planned: Contract | None, bid: int) -> Contract | None:
    """The strong player's game for his twelve cards (see the module text)."""
    mask = CardSet(twelve).mask
    games = (*_SUIT_GAMES, GameType.GRAND)
    values = {g: game_value(Contract(g), matadors_in_mask(g, mask)).value for g in games}
    playable = []
    for game in games:
        if values[game] < bid:
            continue
        a, b = choose_discard(twelve, game)
        if check_game(CardSet(mask & ~(a.bit | b.bit)), game).playable:
            playable.append(game)
    if playable:
        return Contract(max(playable, key=lambda g: values[g]))
    if planned is not None and (planned.game.is_null or values[planned.game] >= bid):
        return planned
    enough = [g for g in games if values[g] >= bid]
    if not enough:
        return planned
    return Contract(max(enough, key=lambda g: (mask & g.trump_mask).bit_count()))


def choose_setup(state: GameState, *, level: BotLevel = BotLevel.CLUB) -> Move:
    """The declarer's move between the auction and the first card: take the skat (or
    declare Null Hand when the evaluation found one), discard, declare."""
    declarer = state.declarer
    if declarer is None:
        raise SkatError("Es gibt keinen Alleinspieler", "There is no declarer")
    planned = _planned(state)
    if level is BotLevel.STRONG and state.phase is not Phase.SKAT:
        dealt = state.declarer_cards()  # his ten cards as dealt and the skat
        planned = _rethink(list(dealt), planned, state.bid)
    if state.phase is Phase.SKAT:
        if planned is not None and planned.hand:
            return Declare(planned)
        return PickUp()
    cards = list(state.hand(declarer))  # twelve before the discard, ten after it
    if state.phase is Phase.DISCARD:
        contract = planned or choose_contract(cards)
        return Discard(choose_discard(cards, contract.game))
    if state.phase is Phase.DECLARE:
        contract = planned or choose_contract(cards)
        return Declare(Contract(contract.game))
    raise SkatError("Jetzt ist weder Skat noch Ansage an der Reihe", "Neither skat nor declaration is due now")


def choose_contract(cards: Sequence[Card]) -> Contract:
    """The game a bot declares with these (ten or twelve) cards, before the hand/pick-up choice."""
    mask = 0
    for c in cards:
        mask |= c.bit
    jacks = sum(1 for c in cards if c.is_jack)
    best: tuple[int, GameType] | None = None
    for game in _SUIT_GAMES:
        trumps = (mask & game.trump_mask).bit_count()
        score = trumps * 10 + abs(matadors_in_mask(game, mask))
        if best is None or score > best[0]:
            best = (score, game)
    assert best is not None
    if jacks >= 3 and (mask & GameType.GRAND.trump_mask).bit_count() >= 3:
        aces = sum(1 for c in cards if c.rank == 0)
        if aces >= 2 or jacks == 4:
            return Contract(GameType.GRAND)
    return Contract(best[1])


_NULL_HEIGHT = {Rank.SEVEN: 0, Rank.EIGHT: 1, Rank.NINE: 2, Rank.TEN: 3, Rank.JACK: 4, Rank.QUEEN: 5, Rank.KING: 6}
"""A card's place in the Null order 7 8 9 10 J Q K A (the ace is 7)."""


def _null_discard(twelve: Sequence[Card]) -> tuple[Card, Card]:
    """Null: the cards that make a suit unsafe (:func:`..evaluation.null_unsafe_cards`), the
    highest first; then the highest cards left."""
    left = list(twelve)
    out: list[Card] = []
    while len(out) < 2:
        held = CardSet(left)
        unsafe = [c for c in left if null_unsafe_cards(held, c.suit)]
        pool = unsafe or left
        card = max(pool, key=lambda c: (_NULL_HEIGHT.get(c.rank, 7), -c.index))
        out.append(card)
        left.remove(card)
    return out[0], out[1]


def choose_discard(twelve: Sequence[Card], game: GameType) -> tuple[Card, Card]:
    """Two cards to put away: the dearest non-aces of the shortest side suits (never a trump
    while another card is left); in Null the cards that make a suit unsafe."""
    if game.is_null:
        return _null_discard(twelve)
    trump = game.trump_mask

    def key(c: Card) -> tuple[int, int, int]:
        if trump & c.bit:
            return (1, 0, c.points)
        suit_len = sum(1 for o in twelve if o.suit == c.suit and not trump & o.bit)
        return (0, suit_len + (5 if c.rank == 0 else 0), -c.points)

    ordered = sorted(twelve, key=key)
    return ordered[0], ordered[1]
