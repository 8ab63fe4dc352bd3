"""RuleId: the one grammar of rule and section ids (parse, str, ordering, is_section)."""

from __future__ import annotations

import re

import pytest

from skatschule.content.ids import PATTERN, RULE_ID_RE, RULE_ONLY_RE, RuleId, is_rule_id
from skatschule.rules.content import get_registry, read_published_ids


@pytest.mark.parametrize(
    ("text", "chapter", "section", "paragraph"),
    [("3.2.4", "3", 2, 4), ("3.2", "3", 2, None), ("K.1.2", "K", 1, 2), ("A.2", "A", 2, None), ("4.5.12", "4", 5, 12)],
)
def test_parse_splits_an_id_into_its_parts(text: str, chapter: str, section: int, paragraph: int | None) -> None:
    rid = RuleId.parse(text)
    assert (rid.chapter, rid.section, rid.paragraph) == (chapter, section, paragraph)
    assert str(rid) == text
    assert rid.is_section is (paragraph is None)


def test_a_lowercase_chapter_letter_and_blanks_are_normalised() -> None:
    assert RuleId.parse(" k.1.2 ") == RuleId("K", 1, 2)
    assert str(RuleId.parse("a.2")) == "A.2"


@pytest.mark.parametrize("text", ["", "3", "3.", "3..4", "3.2.4.5", "KK.1.2", "3.x.1", "SkO 4.2.9", "3,2,4", "-3.2"])
def test_parse_rejects_what_is_not_an_id(text: str) -> None:
    with pytest.raises(ValueError):
        RuleId.parse(text)
    assert RuleId.try_parse(text) is None
    assert not is_rule_id(text)


def test_ordering_follows_the_skatordnung_not_the_alphabet() -> None:
    ids = ["A.1.1", "3.2.10", "K.1.2", "3.2", "3.2.9", "1.1.1", "10.1.1", "3.10.1", "K.1"]
    ordered = [str(r) for r in sorted(RuleId.parse(t) for t in ids)]
    assert ordered == ["1.1.1", "3.2", "3.2.9", "3.2.10", "3.10.1", "K.1", "K.1.2", "A.1.1", "10.1.1"]


def test_the_ordering_agrees_with_the_order_of_the_rules_in_the_content() -> None:
    order = [r.id for r in get_registry().rule_order]
    assert sorted(order, key=RuleId.parse) == order


def test_section_id_of_a_rule() -> None:
    assert RuleId.parse("3.2.4").section_id == RuleId.parse("3.2")
    assert RuleId.parse("3.2").section_id == RuleId.parse("3.2")


def test_written_form_only_capitals_without_leading_zeros() -> None:
    assert is_rule_id("3.2.4") and is_rule_id("3.2") and is_rule_id("K.1.2")
    assert not is_rule_id("k.1.2")
    assert not is_rule_id("03.2.4") and not is_rule_id("3.02")
    assert not is_rule_id(" 3.2.4")
    assert not is_rule_id("3.2", section=False)
    for text in ["3.2.4", "3.2", "K.1.2", "k.1.2", "03.2.4", "3.2", "3.2.4.5", "A.10.1"]:
        assert bool(RULE_ID_RE.match(text)) == is_rule_id(text), text
        assert bool(RULE_ONLY_RE.match(text)) == is_rule_id(text, section=False), text


def test_every_published_id_is_a_written_rule_id_and_the_url_pattern_takes_it() -> None:
    published = read_published_ids(get_registry().content_dir)
    assert published
    url = re.compile(rf"^{PATTERN}$")
    for rid in published:
        assert is_rule_id(rid, section=False), rid
        assert url.match(rid) and url.match(rid.lower()), rid
        assert str(RuleId.parse(rid)) == rid
