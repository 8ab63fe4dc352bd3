"""The exercises graded by a job: the Drücken trainer and "Reizen, am Spiel gemessen" (see :mod:`.work`)."""

from django.apps import AppConfig


class GradedByPlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "skatschule.graded_by_play"
    label = "graded_by_play"
    verbose_name = "Am Spiel bewertet"

    def ready(self) -> None:
        from skatschule.exercises import register
        from skatschule.jobs.registry import register as register_job

        from .work import (
            BID_GRADE,
            BID_TYPE,
            GRADE,
            TYPE,
            bid_grading_from_jobs,
            grading_from_jobs,
            run_bid_grading,
            run_grading,
        )

        TYPE.source = grading_from_jobs
        register(TYPE)
        register_job(GRADE, run_grading)
        BID_TYPE.source = bid_grading_from_jobs
        register(BID_TYPE)
        register_job(BID_GRADE, run_bid_grading)
