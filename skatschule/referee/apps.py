from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "skatschule.referee"
    label = "referee"
    verbose_name = "Schiedsrichter-Rechner"

    def ready(self) -> None:
        from skatschule.jobs.registry import register

        from .work import CLAIM_JOB, run_claim

        register(CLAIM_JOB, run_claim)
