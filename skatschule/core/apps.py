from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The shared kernel: no models, no pages; its template tags are the site's chrome."""

    name = "skatschule.core"
    default_auto_field = "django.db.models.BigAutoField"
