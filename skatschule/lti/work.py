"""The LTI app's job that is not a single call to the platform (:mod:`skatschule.jobs`): a JSON
payload in, a JSON result out, registered in :meth:`.apps.LtiConfig.ready` (``platform.send_score``
is the other). Submitted by :func:`.services.request_roster`."""

from __future__ import annotations

from typing import Any

from . import platform, services
from .models import CourseClass


def sync_roster_job(payload: dict[str, Any]) -> dict[str, Any]:
    """Job ``lti.roster``: fetch the course's roster from the LMS and apply it."""
    course = CourseClass.objects.select_related("classroom", "context__deployment__registration").get(
        pk=payload["course"]
    )
    return services.sync_roster(course=course, member_data=platform.members(course.context))
