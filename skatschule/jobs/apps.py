from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "skatschule.jobs"
    label = "jobs"
    verbose_name = "Hintergrundarbeit"

    def ready(self) -> None:
        from .probe import PROBE, probe
        from .registry import register

        register(PROBE, probe)
