"""One game from the deal to the result: :class:`GameState`.

Shaped like python-chess's ``Board``: ``legal_moves()``, ``push(move)``,
``pop()``, ``is_over()`` and ``outcome()``. Every move is recorded, so a game can
be replayed, rewound and shown. Hands are bit sets (see :mod:`.cards`), which
keeps a full random game to a few dozen microseconds.

The state is told by enums: :class:`Phase` (auction, skat, discard, declare, play,
over) and, once the game is over, :attr:`GameState.termination` (a
:class:`~.scoring.Termination`: played out, passed in, or ended early by the rules).
Each move before the first card leaves an immutable undo record (``_SetupUndo``, as
python-chess's ``_BoardState``) that :meth:`GameState.pop` restores.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from .bidding import BID_VALUES, Auction, AuctionMove, Bid, Hold, Pass
from .cards import CARDS, POINTS_BY_INDEX, Card, CardSet, Deal, deal_cards, mask_points
from .errors import GameOver, IllegalMove, InvalidCard, InvalidDeclaration, SkatError
from .games import OUT_OF_SCHNEIDER, Contract, GameType
from .names import card_ref, suit_ref
from .rules import ISKO, RuleSet
from .scoring import Outcome, Termination, _evaluate, matadors_in_mask, score_game, side_won
from .seats import SEATS, Seat

__all__ = [
    "PickUp",
    "Discard",
    "Declare",
    "Play",
    "Move",
    "Trick",
    "GameState",
    "Phase",
]


@dataclass(frozen=True, slots=True)
class PickUp:
    """The declarer takes the skat into his hand."""

    def __str__(self) -> str:
        return "Skat aufnehmen"


@dataclass(frozen=True, slots=True)
class Discard:
    """The declarer puts two cards away (drückt) after picking up the skat."""

    cards: tuple[Card, Card]

    def __str__(self) -> str:
        return "drückt " + " ".join(c.code for c in self.cards)


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarer announces the game (Spielansage)."""

    contract: Contract

    def __str__(self) -> str:
        return f"sagt an: {self.contract}"


@dataclass(frozen=True, slots=True)
class Play:
    """The player to move plays ``card``."""

    card: Card

    def __str__(self) -> str:
        return self.card.code


Move = Bid | Hold | Pass | PickUp | Discard | Declare | Play

_NEW_AUCTION: Final = Auction()
_PICK_UP: Final = PickUp()
_PLAYS: Final[tuple[Play, ...]] = tuple(Play(c) for c in CARDS)
"""One interned :class:`Play` per card: recording a card costs no allocation."""
_POINTS: Final = POINTS_BY_INDEX
_CARD: Final = Card
"""The class of cards, checked for every card played (the compiled build keeps a Final in a
C variable; an imported name it looks up in the module's dictionary)."""


class Phase(enum.Enum):
    """The phases of a game, in order; compare with ``is``."""

    AUCTION = "auction"
    SKAT = "skat"  # declarer decides: pick up the skat or play hand
    DISCARD = "discard"
    DECLARE = "declare"
    PLAY = "play"
    OVER = "over"


# The phases and the termination every game passes through as module constants: an enum
# member is looked up four times slower than a module global, and the compiled build keeps
# a Final in a C variable instead of the module's dictionary.
_AUCTION: Final = Phase.AUCTION
_SKAT: Final = Phase.SKAT
_DISCARD: Final = Phase.DISCARD
_DECLARE: Final = Phase.DECLARE
_PLAYING: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_PLAYED_OUT: Final = Termination.PLAYED_OUT


_SetupUndo = tuple[Phase, Auction | None, int | None, int | None]
"""What a move before the first card changed, to be restored by :meth:`GameState.pop`
(like python-chess's ``_BoardState``; a plain tuple, the cheapest immutable value to make):
the phase before the move and the fields the move may change, ``(phase, auction, hand,
skat)``. ``auction`` is set for an auction move, ``hand`` and ``skat`` (the declarer's cards
and the skat before) for the pick-up and the discard; a declaration changes only the phase
and the contract."""

