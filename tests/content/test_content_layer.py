"""The content package is pure Python on top of the engine: no Django, no app."""

from __future__ import annotations

import ast
from pathlib import Path

import skatschule.content

ALLOWED = ("skatschule.engine", "skatschule.content")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
    return found


def test_content_imports_only_the_engine_and_the_standard_library() -> None:
    folder = Path(skatschule.content.__file__).parent
    files = sorted(folder.glob("*.py"))
    assert len(files) >= 5
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert top != "django", f"{path.name} imports {name}"
            if top == "skatschule":
                assert name.startswith(ALLOWED), f"{path.name} imports {name}"
