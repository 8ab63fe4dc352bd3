"""The platforms themselves (registrations, deployments, the tool's keys) are ``lti_tool``'s admin
pages; here only what the site adds."""

from typing import TYPE_CHECKING

from django.contrib import admin

from .models import CourseClass, GradeTarget

if TYPE_CHECKING:  # django-stubs makes the admin classes generic; at run time they are not
    CourseClassAdminBase = admin.ModelAdmin[CourseClass]
    GradeTargetAdminBase = admin.ModelAdmin[GradeTarget]
else:
    CourseClassAdminBase = GradeTargetAdminBase = admin.ModelAdmin


@admin.register(CourseClass)
class CourseClassAdmin(CourseClassAdminBase):
    list_display = ["classroom", "context", "roster_synced_at"]
    raw_id_fields = ["context", "classroom"]


@admin.register(GradeTarget)
class GradeTargetAdmin(GradeTargetAdminBase):
    list_display = ["student", "quiz", "lineitem_url", "created_at"]
    raw_id_fields = ["student", "quiz", "lti_user"]
