"""The table: a whole hand as one seat against two engine bots (writes live here).

The game lives in the session as seed, seat and moves (visitors and signed-in users
alike); every request replays it with the engine, which checks each step. The bots'
cards never reach the browser before the end of the game. A finished game of a
signed-in user is stored as a :class:`~.models.TableGame`.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction

from skatschule.engine import (
    Bid,
    Card,
    Contract,
    GameState,
    GameType,
    Hold,
    Pass,
    SkatError,
    Text,
    parse_card,
    parse_cards,
    parse_game,
)
from skatschule.engine.advice import ADVICE_PHASES, advise
from skatschule.engine.bots import BotLevel, bot_move, choose_card
from skatschule.engine.game import Declare, Discard, Move, Phase, PickUp, Play
from skatschule.engine.iss import IssGame, parse_record, parse_records, split_records, write_record
from skatschule.engine.numbers import plain_number
from skatschule.engine.ouvert import OuvertCheck, check_ouvert
from skatschule.engine.seats import Seat
from skatschule.jobs.progress import report
from skatschule.owners import Owner
from skatschule.training.lessons import Activity
from skatschule.training.services.activities import record_activity

from .analysis import Analysis, Step, add_insights, analyse_plays, decisions
from .models import TableGame
from .signals import contest_moved

__all__ = [
    "Table",
    "new_table",
    "replay",
    "load",
    "play",
    "hint",
    "analyse",
    "Analysis",
    "Step",
    "save_finished",
    "adopt_session_game",
    "SESSION_KEY",
    "from_session",
    "keep",
    "take_back",
    "bots_to_move",
    "bot_moves",
    "add_bot_moves",
    "BOT_TIME_CAP",
    "level_of",
    "thinks_on_worker",
    "fixed_bot_rng",
    "report_contest",
]


def _tuned(name: str, default: float) -> float:
    """A budget of the table's work, from the environment variable ``TABLE_<name>`` if set
    (the worker reads the same; the tests make them small)."""
    try:
        return float(os.environ.get(f"TABLE_{name}", default))
    except ValueError:
        return default


BOT_TIME_CAP = _tuned("BOT_TIME_CAP", 0.6)
"""Seconds a bot may think about one card (perfect-information Monte Carlo, see engine.bots)."""
BOT_FALLBACK_CAP = 0.05
"""Seconds per card when the bots' job failed or is lost: the page goes on at once."""
HINT_TIME_CAP = 1.5
"""Seconds the computer may think for a hint."""
ANALYSIS_NODES = int(_tuned("ANALYSIS_NODES", 1_500_000))
"""Node budget of each search of "Hätte ich gewinnen können?" (about 2 s of one core; see
``python -m skatschule.engine.bench --analysis``): the exact Augen first, then, if that is
too big, only "winnable?" with the same budget."""
INSIGHT_SAMPLES = int(_tuned("INSIGHT_SAMPLES", 100))
"""Deals drawn for "Hätte ich es wissen können?" at each of the learner's decisions."""
INSIGHT_NODES = int(_tuned("INSIGHT_NODES", 60_000))
"""Node budget of each of those deals' yes/no search (a deal that needs more is not counted)."""


SESSION_KEY = "table_game"
"""The session entry the game at the table lives in (:meth:`Table.as_session`)."""


@dataclass
class Table:
    seed: int
    seat: int
    moves: list[list[Any]] = field(default_factory=list)
    saved: int | None = None
    took_back: bool = False
    """A move was taken back (:func:`take_back`): the game does not count for the lesson."""
    waiting: str = ""
    """The job computing the bots' next moves (:func:`bot_moves`), while it runs."""
    hint_job: str = ""
    """The job computing a hint for the position as it stands."""
    level: BotLevel = BotLevel.CLUB
    """How strong the two computer players are (chosen with "Neues Spiel")."""
    contest: int = 0
    """The id of the contest entry this game is played for (a deal of "Das Blatt der Woche",
    skatschule/weekly), 0 for a game of one's own. A contest game's bots are fixed
    (:func:`fixed_bot_rng`, no wall clock), and there is no take-back and no hint: one try counts.
    Each move is told to the contest (:data:`.signals.contest_moved`, :func:`report_contest`)."""

    def as_session(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "seat": self.seat,
            "moves": self.moves,
            "saved": self.saved,
            "back": self.took_back,
            "job": self.waiting,
            "hint": self.hint_job,
            "level": self.level.value,
            "contest": self.contest,
        }

    @property
    def running(self) -> bool:
        """The learner has spoken (every seat speaks in the auction) and the game is not stored
        as finished: what "Neues Spiel" would discard unless the game is over."""
        return self.saved is None and any(m[0] == "a" and m[1] == self.seat for m in self.moves)

    @classmethod
    def from_session(cls, data: object) -> Table | None:
        loaded = load(data=data)
        return None if loaded is None else loaded[0]


