from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "skatschule.studies"
    verbose_name = "Studien"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from skatschule.jobs.registry import register

        from .work import SOLVE, run_solve

        register(SOLVE, run_solve)
