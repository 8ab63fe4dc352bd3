"""Puzzle generation as jobs: one job plays and examines a few seeded bot games.

:func:`run_batch` is the job handler (payload -> JSON result); :func:`merge` folds the
results of many batches into the shipped file and the figures skatschule/operations/MEASUREMENTS.md reports.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from skatschule.engine import SkatError
from skatschule.engine.bidplay import BidGrading
from skatschule.engine.discard import HandGrading
from skatschule.engine.game import GameState
from skatschule.engine.iss import parse_record
from skatschule.engine.own_mistakes import bid_spot, discard_spot, judge_bid, judge_discard
from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.engine.puzzles import examine, from_bot_game, from_strong_game, mistakes, spots_from_state

GENERATE = "puzzles.generate"
OWN = "puzzles.own"
RECORDS = "puzzles.records"
VERSION = 3
"""Part of every job key: a change to how puzzles are found gets new keys (old results are not reused).
3: "Aus meinen Fehlern" also judges the bidding and the discard."""


def run_batch(payload: dict[str, Any]) -> dict[str, Any]:
    """Play the games with seeds ``first_seed`` .. ``first_seed + games - 1`` and examine them
    (``strong``: whole games of the strongest bots, auction included; ``null``: every game a Null
    game of the older PIMC bots)."""
    first = int(payload["first_seed"])
    games = int(payload["games"])
    null = bool(payload.get("null", False))
    strong = bool(payload.get("strong", False))
    started = time.perf_counter()
    cpu = time.process_time()
    counts: dict[str, int] = {}
    puzzles: list[dict[str, Any]] = []
    for seed in range(first, first + games):
        found, seen = from_strong_game(seed) if strong else from_bot_game(seed, null=null)
        puzzles.extend(p.as_dict() for p in found)
        for key, n in seen.items():
            counts[key] = counts.get(key, 0) + n
    return {
        "first_seed": first,
        "games": games,
        "seconds": round(time.perf_counter() - started, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "counts": counts,
        "puzzles": puzzles,
    }


@dataclass
class Figures:
    games: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    """CPU time of the worker (wall time on a shared machine is longer); 0 for results without it."""
    counts: dict[str, int] = field(default_factory=dict)
    puzzles: dict[str, EnginePuzzle] = field(default_factory=dict)

    @property
    def per_minute(self) -> float:
        return 60 * len(self.puzzles) / self.seconds if self.seconds else 0.0

    @property
    def per_cpu_minute(self) -> float:
        return 60 * len(self.puzzles) / self.cpu_seconds if self.cpu_seconds else 0.0

    def lines(self) -> list[str]:
        decisions = sum(self.counts.values())
        out = [
            f"{self.games} Spiele, {decisions} Entscheidungen geprüft, {len(self.puzzles)} Aufgaben "
            f"in {self.seconds:.0f} s Rechenzeit: {self.per_minute:.1f} Aufgaben je Minute und Worker",
        ]
        if self.cpu_seconds:
            out.append(
                f"  CPU-Zeit des Workers {self.cpu_seconds:.0f} s: {self.per_cpu_minute:.1f} Aufgaben je CPU-Minute"
            )
        for key, n in sorted(self.counts.items(), key=lambda kv: -kv[1]):
            out.append(f"  {key}: {n}")
        return out


def merge(results: Iterable[dict[str, Any]]) -> Figures:
    """Fold batch results (one game or many each) into the puzzles and the counts."""
    figures = Figures()
    for res in results:
        figures.games += int(res.get("games", 1))
        figures.seconds += float(res.get("seconds", 0.0))
        figures.cpu_seconds += float(res.get("cpu_seconds", 0.0))
        for key, n in res.get("counts", {}).items():
            figures.counts[key] = figures.counts.get(key, 0) + int(n)
        for data in res.get("puzzles", []):
            puzzle = EnginePuzzle.from_dict(data)
            figures.puzzles.setdefault(puzzle.id, puzzle)
    return figures


def run_own(payload: dict[str, Any]) -> dict[str, Any]:
    """The puzzles in a learner's table games that the learner got wrong ("Aus meinen Fehlern"):
    every one of his cards, from the first trick on.

    Payload: ``games``, each with the game's id, its ISS record and the learner's seat (or one
    game as ``record`` and ``seat``). Result: the puzzles, each with the card the learner played
    and the id of its game (``games``, in the same order); and ``questions``, his real mistakes in
    bidding and discarding (:func:`own_questions`).
    """
    games = payload.get("games") or [{"id": payload.get("game"), "record": payload["record"], "seat": payload["seat"]}]
    started = time.perf_counter()
    puzzles: list[dict[str, Any]] = []
    played: list[str] = []
    ids: list[Any] = []
    questions: list[dict[str, Any]] = []
    for game in games:
        state = parse_record(str(game["record"])).state
        for found in mistakes(state, int(game["seat"]), last_tricks=10):
            puzzles.append(found.puzzle.as_dict())
            played.append(found.played.code)
            ids.append(game.get("id"))
        questions.extend(dict(q, game_id=game.get("id")) for q in own_questions(state, int(game["seat"])))
    return {
        "seconds": round(time.perf_counter() - started, 2),
        "puzzles": puzzles,
        "played": played,
        "games": ids,
        "questions": questions,
    }


def own_questions(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The learner's real mistakes before the first card (engine/own_mistakes.py), each with the
    trainer's grading as the trainers' jobs compute it (``reizen-grade``, ``druecken-grade``:
    the same deals, so the stored grading answers the learner's first try again at once).

    A bid: ``kind`` "reizen", ``cards``, ``position``, ``highest``, ``refused``; a discard:
    ``kind`` "druecken", ``cards`` (twelve), ``game``, ``pair``. Both with ``key`` and ``grading``.
    """
    from skatschule.exercises.druecken import grading_key
    from skatschule.exercises.reizen_gespielt import grading_key as bid_key
    from skatschule.graded_by_play.work import BID_TYPE, TYPE, run_bid_grading, run_grading

    out: list[dict[str, Any]] = []
    bid = bid_spot(state, seat)
    if bid is not None:
        codes = [c.code for c in bid.cards]
        data = run_bid_grading({"cards": codes, "position": bid.position, "deals": BID_TYPE.deals})
        if judge_bid(bid.bidding, BidGrading.from_json(data)) is not None:
            out.append(
                {
                    "kind": "reizen",
                    "cards": codes,
                    "position": bid.position,
                    "highest": bid.bidding.highest,
                    "refused": bid.bidding.refused,
                    "key": bid_key(bid.cards, bid.position, BID_TYPE.deals),
                    "grading": data,
                }
            )
    put = discard_spot(state, seat)
    if put is not None:
        codes = [c.code for c in put.cards]
        payload = {"cards": codes, "game": put.game.value, "deals": TYPE.deals, "screen": TYPE.screen}
        data = run_grading(payload)
        if judge_discard(put.pair, HandGrading.from_json(data)) is not None:
            out.append(
                {
                    "kind": "druecken",
                    "cards": codes,
                    "game": put.game.value,
                    "pair": [c.code for c in put.pair],
                    "key": grading_key(put.cards, put.game, TYPE.deals, TYPE.screen),
                    "grading": data,
                }
            )
    return out


