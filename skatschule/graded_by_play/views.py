"""The pages of the exercises graded by a job (:data:`.work.GRADED`): the Drücken trainer at
``/ueben/druecken/`` and "Reizen, am Spiel gemessen" at ``/ueben/reizen/``, the same views for both
(the URL namespace names the type where the address holds no exercise yet).

- ``start`` (GET ``…/?stufe=N``) issues an exercise and shows it at its own address;
- ``exercise`` (GET ``…/<uuid>/``): the hand and the form; once answered the feedback;
  while the grading of a given answer runs, its progress (htmx polls, without JavaScript a link);
- ``answer`` (POST): reads the answer (a 400 when it cannot be read), asks for the grading
  job and grades at once when it is known, else keeps the answer in the session until it is.

The exercise is an ordinary training exercise (lessons, review, progress): the same form is part
of the lesson and review pages, which post it here.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from skatschule.core.errors import message_in, render_error
from skatschule.core.security import client_ip
from skatschule.exercises.base import AnswerError
from skatschule.http import HtmxHttpRequest
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job
from skatschule.owners import Owner, owner_for
from skatschule.training.models import Attempt, IssuedExercise
from skatschule.training.selectors import next_step
from skatschule.training.services.issuing import (
    BadDifficulty,
    Submitted,
    get_issued,
    grade_attempt,
    issue,
    question_for,
    submit,
)
from skatschule.training.views import answer_error, exercise_context, lesson_of, progress_for

from .work import GRADED, Graded

PENDING = "druecken_pending"
"""Session key: answers given while their grading runs, by exercise uuid."""


def _graded_type(request: HttpRequest) -> Graded:
    """The type of this address (by its URL namespace)."""
    namespace = request.resolver_match.namespace if request.resolver_match else ""
    return next(g for g in GRADED.values() if g.namespace == namespace)


def _page(issued: IssuedExercise) -> str:
    return reverse(f"{GRADED[issued.kind].namespace}:exercise", kwargs={"public_id": issued.public_id})


def _job(request: HttpRequest, issued: IssuedExercise, values: list[str]) -> Job:
    graded = GRADED[issued.kind]
    key, payload = graded.job(question_for(issued), values)
    return jobs.submit(
        owner=owner_for(request),
        kind=graded.job_kind,
        key=key,
        payload=payload,
        address=client_ip(request),
    )


def _graded(request: HttpRequest, owner: Owner, issued: IssuedExercise, values: list[str]) -> HttpResponse:
    submitted = submit(issued=issued, owner=owner, values=values)
    state = submitted.progress_state
    practice = issued.mode == IssuedExercise.Mode.PRACTICE
    following = next_step(owner=owner, lesson=lesson_of(issued), state=state, practice=practice)
    context = exercise_context(issued, progress_for(owner, issued, state), submitted, next_thing=following)
    if getattr(request, "htmx", False):
        return render(request, "training/partials/answer_result.html", context)
    return render(request, "training/exercise.html", context)


@require_GET
def start(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request)
    try:
        issued = issue(kind=_graded_type(request).type.slug, difficulty=request.GET.get("stufe", "1"), owner=owner)
    except BadDifficulty as exc:
        return render(request, "training/error.html", {"message": message_in(exc)}, status=400)
    return redirect(_page(issued))


@require_GET
def exercise(request: HttpRequest, public_id: Any) -> HttpResponse:
    owner = owner_for(request)
    issued = get_issued(public_id=public_id, owner=owner)
    if issued.kind not in GRADED:
        return redirect(reverse("training:exercise", kwargs={"kind": issued.kind}))
    if _graded_type(request).type.slug != issued.kind:  # the other type's address
        return redirect(_page(issued))
    attempt = Attempt.objects.filter(issued=issued).first()
    if attempt is not None:
        answered = Submitted(attempt, grade_attempt(attempt), created=False)
        context = exercise_context(issued, progress_for(owner, issued), answered)
        return render(request, "training/exercise.html", context)
    pending = request.session.get(PENDING, {}).get(str(issued.public_id))
    if pending:
        try:
            job = _job(request, issued, list(pending))
        except jobs.LimitReached as exc:
            return render_error(request, exc, 429)
        if job.is_done:
            stored = dict(request.session.get(PENDING, {}))
            stored.pop(str(issued.public_id), None)
            request.session[PENDING] = stored
            return _graded(request, owner, issued, list(pending))
        context = exercise_context(issued, progress_for(owner, issued))
        context.update(job=job, page=_page(issued), waiting=GRADED[issued.kind].waiting)
        return render(request, "graded_by_play/waiting.html", context)
    return render(request, "training/exercise.html", exercise_context(issued, progress_for(owner, issued)))


@require_POST
def answer(request: HtmxHttpRequest, public_id: Any) -> HttpResponse:
    owner = owner_for(request)
    issued = get_issued(public_id=public_id, owner=owner)
    values = [str(v)[:8] for v in request.POST.getlist("answer")[:8]]
    try:
        if issued.kind not in GRADED or GRADED[issued.kind].namespace != _graded_type(request).namespace:
            raise AnswerError(
                "Diese Aufgabe wird auf einer anderen Seite bewertet.", "This exercise is graded on another page."
            )
        job = _job(request, issued, values)
    except AnswerError as exc:
        return answer_error(request, owner, issued, exc)
    except jobs.LimitReached as exc:
        return render_error(request, exc, 429)
    answered = Attempt.objects.filter(issued=issued).exists()
    if job.is_done and not answered:
        return _graded(request, owner, issued, values)
    if not answered:
        stored = dict(request.session.get(PENDING, {}))
        stored[str(issued.public_id)] = values
        request.session[PENDING] = dict(list(stored.items())[-20:])
    page = _page(issued)
    if request.htmx:
        return render(request, "jobs/progress.html", {"job": job, "next": page})
    return redirect(page)