def level_of(*, value: object) -> BotLevel:
    """The bots' level named by ``value`` (its stable id); the default (club) for anything else."""
    try:
        return BotLevel(value)
    except ValueError:
        return BotLevel.CLUB


def load(*, data: object) -> tuple[Table, GameState] | None:
    """The game kept in the session and where it stands (one replay); None when there is none
    or it does not replay."""
    if not isinstance(data, dict):
        return None
    seed, seat, moves, saved = data.get("seed"), data.get("seat"), data.get("moves"), data.get("saved")
    if not isinstance(seed, int) or seat not in (0, 1, 2) or not isinstance(moves, list):
        return None
    table = Table(seed, int(seat), list(moves), saved if isinstance(saved, int) else None, data.get("back") is True)
    job, hint_job = data.get("job"), data.get("hint")
    table.waiting = job[:64] if isinstance(job, str) else ""
    table.hint_job = hint_job[:64] if isinstance(hint_job, str) else ""
    table.level = level_of(value=data.get("level"))
    contest = data.get("contest")
    table.contest = contest if isinstance(contest, int) and contest > 0 else 0
    try:
        return table, replay(table=table)
    except (SkatError, ValueError, TypeError, KeyError, IndexError):
        return None


def _apply(state: GameState, move: list[Any]) -> None:
    kind = move[0]
    if kind == "a":
        seat, what = Seat(int(move[1])), move[2]
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


def replay(*, table: Table) -> GameState:
    """The game as it stands, rebuilt move by move with the engine."""
    state = GameState(seed=table.seed)
    for move in table.moves:
        _apply(state, move)
    return state


def _record(table: Table, state: GameState, move: list[Any]) -> None:
    _apply(state, move)  # raises before anything is recorded
    table.moves.append(move)


def _table_move(move: Move) -> list[Any]:
    """An engine move of a bot, written as a table move (what :func:`_apply` reads)."""
    if isinstance(move, (Bid, Hold, Pass)):
        return ["a", move.seat, move.value if isinstance(move, Bid) else "y" if isinstance(move, Hold) else "p"]
    if isinstance(move, PickUp):
        return ["s"]
    if isinstance(move, Discard):
        return ["d", move.cards[0].code, move.cards[1].code]
    if isinstance(move, Declare):
        c = move.contract
        return ["g", c.game.value, c.hand, c.ouvert, c.schneider_announced, c.schwarz_announced]
    if isinstance(move, Play):
        return ["c", move.card.code]
    raise SkatError(f"Unbekannter Zug {move!r}", f"Unknown move {move!r}")


def thinks_on_worker(*, level: BotLevel) -> bool:
    """Whether the bots of ``level`` think about a card long enough to need the worker: the strong
    level samples up to :data:`BOT_TIME_CAP` a card; the rule bot and the club bot (a few small
    deals under 0.1 s) answer within the request."""
    return level is BotLevel.STRONG


def _card_cap(level: BotLevel, time_cap: float | None) -> float:
    """Seconds a bot may think about one card: ``time_cap`` if given, else :data:`BOT_TIME_CAP`,
    and never more than the level's own cap (the club bot's 0.09 s keeps a request short)."""
    if time_cap is not None:
        return time_cap
    own = level.config.time_cap
    return BOT_TIME_CAP if own is None else min(BOT_TIME_CAP, own)


