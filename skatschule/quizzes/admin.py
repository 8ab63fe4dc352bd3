"""Admin: quizzes with their items (read-only seeds), attempts and answers (read-only)."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Quiz, QuizAnswer, QuizAttempt, QuizItem

if TYPE_CHECKING:  # django-stubs makes the admin classes generic; at run time they are not
    ItemInlineBase = admin.TabularInline[QuizItem, Quiz]
    AnswerInlineBase = admin.TabularInline[QuizAnswer, QuizAttempt]
    QuizAdminBase = admin.ModelAdmin[Quiz]
    AttemptAdminBase = admin.ModelAdmin[QuizAttempt]
else:
    ItemInlineBase = AnswerInlineBase = admin.TabularInline
    QuizAdminBase = AttemptAdminBase = admin.ModelAdmin


class QuizItemInline(ItemInlineBase):
    model = QuizItem
    extra = 0
    readonly_fields = ("position", "kind", "difficulty", "seed")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Quiz)
class QuizAdmin(QuizAdminBase):
    list_display = ("title", "classroom", "owner", "variants", "opens_at", "closes_at", "created_at")
    list_filter = ("variants", "show_answers")
    search_fields = ("title", "owner__username", "classroom__name")
    raw_id_fields = ("owner", "classroom")
    inlines = [QuizItemInline]


class QuizAnswerInline(AnswerInlineBase):
    model = QuizAnswer
    extra = 0
    can_delete = False
    readonly_fields = ("item", "values", "normalized", "correct", "answered", "answered_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(QuizAttempt)
class QuizAttemptAdmin(AttemptAdminBase):
    list_display = ("quiz", "student", "number", "started_at", "submitted_at", "score")
    search_fields = ("quiz__title", "student__username")
    readonly_fields = (
        "public_id",
        "quiz",
        "student",
        "number",
        "started_at",
        "deadline",
        "updated_at",
        "submitted_at",
        "score",
    )
    inlines = [QuizAnswerInline]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
