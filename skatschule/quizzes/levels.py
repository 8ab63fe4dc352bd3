"""Difficulty levels in words: "leicht / mittel / schwer" wherever a teacher picks or reads one."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

LEVEL_NAMES: dict[int, Promise] = {1: _("leicht"), 2: _("mittel"), 3: _("schwer")}


def level_name(level: int) -> str:
    """ "leicht" for 1, "mittel" for 2, "schwer" for 3; "Stufe n" beyond."""
    name = LEVEL_NAMES.get(int(level))
    return str(name) if name is not None else str(_("Stufe %(n)s") % {"n": level})


def level_choices(top: int) -> list[tuple[int, str]]:
    """Form choices 1..top, labelled in words."""
    return [(n, level_name(n)) for n in range(1, top + 1)]
