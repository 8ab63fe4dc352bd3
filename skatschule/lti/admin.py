"""The platforms themselves (registrations, deployments, the tool's keys) are ``lti_tool``'s admin
pages; here only what the site adds."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db import models
from lti_tool.admin import LtiDeploymentInline, LtiRegistrationAdmin
from lti_tool.models import LtiRegistration

from .models import CourseClass, GradeTarget

HTTPS_URLS: dict[type[models.Field[Any, Any]], dict[str, Any]] = {models.URLField: {"assume_scheme": "https"}}
"""A platform's address typed without a scheme is read as https (LMS addresses are; it is also
Django 6's default, so the forms say it now instead of warning about the change)."""

if TYPE_CHECKING:  # django-stubs makes the admin classes generic; at run time they are not
    CourseClassAdminBase = admin.ModelAdmin[CourseClass]
    GradeTargetAdminBase = admin.ModelAdmin[GradeTarget]
else:
    CourseClassAdminBase = GradeTargetAdminBase = admin.ModelAdmin


admin.site.unregister(LtiRegistration)


class DeploymentInline(LtiDeploymentInline):  # type: ignore[misc]  # lti_tool ships no types
    formfield_overrides = HTTPS_URLS


@admin.register(LtiRegistration)
class RegistrationAdmin(LtiRegistrationAdmin):  # type: ignore[misc]  # lti_tool ships no types
    """``lti_tool``'s page for a platform, with its addresses read as https when typed bare."""

    formfield_overrides = HTTPS_URLS
    inlines = [DeploymentInline]


@admin.register(CourseClass)
class CourseClassAdmin(CourseClassAdminBase):
    list_display = ["classroom", "context", "roster_synced_at"]
    raw_id_fields = ["context", "classroom"]


@admin.register(GradeTarget)
class GradeTargetAdmin(GradeTargetAdminBase):
    list_display = ["student", "quiz", "lineitem_url", "created_at"]
    raw_id_fields = ["student", "quiz", "lti_user"]
    formfield_overrides = HTTPS_URLS
