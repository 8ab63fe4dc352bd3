from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "skatschule.accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects user_logged_in
