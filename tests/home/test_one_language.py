"""One way to speak two languages (issue 27 §2 and §4).

The current language is read in one place, ``home/language.current_lang``; gettext speaks the
interface and the engine's ``Text`` the domain, with one fallback rule (German). The retired
ways (``{% if english %}``, ``LANGUAGE_CODE == "en"`` in templates, ``message_de``/``message_en``
on errors) do not come back.
"""

import ast
import re
from pathlib import Path

from django.utils import translation

import skatschule
from skatschule.cards import render
from skatschule.engine import IllegalMove, Text
from skatschule.exercises import REGISTRY
from skatschule.home.errors import UserError, message_in
from skatschule.home.language import current_lang

PACKAGE = Path(skatschule.__file__).parent
TEMPLATES = PACKAGE.parent / "templates"


def _calls_get_language(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(alias.name == "get_language" for alias in node.names):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "get_language":
            return True
    return False


def test_only_home_language_reads_the_active_language() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "migrations" not in path.parts and _calls_get_language(path)
    ]
    assert offenders == ["home/language.py"]


def test_current_lang_follows_the_request_unless_a_language_is_given() -> None:
    with translation.override("en-gb"):
        assert (current_lang(), current_lang("de"), render.card_name("CJ")) == ("en", "de", "jack of clubs")
    with translation.override("de"):
        assert (current_lang(), current_lang("EN"), current_lang("fr")) == ("de", "en", "de")
        assert render.card_name("CJ", lang="en") == "jack of clubs"


def test_one_fallback_rule_german() -> None:
    text = Text("Stich", "trick")
    assert [text.get(lang) for lang in ("de", "en", "en-gb", "fr", None, "")] == [
        "Stich",
        "trick",
        "trick",
        "Stich",
        "Stich",
        "Stich",
    ]
    assert Text("nur deutsch", "").get("en") == "nur deutsch"
    for kind in REGISTRY.values():  # the exercise types follow the same rule (they once fell back to English)
        assert kind.title("fr") == kind.title("de") == kind.name.de != ""


def test_errors_carry_their_message_as_one_text() -> None:
    engine = IllegalMove("Farbe bedienen", "follow suit")
    site = UserError("Nicht erlaubt")
    assert engine.text == Text("Farbe bedienen", "follow suit") and str(engine) == "Farbe bedienen"
    assert site.text == Text("Nicht erlaubt", "Nicht erlaubt")  # no English yet: German
    assert (message_in(engine, "en"), message_in(engine, "de"), message_in(site, "en")) == (
        "follow suit",
        "Farbe bedienen",
        "Nicht erlaubt",
    )
    assert not any(hasattr(e, name) for e in (engine, site) for name in ("message_de", "message_en"))


RETIRED_IN_TEMPLATES = re.compile(
    r"{%\s*if\s+english\b|LANGUAGE_CODE\s*[!=]=\s*['\"]en|\blang\s*==\s*['\"]en['\"]\s*%}"
)


def test_templates_leave_the_language_to_gettext_and_text() -> None:
    offenders = [
        str(path.relative_to(TEMPLATES))
        for path in sorted(TEMPLATES.rglob("*.html"))
        if RETIRED_IN_TEMPLATES.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
