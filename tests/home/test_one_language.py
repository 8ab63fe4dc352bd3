"""The current language is read in one place, home/language.current_lang (issue 27 §2)."""

import ast
from pathlib import Path

from django.utils import translation

import skatschule
from skatschule.cards import render

PACKAGE = Path(skatschule.__file__).parent
READ_THROUGH_CURRENT_LANG = ("cards/render.py", "operations/views.py")


def _calls_get_language(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(alias.name == "get_language" for alias in node.names):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "get_language":
            return True
    return False


def test_these_modules_read_the_language_only_through_current_lang():
    offenders = [name for name in READ_THROUGH_CURRENT_LANG if _calls_get_language(PACKAGE / name)]
    assert offenders == []


def test_card_names_follow_current_lang_unless_a_language_is_given():
    with translation.override("en-gb"):
        assert render._lang(None) == "en"
        assert render._lang("de") == "de"
    with translation.override("de"):
        assert render._lang(None) == "de"
        assert render._lang("EN") == "en"
