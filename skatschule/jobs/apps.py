from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "skatschule.jobs"
    label = "jobs"
    verbose_name = "Hintergrundarbeit"

    def ready(self) -> None:
        from . import running, services
        from .probe import PROBE, probe
        from .registry import register

        register(PROBE, probe)
        running.submit_follow_ups_with(services.submit_follow_up)
