"""The rows of the score sheet's table as one HTML string.

A page of the sheet has 24 games with a cell and a running total per player and the game's
derivation; as template loops that is some 40 template nodes a row, most of the page's time. The
markup is the one ``scoresheet/sheet.html`` had for a row, every text escaped as the template
escaped it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from .selectors import RowView

_SENTINEL = 987654321
"""A game number for the one reverse() of the correction link; the rows' numbers replace it."""


def _correct_url(key: str) -> tuple[str, str] | None:
    """The correction link's text before and after the game number, or None if the key holds the sentinel."""
    parts = reverse("scoresheet:correct", args=[key, _SENTINEL]).split(str(_SENTINEL))
    return (parts[0], parts[1]) if len(parts) == 2 else None


def _steps(steps: Sequence[tuple[str, Sequence[str]]]) -> str:
    items = []
    for text, rules in steps:
        links = "".join(
            f' <a class="rule-ref" href="/regeln/{conditional_escape(r)}">{conditional_escape(r)}</a>' for r in rules
        )
        items.append(f"<li>{conditional_escape(text)}{links}</li>")
    return f'<ol class="derivation">{"".join(items)}</ol>'


def _number(value: int) -> str:
    # as the template showed an int: no thousands separator (USE_THOUSAND_SEPARATOR is off)
    return str(int(value))


def rows_html(rows: Sequence[RowView], *, editable: bool, key: str) -> SafeString:
    """``<tr>`` per row, in the order given; "" for no rows."""
    correct = gettext("korrigieren")
    derivation = gettext("Herleitung")
    url = _correct_url(key) if editable else None
    out = []
    for row in rows:
        deal = conditional_escape(row.deal)
        deal_class = f" deal-{conditional_escape(row.deal.lower())}" if row.deal else ""
        number = _number(row.number) if row.kind != "change" else ""
        declarer = f"{conditional_escape(row.declarer)}: " if row.declarer else ""
        badge = f' <span class="deal-badge">{deal}</span>' if row.deal else ""
        link = ""
        if editable and row.kind not in ("change", "passed"):
            href = (
                f"{url[0]}{row.number}{url[1]}"
                if url is not None
                else reverse("scoresheet:correct", args=[key, row.number])
            )
            link = f'<a class="correct-link" href="{conditional_escape(href)}">{conditional_escape(correct)}</a>'
        cells = "".join(
            f'<td class="num">{_number(c) if c is not None else ""}<span class="running">{_number(t)}</span></td>'
            for c, t in row.columns
        )
        out.append(
            f'<tr class="sheet-row{deal_class}" id="spiel-{_number(row.number)}">\n'
            f'    <th scope="row">{number}</th>\n'
            f'    <td><span class="game-label">{declarer}{conditional_escape(row.label)}</span>{badge}\n'
            f"      {link}\n"
            f"      <details><summary>{conditional_escape(derivation)}</summary>{_steps(row.steps)}</details></td>\n"
            f"    {cells}\n"
            "  </tr>\n"
        )
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped
