"""How a person's name is shown to other people (results tables, exports).

One place for the name a deleted account leaves behind (issue 18): ``accounts.deletion``
renames a student with quiz results to "gelöschter Schüler · <4 hex digits>". That name is
stored (it is the account's username, so it stays unique and sorts with the others); it is
*shown* in the reader's language: "deleted student · <hex>" in English. Every other name is
shown as it is.
"""

from __future__ import annotations

from skatschule.engine.text import Text

from .language import current_lang

__all__ = ["DELETED_PREFIX", "DELETED_LABEL", "is_deleted_name", "shown_name"]

DELETED_PREFIX = "gelöschter Schüler · "
"""The stored prefix of a deleted account's name (signup cannot produce it: it has spaces)."""

DELETED_LABEL = Text("gelöschter Schüler", "deleted student")
"""What a deleted account is called in the reader's language (the stored prefix stays German)."""


def is_deleted_name(username: str) -> bool:
    return username.startswith(DELETED_PREFIX)


def shown_name(username: str, lang: str | None = None) -> str:
    """``username`` for display in ``lang`` (default: the current language)."""
    if not is_deleted_name(username):
        return username
    label = DELETED_LABEL.get(current_lang(lang))
    return f"{label} · {username[len(DELETED_PREFIX) :]}"
