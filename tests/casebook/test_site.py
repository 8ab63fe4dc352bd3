"""Casebook pages: index, filters (with and without htmx), case pages, rule-page links, errors."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.casebook import cases as casebook
from skatschule.casebook.cases import Case
from skatschule.engine.names import strip_refs

pytestmark = pytest.mark.django_db


def _ids(html: str, cases: Iterable[Case]) -> set[str]:
    return {c.id for c in cases if f'href="/faelle/{c.id}/"' in html}


def test_index_lists_every_case_and_has_the_nav_item(client: Client) -> None:
    every = casebook.load_cases()
    response = client.get(reverse("casebook:index"))
    assert response.status_code == 200
    html = response.content.decode()
    assert _ids(html, every) == {c.id for c in every}
    assert 'href="/faelle/" aria-current="page"' in html  # the nav item "Fälle"
    assert 'name="kategorie"' in html and 'name="regel"' in html


def test_filter_by_category() -> None:
    from django.test import Client

    client = Client()
    every = casebook.load_cases()
    for category in casebook.CATEGORIES:
        response = client.get(reverse("casebook:index"), {"kategorie": category.slug})
        assert response.status_code == 200
        expected = {c.id for c in every if c.category == category.slug}
        assert _ids(response.content.decode(), every) == expected


def test_filter_by_rule_and_both(client: Client) -> None:
    every = casebook.load_cases()
    case = every[0]
    rule_id = case.rule_ids[0]
    response = client.get(reverse("casebook:index"), {"regel": rule_id})
    assert _ids(response.content.decode(), every) == {c.id for c in every if rule_id in c.rule_ids}
    response = client.get(reverse("casebook:index"), {"regel": rule_id, "kategorie": case.category})
    expected = {c.id for c in every if rule_id in c.rule_ids and c.category == case.category}
    assert case.id in expected and _ids(response.content.decode(), every) == expected
    # a well-formed rule without cases: an empty list, not an error
    response = client.get(reverse("casebook:index"), {"regel": "9.9.9"})
    assert response.status_code == 200 and _ids(response.content.decode(), every) == set()


def test_htmx_filter_returns_the_list_only(client: Client) -> None:
    case = casebook.load_cases()[0]
    response = client.get(reverse("casebook:index"), {"kategorie": case.category}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="case-list"') and "<html" not in html
    assert case.id in html


@pytest.mark.parametrize("params", [{"kategorie": "zaubern"}, {"regel": "abc"}, {"regel": "3.2.3<script>"}])
def test_bad_filters_are_400(client: Client, params: dict[str, str]) -> None:
    response = client.get(reverse("casebook:index"), params)
    assert response.status_code == 400
    assert "<script>" not in response.content.decode()


def test_case_page_shows_situation_question_and_a_form_but_no_ruling(client: Client) -> None:
    for case in casebook.load_cases():
        response = client.get(reverse("casebook:case", args=[case.id]))
        assert response.status_code == 200
        html = response.content.decode()
        assert strip_refs(case.title_de) in html
        assert f'action="/faelle/{case.id}/antwort/"' in html and 'type="radio"' in html
        assert ('type="number"' in html) == case.score_asked
        for rule_id in case.rule_ids:
            assert f"/regeln/{rule_id}" in html
        assert "Die Entscheidung" not in html and "Begründung" not in html and "case-ruling" not in html
        if case.hands or "[[cards:" in case.situation_de:
            assert "<svg" in html, "the cards are drawn"


@pytest.mark.parametrize("case_id", ["F-999", "nichts", "..%2F"])
def test_unknown_case_is_404(client: Client, case_id: str) -> None:
    assert client.get(f"/faelle/{case_id}/").status_code == 404


def test_rule_pages_link_their_cases(client: Client) -> None:
    every = casebook.load_cases()
    rule_id = every[0].rule_ids[0]
    response = client.get(f"/regeln/{rule_id}/", follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    for case in casebook.cases_for_rule(rule_id):
        assert f'href="/faelle/{case.id}/"' in html
    assert "Fälle zu dieser Regel" in html


def test_english(client: Client) -> None:
    case = casebook.load_cases()[0]
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get(reverse("casebook:case", args=[case.id])).content.decode()
    assert case.title_en in html and "Decide" in html
    assert "Cases" in client.get(reverse("casebook:index")).content.decode()
