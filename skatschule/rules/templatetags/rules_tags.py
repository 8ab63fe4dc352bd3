"""Template helpers for the rules pages: ``{{ rule|title_in:lang }}``."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def title_in(obj: Any, lang: str) -> str:
    """The title of a chapter, section or rule (or a glossary term) in ``lang``."""
    if hasattr(obj, "term"):
        return str(obj.term(lang))
    return str(obj.title(lang))
