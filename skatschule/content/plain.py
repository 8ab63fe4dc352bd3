"""Markdown with directives as plain text: directives spelled out, markup removed.

For texts shown outside the HTML pages (the case exercise's prompt and feedback): card
directives become name references (``⟦card:CJ⟧``, rendered per deck later), rule
directives ``ISkO 3.2.4``, the others their computed text (:mod:`.compute`).
"""

from __future__ import annotations

import re

from skatschule.engine import SkatError, parse_card
from skatschule.engine.names import card_ref

from .compute import directive_text
from .directives import Directive, replace_directives

__all__ = ["directive_plain", "paragraphs", "plain"]

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)\*|\*(?!\w)|`")
_LINE_MARK = re.compile(r"^[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]+|[-*+][ \t]+)?", re.M)


def directive_plain(directive: Directive, lang: str) -> str:
    """One directive as plain text (a directive that cannot be computed shows its words)."""
    kind, args = directive.kind, directive.args
    if kind == "cards":
        names = []
        for word in args.replace(",", " ").split():
            try:
                card = parse_card(word)
            except SkatError:
                names.append(word)
                continue
            names.append(card_ref(card))
        return ", ".join(names)
    if kind == "rule":
        return f"ISkO {args}"
    try:
        return directive_text(f"{kind}: {args}", lang=lang)
    except ValueError:  # DirectiveError, or the engine refusing: plain text is only a fallback view
        return args


def plain(source: str, lang: str = "de") -> str:
    """Markdown with directives as plain text, without markup."""
    text = replace_directives(source, lambda d: directive_plain(d, lang))
    text = _LINK.sub(r"\1", text)
    text = _LINE_MARK.sub("", text)
    text = _EMPHASIS.sub("", text)
    return re.sub(r"[ \t]+", " ", text).strip()


def paragraphs(source: str, lang: str) -> list[str]:
    """The paragraphs of :func:`plain`, each on one line."""
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", plain(source, lang)) if p.strip()]
