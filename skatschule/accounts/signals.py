"""Keep an anonymous visitor's practice (referee exams, puzzles, the game at the table) when they log in.

``django.contrib.auth.login`` rotates the session key *before* it sends ``user_logged_in``,
so the key the work was stored under cannot be read from ``request.session.session_key``
here. The training app therefore writes that key into the session data when the visitor
first practises (``SESSION_OWNER_KEY``); the data survives the rotation.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from skatschule.casebook.exam_history import adopt_session_exams
from skatschule.owners import SESSION_OWNER_KEY
from skatschule.puzzles.services import adopt_session as adopt_session_puzzles
from skatschule.studies.services import adopt_session as adopt_session_studies
from skatschule.table.services import adopt_session_game
from skatschule.training.services.adoption import adopt_session


@receiver(user_logged_in, dispatch_uid="skatschule.accounts.adopt_session_on_login")
def adopt_anonymous_practice(sender: object, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is None or user is None:
        return
    key = session.pop(SESSION_OWNER_KEY, "")
    if key:
        adopt_session(session_key=key, user=user)
        adopt_session_exams(session_key=key, user=user)  # referee exams taken before signing in: into the history
        adopt_session_puzzles(session_key=key, user=user)  # puzzle attempts and rating
        adopt_session_studies(session_key=key, user=user)  # answers at the stops of studies
    # the game finished at the table lives in the session data itself (which survives the
    # rotation), not under the key: stored once for the user, whether or not the key was set
    adopt_session_game(session=session, user=user)
