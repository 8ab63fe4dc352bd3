"""Glossary definitions are kept once per page, out of the text: every term link names its
definition with aria-describedby, and that definition exists exactly once on the page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from skatschule.casebook import cases as casebook
from skatschule.rules.content import get_registry
from skatschule.rules.render import render_rule, term_linker, term_slugs

pytestmark = pytest.mark.django_db

_LINK = re.compile(r'<a class="term" [^>]*aria-describedby="(termdef-[^"]+)"[^>]*>(.*?)</a>')
_DEF = re.compile(r'<span id="(termdef-[^"]+)" class="term-def">')


def _check_page(html: str) -> int:
    links = _LINK.findall(html)
    defs = _DEF.findall(html)
    assert len(defs) == len(set(defs)), "a definition appears twice"
    assert {target for target, _ in links} <= set(defs), "a term link without its definition"
    assert set(defs) <= {target for target, _ in links}, "a definition nobody links to"
    for _, word in links:
        assert "<" not in word, "nothing but the word inside a term link"
    assert "data-definition" not in html and 'role="tooltip"' not in html
    return len(links)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_chapter_pages_keep_each_definition_once(client: Client, lang: str) -> None:
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    registry = get_registry()
    linked = 0
    for chapter in registry.chapters:
        response = client.get(reverse("rules:chapter", args=[chapter.id]))
        assert response.status_code == 200
        linked += _check_page(response.content.decode())
    assert linked > 100  # the chapters do link their terms


def test_rule_text_holds_no_definition_of_its_terms() -> None:
    registry = get_registry()
    links = term_linker(registry, "de").links
    checked = 0
    for rule_id in registry.rules:
        rendered = render_rule(rule_id, "de", "french", registry)
        text = str(rendered.text) + "".join(str(a.html) for a in rendered.annotations)
        for slug in term_slugs(text):
            definition = escape(links[slug][1])
            assert definition not in text, (rule_id, slug)
            checked += 1
    assert checked > 100


def test_rule_detail_glossary_and_case_pages(client: Client) -> None:
    registry = get_registry()
    some = [r for r in registry.rules][:40]
    linked = 0
    for rule_id in some:
        linked += _check_page(client.get(reverse("rules:rule_detail", args=[rule_id])).content.decode())
    assert linked
    assert _check_page(client.get(reverse("rules:glossary")).content.decode())
    for case in casebook.load_cases():
        _check_page(client.get(reverse("casebook:case", args=[case.id])).content.decode())
