"""The par of a deal as a job (:mod:`skatschule.jobs`): the declarer's Augen with best play by
everyone, all cards open, from the first lead of the game as it was declared at the table.

A full ten-card search takes up to a few seconds, so it runs on the worker; the key is the deal
and the moves up to the first card (the auction, the skat and the declaration), so every player
who declared the same game the same way shares one result.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from skatschule.engine import SkatError
from skatschule.engine.game import Phase
from skatschule.engine.games import OUT_OF_SCHNEIDER, TOTAL_POINTS, WIN_POINTS
from skatschule.engine.solver import SCHWARZ, Position, SearchAborted, wins
from skatschule.table import services as table_services

__all__ = ["PAR", "PAR_NODES", "KINDS", "par_payload", "par_key", "run_par", "setup_moves"]

PAR = "weekly-par"
PAR_NODES = int(os.environ.get("WEEKLY_PAR_NODES", 3_000_000))
"""Node budget of the exact search (then of the "does he reach it?" search, if that was too big)."""


def setup_moves(moves: list[Any]) -> list[Any]:
    """The moves before the first card: auction, skat and declaration."""
    out: list[Any] = []
    for move in moves:
        if move and move[0] == "c":
            break
        out.append(move)
    return out


def par_payload(*, seed: int, seat: int, moves: list[Any]) -> dict[str, Any]:
    return {"seed": seed, "seat": seat, "moves": setup_moves(moves)}


def par_key(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps([PAR, payload["seed"], payload["moves"], PAR_NODES]).encode()).hexdigest()


def _threshold(schneider: bool) -> int:
    """The declarer's Augen that win (Schneider announced: that make the defenders Schneider)."""
    return TOTAL_POINTS - OUT_OF_SCHNEIDER + 1 if schneider else WIN_POINTS


def run_par(payload: dict[str, Any]) -> dict[str, Any]:
    """``augen``: the declarer's Augen with best play (None: too big, or a Null game); ``wins``:
    whether he reaches 61 (90 with Schneider announced; with Schwarz announced every trick; in Null:
    no trick), None: too big. Overbidding is not judged here: the page shows the Augen."""
    table = table_services.Table(int(payload["seed"]), int(payload["seat"]), list(payload["moves"]))
    state = table_services.replay(table=table)
    if state.phase is not Phase.PLAY or state.contract is None:
        raise SkatError("Das Spiel ist nicht bis zum ersten Ausspiel gekommen", "The game never reached its first lead")
    position = Position.of(state)
    contract = state.contract
    need = _threshold(contract.schneider_announced)
    if contract.game.is_null or contract.schwarz_announced:  # yes or no: no trick, or every trick
        try:
            return {"augen": None, "wins": wins(position, SCHWARZ, max_nodes=PAR_NODES), "need": None}
        except SearchAborted:
            return {"augen": None, "wins": None, "need": None}
    try:
        augen = position.solve(card_values=False, max_nodes=PAR_NODES).declarer_points
        assert augen is not None
        return {"augen": augen, "wins": augen >= need, "need": need}
    except SearchAborted:
        pass
    try:
        return {"augen": None, "wins": wins(position, need, max_nodes=PAR_NODES), "need": need}
    except SearchAborted:
        return {"augen": None, "wins": None, "need": need}


KINDS = {PAR: run_par}
