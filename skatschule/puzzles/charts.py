"""The rating history as a small SVG chart, drawn on the server (no script, no CDN)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

WIDTH = 320
HEIGHT = 120
PAD = 24


def rating_svg(ratings: Sequence[float], *, title: str, empty: str) -> SafeString:
    """A line of the ratings after each rated attempt (the start at 1500 first), with min and max marked."""
    if not ratings:
        return format_html('<p class="puzzle-chart-empty">{}</p>', empty)
    values = [1500.0, *ratings]
    low, high = min(values), max(values)
    span = max(high - low, 50.0)
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{HEIGHT - PAD - (v - low) / span * (HEIGHT - 2 * PAD):.1f}" for i, v in enumerate(values)
    )
    body = (
        f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="2"/>'
        f'<text x="2" y="{PAD - 6}" font-size="11">{round(high)}</text>'
        f'<text x="2" y="{HEIGHT - 4}" font-size="11">{round(low)}</text>'
    )
    head = format_html(
        '<svg class="puzzle-chart" viewBox="0 0 {} {}" width="100%" role="img" aria-labelledby="chart-title">'
        '<title id="chart-title">{}</title>',
        WIDTH,
        HEIGHT,
        title,
    )
    return mark_safe(head + body + "</svg>")  # noqa: S308 - numbers only, the title is escaped above
