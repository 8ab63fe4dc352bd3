"""One exception family for everything the engine rejects.

Every error carries its message as one :class:`~skatschule.engine.text.Text`
(``error.text``), built like a Text from the German and, where there is one, the English
(``SkatError(de, en)``); ``str(error)`` is the German. The site shows ``error.text.get(lang)``
and the vectors contract reports the reason.
"""

from __future__ import annotations

from .text import Text

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

    def __init__(self, de: str, en: str | None = None) -> None:
        super().__init__(de)
        self.text = Text(de, en or de)
        """The message in both languages (without an English one, the German twice)."""


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