# tuple[int, ...], not a fixed-length tuple: the compiled build would box a new tuple for
# every look-up into a fixed one.
_NEXT_SEAT: Final[tuple[int, ...]] = (1, 2, 0)
_SEAT_OF: Final[tuple[int, ...]] = (0, 1, 2, 1, 2, 0, 2, 0, 1)
"""``_SEAT_OF[3 * leader + i]``: the seat that played the i-th card of a trick."""


class Trick(NamedTuple):
    """A completed trick: who led, the three cards in play order, who took it."""

    leader: int
    cards: tuple[Card, Card, Card]
    winner: int

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)

    def seat_of(self, i: int) -> int:
        """The seat that played the ``i``-th card (0-2)."""
        return (self.leader + i) % 3


class GameState:
    """A game of Skat in progress. Seats: 0 Vorhand, 1 Mittelhand, 2 Hinterhand.

    The record is kept lean for speed: the moves before the first card in one list, the
    cards played in another, and the seat that took each trick. :attr:`moves`,
    :attr:`trick` and :attr:`tricks` are built from them when asked for.
    """

    # Slots: the attributes :meth:`play` reads and writes for every card are found in a
    # fixed place rather than in an instance dictionary.
    __slots__ = (
        "deal",
        "rules",
        "auction",
        "phase",
        "declarer",
        "contract",
        "_dealt",
        "hands",
        "skat",
        "picked_up",
        "leader",
        "declarer_trick_points",
        "declarer_trick_count",
        "defender_trick_count",
        "termination",
        "_setup",
        "_plays",
        "_in_trick",
        "_takers",
        "_undo",
        "_game",
        "_follow",
        "_led_follow",
        "_first",
        "_second",
        "_declarer_seat",
        "_legal",
        "_seat",
        "_winners",
        "_end_on_declarer_trick",
        "_end_on_defender_trick",
    )

    def __init__(self, deal: object = None, *, seed: object = None, rules: RuleSet = ISKO) -> None:
        # ``deal`` (a Deal) and ``seed`` (an int) are objects, checked here, as every argument of
        # a public method that mypyc would check against a built-in type (int, bool, tuple): bad
        # input gets a SkatError from either build, never the compiled build's TypeError.
        if deal is None:
            if seed is not None and not isinstance(seed, int):
                raise SkatError(
                    f"{seed!r:.40} ist kein Seed (eine ganze Zahl)", f"{seed!r:.40} is not a seed (an integer)"
                )
            deal = deal_cards(seed)
        self.deal, self._dealt = _checked_deal(deal)
        """The deal, and the masks of the three hands and the skat as dealt."""
        self.rules = _checked_rules(rules)
        self.auction = _NEW_AUCTION
        self.phase = _AUCTION
        self.declarer: Seat | None = None
        self.contract: Contract | None = None
        dealt = self._dealt
        self.hands: list[int] = [dealt[0], dealt[1], dealt[2]]
        self.skat: int = self._dealt[3]
        self.picked_up = False
        self.leader = 0
        """The seat that leads (or led) the current trick."""
        self.declarer_trick_points = 0  # the Augen of his tricks, without the skat (see declarer_augen)
        """Augen of the declarer from tricks (the skat is added by :meth:`declarer_augen`)."""
        self.declarer_trick_count = 0
        self.defender_trick_count = 0
        self.termination: Termination | None = None
        """How the game ended (None while it runs): played out, passed in, or ended early
        by the rules (a Null trick, a lost Schwarz or ouvert trick, Schneider missed)."""
        self._setup: list[Move] = []
        """The moves before the first card: auction, pick-up, discard, declaration."""
        self._plays: list[Card] = []
        """Every card played, in order: the tricks are its runs of three."""
        self._in_trick = 0
        """How many cards of the current trick are on the table (0, 1 or 2)."""
        self._takers: list[int] = []
        """The seat that took each completed trick."""
        self._undo: list[_SetupUndo] = []
        self._game: GameType | None = None
        self._follow: tuple[int, ...] = ()
        self._led_follow = 0
        """The cards that follow the card led to the current trick (set when it is led)."""
        self._first = 0
        self._second = 0
        """The indexes of the first and second card of the current trick (:attr:`Card.index`)."""
        self._declarer_seat = -1
        """The declarer as a plain int, once the game is declared (compared for every trick)."""
        self._legal = 0
        """What :meth:`legal_mask` returns: the legal cards of the player to move, and 0
        whenever no card may be played (before the declaration and after the end). Every
        move brings it up to date, so :meth:`play` needs no separate check of the phase."""
        self._seat = 0
        """The seat to move while cards are played (kept by every move, like :attr:`_legal`)."""
        self._winners = b""
        self._end_on_declarer_trick = False
        self._end_on_defender_trick = False

    # ------------------------------------------------------------------ queries
    @property
    def to_move(self) -> Seat | None:
        """The seat whose move it is, or None when the game is over."""
        if self.phase is Phase.AUCTION:
            return self.auction.to_move
        if self.phase is Phase.OVER:
            return None
        if self.phase is Phase.PLAY:
            return SEATS[self._seat]
        return self.declarer

    @property
    def moves(self) -> list[Move]:
        """Every move so far, in order (a new list: push and pop change the game)."""
        return self._setup + [_PLAYS[card.index] for card in self._plays]

    @property
    def trick(self) -> list[Card]:
        """The cards of the trick on the table, in play order (a new list)."""
        n = self._in_trick
        return self._plays[-n:] if n else []

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks, in order (built from the cards played and who took each)."""
        plays = self._plays
        out: list[Trick] = []
        leader = 0
        for i, winner in enumerate(self._takers):
            a, b, c = plays[3 * i : 3 * i + 3]
            out.append(Trick(leader, (a, b, c), winner))
            leader = winner
        return out

    @property
    def trick_count(self) -> int:
        """How many tricks are complete."""
        return len(self._takers)

    def hand(self, seat: object) -> CardSet:
        return CardSet(self.hands[_checked_seat(seat)])

    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def passed_in(self) -> bool:
        return self.auction.passed_in

    @property
    def bid(self) -> int:
        return self.auction.value

    def declarer_cards(self) -> CardSet:
        """The declarer's twelve cards: his ten dealt cards and the skat (for Spitzen)."""
        if self.declarer is None:
            raise IllegalMove("Es gibt noch keinen Alleinspieler", "There is no declarer yet")
        return CardSet(self._dealt[self.declarer] | self._dealt[3])

    def matadors(self) -> int:
        """Spitzen of the declarer's twelve cards (dealt hand and skat) in the declared game."""
        contract = self.contract
        if contract is None:
            raise IllegalMove("Es ist noch kein Spiel angesagt", "No game has been declared yet")
        dealt = self._dealt
        declarer = self.declarer
        assert declarer is not None  # a game is declared only after the auction found a declarer
        return matadors_in_mask(contract.game, dealt[declarer] | dealt[3])

    def declarer_augen(self) -> int:
        """Augen of the declarer so far, the skat (or the discarded cards) included."""
        return self.declarer_trick_points + mask_points(self.skat)

    def defender_augen(self) -> int:
        """Augen the defenders have taken in completed tricks."""
        done = self._plays[: 3 * len(self._takers)]
        return sum(card.points for card in done) - self.declarer_trick_points

    def legal_cards(self) -> CardSet:
        """The cards the player to move may play (empty unless cards are being played)."""
        return CardSet(self._legal)

    def legal_mask(self) -> int:
        """The legal cards as a bit mask (see :mod:`.cards`); the fast form of :meth:`legal_cards`.

        Whoever can follow the card led must; otherwise any card of the hand may be
        played (ISkO 3.2.1, 3.2.2). The mask is kept up to date by every move; it is 0
        before the declaration and once the game is over.
        """
        return self._legal

    def _refresh_legal(self) -> None:
        """Recompute :attr:`_legal` and the seat to move from scratch (after a take-back)."""
        seat = self._seat = (self.leader + self._in_trick) % 3
        if self.phase is not _PLAYING:
            self._legal = 0
            return
        hand = self.hands[seat]
        if self._in_trick:
            follow = hand & self._led_follow
            if follow:
                hand = follow
        self._legal = hand

    def legal_moves(self) -> list[Move]:
        """Every move allowed now. Declarations list each valid contract once."""
        if self.phase is Phase.AUCTION:
            return list(self.auction.legal_moves())
        if self.phase is Phase.SKAT:
            out: list[Move] = [PickUp()]
            out += [Declare(c) for c in _all_contracts(hand=True)]
            return out
        if self.phase is Phase.DISCARD:
            assert self.declarer is not None
            cards = list(CardSet(self.hands[self.declarer]))
            return [Discard((a, b)) for i, a in enumerate(cards) for b in cards[i + 1 :]]
        if self.phase is Phase.DECLARE:
            return [Declare(c) for c in _all_contracts(hand=False)]
        if self.phase is Phase.PLAY:
            return [Play(c) for c in CardSet(self.legal_mask())]
        return []

    # ------------------------------------------------------------------ moves
    def push(self, move: Move) -> None:
        """Make ``move``; raises an :class:`~.errors.IllegalMove` subclass if the rules forbid it."""
        if isinstance(move, Play):
            self.play(move.card)
            return
        if self.phase is Phase.OVER:
            raise GameOver(
                f"Das Spiel ist beendet; {move} ist nicht mehr möglich",
                f"The game is over; {move} is no longer possible",
            )
        if isinstance(move, (Bid, Hold, Pass)):
            self._push_auction(move)
            self._setup.append(move)
        elif isinstance(move, PickUp):
            self._push_pick_up(move)
        elif isinstance(move, Discard):
            self._push_discard(move)
        elif isinstance(move, Declare):
            self._push_declare(move)
        else:  # pragma: no cover - the Move union is closed
            raise IllegalMove(f"Unbekannter Zug {move!r}", f"Unknown move {move!r}")

    # The three steps of the declaration: each checks its move, applies it and records it.
    def _push_pick_up(self, move: PickUp) -> None:
        self._expect(_SKAT, move)
        declarer = self.declarer
        assert declarer is not None
        self._undo.append((_SKAT, None, self.hands[declarer], self.skat))
        self.hands[declarer] |= self.skat
        self.skat = 0
        self.picked_up = True
        self.phase = _DISCARD
        self._setup.append(move)

    def _push_discard(self, move: Discard) -> None:
        self._expect(_DISCARD, move)
        declarer = self.declarer
        assert declarer is not None
        a, b = move.cards
        if not (isinstance(a, _CARD) and isinstance(b, _CARD)):
            raise _not_a_card(b if isinstance(a, _CARD) else a)
        hand = self.hands[declarer]
        both = a.bit | b.bit
        if a.bit == b.bit or hand & both != both:
            raise IllegalMove(
                f"Drücken: {a.code} und {b.code} müssen zwei verschiedene Karten aus den zwölf des Alleinspielers sein",
                f"Discard: {a.code} and {b.code} must be two different cards among the declarer's twelve",
            )
        self._undo.append((_DISCARD, None, hand, self.skat))
        self.hands[declarer] = hand & ~both
        self.skat = both
        self.phase = _DECLARE
        self._setup.append(move)

    def _push_declare(self, move: Declare) -> None:
        phase = self.phase
        if phase is not _SKAT and phase is not _DECLARE:
            raise IllegalMove(
                f"Jetzt ist keine Spielansage möglich ({phase.value})",
                f"No declaration is possible now ({phase.value})",
            )
        contract = move.contract
        _check_contract(contract)
        is_hand = phase is _SKAT
        if contract.hand != is_hand:
            if is_hand:
                raise InvalidDeclaration(
                    "Ohne Skataufnahme ist jedes Spiel ein Handspiel: die Ansage muss 'Hand' enthalten",
                    "Without picking up the skat every game is a hand game: the declaration must say 'hand'",
                )
            raise InvalidDeclaration(
                "Nach Aufnahme des Skats ist kein Handspiel mehr möglich (ISkO 2.4.4)",
                "After picking up the skat a hand game is no longer possible (ISkO 2.4.4)",
            )
        contract.validate()
        self._undo.append((phase, None, None, None))
        game = contract.game
        self.contract = contract
        self._game = game
        self._follow = game.follow_mask
        self._winners = game.trick_winners
        self._declarer_seat = int(self.declarer) if self.declarer is not None else -1
        self._end_on_declarer_trick = game.is_null
        self._end_on_defender_trick = contract.schneider_announced and not game.is_null
        self.phase = _PLAYING
        self.leader = self._seat = 0
        self._legal = self.hands[0]  # Vorhand leads the first trick
        self._setup.append(move)

    def _pick_up_and_discard(self, discard: Sequence[Card] | None) -> None:
        """Take the skat and put exactly two cards away (the moves of a pick-up game)."""
        if discard is None or len(discard) != 2:
            raise IllegalMove(
                "Nach Aufnahme des Skats müssen genau zwei Karten gedrückt werden",
                "After picking up the skat exactly two cards must be discarded",
            )
        self._push_pick_up(_PICK_UP)
        self._push_discard(Discard((discard[0], discard[1])))

    def _expect(self, phase: Phase, move: Move) -> None:
        if self.phase is not phase:
            raise IllegalMove(
                f"{move} ist jetzt nicht möglich ({self.phase.value})",
                f"{move} is not possible now ({self.phase.value})",
            )

    def _push_auction(self, move: AuctionMove) -> None:
        if self.phase is not Phase.AUCTION:
            raise GameOver("Das Reizen ist bereits beendet", "The auction is already over")
        before = self.auction
        self.auction = before.apply(move)
        self._undo.append((_AUCTION, before, None, None))
        if self.auction.is_over:
            if self.auction.declarer is None:
                self.phase = Phase.OVER
                self.termination = Termination.PASSED_IN
            else:
                self.declarer = self.auction.declarer
                self.phase = Phase.SKAT

    def play(self, card: Card) -> int:
        """Play ``card`` for the player to move (the fast path of :meth:`push`).

        Returns the legal cards of the next player to move as a mask, the same as
        :meth:`legal_mask` (0 once the game is over), so that a caller choosing cards
        needs no second call.
        """
        if not isinstance(card, _CARD):  # in front of everything: anything else is an InvalidCard
            raise _not_a_card(card)
        index = card.index
        bit = 1 << index
        if not self._legal & bit:  # also refuses every card before the declaration and after the end
            raise self._refusal(card)
        # Every card: a few slot reads and writes, table look-ups and one list append;
        # the trick and its record are nothing but the run of the last three cards.
        seat = self._seat
        hands = self.hands
        hands[seat] ^= bit
        self._plays.append(card)
        n = self._in_trick
        if n != 2:
            # the trick goes on: the next player must follow the card led if he can
            if n:
                self._in_trick = 2
                self._second = index
                follow = self._led_follow
            else:
                self._in_trick = 1
                self._first = index
                follow = self._led_follow = self._follow[index]
            seat = self._seat = _NEXT_SEAT[seat]
            after = hands[seat]
            legal: int = after & follow or after
            self._legal = legal
            return legal
        # the trick is complete: one look-up says which card takes it
        self._in_trick = 0
        first = self._first
        second = self._second
        winner = _SEAT_OF[3 * self.leader + self._winners[first << 10 | second << 5 | index]]
        self._takers.append(winner)
        self.leader = self._seat = winner
        if winner == self._declarer_seat:
            self.declarer_trick_points += _POINTS[first] + _POINTS[second] + _POINTS[index]
            self.declarer_trick_count += 1
            if self._end_on_declarer_trick:
                return self._end_early(winner)
        else:
            self.defender_trick_count += 1
            if self._end_on_defender_trick:
                return self._end_early(winner)
        legal = self._legal = hands[winner]
        if not legal:  # the tenth trick: every hand is empty
            self.phase = _OVER
            self.termination = _PLAYED_OUT
        return legal

    def _refusal(self, card: Card) -> IllegalMove:
        """Why ``card``, not among the legal cards, may not be played now."""
        if self.phase is not _PLAYING:
            return GameOver(
                f"{card.code} kann jetzt nicht gespielt werden: das Spiel läuft nicht",
                f"{card.code} cannot be played now: the game is not in play",
            )
        seat = self._seat
        if not self.hands[seat] & card.bit:
            return IllegalMove(
                f"{card_ref(card)} ist nicht in der Hand von {SEATS[seat].text.de}",
                f"The {card_ref(card)} is not in {SEATS[seat].text.en}'s hand",
            )
        assert self._game is not None
        return IllegalMove(*_revoke_message(self._game, card, self._plays[-self._in_trick]))

    def _end_early(self, winner: int) -> int:
        """After a trick that may end the game by the rules (Null, announced levels):
        end it if so; returns the new :attr:`_legal`."""
        legal = self._legal = self.hands[winner]
        if not legal:  # the tenth trick ends every game, early or not
            self.phase = _OVER
            self.termination = _PLAYED_OUT
            return 0
        contract = self.contract
        assert contract is not None
        ended: Termination | None = None
        if contract.game.is_null:
            if winner == self.declarer:
                ended = Termination.NULL_TRICK
        elif contract.schwarz_announced:
            if winner != self.declarer:
                ended = Termination.OUVERT_TRICK if contract.ouvert else Termination.SCHWARZ_TRICK
        elif contract.schneider_announced:
            if self.defender_augen() >= OUT_OF_SCHNEIDER:
                ended = Termination.SCHNEIDER_MISSED
        if ended is None:
            return legal
        self.termination = ended
        self.phase = _OVER
        self._legal = 0
        return 0

    def pop(self) -> Move:
        """Take back the last move and return it."""
        plays = self._plays
        if plays:
            card = plays.pop()
            self._take_back_card(card)
            self._refresh_legal()
            return _PLAYS[card.index]
        if not self._setup:
            raise IllegalMove("Es gibt keinen Zug zurückzunehmen", "There is no move to take back")
        move = self._setup.pop()
        self._take_back_setup()
        self._refresh_legal()
        return move

    def _take_back_card(self, card: Card) -> None:
        """Undo the play of ``card`` (already removed from the cards played)."""
        if self._in_trick:
            self._in_trick -= 1
            self.hands[(self.leader + self._in_trick) % 3] |= card.bit
            return
        # the card completed a trick: reopen it with its first two cards on the table
        winner = self._takers.pop()
        plays = self._plays
        if winner == self.declarer:
            self.declarer_trick_points -= plays[-2].points + plays[-1].points + card.points
            self.declarer_trick_count -= 1
        else:
            self.defender_trick_count -= 1
        leader = self.leader = self._takers[-1] if self._takers else 0
        self._in_trick = 2
        self._first = plays[-2].index
        self._second = plays[-1].index
        self._led_follow = self._follow[self._first]
        self.hands[(leader + 2) % 3] |= card.bit
        self.phase = Phase.PLAY
        self.termination = None  # the game was still running before this trick

    def _take_back_setup(self) -> None:
        """Undo the last move before the first card (already removed from the record)."""
        phase, auction, hand, skat = self._undo.pop()
        self.phase = phase
        if auction is not None:
            self.auction = auction
            self.declarer = None
            self.termination = None
        elif hand is not None:
            declarer = self.declarer
            assert declarer is not None and skat is not None
            self.hands[declarer] = hand
            self.skat = skat
            if phase is Phase.SKAT:
                self.picked_up = False
        else:  # a declaration
            self.contract = None
            self._game = None
            self._declarer_seat = -1

    # ------------------------------------------------------------------ result
    def outcome(self) -> Outcome | None:
        """The result once the game is over (None while it runs, or when eingepasst)."""
        if self.phase is not Phase.OVER or self.contract is None:
            return None
        return self.score()

    def side_won(self, seat: object) -> bool | None:
        """Did ``seat``'s side win the finished game (:func:`~.scoring.side_won`)? None while
        the game runs and when it was passed in."""
        declares = _checked_seat(seat) == self.declarer
        outcome = self.outcome()
        if outcome is None or self.declarer is None:
            return None
        return side_won(outcome.won, declares=declares)

    def score(self, *, kontra: object = False, re: object = False, bock: object = False) -> Outcome:
        """Score the game as it stands (normally called when it is over)."""
        if not (isinstance(kontra, bool) and isinstance(re, bool) and isinstance(bock, bool)):
            raise SkatError("Kontra, Re und Bock sind ja oder nein", "Kontra, Re and Bock are yes or no")
        contract = self.contract
        if contract is None:
            raise IllegalMove("Es ist noch kein Spiel angesagt", "No game has been declared yet")
        if not (kontra or re or bock):
            # The checks of score_game hold by construction here (a declared contract was
            # validated, Augen and tricks come from play): go straight to the evaluation.
            dealt = self._dealt
            declarer = self.declarer
            assert declarer is not None
            twelve = dealt[declarer] | dealt[3]
            return _evaluate(
                contract,
                matadors=matadors_in_mask(contract.game, twelve),
                bid=self.auction.value,
                declarer_points=self.declarer_trick_points + mask_points(self.skat),
                declarer_tricks=self.declarer_trick_count,
                rules=self.rules,
                explain=False,
                # An overbid Null is counted by the declarer's matadors (ISkO 2.4.4).
                declarer_mask=twelve if contract.game.is_null else None,
                termination=self.termination,
            )[0]
        return score_game(
            contract,
            self.matadors(),
            bid=self.bid,
            declarer_points=self.declarer_augen(),
            declarer_tricks=self.declarer_trick_count,
            rules=self.rules,
            kontra=kontra,
            re=re,
            bock=bock,
            declarer_cards=self.declarer_cards() if contract.game.is_null else None,
            termination=self.termination,
        )

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, object]:
        """The game as a vectors-style record (deal, auction, declaration, plays)."""
        auction: list[list[object]] = []
        for m in self.auction.moves:
            if isinstance(m, Bid):
                auction.append([m.seat, m.value])
            elif isinstance(m, Hold):
                auction.append([m.seat, "y"])
            else:
                auction.append([m.seat, "p"])
        declaration: dict[str, object] | None = None
        if self.contract is not None:
            c = self.contract
            discard = [m for m in self._setup if isinstance(m, Discard)]
            declaration = {
                "game": c.game.value,
                "hand": c.hand,
                "ouvert": c.ouvert,
                "schneider_announced": c.schneider_announced,
                "schwarz_announced": c.schwarz_announced,
                "discard": [x.code for x in discard[0].cards] if discard else None,
            }
        plays = [card.code for card in self._plays]
        return {"deal": self.deal.codes(), "auction": auction, "declaration": declaration, "plays": plays}

    @classmethod
    def start(  # noqa: PLR0913 - over the budget since issue 27; to be split
        cls,
        deal: object,
        *,
        declarer: object,
        bid: object,
        contract: Contract,
        discard: Sequence[Card] | None = None,
        rules: RuleSet = ISKO,
    ) -> GameState:
        """A game ready for the first lead, without replaying an auction.

        Used for exercises and benchmarks: the auction is taken as won by ``declarer``
        at ``bid`` (Mittelhand or Hinterhand bid it, the others passed).
        """
        state = GameState(deal, rules=rules)  # not cls(): the compiled build calls its constructor directly
        seat = _checked_seat(declarer)
        if not isinstance(bid, int) or isinstance(bid, bool) or bid not in BID_VALUES:
            raise IllegalMove(f"{bid!r:.40} ist kein Reizwert", f"{bid!r:.40} is not a bid value")
        state.auction = _decided_auction(seat, bid)
        state.declarer = state.auction.declarer
        state.phase = _SKAT
        _check_contract(contract)
        if not contract.hand:
            state._pick_up_and_discard(discard)
        state._push_declare(Declare(contract))
        return state

    @classmethod
    def replay(  # noqa: PLR0913 - over the budget since issue 27; to be split
        cls,
        deal: object,
        auction: Iterable[AuctionMove],
        contract: Contract | None = None,
        discard: Sequence[Card] | None = None,
        plays: Iterable[Card] = (),
        rules: RuleSet = ISKO,
    ) -> GameState:
        """Rebuild a game from its record; raises on the first illegal step."""
        state = cls(deal, rules=rules)
        for m in auction:
            state.push(m)
        if contract is not None:
            _check_contract(contract)
            if state.phase is not Phase.SKAT:
                raise IllegalMove(
                    "Das Reizen ist nicht beendet oder es wurde eingepasst",
                    "The auction is not over, or the deal was passed in",
                )
            if not contract.hand:
                state._pick_up_and_discard(discard)
            elif discard:
                raise IllegalMove("Bei einem Handspiel wird nicht gedrückt", "Nothing is discarded in a hand game")
            state.push(Declare(contract))
            for card in plays:
                state.play(card)
        return state

    def __repr__(self) -> str:
        return f"<GameState phase={self.phase.value} moves={len(self._setup) + len(self._plays)}>"


