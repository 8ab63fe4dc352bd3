from django.apps import AppConfig


class TableConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "skatschule.table"
    label = "table"
    verbose_name = "Spieltisch"

    def ready(self) -> None:
        from skatschule.jobs.registry import register
        from skatschule.training.lessons import register_activity

        from .services import ACTIVITY
        from .work import KINDS, SHORT

        register_activity(ACTIVITY)
        for kind, handler in KINDS.items():
            register(kind, handler, short=kind in SHORT)
