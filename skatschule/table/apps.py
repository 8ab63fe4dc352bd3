from django.apps import AppConfig


class TableConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "skatschule.table"
    label = "table"
    verbose_name = "Spieltisch"
