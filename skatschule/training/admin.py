"""Read-only admin: attempts and grades are append-only, issued exercises are server state."""

from django.contrib import admin

from .models import Attempt, AttemptGrade, IssuedExercise, ReviewItem


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(IssuedExercise)
class IssuedExerciseAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "kind", "difficulty", "seed", "lesson", "mode", "user", "issued_at")
    list_filter = ("kind", "mode")
    search_fields = ("public_id", "user__username")


class AttemptGradeInline(admin.TabularInline):
    model = AttemptGrade
    extra = 0
    can_delete = False
    readonly_fields = ("correct", "graded_at", "note")

    def has_add_permission(self, request, obj=None):
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
