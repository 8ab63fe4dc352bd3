"""The real rules_content: no problems, every page renders, the ISkO is covered statement by statement."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from skatschule.rules.content import Registry, reload

pytestmark = pytest.mark.django_db

CONTENT = Path(settings.RULES_CONTENT_DIR)
REPO = Path(settings.BASE_DIR)
SEED_DIRS = (REPO.parent / "shared" / "seeds", Path("/work/shared/seeds"))


@pytest.fixture
def real() -> Registry:
    return reload()


def test_no_problems(real: Registry) -> None:
    assert real.problems() == []
    assert [c.id for c in real.chapters][:4] == ["1", "2", "3", "4"]


def test_every_chapter_and_the_glossary_render_in_both_languages(client: Client, real: Registry) -> None:
    for lang in ("de", "en"):
        client.post("/i18n/setlang/", {"language": lang, "next": "/regeln/"})
        for url in ["/regeln/", "/regeln/glossar/", *(f"/regeln/kapitel/{c.id}/" for c in real.chapters)]:
            response = client.get(url)
            assert response.status_code == 200, (lang, url)
        page = client.get(f"/regeln/kapitel/{real.chapters[0].id}/").content.decode()
        first = real.chapters[0].rules[0]
        assert f'id="{first.anchor}"' in page and first.title(lang) in page


def test_published_ids_exist(real: Registry) -> None:
    from skatschule.rules.content import read_published_ids

    missing = [rid for rid in read_published_ids(CONTENT) if real.rule(rid) is None]
    assert missing == []


# --------------------------------------------------------------------------- ISkO coverage


def _seed_000() -> Path | None:
    for folder in SEED_DIRS:
        found = sorted(folder.glob("000_*.txt")) if folder.is_dir() else []
        if found:
            return found[0]
    return None


def _is_heading(line: str) -> bool:
    """A section heading of seed 000: a short line without a list dash or closing punctuation."""
    return not line.startswith("-") and len(line.split()) <= 4 and line[-1] not in ".:;!?" and line[0].isupper()


def seed_statements(path: Path) -> list[tuple[str, str, str]]:
    """(chapter, section heading, statement) for every statement line of chapters 1-4."""
    chapter = section = None
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        m = re.match(r"^([1-4])\.\s+\S+$", line)
        if m:
            chapter, section = m.group(1), None
            continue
        if chapter is None:
            continue  # the table of contents before chapter 1
        if _is_heading(line):
            section = line
            continue
        if section is not None:
            out.append((chapter, section, re.sub(r"^-\s*", "", line)))
    return out


def coverage_rows() -> list[dict[str, str]]:
    files = sorted((CONTENT / "isko_coverage").glob("*.tsv")) + sorted(CONTENT.glob("isko_coverage*.tsv"))
    rows: list[dict[str, str]] = []
    for path in files:
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                rows.append({k: (v or "").strip() for k, v in row.items()} | {"file": path.name})
    return rows


def test_coverage_rule_ids_exist(real: Registry) -> None:
    rows = coverage_rows()
    assert rows, "rules_content/isko_coverage/*.tsv maps the ISkO's statements to rule ids"
    bad = [
        (r["file"], r["statement_start"], rid)
        for r in rows
        for rid in re.split(r"[,\s]+", r["rule_ids"])
        if rid and real.rule(rid) is None
    ]
    assert bad == []
    assert all(r["rule_ids"] for r in rows), [r for r in rows if not r["rule_ids"]]


def test_every_isko_statement_is_covered(real: Registry) -> None:
    seed = _seed_000()
    if seed is None:
        pytest.skip("seed 000 (../shared/seeds/000_*.txt) is not beside the project")
    statements = seed_statements(seed)
    assert len(statements) > 80  # the parser found the ISkO's statements
    rows = coverage_rows()
    uncovered = []
    for chapter, section, statement in statements:
        ok = any(
            statement.startswith(row["statement_start"])
            and row["statement_start"]
            and row["section"] in (section, f"{chapter} {section}")
            for row in rows
        )
        if not ok:
            uncovered.append(f"{chapter} {section}: {statement[:60]}")
    assert uncovered == [], f"{len(uncovered)} ISkO statements without a coverage row"
