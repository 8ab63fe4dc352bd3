"""``manage.py load_puzzles``: add the shipped puzzles (rules_content/puzzles) to the database.

``manage.py load_content`` runs it too (by name: the rules app does not import this one).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from skatschule.engine import SkatError
from skatschule.puzzles.content import load_shipped


class Command(BaseCommand):
    help = "Lädt die mitgelieferten Aufgaben (rules_content/puzzles) in die Datenbank."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            added, shipped = load_shipped()
        except SkatError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Aufgaben: {shipped} mitgeliefert, {added} neu geladen")
