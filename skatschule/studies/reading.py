"""Reading a deal for a study: typed in, an ISS record, or one of the teacher's stored table games.

Every reader takes text through :func:`skatschule.core.limits.bounded` first (a paste over the
site's limit: 413), refuses a field over its own limit with a 400, and then reads it in one pass
(splitting on blanks, one dictionary look-up a card), so the cost is linear in an input that is
bounded anyway. What cannot be read, or is no legal game, is a
:class:`StudyInputError` (400) that says what is wrong; nothing is stored.

Typed-in fields: ``hand0``, ``hand1``, ``hand2`` (ten card codes each, e.g. ``CJ SA ST``),
``skat`` (two codes: the skat the declarer put away, or the skat of a Hand game), ``spiel``
(clubs … null), ``allein`` (the declarer's seat 0-2), ``handspiel`` (set: a Hand game) and
``karten`` (the cards played, in order, at most 30; may be empty).
"""

from __future__ import annotations

from collections.abc import Mapping

from skatschule.core.errors import UserError
from skatschule.core.limits import bounded
from skatschule.engine import GameType, SkatError
from skatschule.engine.cards import Card, Deal, parse_card
from skatschule.engine.iss import parse_record
from skatschule.engine.puzzles import Spot, spot_of

__all__ = ["StudyInputError", "FIELD_CHARS", "ISS_CHARS", "TITLE_CHARS", "typed", "from_iss", "title_of"]

FIELD_CHARS = 200
"""The longest field of a typed deal (30 card codes with blanks are 90 characters)."""
ISS_CHARS = 5000
"""The longest ISS record read (a whole game's record is under 1,000 characters)."""
TITLE_CHARS = 100
HANDS = ("hand0", "hand1", "hand2")


class StudyInputError(UserError):
    """A deal or a study's form that cannot be read, or is no legal game (400)."""


def _text(data: Mapping[str, object], name: str, limit: int, what: tuple[str, str]) -> str:
    """The field's text: a paste over the site's limit is 413 (:func:`bounded`), a field longer
    than ``limit`` characters a 400 that names it."""
    text = bounded(data.get(name, ""))
    if len(text) > limit:
        raise StudyInputError(
            f"{what[0]} ist zu lang (höchstens {limit} Zeichen).",
            f"{what[1]} is too long (at most {limit} characters).",
        )
    return text


def _field(data: Mapping[str, object], name: str) -> str:
    return _text(data, name, FIELD_CHARS, (f"Das Feld „{name}“", f"The field “{name}”")).strip()


def _cards(data: Mapping[str, object], name: str, what: tuple[str, str]) -> list[Card]:
    text = _field(data, name).replace(",", " ")
    out: list[Card] = []
    for code in text.split():
        try:
            out.append(parse_card(code))
        except SkatError:
            raise StudyInputError(
                f"{what[0]}: „{code[:10]}“ ist keine Karte (Beispiele: CJ, SA, HT, D7).",
                f"{what[1]}: “{code[:10]}” is no card (examples: CJ, SA, HT, D7).",
            ) from None
    return out


def typed(data: Mapping[str, object]) -> Spot:
    """The game of a typed-in deal (see the module text)."""
    try:
        game = GameType(_field(data, "spiel"))
    except ValueError:
        raise StudyInputError("Bitte wähle ein Spiel.", "Please choose a game.") from None
    seat = _field(data, "allein")
    if seat not in ("0", "1", "2"):
        raise StudyInputError("Bitte wähle den Alleinspieler.", "Please choose the declarer.")
    names = (("Vorhand", "Vorhand"), ("Mittelhand", "Mittelhand"), ("Hinterhand", "Hinterhand"))
    hands = [_cards(data, name, names[i]) for i, name in enumerate(HANDS)]
    skat = _cards(data, "skat", ("Skat", "Skat"))
    plays = _cards(data, "karten", ("Gespielte Karten", "Cards played"))
    if len(plays) > 30:
        raise StudyInputError("Ein Spiel hat höchstens 30 Karten.", "A game has at most 30 cards.")
    hand_game = bool(_field(data, "handspiel"))
    try:
        deal = Deal.from_codes([[c.code for c in h] for h in hands] + [[c.code for c in skat]])
        spot = Spot(deal, int(seat), game, () if hand_game else tuple(skat), ())
        state = spot.state()
        for n, card in enumerate(plays, start=1):
            try:
                state.play(card)
            except SkatError as exc:
                raise StudyInputError(
                    f"Karte {n} ({card.code}): {exc.text.de}", f"Card {n} ({card.code}): {exc.text.en}"
                ) from None
    except SkatError as exc:
        raise StudyInputError(exc.text.de, exc.text.en) from None
    return Spot(deal, int(seat), game, spot.discard, tuple(plays))


def from_iss(data: Mapping[str, object]) -> Spot:
    """The game of an ISS record (field ``iss``), every card it played."""
    text = _text(data, "iss", ISS_CHARS, ("Der Datensatz", "The record")).strip()
    if not text:
        raise StudyInputError("Füge einen ISS-Datensatz ein.", "Paste an ISS record.")
    try:
        game = parse_record(text)
        return spot_of(game.state)
    except SkatError as exc:
        raise StudyInputError(exc.text.de, exc.text.en) from None


def title_of(data: Mapping[str, object]) -> str:
    title = " ".join(_text(data, "titel", TITLE_CHARS, ("Der Titel", "The title")).replace("\x00", "").split())
    if not title:
        raise StudyInputError("Gib der Studie einen Titel.", "Give the study a title.")
    return title
