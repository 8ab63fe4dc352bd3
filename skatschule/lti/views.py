"""HTTP for LTI: the tool's keys, the OIDC login, the launch, the deep-link choice and the
teacher's course page. Thin: the checks are in :mod:`.launch`, the writes in :mod:`.services`.

Launches open in a new window (the LMS's "Neues Fenster"): every page keeps the site's
``frame-ancestors 'none'``, so nothing of the site can be framed, not even by a registered LMS.
"""

from __future__ import annotations

import ipaddress
import re
import uuid
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from lti_tool.constants import SESSION_KEY
from lti_tool.models import Key, LtiLaunch
from lti_tool.utils import DjangoToolConfig
from lti_tool.views import OIDCLoginInitView
from lti_tool.views import jwks as tool_jwks
from pylti1p3.contrib.django.launch_data_storage.cache import DjangoCacheDataStorage
from pylti1p3.contrib.django.oidc_login import DjangoOIDCLogin
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.lineitem import LineItem

from skatschule.core.errors import UserError, render_error
from skatschule.core.language import current_lang
from skatschule.http import AuthenticatedHttpRequest
from skatschule.jobs import selectors as job_selectors
from skatschule.jobs.models import Job
from skatschule.jobs.services import LimitReached
from skatschule.owners import Owner
from skatschule.quizzes.selectors.taking import item_count

from . import launch as lti
from . import selectors, services
from .models import CourseClass
from .services import LaunchRefused

__all__ = ["jwks", "LoginInitView", "launch", "pick", "course", "sync", "resend"]

jwks = tool_jwks  # the tool's public keys (lti_tool.Key; new ones with manage.py rotate_keys)

_DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"


@method_decorator(never_cache, name="dispatch")
class LoginInitView(OIDCLoginInitView):
    """Third-party initiated login: remember state and nonce, send the browser to the LMS's
    authorization endpoint, which posts the signed launch back to :func:`launch`.

    No cookie-check page with inline script (the site's CSP forbids it, and a new-window launch
    has its cookies); the launch always returns to our own launch URL, whatever ``target_link_uri``
    says (the deep-linked resource travels in a custom parameter).
    """

    def get_oidc_response(self, request: HttpRequest, registration_uuid: Any, params: Any) -> HttpResponse:
        if not params.get("iss") or not params.get("login_hint") or not params.get("target_link_uri"):
            return render_error(request, _not_from_lms(), 400)
        if not Key.objects.active().exists():
            return render_error(
                request,
                UserError(
                    "Skatschule hat noch keinen Schlüssel für Lernplattformen (manage.py rotate_keys).",
                    "Skatschule has no key for learning platforms yet (manage.py rotate_keys).",
                ),
                503,
            )
        oidc_login = DjangoOIDCLogin(
            request, DjangoToolConfig(registration_uuid), launch_data_storage=DjangoCacheDataStorage()
        )
        try:
            response: HttpResponse = oidc_login.redirect(request.build_absolute_uri(reverse("lti:launch")))
            return response
        except (LtiException, OIDCException, LookupError, ValueError):
            return render_error(
                request,
                UserError(
                    "Diese Lernplattform ist hier nicht eingetragen (Aussteller oder Client-ID unbekannt).",
                    "This learning platform is not registered here (unknown issuer or client ID).",
                ),
                400,
            )


def _not_from_lms() -> UserError:
    return UserError(
        "Diese Adresse ruft nur eine Lernplattform auf (LTI 1.3), kein Browser von Hand.",
        "Only a learning platform calls this address (LTI 1.3), not a browser by hand.",
    )


