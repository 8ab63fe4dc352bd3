"""Reads for the quiz pages of issue 18 (no writes here)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch
from django.utils import timezone

from skatschule.classrooms.models import Classroom

from .models import Quiz


def classes_with_quizzes(user: AbstractBaseUser) -> list[Classroom]:
    """The classes the user joined, each with ``visible_quizzes`` (published ones, newest first)."""
    if not user.is_authenticated:
        return []
    visible = Quiz.objects.filter(published_at__lte=timezone.now()).order_by("-created_at", "-pk")
    return list(
        Classroom.objects.filter(memberships__student=user)
        .select_related("teacher")
        .prefetch_related(Prefetch("quizzes", queryset=visible, to_attr="visible_quizzes"))
        .order_by("name", "pk")
        .distinct()
    )
