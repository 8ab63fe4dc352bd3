"""The progress of a job: pushed to the page as it changes (:func:`events`, server-sent events
read by htmx's sse extension), or reloaded by hand without JavaScript (:func:`status`)."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from skatschule.core.errors import render_error
from skatschule.core.language import current_lang
from skatschule.owners import owner_for
from skatschule.push.streams import Event, State, stream

from . import selectors, services
from .config import number
from .models import Job, JobStatus
from .progress import channel


def _next(request: HttpRequest) -> str:
    """Where the asker goes once the result is there: a path on this site, else the home page."""
    target = request.GET.get("next", "")[:2000]
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return "/"


def _looks_stale(job: Job) -> bool:
    now = timezone.now()
    if job.status == JobStatus.RUNNING:
        beat = job.heartbeat or job.started or job.created
        return beat < now - timedelta(seconds=number("JOB_STALE_SECONDS", 30))
    if job.status == JobStatus.QUEUED:
        return job.queued < now - timedelta(seconds=number("JOB_QUEUE_TIMEOUT", 600))
    return False


def status(request: HttpRequest, job_id: UUID) -> HttpResponse:
    owner = owner_for(request, create=False)
    job = selectors.job_for(owner=owner, job_id=job_id)
    if job is None:
        return render_error(request, _("Diese Rechnung gibt es nicht (mehr)."), 404)
    if _looks_stale(job):  # a worker died: re-queue or fail it now, not at the next sweep
        services.recover_stale()
        job = selectors.job_for(owner=owner, job_id=job_id) or job
    target = _next(request)
    htmx = getattr(request, "htmx", False)
    if htmx and not job.is_pending:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    if not htmx and job.is_done:
        return HttpResponseRedirect(target)
    template = "jobs/progress.html" if htmx else "jobs/status.html"
    return render(request, template, {"job": job, "next": target})


def events(request: HttpRequest, job_id: UUID) -> HttpResponseBase:
    """The job's progress as server-sent events: ``progress`` (the figures as HTML) while it is
    pending, then ``done`` (the page fetches what comes next); each message carries the whole
    state, so a browser that reconnects catches up with its first message."""
    owner = owner_for(request, create=False)
    if selectors.job_for(owner=owner, job_id=job_id) is None:
        return render_error(request, _("Diese Rechnung gibt es nicht (mehr)."), 404)
    language = current_lang()  # the stream renders later, outside the request

    def state() -> State:
        job = selectors.job_for(owner=owner, job_id=job_id)
        if job is not None and _looks_stale(job):  # a worker died: re-queue or fail it now
            services.recover_stale()
            job = selectors.job_for(owner=owner, job_id=job_id)
        if job is None or not job.is_pending:
            return State([Event("done")], last=True)
        with translation.override(language):
            return State([Event("progress", render_to_string("jobs/progress_state.html", {"job": job}))])

    return stream(request, channel(job_id), state)
