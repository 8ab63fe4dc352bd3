"""The grading of a Drücken answer as a job (:mod:`skatschule.jobs`): the hand and the declared
game in, all 66 discards of that game and of the best game out (JSON of
:class:`skatschule.engine.discard.HandGrading`).

The job's key names the hand, the game, the number of deals and the method
(:func:`skatschule.exercises.druecken.grading_key`), so a second learner with the same hand and
game gets the stored result at once. :func:`grading_from_jobs` is the exercise type's source of
gradings: the stored result, else (an answer posted past the trainer's pages, a regrade) the
engine computes it in the process.
"""

from __future__ import annotations

from typing import Any

from skatschule.engine import Card, GameType, parse_card
from skatschule.engine.discard import HandGrading, grade_hand
from skatschule.exercises.druecken import Druecken, grading_key
from skatschule.jobs.models import Result

__all__ = ["GRADE", "TYPE", "payload_for", "key_for", "run_grading", "grading_from_jobs"]

GRADE = "druecken-grade"
TYPE = Druecken()


def payload_for(cards: tuple[Card, ...], game: GameType) -> dict[str, Any]:
    return {"cards": [c.code for c in cards], "game": game.value, "deals": TYPE.deals, "screen": TYPE.screen}


def key_for(cards: tuple[Card, ...], game: GameType) -> str:
    return grading_key(cards, game, TYPE.deals, TYPE.screen)


def run_grading(payload: dict[str, Any]) -> dict[str, Any]:
    cards = [parse_card(str(c)) for c in payload["cards"]]
    game = GameType(str(payload["game"]))
    return grade_hand(cards, game, deals=int(payload["deals"]), screen=int(payload["screen"])).as_json()


def grading_from_jobs(cards: tuple[Card, ...], game: GameType, deals: int, screen: int) -> HandGrading:
    stored = Result.objects.filter(kind=GRADE, key=grading_key(cards, game, deals, screen)).first()
    if stored is not None:
        return HandGrading.from_json(stored.data)
    return grade_hand(cards, game, deals=deals, screen=screen)
