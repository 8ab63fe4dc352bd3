"""``{% load cards %}``: draw cards in the visitor's deck (the context variable ``deck``).

- ``{% card "CJ" %}``: one card;
- ``{% cards "CJ SJ HA" %}`` or ``{% cards hand %}`` (a list of codes or engine cards);
- ``{% card_choices "cards" codes "checkbox" checked=selected %}``: clickable cards for exercises;
- ``{% marked_cards marks %}``: ``(code, mark)`` pairs after an answer, marked right, wrong or missed;
- ``{% card_name "CJ" %}``: the card's name in the deck and language (``Eichel-Unter``);
- ``{% in_deck text %}``: domain text (prompts, options, facts, feedback, derivation steps, case
  texts) with its name references (``⟦card:SQ⟧``, ``⟦suit:S⟧``, ``⟦game:spades⟧`` ...) in the
  visitor's deck and language. Every template that shows domain text passes it through here.

A bad code raises the engine's ``InvalidCard``: templates should only get codes the engine made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from skatschule.core.language import current_lang
from skatschule.engine import Card
from skatschule.engine.names import card_name as name_of_card

from .. import render

register = template.Library()


def _deck(context: template.Context) -> str:
    return render.normalize_deck(context.get("deck"))


@register.simple_tag(takes_context=True)
def card(context: template.Context, code: str | Card) -> SafeString:
    return mark_safe(render.card_svg(code, _deck(context)))  # noqa: S308 - escaped in render


@register.simple_tag(takes_context=True)
def cards(context: template.Context, codes: str | Iterable[str | Card]) -> SafeString:
    return render.cards_html(codes, _deck(context))


@register.simple_tag(takes_context=True)
def card_choices(
    context: template.Context,
    name: str,
    codes: str | Iterable[str | Card],
    input_type: str = "checkbox",
    checked: Any = (),
) -> SafeString:
    return render.choice_html(name, codes, _deck(context), input_type=input_type, checked=checked or ())


@register.simple_tag(takes_context=True)
def marked_cards(context: template.Context, marks: Iterable[tuple[str, str]]) -> SafeString:
    """``{% marked_cards marks %}``: cards after an answer, marked right, wrong or missed."""
    return render.marked_cards_html(marks, _deck(context))


@register.simple_tag(takes_context=True)
def card_name(context: template.Context, code: str | Card) -> str:
    return name_of_card(code, current_lang(), _deck(context))


@register.simple_tag(takes_context=True)
def in_deck(context: template.Context, text: Any) -> str:
    """``text`` with card, suit and game references named as the visitor's deck names them."""
    return render.deck_words(text, _deck(context))


@register.simple_tag(takes_context=True)
def deck_names_note(context: template.Context) -> SafeString:
    """With the German deck, once at the top of a rules chapter: how the rules' (French)
    names map to the deck's. Nothing with the French or the tournament deck."""
    return render.deck_names_note(_deck(context))
