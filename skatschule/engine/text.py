"""The one bilingual text type of the project: :class:`Text`, German and English side by side.

Everything the engine and the content say to a reader (questions, feedback, derivations, error
messages) is a :class:`Text`; the interface's own words are gettext's. This module imports
nothing, so every other module (the errors too) may build a :class:`Text`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Text", "lang_of"]


def lang_of(lang: str | None) -> str:
    """``"en"`` for English (``"en"``, ``"en-gb"``), ``"de"`` for anything else: German first."""
    return "en" if lang and lang.lower().startswith("en") else "de"


@dataclass(frozen=True, slots=True)
class Text:
    """A text in German and English, e.g. ``Text("Stich", "trick")``.

    One fallback rule for the whole project: German. :meth:`get` gives the English only for
    an English reader and only when there is an English text; else the German.
    Domain text may hold name references (``⟦card:CJ⟧``); render them for the reader's
    deck with :func:`~skatschule.engine.names.render`.
    """

    de: str
    en: str

    def get(self, lang: str | None = "de") -> str:
        """The text in ``lang``: English for an English reader when there is one, else German."""
        return self.en if self.en and lang_of(lang) == "en" else self.de

    def __str__(self) -> str:
        return self.de
