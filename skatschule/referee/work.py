"""The claim check as a job: its key, its payload and the handler (pure engine work).

Positions with at most :data:`AT_ONCE` cards a hand are answered in the request (a few
milliseconds); larger ones go to a worker, and the result is kept by position and claim.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from skatschule.engine.claims import Claim, ClaimPosition, ClaimVerdict, Goal, SearchAborted, Side, check_claim

CLAIM_JOB = "claim"
AT_ONCE = 5
"""Up to this many cards a hand the answer is computed in the request."""
MAX_NODES = 5_000_000
"""A search larger than this is given up (the page says so)."""


def payload_of(position: ClaimPosition, claim: Claim) -> dict[str, Any]:
    return {"position": position.codes(), "side": claim.side.value, "goal": claim.goal.value}


def key_of(position: ClaimPosition, claim: Claim) -> str:
    text = json.dumps(payload_of(position, claim), sort_keys=True, separators=(",", ":"))
    return "claim1:" + hashlib.sha256(text.encode()).hexdigest()


def run_claim(payload: dict[str, Any]) -> dict[str, Any]:
    """The job's handler: the verdict as plain data, or ``{"aborted": true}`` for a search too large."""
    position = ClaimPosition.from_codes(payload["position"])
    claim = Claim(Side(payload["side"]), Goal(payload["goal"]))
    try:
        return check_claim(position, claim, max_nodes=MAX_NODES).to_data()
    except SearchAborted:
        return {"aborted": True}


def verdict_from(data: dict[str, Any]) -> ClaimVerdict | None:
    """The verdict stored by a job (None when its search was given up)."""
    if data.get("aborted"):
        return None
    return ClaimVerdict.from_data(data)


def at_once(position: ClaimPosition) -> bool:
    return max(len(h) for h in position.hands) <= AT_ONCE
