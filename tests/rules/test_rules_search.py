"""Search: folding of umlauts and ß, AND semantics, ranking, highlighting."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from skatschule.rules.content import Registry
from skatschule.rules.search import fold, search


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("überreizt", "ueberreizt"),
        ("überreizt", "uberreizt"),
        ("Überreizt", "UEBERREIZT"),
        ("Straße", "strasse"),
        ("Größe", "groesse"),
        ("Größe", "grosse"),
        ("spielt", "spielt"),
    ],
)
def test_folding(a: str, b: str) -> None:
    assert fold(a) == fold(b)


def test_umlaut_spellings_give_same_results(registry: Registry) -> None:
    keys = [[r.key for r in search(q, "de", registry=registry).rules] for q in ("überreizt", "uberreizt", "ueberreizt")]
    assert keys[0] == keys[1] == keys[2]
    assert keys[0][0] == "1.2.1"
    terms = [r.key for r in search("uberreizt", "de", registry=registry).terms]
    assert terms == ["ueberreizt"]


def test_sharp_s_folds(registry: Registry) -> None:
    # "höchstens" in the texts; ß/ss both ways: "hoechstens" and "hochstens"
    assert search("hoechstens", "de", registry=registry).rules
    assert [r.key for r in search("hochstens", "de", registry=registry).rules] == [
        r.key for r in search("höchstens", "de", registry=registry).rules
    ]


def test_title_hit_ranks_first(registry: Registry) -> None:
    # 1.2.1 mentions Schneider four times in its text; 1.1.2 has it in the title
    results = search("Schneider", "de", registry=registry)
    assert [r.key for r in results.rules][:2] == ["1.1.2", "1.2.1"]
    assert results.terms[0].key == "schneider"


def test_all_words_required_and_phrase(registry: Registry) -> None:
    assert [r.key for r in search("Spiel sofort Ende", "de", registry=registry).rules] == ["3.2.3"]
    assert not search("Schneider Revolution", "de", registry=registry)


def test_phrase_bonus(make_content: Callable[..., Registry]) -> None:
    reg = make_content(
        {
            "regeln/1-grundlagen.md": (
                "Schneider ist, wer höchstens 30 Augen hat.",
                "Im Skat lag kein Bube, aber ein Bube lag in der Hand.",
            ),
            "regeln/3-durchfuehrung.md": (
                "Wird das falsche Bedienen erst später bemerkt",
                "Ein Bube im Skat zählt mit. Wird das falsche Bedienen erst später bemerkt",
            ),
        }
    )
    assert [r.key for r in search("Bube im Skat", "de", registry=reg).rules][:2] == ["3.2.4", "1.1.2"]


def test_current_language_first_and_highlight(registry: Registry) -> None:
    de = search("revoke", "de", registry=registry).rules
    assert de[0].key == "3.2.3" and de[0].lang == "en"  # found in English for a German reader
    en = search("revoke", "en", registry=registry).rules[0]
    assert en.lang == "en" and "<mark>Revoke</mark>" in en.title_html
    hit = search("sofort", "de", registry=registry).rules[0]
    assert "<mark>sofort</mark>" in hit.snippet_html
    assert hit.url == "/regeln/3.2.3"


def test_markup_in_query_is_escaped(registry: Registry) -> None:
    assert not search("<script>", "de", registry=registry)
    hit = search("Schneider", "de", registry=registry).rules[0]
    assert "<script" not in hit.snippet_html


def test_rule_number_and_old_citation_go_straight_to_the_rule(registry: Registry) -> None:
    assert [r.key for r in search("3.2.4", "de", registry=registry).rules] == ["3.2.4"]
    assert [r.key for r in search("SkO 4.2.9", "de", registry=registry).rules] == ["3.2.3"]
