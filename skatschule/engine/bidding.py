"""The auction (Reizen, ISkO 2.3).

Mittelhand speaks (sagt) to Vorhand, who listens (hört): Mittelhand bids or
passes, Vorhand holds or passes. The survivor then listens to Hinterhand in the
same way. When Mittelhand and Hinterhand both pass without a bid, Vorhand may
play (she names a bid, at least 18) or pass, and the deal is thrown in
(eingepasst). Jump bids are allowed; every bid must be a game value and higher
than the last one. :class:`Auction` is immutable: ``apply`` returns the next
state, so undoing a move is just keeping the old one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .errors import GameOver, IllegalBid
from .rules import ISKO
from .seats import SEATS, Seat
from .text import Text

__all__ = [
    "BID_VALUES",
    "Bid",
    "Hold",
    "Pass",
    "AuctionMove",
    "Auction",
    "parse_auction_move",
    "run_auction",
]

BID_VALUES: tuple[int, ...] = tuple(ISKO.bid_values())
_BID_SET = frozenset(BID_VALUES)


@dataclass(frozen=True, slots=True)
class Bid:
    """``seat`` says (bids) ``value``."""

    seat: Seat
    value: int

    def __str__(self) -> str:
        return f"{SEATS[self.seat].text.de}: {self.value}"


@dataclass(frozen=True, slots=True)
class Hold:
    """``seat`` holds the value just bid ("ja")."""

    seat: Seat

    def __str__(self) -> str:
        return f"{SEATS[self.seat].text.de}: ja"


@dataclass(frozen=True, slots=True)
class Pass:
    """``seat`` passes ("weg")."""

    seat: Seat

    def __str__(self) -> str:
        return f"{SEATS[self.seat].text.de}: passe"


AuctionMove = Bid | Hold | Pass
AuctionPhase = Literal["middlehand", "hinterhand", "vorhand_alone", "over"]
"""Whose turn the auction is at; the game's own stage is :class:`~.game.Phase`."""


def parse_auction_move(item: object) -> AuctionMove:
    """``[seat, 18]``, ``[seat, "y"]`` or ``[seat, "p"]`` as in the vectors contract."""
    if not isinstance(item, (list, tuple)) or len(item) != 2:
        raise IllegalBid(f"Unlesbarer Reizschritt {item!r}", f"Unreadable auction move {item!r}")
    number, what = item
    if not isinstance(number, int) or isinstance(number, bool) or number not in (0, 1, 2):
        raise IllegalBid(f"Unbekannter Platz {number!r}: 0, 1 oder 2", f"Unknown seat {number!r}: 0, 1 or 2")
    seat = SEATS[number]
    if isinstance(what, bool):
        raise IllegalBid(f"Unlesbarer Reizschritt {item!r}", f"Unreadable auction move {item!r}")
    if isinstance(what, int):
        return Bid(seat, what)
    word = what.strip().lower() if isinstance(what, str) else what
    if word in ("y", "yes", "ja", "hold"):
        return Hold(seat)
    if word in ("p", "pass", "passe", "weg"):
        return Pass(seat)
    raise IllegalBid(f"Unlesbarer Reizschritt {item!r}", f"Unreadable auction move {item!r}")


