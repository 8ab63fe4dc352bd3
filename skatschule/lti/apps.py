from django.apps import AppConfig


class LtiConfig(AppConfig):
    name = "skatschule.lti"
    label = "lti"
    verbose_name = "LTI (Lernplattformen)"

    def ready(self) -> None:
        from skatschule.jobs.registry import register
        from skatschule.quizzes.signals import attempt_regraded, attempt_submitted

        from . import platform, services, work

        register(platform.SCORE_JOB, platform.send_score)
        register(platform.ROSTER_JOB, work.sync_roster_job)
        attempt_submitted.connect(services.on_attempt_submitted, dispatch_uid="lti.score")
        attempt_regraded.connect(services.on_attempt_submitted, dispatch_uid="lti.score.regraded")
