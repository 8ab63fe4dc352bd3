"""The one place where Skatschule draws cards.

Every card on the site is an original inline SVG built here, in one of three
decks (see :data:`DECKS`):

- ``french``: französisches Blatt, Kreuz and Pik black, Herz and Karo red;
- ``german``: deutsches Blatt with Eichel, Grün, Rot, Schellen and
  Unter/Ober/Daus instead of Bube/Dame/Ass;
- ``tournament``: the four-colour tournament deck of the DSkV (French
  symbols, Kreuz black, Pik green, Herz red, Karo orange).

The functions are pure (no request): views and template tags pass the deck,
and the card names follow the active language (:func:`~skatschule.core.language.current_lang`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from django.utils.functional import Promise
from django.utils.html import escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from skatschule.core.language import current_lang
from skatschule.engine import Card, Rank, Suit, Text, parse_card
from skatschule.engine.names import DeckNames, card_name, names_for
from skatschule.engine.names import render as names_render

__all__ = [
    "DECKS",
    "DEFAULT_DECK",
    "Deck",
    "card_svg",
    "cards_html",
    "choice_html",
    "MARKS",
    "marked_cards_html",
    "deck_words",
    "deck_names_note",
    "deck_choices",
    "normalize_deck",
]


@dataclass(frozen=True)
class Deck:
    """How one deck draws the four suits and eight ranks; its names come from
    :data:`skatschule.engine.names.DECK_NAMES`, the one place that names cards.

    Tuples are indexed like the engine's :class:`Suit` (Kreuz, Pik, Herz,
    Karo) and :class:`Rank` (A T K Q J 9 8 7).
    """

    key: str
    label: str | Promise
    colours: tuple[str, str, str, str]
    shapes: tuple[str, str, str, str]

    @property
    def names(self) -> DeckNames:
        return names_for(self.key)

    def index(self, rank: Rank, lang: str = "de") -> str:
        """The corner index: ``D``/``B`` on French cards in German, ``Q``/``J`` in English."""
        return self.names.index(rank, current_lang(lang))


_FRENCH = Deck(
    key="french",
    label=_("Französisches Blatt"),
    colours=("#1a1a1a", "#1a1a1a", "#c8102e", "#c8102e"),
    shapes=("club", "spade", "heart", "diamond"),
)

DECKS: dict[str, Deck] = {
    "french": _FRENCH,
    "german": Deck(
        key="german",
        label=_("Deutsches Blatt"),
        colours=("#7a4a1d", "#2e7d32", "#c62828", "#b58400"),
        shapes=("acorn", "leaf", "heart", "bell"),
    ),
    # the French pictures with a colour per suit (green Pik, orange Karo)
    "tournament": replace(
        _FRENCH,
        key="tournament",
        label=_("Turnierblatt (vier Farben)"),
        colours=("#1a1a1a", "#1b7f3a", "#c8102e", "#e07b00"),
    ),
}
DEFAULT_DECK = "french"

PICKER_CODES = tuple(f"{s}{r}" for s in "CSHD" for r in ("J", "A", "T", "K", "Q", "9", "8", "7"))
"""The card pickers' order (forms that choose cards): by suit, each from the Jack down."""


def deck_choices() -> list[tuple[str, str]]:
    """``[(key, label), ...]`` with the labels in the active language."""
    return [(key, str(deck.label)) for key, deck in DECKS.items()]


def normalize_deck(deck: str | None) -> str:
    """``deck`` if it names a deck, else the default (for untrusted cookies and contexts)."""
    return deck if deck in DECKS else DEFAULT_DECK


def deck_words(text: object, deck: str = DEFAULT_DECK, lang: str | None = None) -> str:
    """Domain ``text`` with its name references (``⟦card:SQ⟧``, see :mod:`skatschule.engine.names`)
    turned into the names ``deck`` uses in the active language; HTML-safe text stays safe.
    A bilingual :class:`~skatschule.engine.Text` is read in the active language first."""
    if text is None:
        return ""
    if isinstance(text, Text):
        text = text.get(current_lang(lang))
    raw = str(text)
    if "⟦" not in raw:
        return text if isinstance(text, str) else raw
    out = names_render(raw, current_lang(lang), normalize_deck(deck))
    return mark_safe(out) if isinstance(text, SafeData) else out  # noqa: S308 - names hold no markup


def deck_names_note(deck: str, lang: str | None = None) -> SafeString:
    """A note for the top of a rules chapter with the German deck: the rules keep the ISkO's
    (French) names; this says once which German-deck name stands for which. Empty otherwise."""
    if normalize_deck(deck) != "german":
        return mark_safe("")
    code = current_lang(lang)
    french, german = names_for("french"), names_for("german")
    suits = ", ".join(f"{french.suit(s, code)} = {german.suit(s, code)}" for s in Suit)
    ranks = ", ".join(f"{french.rank(r, code)} = {german.rank(r, code)}" for r in (Rank.JACK, Rank.QUEEN, Rank.ACE))
    text = gettext(
        "Die Skatordnung nennt die Karten mit den Namen des französischen Blatts. Im deutschen Blatt "
        "heißen sie: %(suits)s; %(ranks)s. Unter jeder abgebildeten Karte steht ihr Name im deutschen Blatt."
    ) % {"suits": suits, "ranks": ranks}
    return format_html('<p class="deck-note" role="note"><strong>{}</strong> {}</p>', gettext("Deutsches Blatt:"), text)