@csrf_exempt  # the LMS posts the signed launch; the JWT, state and nonce are its protection
@never_cache
@require_http_methods(["GET", "POST"])
def launch(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return render_error(request, _not_from_lms(), 405)
    try:
        checked = lti.checked_launch(request)
        request.session.flush()  # whoever was signed in here: the launch decides who it is now
        return _enter(request, checked)
    except LaunchRefused as refused:
        return render_error(request, refused, title=_refused_title())


def _refused_title() -> str:
    return _("Start abgelehnt")


def _enter(request: HttpRequest, checked: LtiLaunch) -> HttpResponse:  # noqa: C901 - over the budget since issue 27; to be split
    teacher_role = lti.is_teacher_role(checked)
    user = services.site_user(lti_user=checked.user)
    course = services.course_class(context=checked.context, teacher=user if teacher_role else None)
    if course is None:
        raise LaunchRefused(
            "Diesen Kurs hat noch keine Lehrkraft aus der Lernplattform heraus geöffnet. Bitte gib ihr Bescheid.",
            "No teacher has opened this course from the learning platform yet. Please let them know.",
            status=409,
        )
    teaches = course.classroom.teacher_id == user.pk
    if teacher_role and not teaches:
        owner = course.classroom.teacher.get_full_name() or course.classroom.teacher.get_username()
        raise LaunchRefused(
            f"Die Klasse dieses Kurses leitet in Skatschule schon {owner}; eine Klasse hat hier genau eine Lehrkraft.",
            f"This course's class is already taught in Skatschule by {owner}; a class has exactly one teacher here.",
            status=409,
        )
    if checked.is_deep_link_launch and not teaches:
        raise LaunchRefused(
            "Inhalte auswählen darf nur die Lehrkraft des Kurses.", "Only the course's teacher may choose content."
        )
    if not teaches:
        services.enrol(course=course, student=user)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    if checked.is_deep_link_launch:
        lti.remember(request, checked)
        return redirect("lti:pick")
    if teaches and checked.context.memberships_url and course.roster_synced_at is None:
        _queue_roster(course, user)
    kind, key = lti.chosen_resource(checked)
    if kind == "quiz":
        quiz = selectors.linked_quiz(course, quiz_id=key)
        if quiz is None:
            raise LaunchRefused(
                "Dieses Quiz gibt es in der Klasse des Kurses nicht (mehr).",
                "This quiz is not (or no longer) in the course's class.",
                status=404,
            )
        if teaches:
            return redirect("quizzes:results", pk=quiz.pk)
        services.remember_grade_target(student=user, quiz=quiz, lti_user=checked.user, ags_claim=checked.ags_claim)
        return redirect("quizzes:start", pk=quiz.pk)
    if kind == "lesson":
        lesson = selectors.linked_lesson(slug=key)
        if lesson is not None:
            return redirect(lesson.url)
    return redirect("lti:course", pk=course.pk) if teaches else redirect("quizzes:index")


def _queue_roster(course: CourseClass, teacher: User) -> Job | None:
    try:
        return services.request_roster(course=course, teacher=teacher)
    except LimitReached:
        return None


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def pick(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Deep linking: the teacher picks a lesson or a quiz; the answer goes back to the LMS as a
    signed JWT in a form the teacher sends (no script needed)."""
    checked = lti.current_launch(request)
    course = selectors.course_of(checked.context) if checked is not None and checked.is_deep_link_launch else None
    if checked is None or course is None or course.classroom.teacher_id != request.user.pk:
        return render_error(
            request,
            UserError(
                "Inhalte wählt man aus der Lernplattform heraus („Aktivität hinzufügen“ → Skatschule).",
                "Content is chosen from within the learning platform (“add activity” → Skatschule).",
            ),
            403,
        )
    lang = current_lang()
    choices = selectors.link_choices(course, lang=lang)
    if request.method == "GET":
        return render(request, "lti/pick.html", {"course": course, "choices": choices})
    value = request.POST.get("resource", "")
    titles = {key: title for _, group in choices for key, title in group}
    if value not in titles:
        return render(
            request,
            "lti/pick.html",
            {"course": course, "choices": choices, "error": _("Bitte wähle eine Lektion oder ein Quiz.")},
            status=400,
        )
    resource = (
        DeepLinkResource()
        .set_type("ltiResourceLink")
        .set_title(titles[value])
        .set_url(request.build_absolute_uri(reverse("lti:launch")))
        .set_custom_params({lti.CUSTOM_KEY: value})
    )
    kind, _sep, key = value.partition(":")
    quiz = selectors.linked_quiz(course, quiz_id=key) if kind == "quiz" else None
    if quiz is not None:
        maximum = max(1, item_count(quiz))
        resource.set_lineitem(LineItem().set_score_maximum(maximum).set_label(quiz.title).set_resource_id(value))
    message_launch = checked.get_message_launch()
    token = message_launch.get_deep_link().get_response_jwt([resource])
    return_url = str((checked.get_claim(_DEEP_LINKING_SETTINGS) or {}).get("deep_link_return_url", ""))
    origin = form_origin(return_url)
    if origin is None:
        return render_error(request, _not_from_lms(), 400)
    request.session.pop(SESSION_KEY, None)  # one choice per deep-linking launch
    response = render(
        request, "lti/return.html", {"return_url": return_url, "jwt": token, "title": titles[value], "course": course}
    )
    # The form goes to the LMS: this one page may post there (the site's CSP says form-action 'self'),
    # to the origin of the return URL of the signed launch only (also under CSP_REPORT_ONLY).
    response._csp_update = {"form-action": [origin]}  # type: ignore[attr-defined]
    response._csp_update_ro = {"form-action": [origin]}  # type: ignore[attr-defined]
    return response


_HOST_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def form_origin(url: str) -> str | None:
    """The origin ``scheme://host[:port]`` of ``url`` as a CSP source, or None unless ``url`` is a
    plain http(s) address: an ASCII host name of letters, digits and hyphens (an international one
    in its ``xn--`` form) or an IP address, no wildcard, no user or password, a real port.

    ``urlsplit``'s ``netloc`` alone is not enough: it keeps whatever comes before the first ``/``,
    so ``https://lms.example;frame-ancestors *`` or ``https://lms.example https:`` would add a
    directive or a source to the header, and ``https://*`` would allow every https site."""
    if any(char.isspace() or ord(char) < 32 for char in url):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a port out of range, a bracketed host that is no IPv6 address
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http") or parts.username is not None or parts.password is not None:
        return None
    host = parts.hostname or ""
    if "[" in parts.netloc:
        host = _ipv6(host)
    elif not all(_HOST_LABEL.fullmatch(label) for label in host.split(".")) or len(host) > 253:
        return None
    if not host:
        return None
    return f"{scheme}://{host}" + (f":{port}" if port is not None else "")


def _ipv6(host: str) -> str:
    """``[host]`` for an IPv6 address (``urlsplit`` drops the brackets), else ""."""
    try:
        return f"[{ipaddress.IPv6Address(host).compressed}]"
    except ValueError:
        return ""


@never_cache
@login_required
def course(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The teacher's page for an LMS course: its class, the roster sync and its last result."""
    found = selectors.own_course(request.user, pk=pk)
    job_id = _job_id(request.GET.get("abgleich", ""))
    job = job_selectors.job_for(owner=Owner.for_user(request.user), job_id=job_id) if job_id else None
    context = {"course": found, "job": job, "unsent": len(selectors.unsent_scores(found))}
    return render(request, "lti/course.html", context)


@login_required
@require_POST
def resend(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Send again the scores the LMS has not confirmed (its answer failed, or none was queued)."""
    found = selectors.own_course(request.user, pk=pk)
    queued = services.resend_scores(course=found)
    messages.info(
        request,
        ngettext("%(n)s Ergebnis erneut gesendet.", "%(n)s Ergebnisse erneut gesendet.", queued) % {"n": queued},
    )
    return redirect("lti:course", pk=found.pk)


@login_required
@require_POST
def sync(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    found = selectors.own_course(request.user, pk=pk)
    if not found.context.memberships_url:
        return render_error(
            request,
            UserError(
                "Die Lernplattform bietet für diesen Kurs keine Teilnehmerliste an (Namen und Rollen).",
                "The learning platform offers no roster for this course (names and roles).",
            ),
            409,
        )
    try:
        job = services.request_roster(course=found, teacher=request.user)
    except LimitReached as exc:
        return render_error(request, exc)
    return redirect(f"{reverse('lti:course', kwargs={'pk': found.pk})}?abgleich={job.pk}")


def _job_id(raw: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None
