"""Structured explanations: every computed number carries its derivation.

A :class:`Step` is one line of a derivation in German and English with the
rule ids it rests on; the site renders the language the reader chose.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Step", "Derivation", "rule_ids_of"]


@dataclass(frozen=True, slots=True)
class Step:
    """One line of a derivation, e.g. "mit 2, Spiel 3, Hand 4 x Kreuz 12 = 48"."""

    de: str
    en: str
    rules: tuple[str, ...] = ()

    def text(self, lang: str = "de") -> str:
        return self.de if lang == "de" else self.en


Derivation = tuple[Step, ...]


def rule_ids_of(steps: Iterable[Step]) -> tuple[str, ...]:
    """The rule ids of all steps, in order of first mention, without duplicates."""
    seen: dict[str, None] = {}
    for step in steps:
        for rule in step.rules:
            seen.setdefault(rule, None)
    return tuple(seen)
