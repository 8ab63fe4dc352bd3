"""One line of text typed by a person (a title, a name): the one cleaning before it is stored.

Characters that are not printable go (NUL above all: PostgreSQL refuses it in a text column,
a 500; control characters would garble the page and the exports), runs of blanks become one
blank, and the line is cut to its column's length.
"""

from __future__ import annotations


def one_line(value: object, limit: int | None = None) -> str:
    """``value`` as one clean line: printable characters only, single blanks, at most ``limit``."""
    text = " ".join("".join(c for c in str(value or "") if c.isprintable() or c.isspace()).split())
    return text if limit is None else text[:limit]
