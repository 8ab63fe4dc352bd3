"""Rule ids: ``3.2.4`` (a rule), ``3.2`` (a section), ``K.1.2`` (an extra chapter).

One grammar for every place that reads a rule id (content files, lessons, quizzes, the
casebook, URLs). An id is ``chapter.section`` or ``chapter.section.paragraph``; the chapter
is a number (the ISkO's 1-4) or one capital letter (``K`` pub rules, ``A`` score lists).
A lowercase chapter letter (``k.1.2``, as typed into a URL) is read as the capital one;
:meth:`RuleId.parse` normalises it, the written form stays the capital letter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

__all__ = ["CHAPTER_ORDER", "PATTERN", "RULE_ID_RE", "RULE_ONLY_RE", "RuleId", "chapter_sort_key", "is_rule_id"]

CHAPTER_ORDER = ("1", "2", "3", "4", "K", "A")
"""The order of the chapters; other chapters follow, by number, then by letter."""

PATTERN = r"(?:[0-9]+|[A-Za-z])\.[0-9]+(?:\.[0-9]+)?"
"""A rule or section id as a regular expression (without anchors; a lowercase chapter
letter is accepted). The ``rule`` URL converter uses it."""

_NUMBER = r"(?:0|[1-9][0-9]*)"
_WRITTEN = rf"(?:{_NUMBER}|[A-Z])\.{_NUMBER}"
RULE_ID_RE = re.compile(rf"^{_WRITTEN}(?:\.{_NUMBER})?$")
"""A rule or section id exactly as written (``3.2.4``, ``3.2``, ``K.1.2``): a capital
letter, no leading zeros; the same as ``is_rule_id(text)``, for code that wants ``.match``."""
RULE_ONLY_RE = re.compile(rf"^{_WRITTEN}\.{_NUMBER}$")
"""The same for a rule id only (three parts): ``is_rule_id(text, section=False)``."""

_ID = re.compile(r"^(?P<chapter>[0-9]+|[A-Za-z])\.(?P<section>[0-9]+)(?:\.(?P<paragraph>[0-9]+))?$")


def chapter_sort_key(chapter: str) -> tuple[int, int, str]:
    """Known chapters in :data:`CHAPTER_ORDER`, then other numbers, then other letters."""
    if chapter in CHAPTER_ORDER:
        return (0, CHAPTER_ORDER.index(chapter), chapter)
    if chapter.isdigit():
        return (1, int(chapter), chapter)
    return (2, 0, chapter)


@total_ordering
@dataclass(frozen=True, slots=True)
class RuleId:
    """A parsed rule id (``paragraph`` is None for a section id such as ``3.2``).

    Ordered as the rules stand in the Skatordnung: by chapter (:data:`CHAPTER_ORDER`),
    then section and paragraph as numbers (``3.2.10`` after ``3.2.9``); a section comes
    before its rules.
    """

    chapter: str
    section: int
    paragraph: int | None = None

    @classmethod
    def parse(cls, text: str) -> RuleId:
        """``"3.2.4"`` -> ``RuleId("3", 2, 4)``; raises ValueError for anything else.

        Surrounding blanks are ignored, a lowercase chapter letter becomes a capital one and
        leading zeros go (``03.02.4`` is ``3.2.4``).
        """
        m = _ID.match(text.strip())
        if m is None:
            raise ValueError(f"{text!r} is not a rule id (chapter.section or chapter.section.paragraph)")
        paragraph, chapter = m.group("paragraph"), m.group("chapter")
        return cls(
            str(int(chapter)) if chapter.isdigit() else chapter.upper(),
            int(m.group("section")),
            int(paragraph) if paragraph is not None else None,
        )

    @classmethod
    def try_parse(cls, text: str) -> RuleId | None:
        """Like :meth:`parse`, but None instead of an error."""
        try:
            return cls.parse(text)
        except ValueError:
            return None

    @property
    def is_section(self) -> bool:
        """True for a section id (``3.2``), False for a rule id (``3.2.4``)."""
        return self.paragraph is None

    @property
    def section_id(self) -> RuleId:
        """The section this id belongs to (itself for a section id)."""
        return RuleId(self.chapter, self.section)

    def __str__(self) -> str:
        head = f"{self.chapter}.{self.section}"
        return head if self.paragraph is None else f"{head}.{self.paragraph}"

    def _key(self) -> tuple[tuple[int, int, str], int, int]:
        return (chapter_sort_key(self.chapter), self.section, -1 if self.paragraph is None else self.paragraph)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, RuleId):
            return NotImplemented
        return self._key() < other._key()


def is_rule_id(text: str, *, section: bool = True) -> bool:
    """True when ``text`` is written exactly as a rule id (``3.2.4``, ``K.1.2``): no blanks,
    a capital chapter letter, no leading zeros. With ``section=False`` a section id
    (``3.2``) does not count."""
    parsed = RuleId.try_parse(text)
    if parsed is None or str(parsed) != text:
        return False
    return section or not parsed.is_section
