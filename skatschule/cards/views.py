"""Deck choice and the card gallery."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from skatschule.core.language import current_lang
from skatschule.engine import CARDS, Suit
from skatschule.http import on_site_url

from .context_processors import DECK_COOKIE, DECK_SESSION_KEY, current_deck
from .render import DECKS, card_svg

DECK_COOKIE_MAX_AGE = 365 * 24 * 60 * 60


def safe_next(request: HttpRequest) -> str:
    """Where to go back to: ``next`` or the referer, if it is on this site; else the home page."""
    target = on_site_url(request, request.POST.get("next"), request.GET.get("next"), request.META.get("HTTP_REFERER"))
    return target or reverse("home:index")


@require_POST
def set_deck(request: HttpRequest) -> HttpResponse:
    """Remember the chosen deck (field ``deck``) in the session and a cookie, then go back."""
    choice = request.POST.get("deck", "")
    if choice not in DECKS:
        return render(
            request,
            "cards/deck_error.html",
            {"choice": choice[:40]},
            status=400,
        )
    request.session[DECK_SESSION_KEY] = choice
    response = HttpResponseRedirect(safe_next(request))
    response.set_cookie(
        DECK_COOKIE,
        choice,
        max_age=DECK_COOKIE_MAX_AGE,
        httponly=True,
        secure=settings.LANGUAGE_COOKIE_SECURE,  # a preference cookie, Secure like the language cookie
        samesite="Lax",  # as LANGUAGE_COOKIE_SAMESITE in production
    )
    messages.success(request, _("Kartenblatt gewechselt: %(deck)s.") % {"deck": DECKS[choice].label})
    return response


@require_safe
def gallery(request: HttpRequest) -> HttpResponse:
    """All 32 cards in the current deck, by suit, with their names and their Augen.

    The German interface names each card once, in German; the English interface gives the
    English name first and the German one after it. With the German deck each card also
    says which French card it corresponds to.
    """
    deck = current_deck(request)
    spec = DECKS[deck]
    french = DECKS["french"]
    lang = current_lang()
    suits = []
    for suit in Suit:
        cards = [
            {
                "code": card.code,
                "svg": card_svg(card, deck, decorative=True),
                "name": spec.names.card(card, lang),
                "name_de": spec.names.card(card, "de") if lang == "en" else "",
                "french_name": french.names.card(card, lang) if deck == "german" else "",
                "points": card.points,
            }
            for card in CARDS
            if card.suit is suit
        ]
        suits.append(
            {
                "name": spec.names.suit(suit, lang).capitalize() if lang == "en" else spec.names.suit(suit, "de"),
                "name_de": spec.names.suit(suit, "de") if lang == "en" else "",
                "cards": cards,
            }
        )
    return render(request, "cards/gallery.html", {"suits": suits, "deck_label": spec.label})