def _card(code: str | Card) -> Card:
    return parse_card(code if isinstance(code, str) else code.code)


# Pips are drawn in a 10 x 10 box; a pip is placed with translate + scale.
_HEART = (
    "M5 9.4C3.2 8 .4 5.9 .4 3.3 .4 1.7 1.6.6 3 .6c1 0 1.6.6 2 1.4.4-.8 1-1.4 2-1.4 1.4 0 2.6 1.1 2.6 2.7 0 "
    "2.6-2.8 4.7-4.6 6.1z"
)
_DIAMOND = "M5 .2 9 5 5 9.8 1 5z"
_SPADE = (
    "M5 .4C6.8 2 9.6 4 9.6 6.3c0 1.4-1 2.3-2.2 2.3-.8 0-1.5-.4-1.9-1 .1 .8.5 1.4 1.1 1.9"
    "H3.4c.6-.5 1-1.1 1.1-1.9-.4.6-1.1 1-1.9 1C1.4 8.6.4 7.7.4 6.3.4 4 3.2 2 5 .4z"
)
_CLUB = (
    '<circle cx="5" cy="2.7" r="2.3"/><circle cx="2.6" cy="6" r="2.3"/>'
    '<circle cx="7.4" cy="6" r="2.3"/><circle cx="5" cy="5.2" r="1.5"/><path d="M5 4.6 3.7 9.7h2.6z"/>'
)


def _shape(shape: str, colour: str) -> str:
    """The SVG elements of one pip in the 10 x 10 box."""
    if shape == "heart":
        return f'<path fill="{colour}" d="{_HEART}"/>'
    if shape == "diamond":
        return f'<path fill="{colour}" d="{_DIAMOND}"/>'
    if shape == "spade":
        return f'<path fill="{colour}" d="{_SPADE}"/>'
    if shape == "club":
        return f'<g fill="{colour}">{_CLUB}</g>'
    if shape == "acorn":  # Eichel: brown cap over a lighter nut, with a stalk
        return (
            f'<path fill="{colour}" d="M4.5 0h1v1.4h-1z"/>'
            f'<ellipse cx="5" cy="6.1" rx="2.7" ry="3.5" fill="#c58b4a" stroke="{colour}" stroke-width=".6"/>'
            f'<path fill="{colour}" d="M1.3 4.6C1.3 2.3 3 1 5 1s3.7 1.3 3.7 3.6z"/>'
        )
    if shape == "leaf":  # Grün: a leaf with a midrib and a short stem
        return (
            f'<path fill="{colour}" d="M5 .3C8.6 2.3 9.4 6 5.4 8.6 1 6.4 1.3 2.6 5 .3z"/>'
            '<path fill="none" stroke="#fff" stroke-width=".5" d="M5 1.5 5.2 8"/>'
            f'<path fill="none" stroke="{colour}" stroke-width=".8" d="M5.3 8.4 5.6 9.9"/>'
        )
    if shape == "bell":  # Schellen: a round bell with a slit, a band and a loop
        return (
            f'<circle cx="5" cy="1.2" r=".9" fill="none" stroke="#6b5200" stroke-width=".5"/>'
            f'<circle cx="5" cy="5.6" r="4" fill="{colour}" stroke="#6b5200" stroke-width=".5"/>'
            '<path fill="none" stroke="#6b5200" stroke-width=".5" d="M1.3 4.3h7.4"/>'
            '<circle cx="5" cy="7.2" r=".8" fill="#6b5200"/>'
            '<path fill="none" stroke="#6b5200" stroke-width=".5" d="M5 8v1.6"/>'
        )
    raise ValueError(f"unknown pip shape {shape!r}")


def _pip(shape: str, colour: str, x: float, y: float, size: float) -> str:
    scale = size / 10
    return f'<g transform="translate({x:g} {y:g}) scale({scale:g})">{_shape(shape, colour)}</g>'


_COURT = (Rank.KING, Rank.QUEEN, Rank.JACK)


