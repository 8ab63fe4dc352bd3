"""Numbers on the table's pages in the page's language: ``{{ n|grouped }}`` (1.234 / 1,234)
and ``{{ score|entry }}`` (a list entry with its sign, +1.296)."""

from __future__ import annotations

from django import template

from skatschule.table import presenter

register = template.Library()


@register.filter
def grouped(value: int) -> str:
    return presenter.grouped(int(value))


@register.filter
def entry(value: int) -> str:
    return presenter.entry(int(value))
