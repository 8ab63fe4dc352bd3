from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "skatschule.rules"
    default_auto_field = "django.db.models.BigAutoField"
