"""The three seats of a deal (ISkO 2.2): Vorhand, Mittelhand, Hinterhand.

:class:`Seat` is an :class:`~enum.IntEnum`, so a seat indexes a tuple of hands and counts
round the table like the number it is (``(seat + 1) % 3``); the engine hands seats out as
``Seat`` (:attr:`.bidding.Auction.to_move`, :attr:`.game.GameState.to_move`, the seat of a
bid ...). Like python-chess's squares it stays an int: a plain 0, 1 or 2 is still accepted
where a seat is read.
"""

from __future__ import annotations

from enum import IntEnum

from .text import Text

__all__ = ["Seat", "SEATS"]

_NAMES = (Text("Vorhand", "forehand"), Text("Mittelhand", "middlehand"), Text("Hinterhand", "rearhand"))
"""The seats' names, read through :attr:`Seat.text` (the one way to name a seat)."""


class Seat(IntEnum):
    """A seat in the deal's order: Vorhand gets the first cards, leads the first trick and
    hears first in the auction."""

    FOREHAND = 0
    """Vorhand."""
    MIDDLEHAND = 1
    """Mittelhand."""
    REARHAND = 2
    """Hinterhand."""

    @property
    def text(self) -> Text:
        """The seat's name as domain text (``Text("Vorhand", "forehand")``): the one way to name
        a seat. ``.de``/``.en`` for one language, ``.get(lang)`` for the reader's; the English
        is lower case, so a sentence that starts with it writes ``seat.text.en.capitalize()``."""
        return _NAMES[self]

    @property
    def next(self) -> Seat:
        """The seat to the left, who plays next."""
        return SEATS[(self + 1) % 3]


SEATS: tuple[Seat, Seat, Seat] = (Seat.FOREHAND, Seat.MIDDLEHAND, Seat.REARHAND)
"""The seats in order; ``SEATS[n]`` is the seat of a number (cheaper than ``Seat(n)``)."""
