"""registry.problems(): every kind of mistake is reported as a readable line."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from skatschule.rules.content import Registry

CH1 = "regeln/1-grundlagen.md"


def test_duplicate_id(make_content: Callable[..., Registry]) -> None:
    reg = make_content({CH1: ("## 1.1.2 Schneider", "## 1.1.1 Schneider")})
    assert any("1.1.1 doppelt" in p for p in reg.problems())


def test_id_must_match_section_and_chapter(make_content: Callable[..., Registry]) -> None:
    reg = make_content({CH1: ("## 1.2.1 Zahlen", "## 1.3.1 Zahlen")})
    assert any("1.3.1 steht im Abschnitt 1.2" in p for p in reg.problems())
    reg = make_content({CH1: ("# 1.2 Werte", "# 2.2 Werte")})
    assert any("'2.2' passt nicht zu Kapitel 1" in p for p in reg.problems())


def test_dangling_references(make_content: Callable[..., Registry]) -> None:
    reg = make_content({CH1: ("see: 1.1.2, 3.2.3", "see: 1.1.2, 3.9.9")})
    assert any("see: 3.9.9 gibt es nicht" in p for p in reg.problems())
    reg = make_content({CH1: ("Siehe [[rule: 1.1.2]]", "Siehe [[rule: 7.7.7]]")})
    assert any("[[rule: 7.7.7]] gibt es nicht" in p and "1.2.1" in p for p in reg.problems())
    reg = make_content({"glossar.md": ("rules: 1.1.2", "rules: 1.1.9")})
    assert any("rules: 1.1.9 gibt es nicht" in p for p in reg.problems())


def test_missing_english(make_content: Callable[..., Registry]) -> None:
    reg = make_content({CH1: ("@en\nSchneider is whoever has at most 30 card points.\n", "")})
    assert any("1.1.2: Regeltext @en fehlt" in p for p in reg.problems())
    reg = make_content({CH1: ("en: Things used to be different.\n", "")})
    assert any("@geschichte ohne 'en:'-Teil" in p for p in reg.problems())
    reg = make_content({CH1: ("## 1.1.2 Schneider | Schneider", "## 1.1.2 Schneider")})
    assert any("braucht 'Deutsch | English'" in p for p in reg.problems())


def test_bad_directive_names_file_rule_and_directive(make_content: Callable[..., Registry]) -> None:
    reg = make_content({CH1: ("de: Mit [[cards: CJ SJ]]", "de: Mit [[cards: CJ XX]]")})
    problems = reg.problems()
    assert len(problems) == 1
    assert "regeln/1-grundlagen.md" in problems[0] and "1.1.1" in problems[0] and "[[cards: CJ XX]]" in problems[0]
    reg = make_content({CH1: ("de: Mit [[cards: CJ SJ]]", "de: Mit [[value: clubs mit 2 hand")})
    assert any("unvollständige Direktive" in p for p in reg.problems())


def test_unknown_block_and_stray_text(make_content: Callable[..., Registry]) -> None:
    reg = make_content({CH1: ("@variante", "@anekdote")})
    assert any("unbekannter Block @anekdote" in p for p in reg.problems())
    reg = make_content({"regeln/3-durchfuehrung.md": ("tags: revoke\n", "tags: revoke\nirgendein Text\n")})
    assert any("Text außerhalb eines @de/@en-Blocks" in p for p in reg.problems())


def test_removed_published_id(make_content: Callable[..., Registry]) -> None:
    reg = make_content({"published_ids.txt": "1.1.1\n1.1.2\n3.2.3\n3.2.5\n"})
    problems = reg.problems()
    assert problems == [problems[0]] and "3.2.5" in problems[0] and "published_ids.txt" in problems[0]


@pytest.mark.django_db  # load_content also loads the shipped puzzles into the database
def test_load_content_command_fails_with_problems(
    make_content: Callable[..., Registry], capsys: pytest.CaptureFixture[str]
) -> None:
    make_content()
    call_command("load_content")
    assert "3 Kapitel" in capsys.readouterr().out
    make_content({CH1: ("see: 1.1.2, 3.2.3", "see: 1.1.2, 3.9.9")})
    with pytest.raises(CommandError):
        call_command("load_content")
    assert "3.9.9" in capsys.readouterr().err


@pytest.mark.django_db
def test_load_content_publish_adds_ids(make_content: Callable[..., Registry]) -> None:
    reg = make_content()
    call_command("load_content", "--publish")
    lines = (reg.content_dir / "published_ids.txt").read_text().splitlines()
    assert [line for line in lines if not line.startswith("#")] == [
        "1.1.1",
        "1.1.2",
        "1.2.1",
        "3.2.3",
        "3.2.4",
        "K.1.1",
    ]


def test_uncovered_rules_lists_isko_rules(registry: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    call_command("uncovered_rules")
    out = capsys.readouterr().out
    assert "K.1.1" not in out  # not ISkO
    assert "von 5 Regeln" in out


def test_origin_needs_both_languages(make_content: Callable[..., Registry]) -> None:
    reg = make_content({CH1: ("tags: schneider", "tags: schneider\norigin: Ältere Skatordnung | Older Skatordnung")})
    rule = reg.rule("1.1.2")
    assert (
        rule is not None
        and rule.origin.get("de") == "Ältere Skatordnung"
        and rule.origin.get("en") == "Older Skatordnung"
    )
    assert not any("origin" in p for p in reg.problems())
    reg = make_content({CH1: ("tags: schneider", "tags: schneider\norigin: nur deutsch")})
    assert any("1.1.2: 'origin:' braucht Deutsch | English" in p for p in reg.problems())
