from django.apps import AppConfig


class TableConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "skatschule.table"
    label = "table"
    verbose_name = "Spieltisch"

    def ready(self) -> None:
        from skatschule.training.lessons import register_activity

        from .services import ACTIVITY

        register_activity(ACTIVITY)
