"""What the site keeps about LTI beyond ``lti_tool``'s own tables (platforms, deployments, users,
contexts, memberships, resource links and the tool's keys, all in the Django admin)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

NONCE_KEPT = timedelta(days=2)  # pylti1p3 keeps an issued nonce for one day (launch data lifetime)


class UsedNonce(models.Model):
    """A launch's nonce, kept once it has been used: the same launch posted again is a replay.

    ``pylti1p3`` only checks that the nonce was issued by our OIDC login; the unique row here makes
    each one good for one launch (two racing copies cannot both insert it). Rows older than
    :data:`NONCE_KEPT` go: by then the platform's token has expired and ``pylti1p3`` has forgotten
    the nonce, so such a launch is refused anyway.
    """

    issuer = models.CharField(max_length=255)
    nonce = models.CharField(max_length=255)
    used_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["issuer", "nonce"], name="lti_nonce_used_once")]
        indexes = [models.Index(fields=["used_at"], name="lti_nonce_used_at")]

    def __str__(self) -> str:
        return f"{self.issuer} {self.nonce[:12]}…"


class CourseClass(models.Model):
    """An LMS course (an LTI context) and the class that stands for it on the site."""

    context = models.OneToOneField("lti_tool.LtiContext", on_delete=models.CASCADE, related_name="course_class")
    classroom = models.OneToOneField(
        "classrooms.Classroom", on_delete=models.CASCADE, related_name="lti_course", verbose_name=_("Klasse")
    )
    roster_synced_at = models.DateTimeField(_("Teilnehmerliste abgeglichen"), null=True, blank=True)

    class Meta:
        verbose_name = _("Kurs der Lernplattform")
        verbose_name_plural = _("Kurse der Lernplattform")

    def __str__(self) -> str:
        return str(self.classroom)


class GradeTarget(models.Model):
    """Where one student's result of one quiz goes: a line item (gradebook column) of the LMS.

    Written at the student's launch of a deep-linked quiz when the platform grants the score
    scope; every submitted attempt of that quiz is then sent there (job ``lti.score``).
    """

    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    quiz = models.ForeignKey("quizzes.Quiz", on_delete=models.CASCADE, related_name="+")
    lti_user = models.ForeignKey("lti_tool.LtiUser", on_delete=models.CASCADE, related_name="+")
    lineitem_url = models.URLField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["student", "quiz", "lineitem_url"], name="lti_grade_target_once")
        ]

    def __str__(self) -> str:
        return f"{self.student_id} {self.quiz_id} → {self.lineitem_url}"
