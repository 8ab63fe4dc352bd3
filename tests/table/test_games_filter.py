"""A stored game's pages keep the filter of "Meine Spiele" for the way back ("Zurück zu meinen
Spielen"): carried in the links, read again by the filter form (only known values, only the
site's own list). Plain links: no JavaScript needed."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from skatschule.table.models import TableGame
from tests.present import present
from tests.table.stored import stored_games

pytestmark = pytest.mark.django_db
URL = "/ueben/spiel/"
GAMES = "/ueben/spiel/meine/"
BACK = re.compile(r'<a href="([^"]*)">Zurück zu meinen Spielen</a>')


def _stored_game(user: Any) -> TableGame:
    """A game played to its end with the services (the learner passes, a bot declares), stored for ``user``."""
    [(pk, _state)] = stored_games(user, 1)
    return TableGame.objects.get(pk=present(pk))


def _back(page: str) -> str:
    found = BACK.search(page)
    assert found is not None, "no link back to the games"
    return html.unescape(found.group(1))


def test_the_way_back_keeps_the_filter(client: Client, player: Any) -> None:
    row = _stored_game(player)
    result = "gewonnen" if row.learner_won else "verloren"
    query = f"ergebnis={result}&spiel={row.game}"
    listing = client.get(GAMES, {"ergebnis": result, "spiel": row.game}).content.decode()
    board = f"{URL}{row.pk}/brett/?{query}"
    assert f'href="{html.escape(board)}"' in listing  # the list links the game with its filter
    page = client.get(board)
    assert page.status_code == 200
    text = page.content.decode()
    assert _back(text) == f"{GAMES}?{query}"
    # the steps of the board keep it too, so the way back still has it after stepping
    assert html.escape(f"?{query}&schritt=1#") in text
    stepped = client.get(f"{board}&schritt=3").content.decode()
    assert _back(stepped) == f"{GAMES}?{query}"
    # following the link back: the same filter, chosen in the form, the game listed
    again = client.get(_back(stepped)).content.decode()
    assert f'<option value="{result}" selected>' in again
    assert f'<option value="{row.game}" selected>' in again
    assert f"{URL}{row.pk}/brett/" in again


def test_without_a_filter_the_way_back_is_the_plain_list(client: Client, player: Any) -> None:
    row = _stored_game(player)
    text = client.get(f"{URL}{row.pk}/brett/").content.decode()
    assert _back(text) == GAMES
    assert f'href="{URL}{row.pk}/brett/"' in client.get(GAMES).content.decode()


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        # unknown parameters are dropped, the known ones kept in a fixed order
        ("spiel=grand&next=https://evil.example/&ergebnis=gewonnen", "ergebnis=gewonnen&spiel=grand"),
        # an unknown value drops the filter, as the list itself ignores it
        ("ergebnis=//evil.example/", ""),
        ("ergebnis=gewonnen&spiel=%0d%0aLocation:x", ""),
        ("spiel=null", "spiel=null"),
    ],
)
def test_only_known_filter_values_are_carried(client: Client, player: Any, given: str, kept: str) -> None:
    row = _stored_game(player)
    text = client.get(f"{URL}{row.pk}/brett/?{given}").content.decode()
    back = _back(text)
    assert back == (f"{GAMES}?{kept}" if kept else GAMES)
    # nor in the board's own step links (the language switch keeps the whole address as its
    # "next", checked by that switch; no link leads off the site)
    steps = re.findall(r'href="([^"]*schritt=[^"]*)"', text)
    assert steps and not any("evil" in link or "Location" in link for link in steps)
    assert 'href="https://evil' not in text and 'href="//evil' not in text


def test_the_stored_games_other_pages_carry_it_along(client: Client, player: Any) -> None:
    row = _stored_game(player)
    query = "ergebnis=gewonnen&spiel=grand"
    text = client.get(f"{URL}{row.pk}/", {"ergebnis": "gewonnen", "spiel": "grand"}).content.decode()
    assert f'href="{html.escape(f"{GAMES}?{query}")}"' in text  # "Meine Spiele" at the top
    assert f'href="{html.escape(f"{URL}{row.pk}/brett/?{query}")}"' in text  # "Analysebrett"
