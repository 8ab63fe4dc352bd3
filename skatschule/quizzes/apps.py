from django.apps import AppConfig


class QuizzesConfig(AppConfig):
    name = "skatschule.quizzes"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Quiz"
