"""One exception family for everything the engine rejects.

Every error carries a German message (``str(error)``) and an English one
(``error.message_en``), so the site can show either and the vectors contract
can report the reason.
"""

from __future__ import annotations

__all__ = [
    "SkatError",
    "InvalidCard",
    "IllegalMove",
    "IllegalBid",
    "InvalidDeclaration",
    "GameOver",
]


class SkatError(ValueError):
    """Base class: the input breaks the rules of Skat or the engine's notation."""

    def __init__(self, message_de: str, message_en: str | None = None) -> None:
        super().__init__(message_de)
        self.message_de = message_de
        self.message_en = message_en or message_de


class InvalidCard(SkatError):
    """A string that is not a card in the notation (``CJ``, ``HT`` ...)."""


class IllegalMove(SkatError):
    """A card or action that the rules do not allow at this point."""


class IllegalBid(IllegalMove):
    """A step in the auction that the ISkO forbids (out of turn, not a bid value ...)."""


class InvalidDeclaration(IllegalMove):
    """A declaration the ISkO does not allow (e.g. Schneider announced after a pick-up)."""


class GameOver(IllegalMove):
    """A move after the game (or the auction) has ended."""
