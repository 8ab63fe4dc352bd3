"""Validate the lesson files (rules_content/lessons): exit status 1 on problems."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from skatschule.training.lessons import get_lessons, lessons_dir, validate_lessons


class Command(BaseCommand):
    help = "Check the lessons: known exercise types and levels, rule ids, directives."

    def handle(self, *args: Any, **options: Any) -> None:
        problems = validate_lessons()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problem(s) in {lessons_dir()}")
        self.stdout.write(self.style.SUCCESS(f"{len(get_lessons())} lessons OK"))
