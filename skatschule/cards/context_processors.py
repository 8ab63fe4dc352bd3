"""The current deck for every template: ``deck`` (a key of ``DECKS``) and ``decks`` (choices)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .render import DECKS, DEFAULT_DECK, deck_choices

DECK_SESSION_KEY = "deck"
DECK_COOKIE = "skatschule_deck"


def current_deck(request: HttpRequest | None) -> str:
    """The visitor's deck: the session first, then the long-lived cookie, else the default."""
    if request is None:
        return DEFAULT_DECK
    session = getattr(request, "session", None)
    for value in (session.get(DECK_SESSION_KEY) if session is not None else None, request.COOKIES.get(DECK_COOKIE)):
        if value in DECKS:
            return str(value)
    return DEFAULT_DECK


def deck(request: HttpRequest) -> dict[str, Any]:
    return {"deck": current_deck(request), "decks": deck_choices()}
