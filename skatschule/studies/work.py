"""The job that grades a study's stops (kind :data:`.grading.SOLVE`, registered in :mod:`.apps`)."""

from __future__ import annotations

from typing import Any

from . import services
from .grading import SOLVE, grade_stops

__all__ = ["SOLVE", "run_solve"]


def run_solve(payload: dict[str, Any]) -> dict[str, Any]:
    """The job's handler: grade the stops and store the grading on the study."""
    data = grade_stops(dict(payload["record"]), [int(m) for m in payload["moments"]])
    services.store_grading(study_id=int(payload["study"]), data=data)
    return data
