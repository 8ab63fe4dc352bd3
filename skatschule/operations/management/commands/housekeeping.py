"""``manage.py housekeeping [--days 30] [--dry-run]``: see skatschule.operations.housekeeping."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from skatschule.operations.housekeeping import housekeeping


class Command(BaseCommand):
    help = "Delete expired sessions and unanswered anonymous exercises older than --days; print a report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days", type=int, default=30, help="keep unanswered anonymous exercises this long (default 30)"
        )
        parser.add_argument("--dry-run", action="store_true", help="only count what would be deleted")

    def handle(self, *args: Any, days: int = 30, dry_run: bool = False, **options: Any) -> None:
        if days < 0:
            raise CommandError("--days must be 0 or more")
        report = housekeeping(days=days, dry_run=dry_run)
        for line in report.lines():
            self.stdout.write(line)
