"""The directive grammar: ``[[name: arg]]`` inside Markdown.

``name`` is letters and ``_`` (read in lowercase), ``arg`` is anything but square brackets
and may wrap over lines; its blanks are normalised to single spaces. What a directive
means is up to the schema that reads the text (rules, casebook, lessons); this module
only finds and splits them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["DIRECTIVE_RE", "Directive", "find_directives", "parse_directive", "replace_directives", "stray_brackets"]

DIRECTIVE_RE = re.compile(r"\[\[\s*([A-Za-z_]+)\s*:([^\[\]]*)\]\]")


@dataclass(frozen=True, slots=True)
class Directive:
    """One directive found in a text: ``kind`` in lowercase, ``args`` with blanks normalised,
    ``source`` as written and its place ``start:end`` in the text."""

    kind: str
    args: str
    source: str
    start: int = 0
    end: int = 0


def _directive(m: re.Match[str]) -> Directive:
    return Directive(m.group(1).lower(), " ".join(m.group(2).split()), m.group(0), m.start(), m.end())


def find_directives(text: str) -> list[Directive]:
    """All ``[[kind: args]]`` in ``text``, in order."""
    return [_directive(m) for m in DIRECTIVE_RE.finditer(text)]


def replace_directives(text: str, replace: Callable[[Directive], str]) -> str:
    """``text`` with every directive replaced by ``replace(directive)``."""
    return DIRECTIVE_RE.sub(lambda m: replace(_directive(m)), text)


def parse_directive(source: str) -> tuple[str, str]:
    """``"[[value: clubs mit 2]]"`` or ``"value: clubs mit 2"`` -> ``("value", "clubs mit 2")``.

    Raises ValueError for a text without ``:``.
    """
    raw = source.strip()
    inner = raw[2:-2] if raw.startswith("[[") and raw.endswith("]]") else raw
    kind, sep, args = inner.partition(":")
    if not sep:
        raise ValueError(f"directive without ':': {source!r}")
    return kind.strip().lower(), " ".join(args.split())


def stray_brackets(line: str) -> bool:
    """True when ``line`` holds ``[[`` or ``]]`` outside a complete directive (an unfinished one)."""
    rest = line
    for d in find_directives(line):
        rest = rest.replace(d.source, "")
    return "[[" in rest or "]]" in rest
