"""Search (issue 17, §2): inverted index, a result cache by normalised query, typo tolerance;
and the snippet for "Reizwert 23" reads cleanly (issue 14, §5)."""

from __future__ import annotations

from typing import Any

import pytest

from skatschule.rules.content import Registry, reload
from skatschule.rules.search import fold, search, search_index, within_edits

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def real() -> Registry:
    return reload()


def test_within_edits() -> None:
    assert within_edits("schneidr", "schneider", 1)
    assert within_edits("uberrreizt", "uberreizt", 1)
    assert within_edits("kreuz", "kruze", 2) and not within_edits("kreuz", "kruze", 1)
    assert within_edits("kreuz", "kruez", 1)  # two neighbours swapped are one edit
    assert not within_edits("null", "grand", 2)
    assert within_edits("", "ab", 2) and not within_edits("", "abc", 2)


def _osa(a: str, b: str) -> int:
    """Optimal string alignment distance, unbanded: the reference for ``within_edits``."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def test_within_edits_agrees_with_the_unbanded_distance() -> None:
    import random

    rng = random.Random(26)
    for _ in range(3000):
        a = "".join(rng.choice("abcr") for _ in range(rng.randint(0, 7)))
        b = "".join(rng.choice("abcr") for _ in range(rng.randint(0, 7)))
        for limit in (1, 2):
            assert within_edits(a, b, limit) == (_osa(a, b) <= limit), (a, b, limit)


def test_long_query_words_stay_cheap(real: Registry) -> None:
    """Typo matching is bounded: an overlong word gets none, and a long query answers quickly."""
    import time

    from skatschule.rules.search import MAX_FUZZY_WORD

    index = search_index(real)
    assert index._matches("x" * (MAX_FUZZY_WORD + 1)) == {}
    words = " ".join("kontarx" + "ab" * (n % 7) for n in range(40))
    start = time.process_time()
    search(words, registry=real)
    assert time.process_time() - start < 5


@pytest.mark.parametrize(
    "typo, rule, word",
    [
        ("schneidr", "4.2.3", "Schneider"),
        ("uberrreizt", "4.4.1", "überreizt"),
        ("Kontar", "K.1.1", "Kontra"),
        ("Grnad", "K.7.3", "Grand"),
        ("Skta", "K.6.1", "Skat"),
    ],
)
def test_typos_find_the_word(real: Registry, typo: str, rule: str, word: str) -> None:
    results = search(typo, registry=real)
    keys = [r.key for r in results.rules]
    assert rule in keys[:3], keys[:5]
    first = next(r for r in results.rules if r.key == rule)
    assert f"<mark>{word}</mark>".lower() in (first.title_html + first.snippet_html).lower()


def test_exact_words_are_not_widened_by_typo_tolerance(real: Registry) -> None:
    index = search_index(real)
    assert set(index._matches(fold("schneider"))) == {
        t for t in index.vocabulary if t.startswith("schneider") or ("schneider" in t)
    }


def test_results_are_cached_by_normalised_query(real: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    index = search_index(real)
    index._results.clear()
    calls: list[tuple[Any, ...]] = []
    original = index._search

    def counted(*a: Any) -> Any:
        calls.append(a)
        return original(*a)

    monkeypatch.setattr(index, "_search", counted)
    first = search("Überreizt  Handspiel", registry=real)
    again = search("  ueberreizt handspiel ", registry=real)
    assert len(calls) == 1 and [r.key for r in first.rules] == [r.key for r in again.rules]
    assert again.query == "  ueberreizt handspiel "  # the page shows what the reader typed
    search("überreizt handspiel", lang="en", registry=real)
    assert len(calls) == 2  # another language is another result list


def test_the_query_scores_only_documents_from_the_inverted_index(
    real: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = search_index(real)
    index._results.clear()
    scored: list[Any] = []
    original = index._score

    def counted(doc: Any, *a: Any) -> Any:
        scored.append(doc)
        return original(doc, *a)

    monkeypatch.setattr(index, "_score", counted)
    results = search("Schneider angesagt", registry=real)
    assert results.rules and len(scored) < len(index.docs) / 5


def test_reizwert_snippet_is_not_garbled(real: Registry) -> None:
    text = " ".join(str(r.snippet_html) for r in search("Reizwert 23", registry=real).rules)
    assert "Null Null" not in text and "null Null" not in text