def _let_bots_play(  # noqa: PLR0913 - over the budget since issue 27; to be split
    table: Table,
    state: GameState,
    rng: random.Random,
    *,
    think: bool = True,
    time_cap: float | None = None,
    thoughts: int | None = None,
) -> None:
    """Bots move until it is the learner's turn or the game is over; without ``think`` they stop
    at a card that needs thinking (more than one legal card: :func:`bot_moves`), and after
    ``thoughts`` such cards when given. Every decision is the engine's
    (:mod:`skatschule.engine.bots`) at the table's level."""
    while not state.is_over():
        seat = state.to_move
        if seat is None or seat == table.seat:
            return
        if state.phase is Phase.PLAY:
            if len(state.legal_cards()) > 1:
                if not think or thoughts == 0:
                    return
                if thoughts is not None:
                    thoughts -= 1
            if table.contest:  # the same card at every table: seeded by the position, no wall clock
                move: Move = Play(
                    choose_card(state, level=table.level, rng=fixed_bot_rng(table=table), time_cap=None).card
                )
            else:
                cap = _card_cap(table.level, time_cap)
                move = Play(choose_card(state, level=table.level, rng=rng, time_cap=cap).card)
        else:
            move = bot_move(state, level=table.level)
        _record(table, state, _table_move(move))


