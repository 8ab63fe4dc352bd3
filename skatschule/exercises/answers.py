"""Reading a learner's answer by widget: numbers, choices (with aliases and Spitzen as signs),
several choices, cards and orders. Every reader is linear and refuses what it cannot read with
an :class:`~.base.AnswerError` (German and English)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from skatschule.engine import Card, SkatError, parse_card
from skatschule.engine.names import DECK_NAMES, card_name, render
from skatschule.engine.numbers import plain_number

from .base import AnswerError, Question

__all__ = [
    "parse_number",
    "parse_choice",
    "signed_choice",
    "join_signed",
    "parse_multi",
    "parse_card_answer",
    "parse_order",
]

_SPACES = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[\s,;]+")
_NUMBER = re.compile(r"^[+-]?\d{1,7}$")
_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2014": "-", "\ufe63": "-", "\uff0d": "-"})


def _filled(answer: Sequence[str]) -> list[str]:
    """The answer fields that hold something (the form may send empty ones)."""
    if isinstance(answer, str):
        answer = [answer]
    out: list[str] = []
    for item in answer:
        if not isinstance(item, str):
            raise AnswerError("Die Antwort muss Text sein", "The answer must be text")
        if item.strip():
            out.append(item.strip())
    return out


def _fold(text: str) -> str:
    return _SPACES.sub(" ", text.strip()).casefold()


def parse_number(answer: Sequence[str]) -> int:
    """One integer: spaces are ignored, a leading + or - (also the Unicode minus) is allowed."""
    fields = _filled(answer)
    if not fields:
        raise AnswerError("Bitte eine Zahl eingeben", "Please enter a number")
    if len(fields) > 1:
        raise AnswerError("Bitte nur eine Zahl eingeben", "Please enter only one number")
    text = _SPACES.sub("", fields[0]).translate(_MINUSES)
    # thousands separators in whole numbers: "1.000" or "1'000" are not expected here
    if not _NUMBER.match(text):
        raise AnswerError(
            f"{fields[0]!r} ist keine ganze Zahl (Beispiele: 48, -96, +23)",
            f"{fields[0]!r} is not a whole number (examples: 48, -96, +23)",
        )
    return int(text)


def _option_table(question: Question, aliases: Mapping[str, str] | None) -> dict[str, str]:
    table: dict[str, str] = {}
    for option in question.options:
        for key, lang in ((option.label.de, "de"), (option.label.en, "en")):
            # a label is accepted as any deck names it (the labels hold name references)
            for deck in DECK_NAMES:
                table.setdefault(_fold(render(key, lang, deck)), option.value)
    for key, value in (aliases or {}).items():
        table.setdefault(_fold(key), value)
    for option in question.options:  # the values themselves win over any label
        table[_fold(option.value)] = option.value
    return table


def _unknown_option(text: str, question: Question) -> AnswerError:
    shown_de = ", ".join(render(o.label.de, "de") for o in question.options[:8])
    shown_en = ", ".join(render(o.label.en, "en") for o in question.options[:8])
    more = " …" if len(question.options) > 8 else ""
    return AnswerError(
        f"{text!r} ist keine der Antwortmöglichkeiten ({shown_de}{more})",
        f"{text!r} is not one of the options ({shown_en}{more})",
    )


_SIGNED = re.compile(r"^[+-]\d{1,2}$")
_SIGNS = {"+": "+", "-": "-", "mit": "+", "ohne": "-", "with": "+", "without": "-", "\u2212": "-"}


def signed_choice(question: Question) -> int:
    """For a choice whose options are signed counts (``+1`` … ``+11``, ``-1`` … ``-11``: the
    Spitzen), the highest count, so the page can offer mit/ohne plus a number; else 0."""
    values = [o.value for o in question.options]
    if question.widget != "choice" or not values or not all(_SIGNED.match(v) for v in values):
        return 0
    return max(abs(int(v)) for v in values)


def join_signed(answer: Sequence[str]) -> list[str]:
    """The compact mit/ohne control sends two fields, a sign and a number (``["+", "2"]``,
    ``["ohne", "3"]``): read them as the one option value ``+2``/``-3``. Anything else is
    returned as it came, so single values (``+2``, ``mit 2``) keep working."""
    if isinstance(answer, str):
        return [answer]
    fields = [str(v).strip() for v in answer if str(v).strip()]
    count = plain_number(fields[1], max_digits=2) if len(fields) == 2 else None
    if count is not None and fields[0].casefold() in _SIGNS:
        return [f"{_SIGNS[fields[0].casefold()]}{count}"]
    return list(answer)


def parse_choice(question: Question, answer: Sequence[str], aliases: Mapping[str, str] | None = None) -> str:
    """Exactly one option, given by its value or its German or English label (any case)."""
    if signed_choice(question):
        answer = join_signed(answer)
    fields = _filled(answer)
    if not fields:
        raise AnswerError("Bitte eine Antwort auswählen", "Please choose an answer")
    if len(fields) > 1:
        raise AnswerError("Bitte genau eine Antwort auswählen", "Please choose exactly one answer")
    table = _option_table(question, aliases)
    value = table.get(_fold(fields[0]))
    if value is None:
        raise _unknown_option(fields[0], question)
    return value


def parse_multi(question: Question, answer: Sequence[str], aliases: Mapping[str, str] | None = None) -> frozenset[str]:
    """Any number of options (none is an answer, too); one field may hold several, comma separated."""
    table = _option_table(question, aliases)
    chosen: set[str] = set()
    for field_ in _filled(answer):
        whole = table.get(_fold(field_))
        if whole is not None:
            chosen.add(whole)
            continue
        for part in _SEPARATORS.split(field_):
            if not part:
                continue
            value = table.get(_fold(part))
            if value is None:
                raise _unknown_option(part, question)
            chosen.add(value)
    return frozenset(chosen)


def _cards_in(answer: Sequence[str]) -> list[Card]:
    out: list[Card] = []
    for field_ in _filled(answer):
        for part in _SEPARATORS.split(field_):
            if not part:
                continue
            try:
                out.append(parse_card(part))
            except SkatError as exc:
                raise AnswerError(exc.text.de, exc.text.en) from None
    return out


def parse_card_answer(question: Question, answer: Sequence[str]) -> frozenset[str]:
    """A set of card codes, each one of the question's options (``CJ``, ``h10``, ``c10`` ...)."""
    allowed = {o.value for o in question.options}
    chosen: set[str] = set()
    for card in _cards_in(answer):
        if card.code not in allowed:
            raise AnswerError(
                f"{card_name(card, 'de')} ({card.code}) steht nicht zur Auswahl",
                f"The {card_name(card, 'en')} ({card.code}) is not one of the cards to choose from",
            )
        chosen.add(card.code)
    return frozenset(chosen)


def parse_order(question: Question, answer: Sequence[str]) -> list[str]:
    """All cards of the options, each exactly once, in the order given."""
    allowed = [o.value for o in question.options]
    order = [c.code for c in _cards_in(answer)]
    unknown = [code for code in order if code not in allowed]
    if unknown:
        raise AnswerError(f"{unknown[0]} steht nicht zur Auswahl", f"{unknown[0]} is not one of the cards to order")
    if len(set(order)) != len(order):
        raise AnswerError("Jede Karte darf nur einmal vorkommen", "Each card may appear only once")
    if len(order) != len(allowed):
        raise AnswerError(
            f"Bitte alle {len(allowed)} Karten in eine Reihenfolge bringen ({len(order)} angegeben)",
            f"Please put all {len(allowed)} cards in order ({len(order)} given)",
        )
    return order
