"""Reading a teacher's situation (own questions, issue 18): cards, game, seat and declaration
as the engine understands them, or :class:`OwnItemError` with the reason in German and English."""

from __future__ import annotations

from collections.abc import Sequence

from skatschule.cards.render import PICKER_CODES
from skatschule.core.errors import UserError
from skatschule.engine import Card, Contract, GameType, SkatError, parse_card

__all__ = [
    "ALL_CODES",
    "FLAGS",
    "OwnItemError",
    "engine_error",
    "read_cards",
    "read_contract",
    "read_game",
    "read_seat",
]

ALL_CODES = PICKER_CODES
"""The card picker's order: by suit, each from the Jack down."""
FLAGS = ("hand", "ouvert", "schneider_announced", "schwarz_announced")


class OwnItemError(UserError):
    """The situation cannot be asked (bad input or an impossible position), with the engine's text."""


def engine_error(exc: SkatError) -> OwnItemError:
    return OwnItemError(exc.text.de, exc.text.en)


def read_cards(codes: Sequence[str]) -> list[Card]:
    try:
        return [parse_card(str(code)) for code in codes]
    except SkatError as exc:
        raise engine_error(exc) from None


def read_game(value: str) -> GameType:
    try:
        return GameType(str(value))
    except ValueError:
        raise OwnItemError("Bitte wähle ein Spiel.", "Please choose a game.") from None


def read_seat(
    value: object, missing: tuple[str, str] = ("Bitte wähle, wer ausspielt.", "Please choose who leads.")
) -> int:
    if str(value) not in ("0", "1", "2"):
        raise OwnItemError(*missing)
    return int(str(value))


def read_contract(game: GameType, flags: Sequence[str]) -> Contract:
    """The declaration; one the rules forbid is refused with the engine's reason (``Contract.problems``)."""
    if set(flags) - set(FLAGS):
        raise OwnItemError("Unbekannte Angabe in der Spielansage.", "Unknown word in the declaration.")
    contract = Contract(game, **{flag: True for flag in FLAGS if flag in set(flags)})
    problems = contract.problems()
    if problems:
        raise OwnItemError(*problems[0])
    return contract


def read_sequence(codes: Sequence[str]) -> list[str]:
    """Cards chosen in numbered places, in order: trailing empty places are dropped, a gap is refused."""
    chosen = [str(code).strip() for code in codes]
    while chosen and not chosen[-1]:
        chosen.pop()
    if "" in chosen:
        place = chosen.index("") + 1
        raise OwnItemError(
            f"Die {place}. gespielte Karte fehlt: die Karten werden ohne Lücke der Reihe nach gewählt.",
            f"Card {place} of the play is missing: choose the cards in order, without a gap.",
        )
    return chosen
