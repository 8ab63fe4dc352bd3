from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "skatschule.training"
    default_auto_field = "django.db.models.BigAutoField"
