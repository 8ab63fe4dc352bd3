"""The chapter and glossary parser (rules_content/README.md) on the fixture content."""

from __future__ import annotations

from pathlib import Path

from skatschule.rules.content import Annotation, alias_key, load_registry

FIXTURE_CONTENT = Path(__file__).parent / "fixtures" / "content"


def test_chapters_in_order_with_titles_and_intro() -> None:
    reg = load_registry(FIXTURE_CONTENT)
    assert [c.id for c in reg.chapters] == ["1", "3", "K"]
    one = reg.chapter("1")
    assert one is not None
    assert (one.title_de, one.title_en) == ("Grundlagen (Testkapitel)", "Basics (test chapter)")
    assert one.intro("de").startswith("Ein kleines Testkapitel")
    assert one.intro("en").startswith("A small test chapter")
    assert [s.id for s in one.sections] == ["1.1", "1.2"]
    assert one.sections[0].title("en") == "Kinds of game"
    assert not reg.chapter("K").is_isko and one.is_isko  # type: ignore[union-attr]


def test_rule_meta_and_both_languages() -> None:
    reg = load_registry(FIXTURE_CONTENT)
    rule = reg.rule("1.1.1")
    assert rule is not None
    assert (rule.chapter_id, rule.section_id) == ("1", "1.1")
    assert (rule.title_de, rule.title_en) == ("Drei Gattungen", "Three kinds")
    assert rule.aliases == ("SkO 1.1",)
    assert rule.see == ("1.1.2", "3.2.3")
    assert rule.tags == ("gattung", "uebersicht")
    assert rule.text_de.startswith("Es gibt Farbspiele")
    assert "Ein zweiter Absatz" in rule.text_de  # paragraphs stay together
    assert rule.text_en.startswith("There are suit games")
    assert rule.anchor == "r-1.1.1"


def test_annotations_kinds_parts_and_multiline() -> None:
    reg = load_registry(FIXTURE_CONTENT)
    rule = reg.rule("1.1.1")
    assert rule is not None
    assert [a.kind for a in rule.annotations] == [
        "erlaeuterung",
        "beispiel",
        "schiedsrichter",
        "geschichte",
        "variante",
    ]
    assert rule.annotations[0] == Annotation(
        "erlaeuterung",
        "Die Gattung bestimmt die Trümpfe. Vorhand spielt zuerst aus.",
        "The kind of game decides the trumps. Forehand leads first.",
    )
    referee = rule.annotations[2]
    # a part runs until the next "en:" line: continuation lines and paragraphs belong to it
    assert (
        referee.de
        == "Im Zweifel entscheidet der Schiedsrichter.\nEine zweite Zeile gehört noch dazu.\n\nEin zweiter Absatz auch."
    )
    assert referee.en == "When in doubt the referee decides."


def test_glossary_terms() -> None:
    reg = load_registry(FIXTURE_CONTENT)
    assert [t.slug for t in reg.glossary] == ["schneider", "vorhand", "ueberreizt"]  # slug defaults from the term
    vorhand = reg.term("vorhand")
    assert vorhand is not None
    assert (vorhand.term_de, vorhand.term_en, vorhand.also, vorhand.rules) == (
        "Vorhand",
        "forehand",
        ("VH",),
        ("1.1.1",),
    )
    assert vorhand.de.startswith("Der Spieler") and vorhand.en.startswith("The player")


def test_aliases_normalise_and_resolve() -> None:
    assert alias_key("SkO 4.2.9") == alias_key("SkO 4. 2. 9") == alias_key("4.2.9") == alias_key("SkO-4.2.9") == "4.2.9"
    reg = load_registry(FIXTURE_CONTENT)
    assert reg.resolve("3.2.3") == "3.2.3"
    for ref in ("SkO 4.2.9", "SkO 4. 2. 9", "sko-4.2.9", "4.2.9"):
        assert reg.resolve(ref) == "3.2.3"
    assert reg.resolve("k.1.1") == "K.1.1"
    assert reg.resolve("9.9.9") is None


def test_prev_next_rule_and_chapter() -> None:
    reg = load_registry(FIXTURE_CONTENT)
    assert [r.id for r in reg.rule_order] == ["1.1.1", "1.1.2", "1.2.1", "3.2.3", "3.2.4", "K.1.1"]
    assert reg.prev_rule("1.1.1") is None
    assert reg.next_rule("1.2.1").id == "3.2.3"  # type: ignore[union-attr]
    assert reg.prev_rule("3.2.3").id == "1.2.1"  # type: ignore[union-attr]
    assert reg.next_rule("K.1.1") is None
    assert reg.next_chapter("1").id == "3"  # type: ignore[union-attr]
    assert reg.prev_chapter("1") is None and reg.next_chapter("K") is None


def test_fixture_content_has_no_problems() -> None:
    assert load_registry(FIXTURE_CONTENT).problems() == []
