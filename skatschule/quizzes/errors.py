"""The quizzes app's exceptions: user errors with German and English text and an HTTP status."""

from __future__ import annotations

from skatschule.core.errors import UserError


class QuizError(UserError):
    """A choice or request the quiz rules do not allow (400), with German and English text."""


class QuizClosed(QuizError):
    """Too late: the attempt is submitted, its time is up or the quiz is closed (409)."""

    status = 409


class QuizLocked(QuizError):
    """The change would touch what students of a started quiz already saw or rely on (409)."""

    status = 409