def _checked_deal(deal: object) -> tuple[Deal, tuple[int, int, int, int]]:
    """``deal`` and the masks of its three hands and the skat, if it is a :class:`Deal` of
    10, 10, 10 and 2 cards, all 32 different."""
    if isinstance(deal, Deal):
        try:
            vorhand, mittelhand, hinterhand, skat = deal
            if len(vorhand) == len(mittelhand) == len(hinterhand) == 10 and len(skat) == 2:
                masks = (_mask(vorhand), _mask(mittelhand), _mask(hinterhand), _mask(skat))
                if masks[0] | masks[1] | masks[2] | masks[3] == 0xFFFFFFFF:
                    return deal, masks
        except (AttributeError, TypeError):  # something else than cards
            pass
    raise InvalidCard(
        "Ein Blatt besteht aus drei Händen zu zehn Karten und zwei Karten im Skat, alle 32 verschieden",
        "A deal is three hands of ten cards and two cards in the skat, all 32 different",
    )


def _checked_seat(value: object) -> int:
    """``value`` if it is a seat (0 Vorhand, 1 Mittelhand, 2 Hinterhand)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2:
        return value
    raise IllegalMove(
        f"{value!r:.40} ist kein Platz (0 Vorhand, 1 Mittelhand, 2 Hinterhand)",
        f"{value!r:.40} is not a seat (0 Vorhand, 1 Mittelhand, 2 Hinterhand)",
    )


def _check_contract(contract: object) -> None:
    if not isinstance(contract, Contract):
        raise InvalidDeclaration(f"{contract!r:.40} ist kein Spiel", f"{contract!r:.40} is not a game")


def _checked_rules(rules: object) -> RuleSet:
    if not isinstance(rules, RuleSet):
        raise SkatError(f"{rules!r:.40} sind keine Regeln", f"{rules!r:.40} are not rules")
    return rules


def _mask(cards: Sequence[Card]) -> int:
    if len(cards) == 10:
        # a dealt hand: unrolled, a third of the bytecodes of the loop below
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
        return c0.bit | c1.bit | c2.bit | c3.bit | c4.bit | c5.bit | c6.bit | c7.bit | c8.bit | c9.bit
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


@functools.lru_cache(maxsize=256)
def _decided_auction(declarer: int, bid: int) -> Auction:
    """The shortest auction in which ``declarer`` wins at ``bid``."""
    if bid not in BID_VALUES:
        raise IllegalMove(f"{bid} ist kein Reizwert", f"{bid} is not a bid value")
    moves: list[AuctionMove]
    if declarer == 0:
        moves = [Pass(Seat.MIDDLEHAND), Pass(Seat.REARHAND), Bid(Seat.FOREHAND, bid)]
    elif declarer == 1:
        moves = [Bid(Seat.MIDDLEHAND, bid), Pass(Seat.FOREHAND), Pass(Seat.REARHAND)]
    else:
        moves = [Pass(Seat.MIDDLEHAND), Bid(Seat.REARHAND, bid), Pass(Seat.FOREHAND)]
    auction = Auction()
    for m in moves:
        auction = auction.apply(m)
    return auction


def _not_a_card(value: object) -> InvalidCard:
    return InvalidCard(f"{value!r:.40} ist keine Karte", f"{value!r:.40} is not a card")


def _revoke_message(game: GameType, card: Card, lead: Card) -> tuple[str, str]:
    if game.trump_mask & lead.bit:
        return (
            f"{card_ref(card)} ist nicht erlaubt: Trumpf muss bedient werden (ISkO 3.2.1)",
            f"The {card_ref(card)} is not allowed: trump must be followed (ISkO 3.2.1)",
        )
    return (
        f"{card_ref(card)} ist nicht erlaubt: {suit_ref(lead.suit)} muss bedient werden (ISkO 3.2.1)",
        f"The {card_ref(card)} is not allowed: {suit_ref(lead.suit)} must be followed (ISkO 3.2.1)",
    )


def _all_contracts(hand: bool) -> list[Contract]:
    out: list[Contract] = []
    for game in GameType:
        if game.is_null:
            out += [Contract(game, hand=hand), Contract(game, hand=hand, ouvert=True)]
            continue
        out.append(Contract(game, hand=hand))
        if hand:
            out += [
                Contract(game, hand=True, schneider_announced=True),
                Contract(game, hand=True, schwarz_announced=True),
                Contract(game, hand=True, ouvert=True),
            ]
    return out
