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
