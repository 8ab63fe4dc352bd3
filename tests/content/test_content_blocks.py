"""The one block reader: front matter, @blocks and their de:/en: parts."""

from __future__ import annotations

from skatschule.content.blocks import number_lines, read_front_matter, split_blocks, split_parts, split_title


def test_front_matter_with_line_numbers_and_its_end() -> None:
    lines = ["---", "slug: a", "title: A | B", "---", "@de", "Text"]
    front = read_front_matter(lines)
    assert front.present and front.closed and front.end == 4
    assert front.lines == ((2, "slug: a"), (3, "title: A | B"))


def test_front_matter_missing_or_not_closed() -> None:
    assert not read_front_matter(["@de", "Text"]).present
    assert not read_front_matter([]).present
    open_front = read_front_matter(["---", "slug: a"])
    assert open_front.present and not open_front.closed and open_front.end == 2


def test_blocks_and_the_lines_before_them() -> None:
    lead, blocks = split_blocks(number_lines(["meta: 1", "", "@de", "Hallo", "@en", "Hello", "more"]))
    assert lead == [(1, "meta: 1"), (2, "")]
    assert [(b.name, b.line, b.lines) for b in blocks] == [
        ("de", 3, [(4, "Hallo")]),
        ("en", 5, [(6, "Hello"), (7, "more")]),
    ]


def test_parts_de_opens_only_once_and_en_ends_it() -> None:
    parts = split_parts(number_lines(["", "de: Eins", "zwei", "de: drei", "en: One", "en: again", "stray"]))
    assert parts.texts["de"] == ["Eins", "zwei", "de: drei"]
    assert parts.texts["en"] == ["again", "stray"]
    assert parts.twice == [(6, "en")]
    assert parts.stray == []


def test_parts_text_before_the_first_part_is_stray() -> None:
    parts = split_parts(number_lines(["vorher", "de: Text"]))
    assert parts.stray == [(1, "vorher")]
    assert parts.texts == {"de": ["Text"]}


def test_split_title() -> None:
    assert split_title(" Bedienen | Following suit ") == ("Bedienen", "Following suit")
    assert split_title("Nur Deutsch") == ("Nur Deutsch", "")
