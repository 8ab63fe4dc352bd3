"""Read-only admin: attempts and grades are append-only, issued exercises are server state."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from .models import Attempt, AttemptGrade, IssuedExercise, ReviewItem

if TYPE_CHECKING:  # django-stubs makes the admin classes generic; at run time they are not
    ModelAdminBase = admin.ModelAdmin[Model]
    GradeInlineBase = admin.TabularInline[AttemptGrade, Attempt]
else:
    ModelAdminBase = admin.ModelAdmin
    GradeInlineBase = admin.TabularInline


class ReadOnlyAdmin(ModelAdminBase):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(IssuedExercise)
class IssuedExerciseAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "kind", "difficulty", "seed", "lesson", "mode", "user", "issued_at")
    list_filter = ("kind", "mode")
    search_fields = ("public_id", "user__username")


class AttemptGradeInline(GradeInlineBase):
    model = AttemptGrade
    extra = 0
    can_delete = False
    readonly_fields = ("correct", "graded_at", "note")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "difficulty", "correct", "time_taken_ms", "user")
    list_filter = ("kind", "correct")
    search_fields = ("user__username",)
    inlines = [AttemptGradeInline]


@admin.register(ReviewItem)
class ReviewItemAdmin(ReadOnlyAdmin):
    list_display = ("kind", "difficulty", "seed", "due", "reviews", "user")
    list_filter = ("kind",)
