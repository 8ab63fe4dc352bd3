"""``manage.py load_content``: load and check rules_content; non-zero exit on any problem."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from skatschule.rules.content import read_published_ids, reload


class Command(BaseCommand):
    help = "Lädt rules_content (Kapitel, Glossar), prüft alles und nennt die Zahlen."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--publish",
            action="store_true",
            help="add every current rule id to published_ids.txt (only when the content has no problems)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        registry = reload()
        problems = registry.problems()
        counts = registry.counts()
        self.stdout.write(
            "rules_content: {chapters} Kapitel, {sections} Abschnitte, {rules} Regeln, {annotations} Anmerkungen, "
            "{glossary} Glossarbegriffe, {directives} Direktiven".format(**counts)
        )
        if problems:
            for problem in problems:
                self.stderr.write(f"  {problem}")
            raise CommandError(f"{len(problems)} Problem(e) im Inhalt (rules_content)")
        if options["publish"]:
            path = registry.content_dir / "published_ids.txt"
            published = set(read_published_ids(registry.content_dir))
            # no problems, so every published id is still there: the current ids are the new list
            ordered = [r.id for r in registry.rule_order]
            new = [rid for rid in ordered if rid not in published]
            header = (
                "# Every rule id ever published (one a line). Ids may be added, never removed:\n"
                "# manage.py load_content fails when one of them is missing from rules_content.\n"
                "# Regenerate with: manage.py load_content --publish\n"
            )
            path.write_text(header + "\n".join(ordered) + "\n", encoding="utf-8")
            self.stdout.write(f"published_ids.txt: {len(new)} neue Id(s), {len(ordered)} insgesamt")
        # the puzzles app loads its own content (by command name: rules does not import it)
        call_command("load_puzzles", stdout=self.stdout, stderr=self.stderr)
        self.stdout.write(self.style.SUCCESS("Inhalt in Ordnung."))
