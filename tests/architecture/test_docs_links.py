"""The documentation beside the code (issue 38 §1): every relative link in every README.md and
MEASUREMENTS.md reaches a file (and its #anchor a heading there), the main README stays a short
tour, and every README with doctests lies where pytest's ``--doctest-glob`` finds it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "node_modules", "_mypyc", ".git", "staticfiles", "htmlcov"}
MAIN_README_MAX_LINES = 220

LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def doc_files() -> list[Path]:
    """Every README.md and MEASUREMENTS.md of the project (not of the venv or a build)."""
    found = [
        path
        for name in ("README.md", "MEASUREMENTS.md")
        for path in ROOT.rglob(name)
        if not SKIP.intersection(path.relative_to(ROOT).parts)
    ]
    return sorted(found)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces become hyphens."""
    text = CODE_SPAN.sub(lambda m: m.group(0)[1:-1], heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for line in text.splitlines():
        match = re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(path: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def test_the_project_has_its_documentation_beside_the_code() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in doc_files()}
    for part in ("engine", "table", "quizzes", "lti", "operations"):
        assert f"skatschule/{part}/README.md" in names
    assert "skatschule/operations/MEASUREMENTS.md" in names


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path: Path) -> None:
    broken = []
    for target in links(path):
        file_part, _, anchor = target.partition("#")
        goal = (path.parent / file_part).resolve() if file_part else path
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{target}: no such heading")
    assert not broken, broken


def test_the_main_readme_is_a_short_tour() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAIN_README_MAX_LINES, len(lines)
    linked = set(links(ROOT / "README.md"))
    for path in doc_files():
        if path.parent.parent == ROOT / "skatschule":
            assert path.relative_to(ROOT).as_posix() in linked, f"README.md does not link {path}"


def test_every_readme_with_doctests_is_collected() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "--doctest-glob=README.md" in config["addopts"]
    roots = [ROOT / entry for entry in config["testpaths"]]
    with_doctests = [path for path in doc_files() if re.search(r"^>>> ", path.read_text(encoding="utf-8"), re.M)]
    assert with_doctests  # the engine's README holds its example
    for path in with_doctests:
        assert path.name == "README.md", path
        assert any(path == root or root in path.parents for root in roots), path


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Eine Überschrift (`code`)\n", encoding="utf-8")
    page = tmp_path / "README.md"
    page.write_text(
        "[gut](other.md#eine-überschrift-code) [weg](missing.md) [falsch](other.md#nichts)\n"
        "`[im Code](missing.md)` [extern](https://example.org/x)\n",
        encoding="utf-8",
    )
    assert links(page) == ["other.md#eine-überschrift-code", "missing.md", "other.md#nichts"]
    assert anchors(tmp_path / "other.md") == {"eine-überschrift-code"}
