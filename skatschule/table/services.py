"""The table: a whole hand as one seat against two engine bots (writes live here).

The game lives in the session as seed, seat and moves (visitors and signed-in users
alike); every request replays it with the engine, which checks each step. The bots'
cards never reach the browser before the end of the game. A finished game of a
signed-in user is stored as a :class:`~.models.TableGame`.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction

from skatschule.engine import (
    Bid,
    Contract,
    GameState,
    Hold,
    Pass,
    SkatError,
    parse_card,
    parse_game,
)
from skatschule.engine.bidding import Auction
from skatschule.engine.bots import CardChoice, bid_for_limit, choose_card, choose_contract, choose_discard
from skatschule.engine.game import Declare, Discard, Phase, PickUp
from skatschule.engine.iss import write_record
from skatschule.engine.numbers import plain_number
from skatschule.owners import Owner
from skatschule.training.lessons import Activity
from skatschule.training.services.activities import record_activity
from skatschule.training.services.auction_play import hand_limit

from .analysis import Analysis, Step, analyse_plays
from .models import TableGame

__all__ = [
    "Table",
    "new_table",
    "replay",
    "play",
    "hint",
    "analyse",
    "Analysis",
    "Step",
    "save_finished",
    "BOT_TIME_CAP",
]

BOT_TIME_CAP = 0.6
"""Seconds a bot may think about one card (perfect-information Monte Carlo, see engine.bots)."""
HINT_TIME_CAP = 1.5
"""Seconds the computer may think for a hint."""
ANALYSIS_NODES = 1_500_000
"""Node budget of each search of "Hätte ich gewinnen können?" (about 2 s of one core; see
``python -m skatschule.engine.bench --analysis``): the exact Augen first, then, if that is
too big, only "winnable?" with the same budget."""


@dataclass
class Table:
    seed: int
    seat: int
    moves: list[list[Any]] = field(default_factory=list)
    saved: int | None = None

    def as_session(self) -> dict[str, object]:
        return {"seed": self.seed, "seat": self.seat, "moves": self.moves, "saved": self.saved}

    @classmethod
    def from_session(cls, data: object) -> Table | None:
        if not isinstance(data, dict):
            return None
        seed, seat, moves, saved = data.get("seed"), data.get("seat"), data.get("moves"), data.get("saved")
        if not isinstance(seed, int) or seat not in (0, 1, 2) or not isinstance(moves, list):
            return None
        table = cls(seed, int(seat), list(moves), saved if isinstance(saved, int) else None)
        try:
            replay(table)
        except (SkatError, ValueError, TypeError, KeyError, IndexError):
            return None
        return table


def _apply(state: GameState, move: list[Any]) -> None:
    kind = move[0]
    if kind == "a":
        seat, what = int(move[1]), move[2]
        state.push(Hold(seat) if what == "y" else Pass(seat) if what == "p" else Bid(seat, int(what)))
    elif kind == "s":
        state.push(PickUp())
    elif kind == "d":
        state.push(Discard((parse_card(move[1]), parse_card(move[2]))))
    elif kind == "g":
        state.push(
            Declare(
                Contract(
                    parse_game(move[1]),
                    hand=bool(move[2]),
                    ouvert=bool(move[3]),
                    schneider_announced=bool(move[4]),
                    schwarz_announced=bool(move[5]),
                )
            )
        )
    elif kind == "c":
        state.play(parse_card(move[1]))
    else:
        raise SkatError(f"Unbekannter Zug {kind!r}", f"Unknown move {kind!r}")


def replay(table: Table) -> GameState:
    """The game as it stands, rebuilt move by move with the engine."""
    state = GameState(seed=table.seed)
    for move in table.moves:
        _apply(state, move)
    return state


def _record(table: Table, state: GameState, move: list[Any]) -> None:
    _apply(state, move)  # raises before anything is recorded
    table.moves.append(move)


def _bot_auction_move(auction: Auction, limit: int) -> list[Any]:
    """The bots' one bidding rule (engine.bots), written as a table move."""
    move = bid_for_limit(auction, limit)
    return ["a", move.seat, move.value if isinstance(move, Bid) else "y" if isinstance(move, Hold) else "p"]


def _let_bots_play(table: Table, state: GameState, rng: random.Random) -> None:
    """Bots move until it is the learner's turn or the game is over."""
    while not state.is_over():
        seat = state.to_move
        if seat is None or seat == table.seat:
            return
        phase = state.phase
        if phase is Phase.AUCTION:
            limit = hand_limit(state.deal.hand(seat)).value
            _record(table, state, _bot_auction_move(state.auction, limit))
        elif phase is Phase.SKAT:
            _record(table, state, ["s"])
        elif phase is Phase.DISCARD:
            twelve = list(state.hand(seat))
            planned = hand_limit(tuple(state.deal.hand(seat)))
            contract = planned.contract or choose_contract(twelve)
            a, b = choose_discard(twelve, contract.game)
            _record(table, state, ["d", a.code, b.code])
        elif phase is Phase.DECLARE:
            planned = hand_limit(tuple(state.deal.hand(seat)))
            contract = planned.contract or choose_contract(list(state.hand(seat)))
            _record(table, state, ["g", contract.game.value, False, False, False, False])
        else:
            choice = choose_card(state, rng=rng, time_cap=BOT_TIME_CAP)
            _record(table, state, ["c", choice.card.code])


