"""The language domain text is shown in: :func:`current_lang`, defined once for every app."""

from __future__ import annotations

from django.utils.translation import get_language

__all__ = ["current_lang"]


def current_lang() -> str:
    """``"en"`` or ``"de"``: the language the content is shown in."""
    return "en" if (get_language() or "de").lower().startswith("en") else "de"
