"""The home page's caption under the four jacks names them as the chosen deck does."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "deck", "words", "wrong"),
    [
        ("de", "french", "Die vier Buben:", "Unter"),
        ("de", "german", "Die vier Unter:", "Buben"),
        ("en", "french", "The four jacks:", "Unters"),
        ("en", "german", "The four Unters:", "jacks"),
    ],
)
def test_the_jacks_caption_uses_the_decks_word(client: Client, lang: str, deck: str, words: str, wrong: str) -> None:
    client.cookies["skatschule_deck"] = deck
    client.cookies["django_language"] = lang
    html = client.get("/").content.decode()
    caption = html.split("<figcaption>", 1)[1].split("</figcaption>", 1)[0]
    assert words in caption
    assert wrong not in caption
