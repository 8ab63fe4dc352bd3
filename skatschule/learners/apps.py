from django.apps import AppConfig


class LearnersConfig(AppConfig):
    name = "skatschule.learners"
    label = "learners"
    verbose_name = "Tagesziel und Erinnerungen"

    def ready(self) -> None:
        from skatschule.jobs.registry import register

        from .reminders import REMINDER_JOB, send_reminder

        register(REMINDER_JOB, send_reminder)
