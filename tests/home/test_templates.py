"""Template hygiene that no page test would notice: a block meant for the <title> or the
<head> carries no page markup (a misplaced section there is invisible in tests that look
for the section, but shows twice in the browser)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
BLOCK = re.compile(r"{%\s*block\s+(\w+)\s*%}(.*?){%\s*endblock", re.S)


def test_title_and_head_blocks_hold_no_page_markup() -> None:
    wrong = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for name, body in BLOCK.findall(path.read_text(encoding="utf-8")):
            if name in ("title", "error_title") and "<" in body:
                wrong.append(f"{path.relative_to(TEMPLATES)}: block {name}")
            if name == "extra_head" and re.search(r"<(section|h[1-6]|p|form|main|div)\b", body):
                wrong.append(f"{path.relative_to(TEMPLATES)}: block {name}")
    assert not wrong, "\n".join(wrong)
