"""Aus meinen Fehlern: puzzles from the learner's own table games, found by a job.

``check_game`` submits the job for one stored table game (read through the table app's
selector); ``take_results`` stores the puzzles of a finished job as the learner's own
(``Puzzle.owner_user``), once.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import transaction

from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job, JobStatus
from skatschule.owners import Owner
from skatschule.table.selectors import game_of

from .content import row_fields
from .generation import OWN, VERSION
from .models import Puzzle


def check_game(*, user: Any, game_id: int, address: str = "") -> Job | None:
    """Submit the search for the user's mistakes in one stored game; None for an unknown game.

    Raises ``jobs.LimitReached`` when the user has too many jobs pending.
    """
    game = game_of(user=user, pk=game_id)
    if game is None or not game.iss_record:
        return None
    key = f"own:v{VERSION}:" + hashlib.sha256(f"{game.seat}|{game.iss_record}".encode()).hexdigest()
    payload = {"record": game.iss_record, "seat": game.seat}
    return jobs.submit(owner=Owner.for_user(user), kind=OWN, key=key, payload=payload, address=address)


@transaction.atomic
def take_results(*, user: Any, job: Job) -> list[Puzzle]:
    """The learner's own puzzles from a finished job (stored the first time)."""
    if job.status != JobStatus.DONE or job.result is None:
        return []
    out: list[Puzzle] = []
    for data in job.result.data.get("puzzles", []):
        puzzle = EnginePuzzle.from_dict(data)
        row, _ = Puzzle.objects.get_or_create(
            id=puzzle.id, defaults={"rating": float(puzzle.rating), "owner_user": user, **row_fields(puzzle)}
        )
        if row.owner_user_id in (None, user.pk):
            out.append(row)
    return out
