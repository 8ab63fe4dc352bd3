"""Glossary links must not catch a word used in another sense: ``[[word: ...]]`` marks it.

Case F-16 says "holding no jack" (holding cards); the glossary's "holding" is the bidding
term (Halten). The word is marked in the text and stays plain; the bidding sense still links.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.rules.directives import render_directive
from skatschule.rules.render import render_markdown

pytestmark = pytest.mark.django_db

HALTEN_LINK = re.compile(r'<a class="term"[^>]*href="[^"]*#[^"]*halten[^"]*"[^>]*>\s*holding', re.I)


def _english() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def test_marked_word_is_not_linked_but_the_term_is() -> None:
    marked = str(render_markdown("Forehand, [[word: holding]] two aces, passes.", lang="en"))
    assert "holding two aces" in marked and not HALTEN_LINK.search(marked)
    unmarked = str(render_markdown("Bidding means offering and holding game values.", lang="en"))
    assert HALTEN_LINK.search(unmarked), unmarked
    assert render_directive("[[word: holding]]", lang="en", text=True) == "holding"


def test_case_f16_does_not_link_holding_cards_to_the_bidding_term() -> None:
    page = _english().get(reverse("casebook:case", args=["F-16"])).content.decode()
    assert "holding no" in re.sub(r"<[^>]+>", "", page)
    assert not HALTEN_LINK.search(page)


def test_bidding_rule_still_links_holding() -> None:
    page = _english().get(reverse("rules:chapter", args=["2"])).content.decode()
    assert HALTEN_LINK.search(page)
