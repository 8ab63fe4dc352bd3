"""Grading a study's stops with the open-hand solver (pure engine work; the job's handler: :mod:`.work`).

The payload names the study and the game with the moments of its stops still to grade; the
handler grades every stop with :func:`skatschule.engine.puzzles.grade` (the puzzles' rule: a card
is right when it keeps the best result of the mover's side) and stores the grading on the stops
(:func:`.services.store_grading`; a stop's grading depends only on the game and its moment). The result,
kept by the jobs app under a key of the game and the moments, serves a second study of the same
deal and stops at once.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from skatschule.engine.puzzles import Spot, grade
from skatschule.engine.solver import SearchAborted

__all__ = ["SOLVE", "MAX_NODES", "payload_of", "key_of", "grade_stops"]

SOLVE = "studies-solve"
MAX_NODES = 20_000_000
"""A stop whose search needs more is marked too big (the teacher is asked to choose a later one)."""


def payload_of(*, study_id: int, record: dict[str, Any], moments: list[int]) -> dict[str, Any]:
    return {"study": study_id, "record": record, "moments": sorted(moments)}


def key_of(record: dict[str, Any], moments: list[int]) -> str:
    text = json.dumps([record, sorted(moments), MAX_NODES], sort_keys=True, separators=(",", ":"))
    return "studies1:" + hashlib.sha256(text.encode()).hexdigest()


def grade_stops(record: dict[str, Any], moments: list[int], *, max_nodes: int | None = MAX_NODES) -> dict[str, Any]:
    """Each stop's grading as plain data: ``{"stops": {moment: {"right", "values", "goal"} or {"too_big"}}}``."""
    spot = Spot.from_dict(record)
    out: dict[str, Any] = {}
    for moment in sorted(moments):
        state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, spot.plays[:moment]).state()
        try:
            graded = grade(state, max_nodes=max_nodes)
        except SearchAborted:
            out[str(moment)] = {"too_big": True}
            continue
        out[str(moment)] = {
            "right": [c.code for c in graded.right],
            "values": {c.code: v for c, v in sorted(graded.values.items())},
            "goal": graded.goal.value,
        }
    return {"stops": out}
