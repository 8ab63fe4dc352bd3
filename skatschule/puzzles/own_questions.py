"""Aus meinen Fehlern, Reizen and Drücken: the learner answers his own mistake again.

A :class:`.models.OwnQuestion` holds the hand as it was in his game. His new answer is read as
the trainers read theirs (:func:`skatschule.exercises.reizen_gespielt.parse_bid`,
:func:`skatschule.exercises.druecken.parse_answer`), graded by the trainers' jobs with their
payloads and keys (``reizen-grade``, ``druecken-grade``: :mod:`skatschule.graded_by_play.work`),
and explained by the trainers' own feedback (``feedback_for``): the expected list scores, the
win counts and how many deals were played. The page holds the hand and the form only; the
grading is not computed for the page before the answer is in (nor is what he did then shown).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skatschule.engine import GameType, Text, parse_cards
from skatschule.engine.bidplay import BidGrading
from skatschule.engine.discard import HandGrading
from skatschule.engine.names import game_ref
from skatschule.engine.seats import Seat
from skatschule.engine.sorting import neutral_order
from skatschule.exercises.base import Feedback, Question
from skatschule.exercises.druecken import OPTIONS as GAME_OPTIONS
from skatschule.exercises.druecken import feedback_for as discard_feedback
from skatschule.exercises.druecken import grading_key, parse_answer
from skatschule.exercises.reizen_gespielt import OPTIONS as BID_OPTIONS
from skatschule.exercises.reizen_gespielt import feedback_for as bid_feedback
from skatschule.exercises.reizen_gespielt import grading_key as bid_key
from skatschule.exercises.reizen_gespielt import parse_bid
from skatschule.graded_by_play.work import BID_GRADE, BID_TYPE, GRADE, TYPE
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job, JobStatus
from skatschule.owners import Owner

from .models import OwnQuestion

__all__ = ["question_of", "answer", "graded", "then_of", "seat_text"]


def question_of(row: OwnQuestion) -> Question:
    """The question as the trainers' answer widgets show it (cards in a fixed order, the options
    in the ladder's or the games' order: nothing hints at the answer)."""
    cards = tuple(c.code for c in neutral_order(parse_cards(row.cards.split()), jacks_first=True))
    bid = row.kind == OwnQuestion.Kind.BID
    return Question(
        kind=BID_TYPE.slug if bid else TYPE.slug,
        difficulty=1,
        seed=0,
        prompt=Text("", ""),
        widget="bid" if bid else "discard",
        options=BID_OPTIONS if bid else GAME_OPTIONS,
        cards=cards,
    )


def _job(row: OwnQuestion, values: list[str]) -> tuple[str, str, dict[str, Any]]:
    """The trainer's job kind, key and payload for an answer; AnswerError when it cannot be read."""
    cards = parse_cards(row.cards.split())
    if row.kind == OwnQuestion.Kind.BID:
        parse_bid(values)
        payload = {"cards": [c.code for c in cards], "position": row.position, "deals": BID_TYPE.deals}
        return BID_GRADE, bid_key(cards, row.position, BID_TYPE.deals), payload
    _, game = parse_answer(question_of(row), values)
    payload = {"cards": [c.code for c in cards], "game": game.value, "deals": TYPE.deals, "screen": TYPE.screen}
    return GRADE, grading_key(cards, game, TYPE.deals, TYPE.screen), payload


def answer(*, row: OwnQuestion, values: Sequence[str], address: str = "") -> Job:
    """Read the learner's new answer and ask the trainer's job to grade it.

    Raises AnswerError for an answer that cannot be read, ``jobs.LimitReached`` when he has too
    many jobs pending."""
    clean = [str(v).strip()[:8] for v in values if str(v).strip()][:4]
    kind, key, payload = _job(row, clean)
    job = jobs.submit(owner=Owner.for_user(row.owner_user), kind=kind, key=key, payload=payload, address=address)
    row.answer = " ".join(clean)
    row.job = job
    row.save(update_fields=["answer", "job"])
    return job


def then_of(row: OwnQuestion) -> dict[str, Any]:
    """What he did in his game, for the page after his answer: ``highest`` and ``refused``
    (Reizen), or ``pair`` (two card codes) and ``game`` (a game reference) for Drücken."""
    if row.kind == OwnQuestion.Kind.BID:
        highest, refused = (int(x) for x in row.did.split())
        return {"highest": highest, "refused": refused}
    return {"pair": row.did.split(), "game": game_ref(GameType(row.game))}


def graded(row: OwnQuestion) -> Feedback | None:
    """The trainer's verdict on the newest answer, once its job is done; None before."""
    job = row.job
    if job is None or job.status != JobStatus.DONE or job.result is None or not row.answer:
        return None
    values = row.answer.split()
    data = job.result.data
    if row.kind == OwnQuestion.Kind.BID:
        feedback = bid_feedback(BidGrading.from_json(data), parse_bid(values))
    else:
        pair, game = parse_answer(question_of(row), values)
        found = HandGrading.from_json(data)
        if found.chosen.game is not game:  # a job of another answer (cannot happen through the page)
            return None
        feedback = discard_feedback(found, pair, game)
    return feedback


def seat_text(row: OwnQuestion) -> Text:
    return Seat(row.position).text
