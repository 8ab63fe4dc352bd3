"""The table's heavy work as jobs (:mod:`skatschule.jobs`): a JSON payload in, a JSON result out.

Registered in :meth:`.apps.TableConfig.ready`; submitted by :mod:`.views` with a key that names
the position (the game's seed, seat and moves, or the record), so a second asker gets the
finished result at once. Each handler reads its game again with the engine, which checks it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from skatschule.engine import GameState, SkatError

from . import reviews, services

__all__ = ["KINDS", "key_of", "table_payload", "run_analysis", "run_hint", "run_bots", "run_ouvert"]

ANALYSIS = "table-analysis"
HINT = "table-hint"
BOTS = "table-bots"
OUVERT = "table-ouvert"


def key_of(*parts: object) -> str:
    """A job key for a position: a digest of its parts (and of the budgets that shape the answer)."""
    budgets = [services.ANALYSIS_NODES, services.INSIGHT_SAMPLES, services.INSIGHT_NODES, services.OUVERT_SAMPLES]
    return hashlib.sha256(json.dumps([list(parts), budgets], sort_keys=True).encode()).hexdigest()


def table_payload(table: services.Table) -> dict[str, Any]:
    """The game for a job; the bots' level is part of it (and so of every job's key)."""
    return {"seed": table.seed, "seat": table.seat, "moves": table.moves, "level": table.level.value}


def _loaded(payload: dict[str, Any]) -> tuple[services.Table, GameState]:
    """The payload's game and where it stands (one replay, which checks every move)."""
    loaded = services.load(data={k: payload.get(k) for k in ("seed", "seat", "moves", "level")})
    if loaded is None:
        raise SkatError("Das Spiel lässt sich nicht nachspielen", "The game cannot be replayed")
    return loaded


def run_analysis(payload: dict[str, Any]) -> dict[str, Any]:
    """The board's analysis with "Hätte ich es wissen können?" of a table game or an ISS record."""
    if "record" in payload:
        found = services.analyse_record(record=str(payload["record"]), seat=int(payload["seat"]), insights=True)
    else:
        table, state = _loaded(payload)
        found = services.analyse(table=table, state=state, insights=True)
        if found is not None:  # "Meine Spiele" lists the accuracy of a stored game
            reviews.record_review(seed=payload["seed"], seat=payload["seat"], moves=payload["moves"], analysis=found)
    return {"analysis": None if found is None else found.as_json()}


def run_hint(payload: dict[str, Any]) -> dict[str, Any]:
    """What the computer would do in the learner's seat, and why (both languages): the card, or
    before the first card the bid, the skat, the discard or the game."""
    table, state = _loaded(payload)
    said = services.hint(table=table, state=state)
    return {"de": said.de, "en": said.en}


def run_bots(payload: dict[str, Any]) -> dict[str, Any]:
    """The bots' next card that needs thinking, and the moves that need none after it (each
    thinking card is a job of its own, so the page shows it as soon as it is chosen). When a bot
    must think again after them, the job for that position follows at once (``then``, queued by
    the worker), so the next card is chosen while this one is shown."""
    table, state = _loaded(payload)  # the one replay: the bots play on from this state
    moves = services.bot_moves(table=table, state=state, thoughts=1)
    after = services.Table(table.seed, table.seat, table.moves + moves, level=table.level)
    if not services.bots_to_move(table=after, state=state):
        return {"moves": moves}
    following = table_payload(after)
    return {"moves": moves, "then": {"key": key_of(BOTS, json.dumps(following)), "payload": following}}


def run_ouvert(payload: dict[str, Any]) -> dict[str, Any]:
    """ "Ist mein Ouvert sicher?" for a hand (and a known skat)."""
    found = services.check_ouvert_hand(
        game=str(payload["game"]), cards=list(payload["cards"]), skat=list(payload["skat"])
    )
    return {
        "game": found.game.value,
        "tried": found.tried,
        "wins": found.wins,
        "possible": found.possible,
        "proven": found.proven,
        "top_down": found.top_down,
        "counter": None if found.counter is None else [[c.code for c in part] for part in found.counter],
    }


KINDS = {ANALYSIS: run_analysis, HINT: run_hint, BOTS: run_bots, OUVERT: run_ouvert}
SHORT = {HINT, BOTS}
"""The kinds with a small time cap that a player waits for at the table: taken first by the worker."""
