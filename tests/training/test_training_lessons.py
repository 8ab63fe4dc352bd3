from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from django.conf import settings
from pytest_django.fixtures import Settings

from skatschule.content import DIRECTIVE_RE, find_directives
from skatschule.exercises.base import ExerciseType
from skatschule.training.lessons import (
    LessonError,
    get_activity,
    get_lessons,
    parse_lesson,
    render_text,
    validate_lessons,
)
from skatschule.training.registry import exercise_types

LESSONS_DIR = Path(settings.RULES_CONTENT_DIR) / "lessons"
EXPECTED = {
    1: ("die-karten", {"augen"}),
    2: ("trumpf-und-rangfolge", {"rangfolge"}),
    3: ("bedienen", {"zugeben"}),
    4: ("stiche", {"stich"}),
    5: ("spitzen", {"spitzen"}),
    6: ("spielwert", {"spielwert"}),
    7: ("reizen-wie-hoch", {"reizen_hoehe", "reizen_gespielt"}),
    8: ("reizen-ablauf", {"reizen_ablauf"}),
    9: ("spielansage", {"spielansage", "druecken"}),
    10: ("ueberreizt", {"ueberreizt"}),
    11: ("nullspiele", {"null"}),
    12: ("abrechnung", {"abrechnung", "seeger"}),
    13: ("kneipenregeln", {"kneipe"}),
    14: ("regelverstoesse", {"fall", "regelverstoss"}),
    15: ("hausregeln-und-kneipenskat", {"hausregel"}),
    16: ("ein-ganzes-spiel", {"stich", "zugeben", "spielwert", "abrechnung", "spiel"}),
}

VALID = """---
slug: probe
order: 1
title: Probe | Test
rules: 1.3.2
exercises: fake_add:1
---
@de
Text
@en
Text
"""


def test_the_curriculum() -> None:
    lessons = get_lessons()
    assert len(lessons) >= 12
    got = {lesson.order: (lesson.slug, set(lesson.kinds)) for lesson in lessons}
    assert got == EXPECTED
    assert [lesson.variant for lesson in lessons] == [False] * 12 + [True] + [False] + [True] + [False]
    assert all((lesson.mastery_needed, lesson.mastery_window) == (8, 10) for lesson in lessons)


def test_the_lessons_are_valid() -> None:
    types = exercise_types()
    assert types, "the exercise registry is empty"
    assert validate_lessons() == []
    covered = {kind for lesson in get_lessons() for kind in lesson.kinds}
    # every exercise type belongs to a lesson; the other steps are activities (a game at the table)
    assert covered - set(types) == {"spiel"} and all(get_activity(kind) for kind in covered - set(types))
    assert set(types) <= covered, "every exercise type belongs to a lesson"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_lesson_length(lang: str) -> None:
    for lesson in get_lessons():
        text = re.sub(r"⟦[^⟧]*⟧", " name ", DIRECTIVE_RE.sub(" ", lesson.body(lang)))  # a named card is one word
        words = len(re.findall(r"[0-9A-Za-zÄÖÜäöüß]+", text))
        assert 150 <= words <= 300, (lesson.slug, lang, words)


def _published_rule_ids() -> set[str]:
    ids = set()
    for path in (Path(settings.RULES_CONTENT_DIR) / "regeln").glob("*.md"):
        ids.update(re.findall(r"^## (\S+) ", path.read_text(encoding="utf-8"), re.M))
    return ids


def test_rule_ids_exist_where_the_chapter_is_written() -> None:
    published = _published_rule_ids()
    chapters = {rule.split(".")[0] for rule in published}
    for lesson in get_lessons():
        named = set(lesson.rule_ids)
        for lang in ("de", "en"):
            named.update(d.args for d in find_directives(lesson.body(lang)) if d.kind == "rule")
        for rule in named:
            if rule.split(".")[0] in chapters:
                assert rule in published, (lesson.slug, rule)


