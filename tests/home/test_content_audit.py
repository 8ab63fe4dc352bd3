"""The referee's audit of the content (issue 26 §1.4, §1.5, §2): what the pages say, in DE and EN."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

README = Path(settings.BASE_DIR) / "README.md"
GLOSSARY = Path(settings.BASE_DIR) / "rules_content" / "glossar.md"


def page(client, url: str, lang: str = "de") -> str:  # type: ignore[no-untyped-def]
    client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    response = client.get(url)
    assert response.status_code == 200, url
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", response.content.decode()))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_claimed_court_decisions(client, lang: str) -> None:  # type: ignore[no-untyped-def]
    """No decision of the Skatgericht is cited anywhere: the site says the rulings are our reading."""
    home = page(client, "/", lang)
    glossary = page(client, "/regeln/glossar/", lang)
    cases = page(client, "/faelle/", lang)
    for text in (home, glossary, cases, README.read_text(encoding="utf-8"), GLOSSARY.read_text(encoding="utf-8")):
        assert "Spruchpraxis" not in text
        assert "Entscheidungen des Skatgerichts" not in text and "examples and decisions of the Skat court" not in text
        assert "case law" not in text
    reading = "unserer Lesart der ISkO" if lang == "de" else "our reading of the ISkO"
    assert reading in home
    assert ("unsere Lesart der ISkO" if lang == "de" else "our reading of the ISkO") in glossary
    assert ("unsere Lesart der ISkO" if lang == "de" else "our reading of the ISkO") in cases


WORDS = [("de", "nicht in der ISkO"), ("en", "The ISkO does not contain this rule")]


@pytest.mark.parametrize(("lang", "words"), WORDS)
def test_older_dealing_rules_name_their_source(client, lang: str, words: str) -> None:  # type: ignore[no-untyped-def]
    """2.2.3 and 2.2.4 come from the older Skatordnung and seed 002, not from the ISkO (seed 000)."""
    from skatschule.rules.content import get_registry

    registry = get_registry()
    for rule_id in ("2.2.3", "2.2.4"):
        rule = registry.rule(rule_id)
        assert rule is not None and "Skatordnung" in rule.origin(lang)
        text = page(client, f"/regeln/{rule_id}/einzeln/", lang)
        assert words in text and ("nicht ISkO" if lang == "de" else "not ISkO") in text
    assert registry.rule("2.2.1").origin(lang) == ""  # the ISkO's own rule carries no such note


@pytest.mark.parametrize("lang", ["de", "en"])
def test_dealing_cases_say_what_the_isko_says(client, lang: str) -> None:  # type: ignore[no-untyped-def]
    from skatschule.casebook.cases import get_case

    cases = {case_id: get_case(case_id) for case_id in ("F-01", "F-02", "F-03", "F-04")}
    for case_id, case in cases.items():
        assert case is not None
        explanation = case.explanation(lang)
        assert ("nicht ISkO" if lang == "de" else "not ISkO") in explanation, case_id
        assert "2.2.1" in explanation or "2.3.7" in explanation, case_id
    f04 = cases["F-04"]
    assert f04 is not None
    assert "schweigt" not in f04.explanation("de")
    assert "Vorhands Nachbar" not in f04.situation("de")  # the dealer always is forehand's neighbour
    assert "2.3.7" in f04.rule_ids and "2.2.4" in f04.rule_ids
    rule_224 = page(client, "/regeln/2.2.4/einzeln/", lang)
    assert ("nicht an der Reihe" if lang == "de" else "not due to deal") in rule_224  # what F-04 cites it for
