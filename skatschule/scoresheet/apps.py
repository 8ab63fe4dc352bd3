from django.apps import AppConfig


class ScoresheetConfig(AppConfig):
    name = "skatschule.scoresheet"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Spielliste"
