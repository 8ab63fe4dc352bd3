"""One translation per word (issues 34 §7 and 38 §2).

Seven catalogues once translated 22 msgids in different ways, and Django let the project
catalogue win without a word: quiz "Aufgaben" became "Puzzles". Now each language has one
catalogue (``skatschule/locale``), so a msgid has one translation by construction; where one
German word means two things, the call site gives a context (``pgettext``, ``{% translate ...
context %}``). The compiled ``.mo`` must say what the ``.po`` says.
"""

from __future__ import annotations

import gettext
from pathlib import Path

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import skatschule
from skatschule.operations.conventions import po_entries

PACKAGE = Path(skatschule.__file__).parent
CATALOGUES = PACKAGE / "locale"


def _po_entries(path: Path) -> dict[str, str]:
    """The translated singular entries of a .po file, keyed as in a .mo (context\x04msgid)."""
    return po_entries(path.read_text(encoding="utf-8"))


def test_one_catalogue_per_language() -> None:
    found = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("locale/*/LC_MESSAGES/*.po"))
    assert found == ["locale/de/LC_MESSAGES/django.po", "locale/en/LC_MESSAGES/django.po"]
    assert [Path(path) for path in settings.LOCALE_PATHS] == [CATALOGUES]


def test_the_compiled_catalogues_say_what_the_sources_say() -> None:
    for lang in ("de", "en"):
        folder = CATALOGUES / lang / "LC_MESSAGES"
        with (folder / "django.mo").open("rb") as compiled:
            catalog = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
        source = _po_entries(folder / "django.po")
        assert source, lang
        stale = {key: value for key, value in source.items() if catalog.get(key) != value}
        assert stale == {}, f"{lang}: run compilemessages ({len(stale)} entries differ)"


def test_one_german_word_with_two_meanings_has_two_contexts() -> None:
    with translation.override("en"):
        # puzzles are "Aufgaben" on the puzzle pages, a quiz's items are "Aufgaben" too
        assert (_("Aufgaben"), pgettext("Quiz", "Aufgaben"), pgettext("Quiz", "Aufgabe")) == (
            "Puzzles",
            "Items",
            "Item",
        )
        # the end of a game record on the board, and the time a quiz closes
        assert (_("Ende"), pgettext("Quiz", "Ende")) == ("End", "Closes")
        # a homework's exercise, the standings of a score sheet, a quiz's grading
        assert pgettext("Hausaufgabe", "Aufgabe") == "Task"
        assert (_("Stand"), pgettext("Spielliste", "Stand")) == ("Status", "Standings")
        assert (_("Bewertung"), pgettext("Quiz", "Bewertung")) == ("Verdict", "Grading")
