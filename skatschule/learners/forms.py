from __future__ import annotations

from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Reminders
from .streak import GOALS


def _zones() -> list[tuple[str, str]]:
    return [(zone, zone) for zone in sorted(available_timezones()) if "/" in zone and not zone.startswith("Etc/")]


class ChoicesForm(forms.Form):
    goal = forms.TypedChoiceField(
        label=_("Tagesziel (Antworten am Tag)"),
        choices=[(goal, str(goal)) for goal in GOALS],
        coerce=int,
        widget=forms.RadioSelect,
    )
    time_zone = forms.ChoiceField(
        label=_("Zeitzone"), help_text=_("Ein Tag ist ein Tag in dieser Zeitzone."), choices=_zones
    )
    reminders = forms.ChoiceField(
        label=_("Erinnerung per E-Mail"),
        choices=Reminders.choices,
        widget=forms.RadioSelect,
        required=False,
        help_text=_(
            "Was zum Wiederholen fällig ist, täglich oder einmal in der Woche. "
            "Jede Mail hat einen Link zum Abbestellen."
        ),
    )

    def __init__(self, *args: Any, can_remind: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not can_remind:
            del self.fields["reminders"]
