from django.apps import AppConfig


class DrueckenConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "skatschule.druecken"
    label = "druecken"
    verbose_name = "Drücken"

    def ready(self) -> None:
        from skatschule.exercises import register
        from skatschule.jobs.registry import register as register_job

        from .work import GRADE, TYPE, grading_from_jobs, run_grading

        TYPE.source = grading_from_jobs
        register(TYPE)
        register_job(GRADE, run_grading)