def fixed_bot_rng(*, table: Table) -> random.Random:
    """The random source of a contest bot's card: a digest of the deal (the seed) and the moves so
    far, nothing else. So the bots play the same card at every table that reached the same
    position with the same moves, whoever plays and whichever worker or request computes it."""
    digest = hashlib.sha256(json.dumps(["fixed-bot", table.seed, table.seat, table.moves]).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def new_table(*, seed: int | None = None, seat: int | None = None, level: BotLevel = BotLevel.CLUB) -> Table:
    rng = random.Random(seed)
    table = Table(rng.randrange(2**31), rng.randrange(3) if seat is None else seat, level=level)
    state = replay(table=table)
    _let_bots_play(table, state, random.Random(table.seed))
    return table


def play(  # noqa: C901, PLR0913 - over the budget since issue 27; to be split
    *,
    table: Table,
    action: str,
    value: str = "",
    cards: list[str] | None = None,
    flags: set[str] | None = None,
    state: GameState | None = None,
    think: bool = True,
) -> GameState:
    """The learner's move, checked by the engine; then the bots answer (without ``think`` only
    as far as they need no thinking: the rest is :func:`bot_moves`, run as a job).

    ``action``: ``bid`` (``value``), ``hold``, ``pass``, ``pickup``, ``discard`` (two
    ``cards``), ``declare`` (``value`` = game, ``flags`` from hand, ouvert, schneider,
    schwarz) or ``card`` (``value`` = card code). Raises :class:`SkatError` when the
    rules forbid it. ``state``: the game as it stands, if already replayed (it is played on).
    """
    state = replay(table=table) if state is None else state
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
    _let_bots_play(table, state, _bot_rng(table), think=think)
    return state


def _bot_rng(table: Table) -> random.Random:
    return random.Random(table.seed * 31 + len(table.moves))


def bots_to_move(*, table: Table, state: GameState) -> bool:
    """A bot is to move (the game waits for :func:`bot_moves`)."""
    return not state.is_over() and state.to_move not in (None, table.seat)


def bot_moves(
    *, table: Table, state: GameState | None = None, time_cap: float | None = None, thoughts: int | None = None
) -> list[list[Any]]:
    """The bots' moves from where ``table`` stands until the learner's turn (or the end), the
    same moves :func:`play` would make; with ``thoughts``, only until after that many cards that
    needed thinking (the worker's job answers one card at a time, so each is shown at once).
    ``time_cap``: seconds per card (default :func:`_card_cap`; the fallback when no worker
    answered thinks less). ``state``: the game where ``table`` stands, if the caller has it
    (else it is replayed); it is played on and stands after the moves. ``table`` is left as it is."""
    state = replay(table=table) if state is None else state
    copy = Table(table.seed, table.seat, list(table.moves), level=table.level, contest=table.contest)
    _let_bots_play(copy, state, _bot_rng(table), time_cap=time_cap, thoughts=thoughts)
    return copy.moves[len(table.moves) :]


def add_bot_moves(*, table: Table, state: GameState, moves: list[list[Any]]) -> GameState:
    """Record ``moves`` (a finished :func:`bot_moves`), each checked by the engine and only
    while a bot is to move; raises :class:`SkatError` otherwise (nothing is kept then)."""
    before = len(table.moves)
    try:
        for move in moves:
            if not bots_to_move(table=table, state=state) or not isinstance(move, list) or not move:
                raise SkatError("Der Zug gehört nicht dem Computer", "The move is not the computer's")
            _record(table, state, move)
    except (SkatError, ValueError, TypeError, KeyError, IndexError) as exc:
        for _ in range(len(table.moves) - before):
            state.pop()
        del table.moves[before:]
        raise SkatError("Die Züge des Computers passen nicht", "The computer's moves do not fit") from exc
    return state


def play_again(*, table: Table, step: int | None = None) -> Table:
    """A new game at the table from a finished one, at the same level and seat: the same deal
    from the auction on ("Dasselbe Blatt noch einmal", ``step`` None), or the same game up to
    its card ``step`` (0: the first lead), from where the learner plays on against the bots
    ("Ab hier weiterspielen"). The learner knows the cards now, so the new game does not count
    for the lesson (as after a takeback). Raises :class:`SkatError` for a game that is not over
    or a step past its end."""
    if not replay(table=table).is_over():
        raise SkatError("Das Spiel ist noch nicht beendet", "The game is not over yet")
    moves: list[list[Any]] = []
    if step is not None:
        cards = 0
        for move in table.moves:
            if move[0] == "c":
                if cards == step:
                    break
                cards += 1
            moves.append(list(move))
        if cards < step:
            raise SkatError("So viele Karten hat das Spiel nicht", "The game has not that many cards")
    again = Table(table.seed, table.seat, moves, took_back=True, level=table.level)
    if replay(table=again).is_over():
        raise SkatError("Ab hier ist das Spiel schon entschieden", "From here the game is already decided")
    return again


def take_back(*, table: Table) -> GameState:
    """Take back the learner's last move (and the bots' answers to it) in a running game; the
    game then no longer counts for the lesson. Raises :class:`SkatError` when there is none."""
    if table.contest:
        raise SkatError(
            "Im Blatt der Woche zählt der erste Versuch: kein Zug zurück",
            "In the deal of the week the first try counts: no take-back",
        )
    state = GameState(seed=table.seed)
    last = None
    for i, move in enumerate(table.moves):
        if state.to_move == table.seat:
            last = i
        _apply(state, move)
    if state.is_over():
        raise SkatError("Das Spiel ist beendet", "The game is over")
    if last is None:
        raise SkatError("Es gibt noch keinen eigenen Zug zurückzunehmen", "There is no move of yours to take back yet")
    for _ in range(len(table.moves) - last):
        state.pop()
    del table.moves[last:]
    table.took_back = True
    return state


ADVICE_DEALS = int(_tuned("ADVICE_DEALS", 200))
"""Deals the hint before the first card plays (the trainers' own number)."""
HINT_PHASES = (Phase.PLAY, *ADVICE_PHASES)
"""Where the learner may ask "Was würde der Computer tun, und warum?": in the auction, at the
skat, the discard and the declaration (:mod:`skatschule.engine.advice`) and at every card."""


def check_hint(*, table: Table, state: GameState) -> None:
    """Raise :class:`SkatError` unless the learner is to move in a game that is not over; never
    in a contest game (everyone plays the deal on their own)."""
    if table.contest:
        raise SkatError("Im Blatt der Woche gibt es keinen Tipp", "There are no hints in the deal of the week")
    if state.phase not in HINT_PHASES or state.to_move != table.seat:
        raise SkatError("Einen Tipp gibt es, wenn du am Zug bist", "A hint is available when it is your turn")


def ask_hint(*, table: Table, state: GameState) -> None:
    """The learner asks for a hint (:func:`check_hint` first): like a takeback, the game then no
    longer counts for the lesson."""
    check_hint(table=table, state=state)
    table.took_back = True


def hint(*, table: Table, state: GameState | None = None) -> Text:
    """What the computer would do in the learner's seat, and why, from the learner's view only:
    the card to play (the bots' choice), or before the first card the bid, the skat, the
    discard or the game (:func:`skatschule.engine.advice.advise`, the trainers' gradings).
    Card names are name references for :func:`skatschule.engine.names.render`."""
    state = replay(table=table) if state is None else state
    check_hint(table=table, state=state)
    if state.phase is Phase.PLAY:
        choice = choose_card(state, rng=random.Random(table.seed + len(table.moves)), time_cap=HINT_TIME_CAP)
        return choice.explanation()
    return advise(state, table.seat, deals=ADVICE_DEALS, seed=table.seed).text


def plays_of(*, state: GameState) -> list[Card]:
    """The cards played, in order."""
    return [c for trick in state.tricks for c in trick.cards] + list(state.trick)


def _first_lead(state: GameState) -> GameState:
    """A new state of the same game at its first lead (the moves before the first card)."""
    start = GameState(state.deal, rules=state.rules)
    for move in state.moves[: len(state.moves) - len(plays_of(state=state))]:
        start.push(move)
    return start


def _analysed(state: GameState, seat: int, key: str, insights: bool) -> Analysis | None:
    """The analysis of a finished game (:mod:`.analysis`) for ``seat``, cached under ``key``
    (the game and the budgets); with ``insights`` "Hätte ich es wissen können?" too."""
    if not state.is_over() or state.contract is None or state.declarer is None:
        return None
    key = (
        "table-analysis:"
        + hashlib.sha256(
            json.dumps([key, seat, insights, ANALYSIS_NODES, INSIGHT_SAMPLES, INSIGHT_NODES]).encode()
        ).hexdigest()
    )
    cached = cache.get(key)
    if isinstance(cached, Analysis):
        return cached
    plays = plays_of(state=state)
    steps = decisions(_first_lead(state), plays, seat) * (2 if insights else 1)
    done = [0, 0]  # decisions valued, deals drawn

    def progress(deals: int) -> None:  # told to the job running this analysis, if any
        done[0] += 1
        done[1] += deals
        report(share=done[0] / max(steps, 1), deals=done[1])

    result = analyse_plays(_first_lead(state), plays, seat, max_nodes=ANALYSIS_NODES, progress=progress)
    if insights:
        result = add_insights(
            _first_lead(state),
            plays,
            seat,
            result,
            samples=INSIGHT_SAMPLES,
            max_nodes=INSIGHT_NODES,
            progress=progress,
        )
    cache.set(key, result, 24 * 3600)
    return result


def analyse(*, table: Table, state: GameState | None = None, insights: bool = False) -> Analysis | None:
    """ "Hätte ich gewinnen können?" for a finished game (:func:`.analysis.analyse_plays`):
    each of the learner's cards valued with every card open. None when the game is not over
    or was passed in. Cached by the game's moves (and the budgets)."""
    state = replay(table=table) if state is None else state
    return _analysed(state, table.seat, json.dumps([table.seed, table.seat, table.moves]), insights)


def iss_game(*, record: str) -> IssGame | None:
    """A record kept in the session, read again (None if it no longer reads)."""
    try:
        return parse_record(record)
    except SkatError:
        return None


def game_key(*, state: GameState) -> str:
    """What an analysis of a game depends on: its deal, every move, how it ended and the rules;
    not the players' names, the date or any other field of the record it was read from (with
    the record as the key, each changed name cost the worker a new analysis)."""
    moves = [repr(move) for move in state.moves]
    return json.dumps([state.deal.codes(), moves, repr(state.termination), repr(state.rules)])


def analyse_record(*, record: str, seat: int, insights: bool = False) -> Analysis | None:
    """The analysis of an ISS record's game for ``seat`` (None when nothing was played)."""
    game = iss_game(record=record)
    if game is None:
        return None
    return _analysed(game.state, seat, game_key(state=game.state), insights)


@dataclass(frozen=True)
class ReadRecords:
    """A paste of ISS records: the ``good`` ones (their text), the ``broken`` ones by number
    (from 1) with the engine's error, and whether records beyond the limit were ``cut``."""

    good: list[str]
    broken: list[tuple[int, SkatError]]
    cut: bool


def read_records(*, text: str, most: int) -> ReadRecords:
    """Read every record of a paste on its own: one broken record costs only itself."""
    found = split_records(text)
    if not found:
        try:
            parse_records(text)
        except SkatError as exc:
            return ReadRecords([], [(1, exc)], False)
    good: list[str] = []
    broken: list[tuple[int, SkatError]] = []
    for number, record in enumerate(found[:most], 1):
        try:
            parse_record(record)
            good.append(record)
        except SkatError as exc:
            broken.append((number, exc))
    return ReadRecords(good, broken, len(found) > most)


OUVERT_SAMPLES = 300
"""Distributions the ouvert check solves (a seeded sample; all of them when there are fewer): a job."""


def ouvert_hand(*, game: str, cards: list[str], skat: list[str]) -> tuple[GameType, list[Card], list[Card]]:
    """The game, the ten cards and the known skat of an ouvert check, read and checked (raises
    :class:`SkatError` for anything the check would refuse)."""
    kind = GameType.NULL if game == "null" else GameType.GRAND
    hand, known = parse_cards(cards), parse_cards(skat)
    check_ouvert(kind, hand, skat=known, samples=0)
    return kind, sorted(hand), sorted(known)


def check_ouvert_hand(*, game: str, cards: list[str], skat: list[str]) -> OuvertCheck:
    """ "Ist mein Ouvert sicher?" (:func:`skatschule.engine.ouvert.check_ouvert`): every
    distribution when there are at most :data:`OUVERT_SAMPLES`, else that many of them."""
    kind, hand, known = ouvert_hand(game=game, cards=cards, skat=skat)

    def progress(tried: int, total: int) -> None:  # told to the job running this check, if any
        report(share=tried / max(total, 1), deals=tried)

    return check_ouvert(kind, hand, skat=known, samples=OUVERT_SAMPLES, progress=progress)


def iss_line(*, table: Table, state: GameState | None = None) -> str:
    state = replay(table=table) if state is None else state
    names = tuple("Du" if s == table.seat else f"Computer {s}" for s in range(3))
    return write_record(state, players=(names[0], names[1], names[2]), game_id=str(table.seed))


ACTIVITY = Activity(
    slug="spiel",
    title_de="Ein Spiel am Tisch zu Ende spielen",
    title_en="Play a game to its end at the table",
    url_name="table:play",
)
"""The lesson step a finished table game counts for (lesson 16 lists ``spiel:2``)."""


def save_finished(*, table: Table, user: Any, state: GameState | None = None) -> int | None:
    """Store a finished game of a signed-in user once; returns its id.

    A game that was played (not passed in, no move taken back) also counts as progress: one right attempt of the
    :data:`ACTIVITY` step, recorded in the same transaction as the stored game, so once per
    game. Nothing is stored for visitors (their game stays in the session)."""
    if table.saved is not None or not getattr(user, "is_authenticated", False):
        return table.saved
    state = replay(table=table) if state is None else state
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
                iss_record=iss_line(table=table, state=state),
                won=None if outcome is None else outcome.won,
                learner_won=state.side_won(table.seat),
                score=None if outcome is None else outcome.score,
                game="" if state.contract is None else state.contract.game.value,
                took_back=table.took_back,
                level=table.level.value,
                contest=bool(table.contest),
            )
            if not state.passed_in and not table.took_back:
                record_activity(owner=Owner.for_user(user), kind=ACTIVITY.slug, key=int(row.pk) % 2**31)
    except IntegrityError:
        # the same game stored by a request running at the same time: that one counts
        row = TableGame.objects.get(user=user, seed=table.seed, seat=table.seat)
    table.saved = int(row.pk)
    return table.saved


