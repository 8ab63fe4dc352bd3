"""The LTI launch as the site checks it, on ``lti_tool`` (django-lti) and ``pylti1p3``.

``pylti1p3`` checks the OIDC state, the JWT's signature against the platform's JWKS, its expiry,
the issuer and audience (a registration with this ``client_id``), the deployment and the message;
the nonce only for having been issued by our login. :func:`checked_launch` adds that each nonce
is good for one launch, and that the deployment is switched on in the admin. Every failure is a
:class:`~.services.LaunchRefused` (a 4xx page), never a 500.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest
from lti_tool.constants import SESSION_KEY
from lti_tool.models import LtiLaunch
from lti_tool.utils import get_launch_from_request, sync_data_from_launch
from pylti1p3.exception import LtiException, OIDCException

from .services import LaunchRefused, use_nonce

__all__ = ["CUSTOM_KEY", "checked_launch", "current_launch", "remember", "is_teacher_role", "chosen_resource"]

log = logging.getLogger(__name__)

CUSTOM_KEY = "skatschule"
"""The custom parameter of a deep-linked resource: ``quiz:<id>`` or ``lesson:<slug>``."""

STATE = re.compile(r"state-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""The OIDC state as the login step hands it out (``pylti1p3``: "state-" and a UUID). Anything
else is refused before it reaches the library, which builds cache keys from it."""

_BROKEN = (LtiException, OIDCException, ObjectDoesNotExist, ValueError, KeyError, TypeError, AttributeError)


def checked_launch(request: HttpRequest) -> LtiLaunch:
    """The launch POSTed to us, checked and recorded (users, course, membership, resource link)."""
    if not request.POST.get("id_token") or not request.POST.get("state"):
        raise LaunchRefused(
            "Diese Seite öffnet nur eine Lernplattform (LTI-Start ohne id_token oder state).",
            "Only a learning platform opens this page (an LTI launch without id_token or state).",
            status=400,
        )
    if not STATE.fullmatch(request.POST["state"]):
        raise LaunchRefused(
            "Dieser LTI-Start trägt keinen Zustand (state), den Skatschule ausgegeben hat. Bitte starte die "
            "Aktivität in der Lernplattform neu.",
            "This LTI launch carries no state that Skatschule issued. Please start the activity again in the "
            "learning platform.",
            status=400,
        )
    try:
        launch = get_launch_from_request(request)
    except _BROKEN as error:
        log.info("lti launch refused: %s", error)
        raise LaunchRefused(
            "Der Start aus der Lernplattform ließ sich nicht prüfen (Signatur, Empfänger, Nonce oder "
            "Gültigkeit stimmen nicht). Bitte starte die Aktivität in der Lernplattform neu.",
            "The launch from the learning platform could not be verified (signature, audience, nonce "
            "or expiry do not match). Please start the activity again in the learning platform.",
        ) from None
    use_nonce(issuer=str(launch.get_claim("iss")), nonce=str(launch.get_claim("nonce")))
    if not launch.deployment.is_active:
        raise LaunchRefused(
            "Diese Lernplattform ist hier noch nicht freigeschaltet: Die Verwaltung muss ihre Bereitstellung "
            "(Deployment) im Admin aktivieren.",
            "This learning platform is not enabled here yet: an administrator must activate its deployment "
            "in the admin.",
        )
    if launch.is_data_privacy_launch or launch.is_submission_review_launch:
        raise LaunchRefused(
            "Diese Art von Start unterstützt Skatschule nicht.",
            "Skatschule does not support this kind of launch.",
            status=400,
        )
    try:
        sync_data_from_launch(launch)
    except _BROKEN as error:  # a claim the launch needs is missing or malformed
        log.info("lti launch incomplete: %s", error)
        raise LaunchRefused(
            "Dem Start aus der Lernplattform fehlen Angaben (Kurs oder Link).",
            "The launch from the learning platform lacks details (course or link).",
            status=400,
        ) from None
    return launch


def remember(request: HttpRequest, launch: LtiLaunch) -> None:
    """Keep the launch for the next pages of this session (the deep-link choice)."""
    request.session[SESSION_KEY] = launch.get_launch_id()


def current_launch(request: HttpRequest) -> LtiLaunch | None:
    """The launch this session came from, or None."""
    launch_id = request.session.get(SESSION_KEY)
    if not isinstance(launch_id, str):
        return None
    try:
        return get_launch_from_request(request, launch_id)
    except _BROKEN:
        return None


def is_teacher_role(launch: LtiLaunch) -> bool:
    membership = launch.membership
    return bool(membership.is_instructor or membership.is_administrator or membership.is_content_developer)


def chosen_resource(launch: LtiLaunch) -> tuple[str, str]:
    """``("quiz", "12")``, ``("lesson", "<slug>")`` or ``("", "")`` from the custom parameter."""
    value: Any = launch.get_custom_claim(CUSTOM_KEY)
    kind, _, key = str(value or "").partition(":")
    if kind == "quiz" and key.isdigit() and len(key) < 12:
        return kind, key
    if kind == "lesson" and key and len(key) <= 60:
        return kind, key
    return "", ""
