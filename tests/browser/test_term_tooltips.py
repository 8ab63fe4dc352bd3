"""Glossary terms in chromium: copying a rule paragraph gives the rule's words only, the
text without CSS reads as written, and the definition still shows on hover and focus."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.rules.content import reload
from skatschule.rules.render import plain_text, term_linker
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SELECT_PARAGRAPH = """(p) => {
  const range = document.createRange();
  range.selectNodeContents(p);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return selection.toString();
}"""


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("rule_id", ["3.2.4", "1.3.2"])
def test_copying_a_rule_paragraph_gives_the_rule_text_only(page: Page, live_server: LiveServer, rule_id: str) -> None:
    registry = reload()
    rule = registry.rule(rule_id)
    assert rule is not None
    page.goto(f"{live_server.url}/regeln/{rule_id}")
    paragraph = (
        page.locator(f'[id="{rule.anchor}"] .rule-text p')
        .filter(has=page.locator("a.term"), has_not=page.locator("svg, img, .directive-value"))
        .first
    )
    expect(paragraph).to_be_visible()
    term = paragraph.locator("a.term").first
    definition_id = term.get_attribute("aria-describedby")
    assert definition_id
    definition = page.locator(f'[id="{definition_id}"]')
    expect(definition).to_have_count(1)
    definition_text = _words(definition.text_content() or "")
    assert definition_text

    selected = _words(paragraph.evaluate(SELECT_PARAGRAPH))
    source = _words(plain_text(rule.text("de"), registry=registry))
    assert selected and selected in source, (selected, source)
    assert definition_text not in selected
    clipboard_text = page.evaluate("() => window.getSelection().toString()")
    assert _words(clipboard_text) == selected

    # hover and keyboard focus show the definition; Escape closes it; it stays outside the text
    term.hover()
    tip = page.locator(".term-tip")
    expect(tip).to_be_visible()
    expect(tip).to_have_text(definition.text_content() or "")
    assert paragraph.evaluate("(p, tip) => !p.contains(tip)", tip.element_handle())
    page.mouse.move(0, 0)
    term.focus()
    expect(tip).to_be_visible()
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()


def test_rule_text_without_css_reads_as_written(page: Page, live_server: LiveServer) -> None:
    registry = reload()
    definitions = [d for _, d in term_linker(registry, "de").links.values() if len(d) > 30]
    page.goto(f"{live_server.url}/regeln/kapitel/3/")
    page.evaluate("""() => {
      document.querySelectorAll('link[rel="stylesheet"], style').forEach((node) => node.remove());
      for (const el of document.querySelectorAll('[style]')) el.removeAttribute('style');
    }""")
    checked = 0
    for section in present(registry.chapter("3")).sections:
        for rule in section.rules:
            text = rule.text("de")
            if "[[" in text or "|" in text:
                continue  # directives draw cards and values: compared elsewhere
            shown = _words(page.locator(f'[id="{rule.anchor}"] .rule-text').inner_text())
            assert shown == _words(plain_text(text, registry=registry)), rule.id
            assert not any(d in shown for d in definitions), rule.id
            checked += 1
    assert checked > 5
    # the whole page without CSS: no definition in the middle of the text
    body = page.locator("main").inner_text()
    assert not any(d in body for d in definitions)
