from django.apps import AppConfig


class ClassroomsConfig(AppConfig):
    name = "skatschule.classrooms"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Klassen und Lehrkräfte"
