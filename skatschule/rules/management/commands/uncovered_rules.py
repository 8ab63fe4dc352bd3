"""``manage.py uncovered_rules``: ISkO rules that no exercise type and no lesson practises."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from skatschule.rules import practice
from skatschule.rules.content import get_registry


def covered_ids() -> set[str] | None:
    """The rule ids the training app covers, or ``None`` if it cannot tell us (yet)."""
    return practice.covered_rule_ids()


class Command(BaseCommand):
    help = "Listet die ISkO-Regeln (Kapitel 1-4), zu denen es keine Übung und keine Lektion gibt."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="also list the non-ISkO chapters (K, A)")

    def handle(self, *args: Any, **options: Any) -> None:
        registry = get_registry()
        covered = covered_ids()
        if covered is None:
            self.stderr.write("skatschule.training.registry.covered_rule_ids fehlt: keine Regel gilt als abgedeckt.")
            covered = set()
        rules = [r for r in registry.rule_order if (options["all"] or r.is_isko) and not r.withdrawn]
        missing = [r for r in rules if r.id not in covered]
        for rule in missing:
            self.stdout.write(f"{rule.id}\t{rule.title_de}")
        self.stdout.write(f"{len(missing)} von {len(rules)} Regeln ohne Übung oder Lektion.")