def run_records(payload: dict[str, Any]) -> dict[str, Any]:
    """The puzzles in ISS records (public archives, imported games): every seat's last decisions.

    A record that cannot be read is counted ("unreadable"), not fatal; an ouvert game is counted
    ("ouvert") and left out, as in ``engine.puzzles.puzzles_of_game``.
    """
    started = time.perf_counter()
    counts: dict[str, int] = {}
    puzzles: list[dict[str, Any]] = []
    for text in payload["records"]:
        try:
            state = parse_record(str(text)).state
        except SkatError:
            counts["unreadable"] = counts.get("unreadable", 0) + 1
            continue
        if state.contract is not None and state.contract.ouvert:
            # the open hand is part of every player's view, which the sampled check does not model
            counts["ouvert"] = counts.get("ouvert", 0) + 1
            continue
        for spot in spots_from_state(state):
            verdict = examine(spot, sample_seed=len(spot.plays), source="iss")
            if verdict.puzzle is not None:
                puzzles.append(verdict.puzzle.as_dict())
                key = verdict.puzzle.view.value
            else:
                key = verdict.reject.value if verdict.reject else "?"
            counts[key] = counts.get(key, 0) + 1
    return {
        "games": len(payload["records"]),
        "seconds": round(time.perf_counter() - started, 2),
        "counts": counts,
        "puzzles": puzzles,
    }
