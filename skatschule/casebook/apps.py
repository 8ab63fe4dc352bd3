from django.apps import AppConfig


class CasebookConfig(AppConfig):
    name = "skatschule.casebook"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Fallsammlung (Regelverstöße)"
