"""One way to speak two languages (issue 27 §2 and §4).

The current language is read in one place, ``core/language.current_lang``; gettext speaks the
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
from skatschule.core.errors import UserError, message_in
from skatschule.core.language import current_lang
from skatschule.engine import SEATS, IllegalMove, Text
from skatschule.exercises import REGISTRY

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


def test_only_core_language_reads_the_active_language() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "migrations" not in path.parts and _calls_get_language(path)
    ]
    assert offenders == ["core/language.py"]


def test_current_lang_follows_the_request_unless_a_language_is_given() -> None:
    with translation.override("en-gb"):
        assert (current_lang(), current_lang("de"), render.deck_words("⟦card:CJ⟧")) == ("en", "de", "jack of clubs")
    with translation.override("de"):
        assert (current_lang(), current_lang("EN"), current_lang("fr")) == ("de", "en", "de")
        assert render.deck_words("⟦card:CJ⟧", lang="en") == "jack of clubs"


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
    german, english = ("Vorhand", "Mittelhand", "Hinterhand"), ("forehand", "middlehand", "rearhand")
    for seat in SEATS:  # so do the seats' names, read by the table, the puzzles, the auction and the quizzes
        assert (seat.text.get("de"), seat.text.get("en-gb"), seat.text.get("fr")) == (
            german[seat],
            english[seat],
            german[seat],
        )


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


# --- no third way: choosing literal words with a test on the language -----------------------------

LANGUAGE_CODES = frozenset({"de", "en"})

ALLOWED_LANGUAGE_CHOICES = {
    # What these choose is no wording: a language code, or the separator a spreadsheet in that
    # language expects. A new entry needs a reason of that kind; wording goes through gettext
    # (interface) or a Text (domain).
    "content/compute.py:directive_text: 'en' | 'de'",
    "core/spreadsheets.py:default_delimiter: ',' | ';'",
    # a card's name is built by each language's grammar ("Kreuz-Bube", "the jack of clubs"), from
    # the deck's name tables: the names are data, the order of their parts is the language's
    "engine/names.py:card: return f'{self.suits_de[card.suit]}-{sel | lang_of(lang) != 'en'",
    "engine/names.py:with_article: return f'the {self.card(card, lang)}' | lang != 'de'",
    "learners/reminders.py:send_reminder: 'en' | 'de'",
    "learners/services.py:save_choices: 'en' | 'de'",
}


def _is_language_code(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value in LANGUAGE_CODES


def _tests_the_language(test: ast.expr) -> bool:
    return any(
        isinstance(node, ast.Compare) and any(_is_language_code(side) for side in (node.left, *node.comparators))
        for node in ast.walk(test)
    )


def _literal(node: ast.AST | None) -> bool:
    """A string literal, an f-string, or a tuple or list of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, (ast.Tuple, ast.List)):
        return bool(node.elts) and all(_literal(element) for element in node.elts)
    return False


def _only_literals(body: list[ast.stmt]) -> bool:
    """Statements that only assign or return literal words (one branch of ``if lang == "en":``)."""
    return bool(body) and all(isinstance(s, (ast.Assign, ast.Return)) and _literal(s.value) for s in body)


class _LanguageChoices(ast.NodeVisitor):
    """Each choice between literal words by a comparison with a language code, as
    ``function: first | second`` (the branches shortened)."""

    def __init__(self) -> None:
        self.functions: list[str] = []
        self.found: list[str] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def _note(self, first: ast.AST, second: ast.AST) -> None:
        where = self.functions[-1] if self.functions else "<module>"
        self.found.append(f"{where}: {ast.unparse(first)[:40]} | {ast.unparse(second)[:40]}")

    def visit_IfExp(self, node: ast.IfExp) -> None:
        if _tests_the_language(node.test) and _literal(node.body) and _literal(node.orelse):
            self._note(node.body, node.orelse)
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        if _tests_the_language(node.test) and _only_literals(node.body):
            self._note(node.body[0], node.orelse[0] if node.orelse else node.test)
        self.generic_visit(node)


def _language_choices(source: str) -> list[str]:
    visitor = _LanguageChoices()
    visitor.visit(ast.parse(source))
    return visitor.found


def test_the_check_finds_a_choice_of_words_by_the_language() -> None:
    source = """
def title(lang):
    return "Results" if lang == "en" else "Ergebnisse"

def head(lang):
    if lang != "de":
        return ["Item", "Type"]
    return ["Aufgabe", "Art"]

def fine(lang, text):
    return text.en if lang == "en" else text.de
"""
    assert _language_choices(source) == [
        "title: 'Results' | 'Ergebnisse'",
        "head: return ['Item', 'Type'] | lang != 'de'",
    ]


def test_the_apps_choose_no_words_by_the_language() -> None:
    """The apps' words come from gettext or a Text, never from ``"…" if lang == "en" else "…"``
    (nor ``if lang == "en": header = [...]``); the engine's from a Text."""
    found = {
        f"{path.relative_to(PACKAGE)}:{choice}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "migrations" not in path.parts
        for choice in _language_choices(path.read_text(encoding="utf-8"))
    }
    assert found == ALLOWED_LANGUAGE_CHOICES  # an allowed choice that is gone leaves the list too
