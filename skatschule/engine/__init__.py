"""Skatschule's Skat engine: the Internationale Skatordnung (ISkO) in pure Python.

Shaped like python-chess: small immutable values (:class:`Card`, :class:`CardSet`,
:class:`Contract`, the auction moves), one :class:`GameState` with legal moves and
``push``/``pop``, and an :class:`Outcome` with a derivation in German and English.
States are enums: :class:`Phase`, :class:`Termination` (how a game ended, carried on the
:class:`Outcome`), and in :mod:`.rulings` the guilty ``Party`` and the counted ``Level``.
Bilingual domain text is a :class:`Text` (``.get(lang)``), beside :class:`Step`.
:mod:`.vectors` reads the vectors contract's input; no other engine module imports it.

>>> from skatschule.engine import Contract, GameType, game_value
>>> game_value(Contract(GameType.CLUBS, hand=True), matadors=2).plain()
'mit 2, Spiel 3, Hand 4 × Kreuz 12 = 48'
"""

from . import compiled  # noqa: F401  (first: it chooses the compiled or the pure build)
from .bidding import BID_VALUES, Auction, AuctionMove, Bid, Hold, Pass, run_auction
from .cards import CARDS, DECK, Card, CardSet, Deal, Rank, Suit, deal_cards, parse_card, parse_cards
from .errors import GameOver, IllegalBid, IllegalMove, InvalidCard, InvalidDeclaration, SkatError
from .explain import Derivation, Step, Text
from .game import Declare, Discard, GameState, Move, Phase, PickUp, Play, Trick
from .games import Contract, GameType, is_trump, legal_cards, parse_game, trick_winner, trump_order
from .lists import bierlachs, isko_totals, seeger_totals
from .names import DECK_NAMES, DeckNames, names_for
from .names import render as render_names
from .pub import RamschResult, play_ramsch, score_ramsch, starts_bock_round
from .rules import ISKO, PRE1999, PUB, RULESETS, RuleSet, get_rules
from .scoring import (
    GameValue,
    Outcome,
    Settlement,
    Termination,
    concede,
    game_value,
    lowest_multiple,
    matadors,
    matadors_text,
    score_game,
    settle,
)
from .seats import SEATS, Seat
from .sorting import sort_hand

__all__ = [
    "BID_VALUES",
    "Seat",
    "SEATS",
    "Auction",
    "AuctionMove",
    "Bid",
    "Hold",
    "Pass",
    "run_auction",
    "CARDS",
    "DECK",
    "Card",
    "CardSet",
    "Deal",
    "Rank",
    "Suit",
    "deal_cards",
    "parse_card",
    "parse_cards",
    "GameOver",
    "IllegalBid",
    "IllegalMove",
    "InvalidCard",
    "InvalidDeclaration",
    "SkatError",
    "Derivation",
    "Step",
    "Text",
    "Declare",
    "Discard",
    "GameState",
    "Move",
    "Phase",
    "PickUp",
    "Play",
    "Trick",
    "Contract",
    "GameType",
    "is_trump",
    "legal_cards",
    "parse_game",
    "trick_winner",
    "trump_order",
    "bierlachs",
    "isko_totals",
    "seeger_totals",
    "RamschResult",
    "play_ramsch",
    "score_ramsch",
    "starts_bock_round",
    "DECK_NAMES",
    "DeckNames",
    "names_for",
    "render_names",
    "sort_hand",
    "ISKO",
    "PRE1999",
    "PUB",
    "RULESETS",
    "RuleSet",
    "get_rules",
    "GameValue",
    "Outcome",
    "Settlement",
    "Termination",
    "concede",
    "settle",
    "game_value",
    "lowest_multiple",
    "matadors",
    "matadors_text",
    "score_game",
]
