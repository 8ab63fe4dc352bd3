from django.apps import AppConfig

from skatschule.rules import practice


class TrainingConfig(AppConfig):
    name = "skatschule.training"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The rule pages list what to practise; the rules app does not import the training app.
        from .registry import covered_rule_ids, exercises_for_rule

        practice.register(practice_for=exercises_for_rule, covered_rule_ids=covered_rule_ids)
