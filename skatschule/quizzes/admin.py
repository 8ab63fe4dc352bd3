"""Admin: quizzes with their items (read-only seeds), attempts and answers (read-only)."""

from django.contrib import admin

from .models import Quiz, QuizAnswer, QuizAttempt, QuizItem


class QuizItemInline(admin.TabularInline):
    model = QuizItem
    extra = 0
    readonly_fields = ("position", "kind", "difficulty", "seed")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Quiz)
class QuizAdmin(admin.ModelAdmin):
    list_display = ("title", "classroom", "owner", "variants", "opens_at", "closes_at", "created_at")
    list_filter = ("variants", "show_answers")
    search_fields = ("title", "owner__username", "classroom__name")
    raw_id_fields = ("owner", "classroom")
    inlines = [QuizItemInline]


class QuizAnswerInline(admin.TabularInline):
    model = QuizAnswer
    extra = 0
    can_delete = False
    readonly_fields = ("item", "values", "normalized", "correct", "answered_at")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(QuizAttempt)
class QuizAttemptAdmin(admin.ModelAdmin):
    list_display = ("quiz", "student", "number", "started_at", "submitted_at", "score")
    search_fields = ("quiz__title", "student__username")
    readonly_fields = ("public_id", "quiz", "student", "number", "started_at", "deadline", "updated_at", "submitted_at", "score")
    inlines = [QuizAnswerInline]

    def has_add_permission(self, request, obj=None):
        return False
