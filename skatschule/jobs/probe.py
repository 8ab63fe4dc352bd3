"""The worker's self-test: a job that waits a moment and says who ran it.

The worker tests
use it to kill a worker while it is busy; an operator can submit it from the shell to see that a
worker answers. Capped at ten seconds; no page submits it.
"""

from __future__ import annotations

import os
import time
from typing import Any

PROBE = "jobs.probe"
LONGEST = 10.0


def probe(payload: dict[str, Any]) -> dict[str, Any]:
    seconds = payload.get("seconds", 0)
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        raise TypeError("seconds is a number")
    time.sleep(max(0.0, min(float(seconds), LONGEST)))
    if payload.get("fail"):
        raise RuntimeError("the probe was asked to fail")
    return {"pid": os.getpid(), "seconds": seconds}