def report_contest(*, table: Table, user: Any, state: GameState) -> None:
    """Tell the contest a contest game belongs to where it stands (after every request that
    moved it): the weekly app keeps the moves, so leaving the table loses nothing, and records
    the result once the game is over. Nothing for a game of one's own or a visitor."""
    if table.contest and getattr(user, "is_authenticated", False):
        contest_moved.send(sender=Table, table=table, user=user, state=state)


def from_session(*, session: Any) -> tuple[Table, GameState] | None:
    """The game kept in ``session`` (a Django session) and where it stands; None when there is none."""
    return load(data=session.get(SESSION_KEY))


def keep(*, session: Any, table: Table) -> None:
    """Keep ``table`` in ``session`` (a Django session) for the next request."""
    session[SESSION_KEY] = table.as_session()


def adopt_session_game(*, session: Any, user: Any) -> int | None:
    """Store the game a visitor finished at the table for ``user``, who has just signed up or
    logged in on this browser (the ``user_logged_in`` handler of the accounts app); returns its id.

    Only the one game kept in this session can be claimed, and only once: a game already stored
    (``saved`` set, for this user or one before on the same browser) is left alone, so a second
    login finds nothing, and :func:`save_finished` keeps one row per user and game. A running
    game needs nothing: it stays in the session and is stored for the user when it ends. A
    logged-in user's session never reaches here with someone else's game: ``login`` flushes the
    session when the user changes, and logging out flushes it too.
    """
    if session is None or user is None or getattr(user, "pk", None) is None:
        return None
    loaded = from_session(session=session)
    if loaded is None:
        return None
    table, state = loaded
    if table.saved is not None or not state.is_over():
        return None
    saved = save_finished(table=table, user=user, state=state)
    keep(session=session, table=table)
    return saved
