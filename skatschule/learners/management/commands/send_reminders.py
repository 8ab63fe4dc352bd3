from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from skatschule.learners.reminders import queue_due_reminders


class Command(BaseCommand):
    help = "Send the due reminder mails (daily or weekly, at most one per learner and period) through the jobs API."

    def handle(self, *args: Any, **options: Any) -> None:
        counts = queue_due_reminders()
        self.stdout.write(" ".join(f"{key}={value}" for key, value in counts.items()))
