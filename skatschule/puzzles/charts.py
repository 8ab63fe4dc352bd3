"""The rating history as a small SVG chart with axes, drawn on the server (no script, no CDN)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from django.utils import formats, timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from skatschule.engine.glicko2 import DEFAULT

WIDTH = 360
HEIGHT = 160
LEFT = 44
"""Room for the rating labels of the vertical axis."""
BOTTOM = 22
"""Room for the date labels of the horizontal axis."""
TOP = 10
RIGHT = 10


def _ticks(low: float, high: float) -> list[int]:
    """Round ratings for the vertical axis: three to five lines 25, 50, 100 or 200 apart."""
    for step in (25, 50, 100, 200, 500):
        first = math.ceil(low / step) * step
        ticks = list(range(first, int(high) + 1, step))
        if len(ticks) <= 5:
            return ticks or [first]
    return [round(low), round(high)]


def rating_svg(
    points: Sequence[tuple[datetime, float]], *, title: str, empty: str, start: float = DEFAULT.rating
) -> SafeString:
    """The rating after each rated attempt (``(when, rating)``, oldest first), from ``start`` (the
    rating before the first of them): a line over axes, ratings on the left, dates below."""
    if not points:
        return format_html('<p class="puzzle-chart-empty">{}</p>', empty)
    values = [start, *(rating for _when, rating in points)]
    low, high = min(values), max(values)
    middle = (low + high) / 2
    low, high = min(low, middle - 25), max(high, middle + 25)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + i * inner_w / max(len(values) - 1, 1)

    def y(v: float) -> float:
        return TOP + (high - v) / (high - low) * inner_h

    parts = [
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + inner_h}" stroke="currentColor"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + inner_h}" x2="{WIDTH - RIGHT}" y2="{TOP + inner_h}"'
        ' stroke="currentColor"/>',
    ]
    for tick in _ticks(low, high):
        parts.append(
            f'<line x1="{LEFT - 4}" y1="{y(tick):.1f}" x2="{WIDTH - RIGHT}" y2="{y(tick):.1f}" stroke="currentColor"'
            f' stroke-opacity=".15"/><text class="tick" x="{LEFT - 6}" y="{y(tick) + 4:.1f}" font-size="11"'
            f' text-anchor="end">{tick}</text>'
        )
    days = [timezone.localtime(when) for when, _rating in points]
    marks = sorted({0, len(days) // 2, len(days) - 1})
    for k, index in enumerate(marks):
        anchor = "start" if k == 0 else "end" if k == len(marks) - 1 and len(marks) > 1 else "middle"
        label = escape(formats.date_format(days[index], "SHORT_DATE_FORMAT"))
        parts.append(
            f'<text class="date" x="{x(index + 1):.1f}" y="{HEIGHT - 6}" font-size="11" text-anchor="{anchor}">'
            f"{label}</text>"
        )
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2"/>')
    head = format_html(
        '<svg class="puzzle-chart" viewBox="0 0 {} {}" width="100%" role="img" aria-labelledby="chart-title">'
        '<title id="chart-title">{}</title>',
        WIDTH,
        HEIGHT,
        title,
    )
    return mark_safe(head + "".join(parts) + "</svg>")  # noqa: S308 - numbers and escaped dates; the title is escaped above
