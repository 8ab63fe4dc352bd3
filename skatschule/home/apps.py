from django.apps import AppConfig


class HomeConfig(AppConfig):
    name = "skatschule.home"
    default_auto_field = "django.db.models.BigAutoField"
