"""The block reader of the content format: front matter, ``key: value`` lines,
``@name`` blocks and their ``de:`` / ``en:`` parts.

A content file looks like::

    ---
    key: value            <- front matter (read_front_matter)
    ---
    ## heading             <- split by the schema (rules, cases, lessons)
    key: value            <- meta lines (META_RE)
    @name                 <- a block (split_blocks): @de / @en texts, annotations, ...
    de: German text       <- parts of a block (split_parts)
    en: English text

The reader never raises: it returns what it found and where, and each schema decides
which mistakes are errors and how to report them. Lines are ``(line number, text)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "BLOCK_RE",
    "META_RE",
    "PART_RE",
    "Block",
    "FrontMatter",
    "Parts",
    "join_lines",
    "number_lines",
    "read_front_matter",
    "split_blocks",
    "split_list",
    "split_parts",
    "split_title",
]

META_RE = re.compile(r"^([a-z_]+):\s*(.*?)\s*$")
"""A ``key: value`` line (front matter, meta lines under a heading)."""
BLOCK_RE = re.compile(r"^@([A-Za-z_]+)\s*$")
"""A line that opens a block: ``@de``, ``@beispiel``, ``@situation`` ..."""
PART_RE = re.compile(r"^(de|en):(?:\s(.*)|)$")
"""A line that opens the German or English part of a block."""

Line = tuple[int, str]


def number_lines(lines: Sequence[str], start: int = 0) -> list[Line]:
    """``lines[start:]`` with their line numbers (counted from 1)."""
    return [(i + 1, lines[i]) for i in range(start, len(lines))]


def join_lines(lines: Iterable[str]) -> str:
    """The lines of a text block as one text, without blank lines around it."""
    return "\n".join(lines).strip("\n").rstrip()


def split_list(value: str) -> tuple[str, ...]:
    """``"3.2.1, 4.1.1"`` -> ``("3.2.1", "4.1.1")``."""
    return tuple(v.strip() for v in value.split(",") if v.strip())


def split_title(text: str) -> tuple[str, str]:
    """``"Deutsch | English"`` -> ``("Deutsch", "English")`` (English empty without ``|``)."""
    if "|" not in text:
        return text.strip(), ""
    de, en = text.split("|", 1)
    return de.strip(), en.strip()


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """The lines between the opening ``---`` and the closing ``---``.

    ``present`` is False when the file does not start with ``---``; ``closed`` is False
    when no closing ``---`` follows; ``end`` is the index of the first line after it
    (0 without front matter, ``len(lines)`` when not closed).
    """

    present: bool
    closed: bool
    lines: tuple[Line, ...] = ()
    end: int = 0


def read_front_matter(lines: Sequence[str]) -> FrontMatter:
    if not lines or lines[0].strip() != "---":
        return FrontMatter(present=False, closed=False)
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return FrontMatter(True, True, tuple(number_lines(lines[:i], 1)), i + 1)
    return FrontMatter(True, False, tuple(number_lines(lines, 1)), len(lines))


@dataclass(frozen=True, slots=True)
class Block:
    """One ``@name`` block: its name as written, the line of ``@name`` and its lines."""

    name: str
    line: int
    lines: list[Line] = field(default_factory=list)


def split_blocks(lines: Iterable[Line]) -> tuple[list[Line], list[Block]]:
    """The lines before the first ``@name`` line, and the blocks."""
    lead: list[Line] = []
    blocks: list[Block] = []
    for n, line in lines:
        m = BLOCK_RE.match(line)
        if m:
            blocks.append(Block(m.group(1), n))
        elif blocks:
            blocks[-1].lines.append((n, line))
        else:
            lead.append((n, line))
    return lead, blocks


@dataclass(frozen=True, slots=True)
class Parts:
    """The ``de:`` / ``en:`` parts of a block, each a list of lines (the first is what
    follows ``de:``). ``twice`` lists ``(line, lang)`` of a second part in the same
    language, ``stray`` the non-blank lines before the first part."""

    texts: dict[str, list[str]]
    twice: list[tuple[int, str]]
    stray: list[Line]


def split_parts(lines: Iterable[Line]) -> Parts:
    """Split a block into parts: ``de:`` opens the German part; after it only ``en:``
    ends a part (a later line starting with ``de:`` is text of the English part)."""
    texts: dict[str, list[str]] = {}
    twice: list[tuple[int, str]] = []
    stray: list[Line] = []
    current: str | None = None
    for n, line in lines:
        m = PART_RE.match(line)
        if m and (m.group(1) == "en" or current is None):
            current = m.group(1)
            if current in texts:
                twice.append((n, current))
            texts[current] = [m.group(2) or ""]
        elif current is not None:
            texts[current].append(line)
        elif line.strip():
            stray.append((n, line))
    return Parts(texts, twice, stray)