def new_table(*, seed: int | None = None, seat: int | None = None) -> Table:
    rng = random.Random(seed)
    table = Table(rng.randrange(2**31), rng.randrange(3) if seat is None else seat)
    state = replay(table)
    _let_bots_play(table, state, random.Random(table.seed))
    return table


def play(
    *, table: Table, action: str, value: str = "", cards: list[str] | None = None, flags: set[str] | None = None
) -> GameState:
    """The learner's move, checked by the engine; then the bots answer.

    ``action``: ``bid`` (``value``), ``hold``, ``pass``, ``pickup``, ``discard`` (two
    ``cards``), ``declare`` (``value`` = game, ``flags`` from hand, ouvert, schneider,
    schwarz) or ``card`` (``value`` = card code). Raises :class:`SkatError` when the
    rules forbid it.
    """
    state = replay(table)
    if state.is_over():
        raise SkatError("Das Spiel ist beendet", "The game is over")
    if state.to_move != table.seat:
        raise SkatError("Du bist nicht am Zug", "It is not your turn")
    seat = table.seat
    flags = flags or set()
    if action == "bid":
        bid = plain_number(value, max_digits=3)
        if bid is None:
            raise SkatError("Bitte einen Reizwert wählen", "Please choose a bid value")
        move: list[Any] = ["a", seat, bid]
    elif action == "hold":
        move = ["a", seat, "y"]
    elif action == "pass":
        move = ["a", seat, "p"]
    elif action == "pickup":
        move = ["s"]
    elif action == "discard":
        chosen = cards or []
        if len(chosen) != 2:
            raise SkatError("Bitte genau zwei Karten zum Drücken wählen", "Please choose exactly two cards to discard")
        move = ["d", parse_card(chosen[0]).code, parse_card(chosen[1]).code]
    elif action == "declare":
        game = parse_game(value)
        hand = state.phase is Phase.SKAT
        move = ["g", game.value, hand, "ouvert" in flags, "schneider" in flags, "schwarz" in flags]
    elif action == "card":
        move = ["c", parse_card(value).code]
    else:
        raise SkatError(f"Unbekannter Zug {action!r}", f"Unknown move {action!r}")
    _record(table, state, move)
    _let_bots_play(table, state, random.Random(table.seed * 31 + len(table.moves)))
    return state


def hint(*, table: Table) -> CardChoice:
    """What the computer would play in the learner's seat, and why (the learner's view only)."""
    state = replay(table)
    if state.phase is not Phase.PLAY or state.to_move != table.seat:
        raise SkatError(
            "Ein Tipp gibt es, wenn du eine Karte spielen sollst", "A hint is available when you are to play a card"
        )
    return choose_card(state, rng=random.Random(table.seed + len(table.moves)), time_cap=HINT_TIME_CAP)


def analyse(*, table: Table) -> Analysis | None:
    """ "Hätte ich gewinnen können?" for a finished game (:func:`.analysis.analyse_plays`):
    each of the learner's cards valued with every card open. None when the game is not over
    or was passed in. Cached by the game's moves (and the node budget)."""
    state = replay(table)
    if not state.is_over() or state.contract is None:
        return None
    key = (
        "table-analysis:"
        + hashlib.sha256(json.dumps([table.seed, table.seat, table.moves, ANALYSIS_NODES]).encode()).hexdigest()
    )
    cached = cache.get(key)
    if isinstance(cached, Analysis):
        return cached
    start = GameState(state.deal, rules=state.rules)
    plays = [parse_card(move[1]) for move in table.moves if move[0] == "c"]
    for move in table.moves:
        if move[0] == "c":
            break
        _apply(start, move)
    result = analyse_plays(start, plays, table.seat, max_nodes=ANALYSIS_NODES)
    cache.set(key, result, 24 * 3600)
    return result


def iss_line(table: Table) -> str:
    state = replay(table)
    names = tuple("Du" if s == table.seat else f"Computer {s}" for s in range(3))
    return write_record(state, players=(names[0], names[1], names[2]), game_id=str(table.seed))


ACTIVITY = Activity(
    slug="spiel",
    title_de="Ein Spiel am Tisch zu Ende spielen",
    title_en="Play a game to its end at the table",
    url_name="table:play",
)
"""The lesson step a finished table game counts for (lesson 16 lists ``spiel:2``)."""


def save_finished(*, table: Table, user: Any) -> int | None:
    """Store a finished game of a signed-in user once; returns its id.

    A game that was played (not passed in) also counts as progress: one right attempt of the
    :data:`ACTIVITY` step, recorded in the same transaction as the stored game, so once per
    game. Nothing is stored for visitors (their game stays in the session)."""
    if table.saved is not None or not getattr(user, "is_authenticated", False):
        return table.saved
    state = replay(table)
    if not state.is_over():
        return None
    outcome = state.outcome()
    try:
        with transaction.atomic():
            row = TableGame.objects.create(
                user=user,
                seed=table.seed,
                seat=table.seat,
                moves=table.moves,
                iss_record=iss_line(table),
                won=None if outcome is None else outcome.won,
                score=None if outcome is None else outcome.score,
            )
            if not state.passed_in:
                record_activity(Owner.for_user(user), ACTIVITY.slug, key=int(row.pk) % 2**31)
    except IntegrityError:
        # the same game stored by a request running at the same time: that one counts
        row = TableGame.objects.get(user=user, seed=table.seed, seat=table.seat)
    table.saved = int(row.pk)
    return table.saved
