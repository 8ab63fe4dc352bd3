"""The jobs' numbers from the settings (defaults and meaning: skatschule/settings.py, "Heavy work")."""

from __future__ import annotations

from django.conf import settings


def number(name: str, default: float) -> float:
    return float(getattr(settings, name, default))
