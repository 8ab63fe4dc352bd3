"""Fixtures for the rules app: a small content folder instead of the real rules_content."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytest_django.fixtures import Settings

from skatschule.rules.content import Registry, reload

FIXTURE_CONTENT = Path(__file__).parent / "fixtures" / "content"


@pytest.fixture
def registry(settings: Settings) -> Iterator[Registry]:
    """The fixture content as the site's content (settings.RULES_CONTENT_DIR)."""
    settings.RULES_CONTENT_DIR = FIXTURE_CONTENT
    yield reload()
    reload()


@pytest.fixture
def make_content(tmp_path: Path, settings: Settings) -> Iterator[Callable[..., Registry]]:
    """A copy of the fixture content with edits: ``make_content({"regeln/1-grundlagen.md": (old, new)})``."""

    def make(edits: dict[str, tuple[str, str] | str] | None = None) -> Registry:
        target = tmp_path / "content"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(FIXTURE_CONTENT, target)
        for name, edit in (edits or {}).items():
            path = target / name
            if isinstance(edit, str):
                path.write_text(edit, encoding="utf-8")
            else:
                old, new = edit
                text = path.read_text(encoding="utf-8")
                assert old in text, f"{old!r} not in {name}"
                path.write_text(text.replace(old, new, 1), encoding="utf-8")
        settings.RULES_CONTENT_DIR = target
        return reload()

    yield make
    reload()