@lru_cache(maxsize=1024)
def _svg(code: str, deck: str, label: str, decorative: bool, lang: str = "de") -> str:
    card = parse_card(code)
    spec = DECKS[deck]
    colour = spec.colours[card.suit]
    shape = spec.shapes[card.suit]
    index = spec.index(card.rank, lang)
    index_size = 13 if len(index) == 1 else 11
    corner = (
        f'<text x="8" y="14" text-anchor="middle" font-size="{index_size}" font-weight="700" '
        f'font-family="DejaVu Sans, Arial, sans-serif" fill="{colour}">{escape(index)}</text>'
        + _pip(shape, colour, 3.5, 16.5, 8)
    )
    if card.rank in _COURT:
        # Court cards: a tinted frame with the big index letter above the pip.
        centre = (
            f'<rect x="14" y="16" width="32" height="58" rx="3" fill="{colour}" fill-opacity=".08" '
            f'stroke="{colour}" stroke-width="1"/>'
            f'<text x="30" y="42" text-anchor="middle" font-size="20" font-weight="700" '
            f'font-family="DejaVu Serif, Georgia, serif" fill="{colour}">{escape(index)}</text>'
            + _pip(shape, colour, 21, 47, 18)
        )
    else:
        centre = _pip(shape, colour, 15, 30, 30)
    a11y = 'aria-hidden="true" focusable="false"' if decorative else f'role="img" aria-label="{escape(label)}"'
    return (
        f'<svg class="card-img card-{deck}" data-card="{card.code}" viewBox="0 0 60 90" '
        f'xmlns="http://www.w3.org/2000/svg" {a11y}>'
        f"<title>{escape(label)}</title>"
        '<rect x=".75" y=".75" width="58.5" height="88.5" rx="5" fill="#fff" stroke="#8a8a8a" stroke-width="1.5"/>'
        f"{corner}"
        f'<g transform="rotate(180 30 45)">{corner}</g>'
        f"{centre}"
        "</svg>"
    )


def card_svg(code: str | Card, deck: str = DEFAULT_DECK, *, lang: str | None = None, decorative: bool = False) -> str:
    """One card as an inline SVG named for screen readers (``role="img"``, ``aria-label``).

    ``decorative=True`` hides the SVG from assistive technology, for places
    where the card's name is already in the text (e.g. :func:`choice_html`).
    Raises :class:`~skatschule.engine.InvalidCard` for a bad code.
    """
    card = _card(code)
    deck = normalize_deck(deck)
    face_lang = current_lang(lang)
    return _svg(card.code, deck, card_name(card, face_lang, deck), decorative, face_lang)


def _codes(codes: str | Iterable[str | Card]) -> list[Card]:
    items = codes.replace(",", " ").split() if isinstance(codes, str) else list(codes)
    return [_card(c) for c in items]


def cards_html(codes: str | Iterable[str | Card], deck: str = DEFAULT_DECK) -> SafeString:
    """A ``<span class="cards">`` row of card SVGs; raises ``InvalidCard`` on a bad code."""
    svgs = "".join(card_svg(card, deck) for card in _codes(codes))
    return mark_safe(f'<span class="cards">{svgs}</span>')  # noqa: S308 - built from escaped parts


def choice_html(
    name: str,
    codes: str | Iterable[str | Card],
    deck: str = DEFAULT_DECK,
    input_type: str = "checkbox",
    checked: str | Iterable[str | Card] = (),
) -> SafeString:
    """Clickable cards for exercises: one ``<label class="card-choice">`` per card.

    Each label holds a visually hidden ``<input>`` (``name``, ``value=CODE``),
    the card SVG and the card's name for screen readers, so mouse, touch and
    keyboard (Tab, Space) all work without JavaScript. ``checked`` may hold what a visitor
    sent (a form shown again): anything that is not one of the cards is simply not marked.
    """
    if input_type not in ("checkbox", "radio"):
        raise ValueError(f"input_type must be 'checkbox' or 'radio', not {input_type!r}")
    deck = normalize_deck(deck)
    marks = checked.split() if isinstance(checked, str) else checked
    chosen = {item if isinstance(item, str) else item.code for item in marks}
    labels = []
    for card in _codes(codes):
        mark = " checked" if card.code in chosen else ""
        labels.append(
            f'<label class="card-choice">'
            f'<input type="{input_type}" name="{escape(name)}" value="{card.code}"{mark}>'
            f"{card_svg(card, deck, decorative=True)}"
            f'<span class="visually-hidden">{escape(card_name(card, current_lang(), deck))}</span>'
            f"</label>"
        )
    return mark_safe(f'<span class="cards card-choices">{"".join(labels)}</span>')  # noqa: S308


MARKS: dict[str, tuple[str, str | Promise]] = {
    # mark -> (symbol, words for screen readers and the legend); the symbol carries the meaning, not a colour
    "right": ("✓", _("richtig")),
    "wrong": ("✗", _("falsch")),
    "missed": ("!", _("übersehen")),
}


def marked_cards_html(marks: Iterable[tuple[str | Card, str]], deck: str = DEFAULT_DECK) -> SafeString:
    """A row of cards after an answer, each marked ``right``, ``wrong``, ``missed`` or ``""`` (not
    marked) with a symbol in a badge and the word for screen readers, in every deck alike.
    Raises ``InvalidCard`` on a bad code and ``KeyError`` on an unknown mark."""
    deck = normalize_deck(deck)
    items = []
    for code, mark in marks:
        card = _card(code)
        svg = card_svg(card, deck)
        if not mark:
            items.append(f'<span class="card-mark">{svg}</span>')
            continue
        symbol, words = MARKS[mark]
        items.append(
            f'<span class="card-mark card-mark-{mark}">{svg}'
            f'<span class="card-mark-symbol" aria-hidden="true">{symbol}</span>'
            f'<span class="visually-hidden">({escape(str(words))})</span></span>'
        )
    return mark_safe(f'<span class="cards marked-cards">{"".join(items)}</span>')  # noqa: S308 - escaped parts
