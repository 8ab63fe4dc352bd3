"""How a person's name is shown to other people (rosters, results tables, exports).

The name a person goes by is the full name where one is known (an LMS sends it at an LTI launch:
"Anna Pik", not the account's made-up username "anna-pik-632651e9"), else the username.

One place for the name a deleted account leaves behind (issue 18): ``accounts.deletion``
renames a student with quiz results to "gelöschter Schüler · <4 hex digits>". That name is
stored (it is the account's username, so it stays unique and sorts with the others); it is
*shown* in the reader's language: "deleted student · <hex>" in English. Every other name is
shown as it is.
"""

from __future__ import annotations

from typing import Protocol

from skatschule.engine.text import Text

from .language import current_lang

__all__ = ["DELETED_PREFIX", "DELETED_LABEL", "is_deleted_name", "person_name", "shown_name"]

DELETED_PREFIX = "gelöschter Schüler · "
"""The stored prefix of a deleted account's name (signup cannot produce it: it has spaces)."""

DELETED_LABEL = Text("gelöschter Schüler", "deleted student")
"""What a deleted account is called in the reader's language (the stored prefix stays German)."""


def is_deleted_name(username: str) -> bool:
    return username.startswith(DELETED_PREFIX)


def shown_name(username: str, lang: str | None = None, *, full_name: str = "") -> str:
    """The person ``username`` for display in ``lang`` (default: the current language): the
    ``full_name`` where one is known, else the username."""
    if not is_deleted_name(username):
        return full_name.strip() or username
    label = DELETED_LABEL.get(current_lang(lang))
    return f"{label} · {username[len(DELETED_PREFIX) :]}"


class _Person(Protocol):
    def get_username(self) -> str: ...

    def get_full_name(self) -> str: ...


def person_name(person: _Person, lang: str | None = None) -> str:
    """A user's name for display (see :func:`shown_name`)."""
    return shown_name(person.get_username(), lang, full_name=person.get_full_name())
