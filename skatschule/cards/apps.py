from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "skatschule.cards"
    default_auto_field = "django.db.models.BigAutoField"
