"""Reading the calculator's form (or a prefilled link): the position and the claim, or a clear error.

Field names (the same in a link's query and in the form):

- ``spiel`` (clubs … null), ``allein`` (the declarer's seat 0-2), ``aus`` (the seat that led the
  current trick, or leads the next);
- ``hand0``, ``hand1``, ``hand2``: the cards left in each hand (checkboxes, or in a link the codes
  separated by spaces: ``CA CT S7``); ``stich1``, ``stich2``: cards already in the current trick;
- ``augen_allein`` (with the skat), ``augen_gegner``, ``stiche_allein``, ``stiche_gegner``;
- ``wer`` (declarer / defenders) and ``ziel`` (a :class:`~skatschule.engine.claims.Goal`).

Every field is read with a size limit, so a reading is linear in a bounded input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.http import QueryDict

from skatschule.core.errors import UserError
from skatschule.engine import CardSet, GameType, SkatError, parse_card
from skatschule.engine.claims import Claim, ClaimPosition, Goal, Side, Tally
from skatschule.engine.games import TOTAL_POINTS, TRICKS
from skatschule.engine.iss import parse_record
from skatschule.engine.numbers import plain_number

__all__ = ["ClaimInputError", "Values", "read", "values_of", "query_of", "from_iss"]

HANDS = ("hand0", "hand1", "hand2")
NUMBERS = (
    ("augen_allein", TOTAL_POINTS),
    ("augen_gegner", TOTAL_POINTS),
    ("stiche_allein", TRICKS),
    ("stiche_gegner", TRICKS),
)
_MAX_FIELD = 200


class ClaimInputError(UserError):
    """The form cannot be read or describes an impossible position (400)."""


@dataclass
class Values:
    """What the referee entered, as text, to show the form again (nothing typed is lost)."""

    spiel: str = "grand"
    allein: str = "0"
    aus: str = "0"
    hands: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in HANDS})
    stich1: str = ""
    stich2: str = ""
    numbers: dict[str, str] = field(default_factory=lambda: {name: "0" for name, _ in NUMBERS})
    wer: str = "declarer"
    ziel: str = "rest"


def _one(data: QueryDict, name: str, default: str = "") -> str:
    return str(data.get(name, default))[:_MAX_FIELD].strip()


def _codes(data: QueryDict, name: str) -> list[str]:
    out: list[str] = []
    for value in data.getlist(name)[:32]:
        out.extend(str(value)[:_MAX_FIELD].replace(",", " ").replace("+", " ").split())
    return [code.upper() for code in out[:32]]


def values_of(data: QueryDict) -> Values:
    """The entered values, read but not checked."""
    values = Values()
    values.spiel = _one(data, "spiel", values.spiel)
    values.allein = _one(data, "allein", values.allein)
    values.aus = _one(data, "aus", values.aus)
    values.hands = {name: _codes(data, name) for name in HANDS}
    values.stich1 = _one(data, "stich1").upper()
    values.stich2 = _one(data, "stich2").upper()
    values.numbers = {name: _one(data, name, "0") or "0" for name, _ in NUMBERS}
    values.wer = _one(data, "wer", values.wer)
    values.ziel = _one(data, "ziel", values.ziel)
    return values


def _seat(value: str, what: tuple[str, str]) -> int:
    if value not in ("0", "1", "2"):
        raise ClaimInputError(*what)
    return int(value)


def read(values: Values) -> tuple[ClaimPosition, Claim]:
    """The position and the claim, or :class:`ClaimInputError` saying what is wrong."""
    try:
        game = GameType(values.spiel)
    except ValueError:
        raise ClaimInputError("Bitte wähle ein Spiel.", "Please choose a game.") from None
    declarer = _seat(values.allein, ("Bitte wähle den Alleinspieler.", "Please choose the declarer."))
    leader = _seat(values.aus, ("Bitte wähle, wer zum Stich ausgespielt hat.", "Please choose who led to the trick."))
    numbers: dict[str, int] = {}
    for name, top in NUMBERS:
        text = values.numbers[name]
        number = plain_number(text, max_digits=3)  # ASCII digits only: "²".isdigit() is true
        if number is None or number > top:
            raise ClaimInputError(
                f"Augen und Stiche sind ganze Zahlen von 0 bis {top} (nicht „{text}“).",
                f"Card points and tricks are whole numbers from 0 to {top} (not “{text}”).",
            )
        numbers[name] = number
    if values.stich2 and not values.stich1:
        raise ClaimInputError(
            "Die 2. Karte im Stich braucht eine 1. (die ausgespielte).",
            "The 2nd card in the trick needs a 1st (the card led).",
        )
    if not any(values.hands.values()):
        raise ClaimInputError(
            "Es fehlen die Karten: Trage die Karten ein, die jeder noch in der Hand hat.",
            "The cards are missing: enter the cards each player still holds.",
        )
    try:
        hands = [[parse_card(code) for code in values.hands[name]] for name in HANDS]
        trick = tuple(parse_card(code) for code in (values.stich1, values.stich2) if code)
        for cards in hands:
            if len(set(cards)) != len(cards):
                raise ClaimInputError("Eine Karte ist in einer Hand doppelt.", "A card is twice in one hand.")
        position = ClaimPosition(
            game,
            declarer,
            (CardSet(hands[0]), CardSet(hands[1]), CardSet(hands[2])),
            leader,
            trick,
            Tally(numbers["augen_allein"], numbers["augen_gegner"], numbers["stiche_allein"], numbers["stiche_gegner"]),
        )
        claim = Claim(Side(values.wer), Goal(values.ziel))
        claim.check(game)
    except SkatError as exc:
        raise ClaimInputError(exc.text.de, exc.text.en) from None
    except ValueError:
        raise ClaimInputError("Bitte wähle, was beansprucht wird.", "Please choose what is claimed.") from None
    return position, claim


ISS_LIMIT = 5000
"""The longest ISS record read (a full game's record is under 1,000 characters)."""


def from_iss(data: QueryDict) -> ClaimPosition:
    """The position of an ISS record (field ``iss``) after its first ``karten`` cards."""
    text = str(data.get("iss", ""))
    if len(text) > ISS_LIMIT:
        raise ClaimInputError(
            f"Der Datensatz ist zu lang (höchstens {ISS_LIMIT} Zeichen).",
            f"The record is too long (at most {ISS_LIMIT} characters).",
        )
    step = plain_number(str(data.get("karten", "")).strip(), max_digits=2)
    if step is None or step > 29:
        raise ClaimInputError(
            "Gib an, nach wie vielen gespielten Karten (0 bis 29) die Stellung steht.",
            "Say after how many cards played (0 to 29) the position stands.",
        )
    try:
        game = parse_record(text.strip())
        if step > len(game.plays):
            raise ClaimInputError(
                f"In diesem Spiel wurden nur {len(game.plays)} Karten gespielt.",
                f"Only {len(game.plays)} cards were played in this game.",
            )
        return ClaimPosition.of(game.position(step))
    except SkatError as exc:
        raise ClaimInputError(exc.text.de, exc.text.en) from None


def query_of(position: ClaimPosition, claim: Claim) -> str:
    """A link's query that fills the form with ``position`` and ``claim`` (without checking it)."""
    t = position.tally
    fields: Mapping[str, object] = {
        "spiel": position.game.value,
        "allein": position.declarer,
        "aus": position.leader,
        "hand0": " ".join(position.hands[0].codes()),
        "hand1": " ".join(position.hands[1].codes()),
        "hand2": " ".join(position.hands[2].codes()),
        "stich1": position.trick[0].code if position.trick else "",
        "stich2": position.trick[1].code if len(position.trick) > 1 else "",
        "augen_allein": t.declarer_augen,
        "augen_gegner": t.defender_augen,
        "stiche_allein": t.declarer_tricks,
        "stiche_gegner": t.defender_tricks,
        "wer": claim.side.value,
        "ziel": claim.goal.value,
    }
    return urlencode({k: v for k, v in fields.items() if v != ""})
