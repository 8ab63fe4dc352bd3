"""The language domain text is shown in: :func:`current_lang`, defined once for every app.

Two mechanisms speak the two languages, and only these two: gettext for the interface
(templates, views, forms, the apps' own words) and the engine's :class:`~skatschule.engine.Text`
for domain text (questions, feedback, derivations, content, error messages). Both pick the
language with :func:`current_lang`; anything that is not English is German (German first).
"""

from __future__ import annotations

from django.utils.translation import get_language

__all__ = ["current_lang"]


def current_lang(lang: str | None = None) -> str:
    """``"en"`` or ``"de"``: ``lang`` where given (``"en-gb"`` is English, anything else German),
    else the language of the current request."""
    code = lang or get_language() or "de"
    return "en" if code.lower().startswith("en") else "de"