def test_lessons_are_in_our_own_words() -> None:
    tool = Path(settings.BASE_DIR).parent / "shared" / "tools" / "own_words.py"
    if not tool.exists():
        pytest.skip("shared/tools/own_words.py is not beside the project")
    result = subprocess.run(
        [sys.executable, str(tool), str(settings.BASE_DIR)], capture_output=True, text=True, timeout=120
    )
    mine = [
        line
        for line in result.stdout.splitlines()
        if line.startswith(("rules_content/lessons/", "templates/training/", "templates/accounts/"))
    ]
    assert not mine, mine


def test_parse_a_lesson() -> None:
    lesson = parse_lesson(VALID.replace("---\n@de", "mastery: 3/4\nvariant: yes\n---\n@de"), "x.md")
    assert (lesson.slug, lesson.title_de, lesson.title_en) == ("probe", "Probe", "Test")
    assert (lesson.mastery_needed, lesson.mastery_window, lesson.variant) == (3, 4, True)
    assert [str(step) for step in lesson.steps] == ["fake_add:1"]
    quoted = parse_lesson(VALID.replace("title: Probe | Test", 'title: "A: b | C: d"'))
    assert (quoted.title_de, quoted.title_en) == ("A: b", "C: d")


@pytest.mark.parametrize(
    "broken",
    [
        VALID.replace("---\nslug", "slug", 1),
        VALID.replace("slug: probe\n", ""),
        VALID.replace("slug: probe", "slug: Probe Lesson"),
        VALID.replace("order: 1", "order: eins"),
        VALID.replace("Probe | Test", "Probe"),
        VALID.replace("fake_add:1", "fake_add"),
        VALID.replace("@en\nText\n", ""),
        VALID.replace("@de\nText\n", "@de\n\n"),
        VALID.replace("rules: 1.3.2", "rules: 1.3.2\nfoo: bar"),
        VALID.replace("rules: 1.3.2", "rules: 1.3.2\nmastery: 11/10"),
        VALID.replace("rules: 1.3.2", "rules: 1.3.2\nvariant: vielleicht"),
        VALID.replace("---\n@de", "---\nstray\n@de"),
        VALID.replace("title: Probe | Test\n", "title: Probe | Test\ntitle: X | Y\n"),
    ],
)
def test_broken_lessons_are_rejected(broken: str) -> None:
    with pytest.raises(LessonError):
        parse_lesson(broken, "broken.md")


def test_validation_reports_problems(fake_training: Mapping[str, ExerciseType]) -> None:
    lesson = parse_lesson(
        VALID.replace("fake_add:1", "fake_add:1, fake_add:9, nope:1")
        .replace("rules: 1.3.2", "rules: 1.3.2, drei")
        .replace("@de\nText", "@de\n[[value: clubs]] [[rule: x]] [[cards: ZZ]]"),
        "p.md",
    )
    problems = "\n".join(validate_lessons((lesson,)))
    for expected in ("not 9", "'nope'", "'drei'", "unknown directive", "'x'", "bad cards"):
        assert expected in problems


def test_file_number_must_match_order(
    fake_training: Mapping[str, ExerciseType], settings: Settings, tmp_path: Path
) -> None:
    (tmp_path / "02-probe.md").write_text(VALID, encoding="utf-8")
    settings.TRAINING_LESSONS_DIR = tmp_path
    with pytest.raises(LessonError):
        get_lessons()
    assert "02-probe.md" in validate_lessons()[0]


def test_render_directives_and_sanitise() -> None:
    html = str(
        render_text("Siehe [[rule: 3.2.1]], [[cards: CA CT]] = [[points: CA CT]] <script>x()</script> **fett**", "de")
    )
    assert 'href="/regeln/3.2.1' in html and ">3.2.1</a>" in html
    assert "<svg" in html and 'data-card="CA"' in html
    assert '<span class="points">21</span>' in html
    assert "<script" not in html and "<strong>fett</strong>" in html
    assert "<table>" in str(render_text("| a | b |\n|---|---|\n| 1 | 2 |"))
