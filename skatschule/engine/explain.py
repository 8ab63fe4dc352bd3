"""Structured explanations: every computed number carries its derivation.

:class:`Text` (from :mod:`.text`) is the one bilingual text type of the project: German and
English side by side, ``text.get(lang)`` picks one, ``str(text)`` is the German. A :class:`Step` is
one line of a derivation in German and English with the rule ids it rests on
(:attr:`Step.line` gives it as a :class:`Text`); the site renders the language the
reader chose.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .names import render
from .text import Text, lang_of

__all__ = ["Text", "Step", "Derivation", "rule_ids_of", "plural"]


@dataclass(frozen=True, slots=True)
class Step:
    """One line of a derivation, e.g. "mit 2, Spiel 3, Hand 4 x Kreuz 12 = 48"."""

    de: str
    en: str
    rules: tuple[str, ...] = ()

    @classmethod
    def of(cls, line: Text, rules: tuple[str, ...] = ()) -> Step:
        """The step that says ``line``, resting on ``rules``."""
        return cls(line.de, line.en, rules)

    @property
    def line(self) -> Text:
        """The line as a :class:`Text` (without its rule ids)."""
        return Text(self.de, self.en)

    def text(self, lang: str = "de") -> str:
        """The line with its name references (``⟦game:clubs⟧``) for the reader's deck:
        render it with :func:`~skatschule.engine.names.render`."""
        return self.line.get(lang)

    def plain(self, lang: str = "de") -> str:
        """The line with the ISkO's own (French) names: for logs, the vectors CLI and tests."""
        return render(self.text(lang), lang)


Derivation = tuple[Step, ...]


_PLURALS = {
    ("de", "Stich"): "Stiche",
    ("de", "Auge"): "Augen",
    ("de", "Karte"): "Karten",
    ("de", "Spitze"): "Spitzen",
    ("de", "Trumpf"): "Trümpfe",
    ("de", "Bube"): "Buben",
    ("en", "trick"): "tricks",
    ("en", "card point"): "card points",
    ("en", "card"): "cards",
    ("en", "matador"): "matadors",
    ("en", "trump"): "trumps",
    ("en", "jack"): "jacks",
    ("en", "side winner"): "side winners",
    ("en", "sure card"): "sure cards",
    ("en", "loser"): "losers",
}


def plural(count: int, word: str, lang: str = "de") -> str:
    """``1 Stich``, ``2 Stiche``, ``0 tricks``: a number with its noun in the right form."""
    lang = lang_of(lang)
    return f"{count} {word if count == 1 else _PLURALS[(lang, word)]}"


def rule_ids_of(steps: Iterable[Step]) -> tuple[str, ...]:
    """The rule ids of all steps, in order of first mention, without duplicates."""
    seen: dict[str, None] = {}
    for step in steps:
        for rule in step.rules:
            seen.setdefault(rule, None)
    return tuple(seen)
