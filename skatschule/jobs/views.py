"""The progress of a job: polled by htmx, or reloaded by hand without JavaScript."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from skatschule.core.errors import render_error
from skatschule.owners import owner_for

from . import selectors, services
from .config import number
from .models import Job, JobStatus


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
