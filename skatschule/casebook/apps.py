from django.apps import AppConfig

from skatschule.exercises import register


class CasebookConfig(AppConfig):
    name = "skatschule.casebook"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Fallsammlung (Regelverstöße)"

    def ready(self) -> None:
        # The case exercise reads the casebook, so it lives here and joins the registry now
        # (imported here: it needs the app registry ready).
        from .exercise_types.fall import Fall

        register(Fall())
