from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "skatschule.puzzles"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from skatschule.jobs.registry import register

        from .generation import GENERATE, OWN, RECORDS, run_batch, run_own, run_records

        register(GENERATE, run_batch)
        register(OWN, run_own)
        register(RECORDS, run_records)
