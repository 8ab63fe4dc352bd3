from django.apps import AppConfig


class WeeklyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "skatschule.weekly"
    label = "weekly"
    verbose_name = "Blatt der Woche"

    def ready(self) -> None:
        from skatschule.jobs.registry import register
        from skatschule.table.signals import contest_moved

        from .services import on_contest_moved
        from .work import KINDS

        contest_moved.connect(on_contest_moved, dispatch_uid="weekly-contest-moved")
        for kind, handler in KINDS.items():
            register(kind, handler)
