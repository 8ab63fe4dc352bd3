"""URL path converters of the rules pages: ``<rule:...>`` and ``<citation:...>``.

``rule`` takes a rule or section id with the one grammar of
:mod:`skatschule.content.ids` (``3.2.4``, ``3.2``, ``K.1.2``; a lowercase chapter
letter as in ``k.1.2`` is accepted too). The value reaches the view as written, so
the view can redirect a lowercase or old form to the id as published.
``citation`` takes an older citation such as ``SkO-4.2.9``.
"""

from __future__ import annotations

from skatschule.content.ids import PATTERN

__all__ = ["CitationConverter", "RuleIdConverter"]


class RuleIdConverter:
    regex = PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)


class CitationConverter:
    regex = r"[Ss][Kk][Oo][^/]*"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)
