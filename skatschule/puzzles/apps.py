from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "skatschule.puzzles"
    default_auto_field = "django.db.models.BigAutoField"
