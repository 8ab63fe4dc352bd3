from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "skatschule.operations"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Betrieb"
