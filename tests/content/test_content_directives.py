"""The one directive grammar ``[[name: arg]]`` and the plain-text forms of the directives."""

from __future__ import annotations

import pytest

from skatschule.content.compute import DirectiveError, directive_text
from skatschule.content.directives import find_directives, parse_directive, replace_directives, stray_brackets
from skatschule.content.plain import plain
from skatschule.engine import Contract, game_value, parse_game


def test_find_reads_kind_in_lowercase_and_normalises_the_blanks_of_the_args() -> None:
    text = "Vor [[Cards:  CJ\n   SJ ]] und [[ rule : 3.2.4]] nach"
    found = find_directives(text)
    assert [(d.kind, d.args) for d in found] == [("cards", "CJ SJ"), ("rule", "3.2.4")]
    assert [text[d.start : d.end] for d in found] == [d.source for d in found]
    assert found[0].source == "[[Cards:  CJ\n   SJ ]]"


@pytest.mark.parametrize(
    "text", ["[[cards CJ]]", "[[: CJ]]", "[[car ds: CJ]]", "[[cards: [CJ]]]", "[cards: CJ]", "[[c4rds: CJ]]"]
)
def test_what_is_not_a_directive(text: str) -> None:
    assert not [d for d in find_directives(text) if d.source == text]


def test_replace_keeps_the_text_around() -> None:
    assert replace_directives("a [[x: 1]] b [[y:2]] c", lambda d: d.kind.upper() + d.args) == "a X1 b Y2 c"


def test_parse_directive_with_and_without_brackets() -> None:
    assert parse_directive("[[Value:  clubs   mit 2 ]]") == ("value", "clubs mit 2")
    assert parse_directive("points: CA CT") == ("points", "CA CT")
    with pytest.raises(ValueError):
        parse_directive("[[points CA]]")


def test_stray_brackets_find_an_unfinished_directive() -> None:
    assert stray_brackets("see [[rule: 3.2.4")
    assert stray_brackets("done]] here")
    assert not stray_brackets("see [[rule: 3.2.4]] and [[cards: CJ]]")


def test_directive_text_takes_its_numbers_from_the_engine() -> None:
    expected = game_value(Contract(parse_game("clubs"), hand=True), 2).value
    assert directive_text("[[value: clubs mit 2 hand]]").endswith(f"= {expected}")
    assert directive_text("points: CA CT CK") == str(11 + 10 + 4)


def test_directive_text_names_the_place_and_the_directive_on_error() -> None:
    with pytest.raises(DirectiveError) as info:
        directive_text("[[value: clubs]]", where="x.md:3")
    assert str(info.value).startswith("x.md:3: [[value: clubs]]: ")
    with pytest.raises(DirectiveError):
        directive_text("[[nonsense: 1]]")
    with pytest.raises(DirectiveError):
        directive_text("[[rule: 9.9.9]]", rule_exists=lambda rid: False)
    assert directive_text("[[rule: 3.2.4]]", rule_exists=lambda rid: True) == "3.2.4"


def test_plain_spells_out_directives_and_drops_markup() -> None:
    text = plain("**Vorhand** spielt [[cards: CJ]] aus, siehe [[rule: 3.2.4]] und [[points: CA]].", "de")
    assert text == "Vorhand spielt ⟦card:CJ⟧ aus, siehe ISkO 3.2.4 und 11."
    assert plain("[[value: clubs]]", "de") == "clubs"  # the engine refuses it: the words stay
