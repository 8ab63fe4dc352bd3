from typing import Any

from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "skatschule.puzzles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from skatschule.jobs.registry import register
        from skatschule.table.signals import records_imported

        from .generation import GENERATE, OWN, RECORDS, run_batch, run_own, run_records

        register(GENERATE, run_batch)
        register(OWN, run_own)
        register(RECORDS, run_records)
        records_imported.connect(_queue_imported, dispatch_uid="puzzles.imported-records")


def _queue_imported(sender: object, *, owner: Any, records: list[str], address: str = "", **kwargs: Any) -> None:
    """ISS records read in at the table become puzzle candidates (a job examines them)."""
    from .imports import queue_records

    queue_records(owner=owner, records=records, address=address)