@dataclass(frozen=True, slots=True)
class Auction:
    """The state of the auction after some moves."""

    phase: AuctionPhase = "middlehand"
    speaker: Seat = Seat.MIDDLEHAND
    listener: Seat = Seat.FOREHAND
    value: int = 0
    """The highest value bid so far (0: nothing bid yet)."""
    pending: bool = False
    """True when the speaker's bid awaits the listener's answer."""
    declarer: Seat | None = None
    moves: tuple[AuctionMove, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def passed_in(self) -> bool:
        """Nobody plays: the deal is eingepasst (ISkO 2.3.7)."""
        return self.is_over and self.declarer is None

    @property
    def to_move(self) -> Seat | None:
        if self.phase == "over":
            return None
        if self.phase == "vorhand_alone":
            return Seat.FOREHAND
        return self.listener if self.pending else self.speaker

    def legal_moves(self) -> list[AuctionMove]:
        """Every move allowed now (bids: every higher bid value)."""
        seat = self.to_move
        if seat is None:
            return []
        moves: list[AuctionMove]
        if self.phase == "vorhand_alone":
            moves = [Bid(Seat.FOREHAND, v) for v in BID_VALUES]
        elif self.pending:
            moves = [Hold(seat)]
        else:
            moves = [Bid(seat, v) for v in BID_VALUES if v > self.value]
        moves.append(Pass(seat))
        return moves

    def apply(self, move: AuctionMove) -> Auction:  # noqa: C901 - over the budget since issue 27; to be split
        """The auction after ``move``; raises :class:`IllegalBid` if the ISkO forbids it."""
        seat = self.to_move
        if seat is None:
            raise GameOver(
                f"Das Reizen ist bereits beendet ({move} ist nicht mehr möglich)",
                f"The auction is already over ({move} is no longer possible)",
            )
        if move.seat != seat:
            raise IllegalBid(
                f"{SEATS[move.seat].text.de} ist nicht an der Reihe, sondern {SEATS[seat].text.de} (ISkO 2.3.2)",
                f"It is not {SEATS[move.seat].text.en}'s turn but {SEATS[seat].text.en}'s (ISkO 2.3.2)",
            )
        moves = self.moves + (move,)
        if self.phase == "vorhand_alone":
            if isinstance(move, Pass):
                return replace(self, phase="over", moves=moves)
            if isinstance(move, Hold):
                raise IllegalBid(
                    "Vorhand muss einen Reizwert nennen (mindestens 18) oder passen",
                    "Forehand must name a bid (at least 18) or pass",
                )
            self._check_value(move.value)
            return replace(self, phase="over", value=move.value, declarer=Seat.FOREHAND, moves=moves)
        if isinstance(move, Bid):
            if self.pending:
                raise IllegalBid(
                    f"{SEATS[seat].text.de} hört und kann nur halten oder passen (ISkO 2.3.2)",
                    f"{SEATS[seat].text.en} is listening and may only hold or pass (ISkO 2.3.2)",
                )
            self._check_value(move.value)
            return replace(self, value=move.value, pending=True, moves=moves)
        if isinstance(move, Hold):
            if not self.pending:
                raise IllegalBid(
                    f"{SEATS[seat].text.de} sagt und muss bieten oder passen; halten kann nur, wer hört",
                    f"{SEATS[seat].text.en} is speaking and must bid or pass; only the listener holds",
                )
            return replace(self, pending=False, moves=moves)
        # a pass: the other one of the pair survives
        survivor = self.speaker if seat == self.listener else self.listener
        if self.phase == "middlehand":
            nxt = replace(
                self, phase="hinterhand", speaker=Seat.REARHAND, listener=survivor, pending=False, moves=moves
            )
            return nxt
        # Hinterhand against the survivor: this pass ends the bidding
        if self.value == 0:
            return replace(self, phase="vorhand_alone", pending=False, moves=moves)
        return replace(self, phase="over", pending=False, declarer=survivor, moves=moves)

    def _check_value(self, value: int) -> None:
        if value not in _BID_SET:
            raise IllegalBid(
                f"{value} ist kein Reizwert (gültig sind Spielwerte wie 18, 20, 22, 23, 24 …)",
                f"{value} is not a bid value (valid bids are game values such as 18, 20, 22, 23, 24 …)",
            )
        if value <= self.value:
            raise IllegalBid(
                f"{value} ist nicht höher als das letzte Gebot {self.value}",
                f"{value} is not higher than the last bid {self.value}",
            )

    def describe(self, lang: str | None = "de") -> str:
        """Where the auction stands, in ``lang`` (German unless an English reader)."""
        return self.description().get(lang)

    def description(self) -> Text:
        """Where the auction stands: who is to bid, or how it ended."""
        if not self.is_over:
            seat = self.to_move
            assert seat is not None
            who = SEATS[seat].text
            return Text(f"{who.de} ist am Zug", f"{who.en.capitalize()} to move")
        if self.declarer is None:
            return Text("Eingepasst: niemand spielt", "Passed in: nobody plays")
        who = SEATS[self.declarer].text
        return Text(
            f"{who.de} wird Alleinspieler bei {self.value}", f"{who.en.capitalize()} becomes declarer at {self.value}"
        )


def run_auction(moves: Sequence[object]) -> Auction:
    """Play a whole auction given in vector notation and return its final state."""
    auction = Auction()
    for item in moves:
        auction = auction.apply(parse_auction_move(item))
    return auction
