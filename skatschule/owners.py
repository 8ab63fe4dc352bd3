"""Who owns a row: a logged-in user or an anonymous browser session.

:class:`Owner` (with :func:`owner_for` a request's owner) and, for the models of every app
that stores work per owner (training, casebook), :class:`OwnedQuerySet`, the
``user``/``session_key`` field length and the one-owner check constraint.

Anonymous work is stored under the session key that was current when the visitor first
practised. That key is also written into the session data (``SESSION_OWNER_KEY``), because
logging in rotates the session key (``cycle_key``) but keeps the data: the
``user_logged_in`` handler reads the original key from there and moves the work to the user
(:func:`skatschule.training.services.adoption.adopt_session`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self, TypeVar

from django.db import models
from django.db.models import Q

__all__ = [
    "Owner",
    "owner_for",
    "anonymous_key",
    "SESSION_OWNER_KEY",
    "SESSION_KEY_LENGTH",
    "OwnedQuerySet",
    "owner_check",
]

SESSION_OWNER_KEY = "training_owner"
NOBODY = "-"
SESSION_KEY_LENGTH = 40


@dataclass(frozen=True)
class Owner:
    user_id: int | None = None
    session_key: str = ""

    def __post_init__(self) -> None:
        if (self.user_id is None) == (not self.session_key):
            raise ValueError("an owner is either a user or a session key")

    @property
    def is_user(self) -> bool:
        return self.user_id is not None

    def lookup(self) -> dict[str, Any]:
        """Queryset filter for rows of this owner."""
        if self.user_id is not None:
            return {"user_id": self.user_id}
        return {"user__isnull": True, "session_key": self.session_key}

    def fields(self) -> dict[str, Any]:
        """Model field values for a new row of this owner."""
        return {"user_id": self.user_id, "session_key": self.session_key}

    @classmethod
    def for_user(cls, user: Any) -> Owner:
        return cls(user_id=user.pk)

    @classmethod
    def for_session(cls, key: str) -> Owner:
        return cls(session_key=key)

    @classmethod
    def nobody(cls) -> Owner:
        """A visitor who has not practised yet: owns no rows (real session keys are alphanumeric)."""
        return cls(session_key=NOBODY)


def anonymous_key(request: Any, create: bool = True) -> str:
    """The key anonymous work of this browser is stored under ('' if none and not ``create``)."""
    session = request.session
    key: str = session.get(SESSION_OWNER_KEY, "")
    if key or not create:
        return key
    if not session.session_key:
        session.save()  # creates the key; the middleware then sets the cookie
    key = session.session_key
    session[SESSION_OWNER_KEY] = key
    return key


def owner_for(request: Any, create: bool = True) -> Owner:
    """The owner of this request's practice.

    ``create=True`` (pages that issue exercises) starts a session for a new visitor;
    read-only pages pass ``create=False`` and get :meth:`Owner.nobody` instead, so merely
    looking at the lesson list does not create a session.
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Owner.for_user(user)
    key = anonymous_key(request, create=create)
    return Owner.for_session(key) if key else Owner.nobody()


def owner_check(name: str) -> models.CheckConstraint:
    """A row has exactly one owner: a user (and no session key) or a session key (and no user)."""
    return models.CheckConstraint(
        condition=(Q(user__isnull=False) & Q(session_key="")) | (Q(user__isnull=True) & ~Q(session_key="")),
        name=name,
    )


_M = TypeVar("_M", bound=models.Model)


class OwnedQuerySet(models.QuerySet[_M]):
    def owned_by(self, owner: Owner) -> Self:
        return self.filter(**owner.lookup())
