"""The platforms themselves (registrations, deployments, the tool's keys) are ``lti_tool``'s admin
pages; here only what the site adds."""

from django.contrib import admin

from .models import CourseClass, GradeTarget


@admin.register(CourseClass)
class CourseClassAdmin(admin.ModelAdmin):
    list_display = ["classroom", "context", "roster_synced_at"]
    raw_id_fields = ["context", "classroom"]


@admin.register(GradeTarget)
class GradeTargetAdmin(admin.ModelAdmin):
    list_display = ["student", "quiz", "lineitem_url", "created_at"]
    raw_id_fields = ["student", "quiz", "lti_user"]
