"""Writing a learner's choices and reminder opt-out (keyword-only, atomic)."""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.db import transaction
from django.utils import timezone

from .models import LearnerSettings, Reminders
from .selectors import SESSION_KEY, Choices

__all__ = ["save_choices", "unsubscribe_token", "unsubscribe"]

_SALT = "skatschule.learners.unsubscribe"


@transaction.atomic
def save_choices(*, user: Any = None, session: Any = None, choices: Choices) -> None:
    """Store a user's goal, time zone, reminders and the language of their mails; an anonymous
    visitor's goal and zone in the session."""
    if user is not None and user.is_authenticated:
        LearnerSettings.objects.update_or_create(
            user=user,
            defaults={
                "daily_goal": choices.goal,
                "time_zone": choices.time_zone,
                "reminders": choices.reminders,
                "language": "en" if choices.language == "en" else "de",
                "updated_at": timezone.now(),
            },
        )
    elif session is not None:
        session[SESSION_KEY] = {"goal": choices.goal, "time_zone": choices.time_zone}


def unsubscribe_token(*, user: Any) -> str:
    """The signed token of the one-click unsubscribe link in every reminder mail."""
    return signing.dumps(user.pk, salt=_SALT, compress=True)


@transaction.atomic
def unsubscribe(*, token: str) -> bool:
    """Turn the token's user's reminders off. False when the token is not one we signed."""
    try:
        user_id = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        return False
    if not isinstance(user_id, int):
        return False
    LearnerSettings.objects.filter(user_id=user_id).update(reminders=Reminders.OFF, updated_at=timezone.now())
    return True
