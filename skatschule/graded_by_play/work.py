"""The exercises graded by a job (:mod:`skatschule.jobs`): what each asks its job to compute.

- ``druecken`` (job ``druecken-grade``): the hand and the declared game in, all 66 discards of
  that game and of the best game out (JSON of :class:`skatschule.engine.discard.HandGrading`);
- ``reizen_gespielt`` (job ``reizen-grade``): ten cards and a seat in, every candidate game over
  the sampled deals out (JSON of :class:`skatschule.engine.bidplay.BidGrading`).

A job's key names the input, the number of deals and the method (``grading_key`` of each type),
so a second learner with the same question gets the stored result at once. The ``*_from_jobs``
functions are the types' sources of gradings: the stored result, else (an answer posted past the
pages, a regrade) the engine computes it in the process.

:data:`GRADED` describes each type for the shared pages (:mod:`.views`): its address (URL
namespace), its job and how an answer becomes that job's key and payload.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from skatschule.engine import Card, GameType, parse_card
from skatschule.engine.bidplay import BidGrading, grade_bid
from skatschule.engine.discard import HandGrading, grade_hand
from skatschule.exercises.base import ExerciseType, Question
from skatschule.exercises.druecken import Druecken, grading_key, parse_answer
from skatschule.exercises.reizen_gespielt import ReizenGespielt, parse_bid
from skatschule.exercises.reizen_gespielt import grading_key as bid_key
from skatschule.jobs.models import Result

__all__ = [
    "GRADE",
    "TYPE",
    "BID_GRADE",
    "BID_TYPE",
    "GRADED",
    "Graded",
    "run_grading",
    "grading_from_jobs",
    "run_bid_grading",
    "bid_grading_from_jobs",
]

GRADE = "druecken-grade"
TYPE = Druecken()
BID_GRADE = "reizen-grade"
BID_TYPE = ReizenGespielt()


def run_grading(payload: dict[str, Any]) -> dict[str, Any]:
    cards = [parse_card(str(c)) for c in payload["cards"]]
    game = GameType(str(payload["game"]))
    return grade_hand(cards, game, deals=int(payload["deals"]), screen=int(payload["screen"])).as_json()


def grading_from_jobs(cards: tuple[Card, ...], game: GameType, deals: int, screen: int) -> HandGrading:
    stored = Result.objects.filter(kind=GRADE, key=grading_key(cards, game, deals, screen)).first()
    if stored is not None:
        return HandGrading.from_json(stored.data)
    return grade_hand(cards, game, deals=deals, screen=screen)


def run_bid_grading(payload: dict[str, Any]) -> dict[str, Any]:
    cards = [parse_card(str(c)) for c in payload["cards"]]
    return grade_bid(cards, int(payload["position"]), deals=int(payload["deals"])).as_json()


def bid_grading_from_jobs(cards: tuple[Card, ...], position: int, deals: int) -> BidGrading:
    stored = Result.objects.filter(kind=BID_GRADE, key=bid_key(cards, position, deals)).first()
    if stored is not None:
        return BidGrading.from_json(stored.data)
    return grade_bid(cards, position, deals=deals)


def _druecken_job(question: Question, values: list[str]) -> tuple[str, dict[str, Any]]:
    _, game = parse_answer(question, values)
    cards = TYPE.hand(question)
    payload = {"cards": [c.code for c in cards], "game": game.value, "deals": TYPE.deals, "screen": TYPE.screen}
    return grading_key(cards, game, TYPE.deals, TYPE.screen), payload


def _bid_job(question: Question, values: list[str]) -> tuple[str, dict[str, Any]]:
    parse_bid(values)  # an unreadable answer asks for no job
    cards = BID_TYPE.hand(question)
    position = BID_TYPE.position_of(question)
    payload = {"cards": [c.code for c in cards], "position": position, "deals": BID_TYPE.deals}
    return bid_key(cards, position, BID_TYPE.deals), payload


@dataclass(frozen=True)
class Graded:
    """One exercise type graded by a job, as the shared pages need it."""

    type: ExerciseType
    namespace: str
    """The URL namespace of its pages (``druecken:exercise`` ...)."""
    job_kind: str
    job: Callable[[Question, list[str]], tuple[str, dict[str, Any]]]
    """An answer's job key and payload; AnswerError when the answer cannot be read."""
    waiting: str | Promise
    """What the page says while the job runs."""


GRADED: dict[str, Graded] = {
    TYPE.slug: Graded(
        TYPE,
        "druecken",
        GRADE,
        _druecken_job,
        _(
            "Deine Antwort ist angekommen. Die Engine spielt jetzt alle 66 Möglichkeiten zu drücken gegen viele "
            "Verteilungen der Gegenspielerkarten; das dauert einige Sekunden."
        ),
    ),
    BID_TYPE.slug: Graded(
        BID_TYPE,
        "reizen",
        BID_GRADE,
        _bid_job,
        _(
            "Dein Gebot ist angekommen. Die Engine spielt jetzt jedes Spiel gegen viele Verteilungen von Skat "
            "und Gegnerkarten; das dauert einen Moment."
        ),
    ),
}
"""The types graded by a job, by slug."""
