"""Aus meinen Fehlern: puzzles from the learner's own table games, found by a job.

``check_game`` submits the job for one stored table game, ``check_all_games`` one job for the
newest games not searched yet (read through the table app's selectors); ``take_results`` stores
the puzzles of a finished job as the learner's own (``Puzzle.owner_user``, with the game they
came from), once, and marks the games as searched; ``take_questions`` stores the job's mistakes
in bidding and discarding as :class:`.models.OwnQuestion` rows, and their gradings as the results
of the trainers' jobs (``reizen-grade``, ``druecken-grade``), so answering again with the same
game is graded at once.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import transaction

from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job, JobStatus, Result
from skatschule.owners import Owner
from skatschule.table.models import TableGame
from skatschule.table.reviews import mark_searched
from skatschule.table.selectors import game_of, games_of, unsearched_games

from .content import row_fields
from .generation import OWN, VERSION
from .models import OwnQuestion, Puzzle

MOST_GAMES = 20
"""Games one search for "all my games" goes through (the newest not yet searched)."""


def _submit(*, user: Any, games: list[TableGame], address: str) -> Job:
    parts = [{"id": g.pk, "record": g.iss_record, "seat": g.seat} for g in games]
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
    return jobs.submit(
        owner=Owner.for_user(user), kind=OWN, key=f"own:v{VERSION}:{digest}", payload={"games": parts}, address=address
    )


def check_game(*, user: Any, game_id: int, address: str = "") -> Job | None:
    """Submit the search for the user's mistakes in one stored game; None for an unknown game.

    Raises ``jobs.LimitReached`` when the user has too many jobs pending.
    """
    game = game_of(user=user, pk=game_id)
    if game is None or not game.iss_record:
        return None
    return _submit(user=user, games=[game], address=address)


def check_all_games(*, user: Any, address: str = "") -> Job | None:
    """Submit one search through the user's newest stored games not searched yet (at most
    :data:`MOST_GAMES`); None when every game has been searched.

    Raises ``jobs.LimitReached`` when the user has too many jobs pending.
    """
    games = list(unsearched_games(user=user)[:MOST_GAMES])
    return _submit(user=user, games=games, address=address) if games else None


@transaction.atomic
def take_results(*, user: Any, job: Job) -> list[Puzzle]:
    """The learner's own puzzles from a finished job (stored the first time)."""
    if job.status != JobStatus.DONE or job.result is None:
        return []
    out: list[Puzzle] = []
    data = job.result.data
    found = data.get("puzzles", [])
    games = data.get("games") or [job.payload.get("game")] * len(found)
    asked = [g["id"] for g in job.payload.get("games", [])] + [g for g in games if g]
    own = set(games_of(user=user).filter(pk__in=asked).values_list("pk", flat=True))
    for item, game_id in zip(found, games, strict=False):
        puzzle = EnginePuzzle.from_dict(item)
        row, _ = Puzzle.objects.get_or_create(
            id=puzzle.id,
            defaults={
                "rating": float(puzzle.rating),
                "owner_user": user,
                "own_game_id": game_id if game_id in own else None,
                **row_fields(puzzle),
            },
        )
        if row.owner_user_id in (None, user.pk):
            out.append(row)
    mark_searched(user=user, ids=[g["id"] for g in job.payload.get("games", []) if g.get("id") in own])
    return out


@transaction.atomic
def take_questions(*, user: Any, job: Job) -> list[OwnQuestion]:
    """The learner's own Reizen and Drücken questions from a finished job (stored the first time)."""
    from skatschule.graded_by_play.work import BID_GRADE, GRADE

    if job.status != JobStatus.DONE or job.result is None:
        return []
    found = list(job.result.data.get("questions", []))
    asked = [q.get("game_id") for q in found]
    own = set(games_of(user=user).filter(pk__in=[g for g in asked if g]).values_list("pk", flat=True))
    out: list[OwnQuestion] = []
    for item in found:
        bid = item["kind"] == OwnQuestion.Kind.BID
        did = f"{int(item['highest'])} {int(item['refused'])}" if bid else " ".join(item["pair"])
        row, _ = OwnQuestion.objects.get_or_create(
            owner_user=user,
            kind=OwnQuestion.Kind.BID if bid else OwnQuestion.Kind.DISCARD,
            cards=" ".join(item["cards"]),
            position=int(item["position"]) if bid else 0,
            game="" if bid else str(item["game"]),
            defaults={"did": did, "own_game_id": item.get("game_id") if item.get("game_id") in own else None},
        )
        Result.objects.get_or_create(
            kind=BID_GRADE if bid else GRADE, key=str(item["key"]), defaults={"data": item["grading"]}
        )
        out.append(row)
    return out
