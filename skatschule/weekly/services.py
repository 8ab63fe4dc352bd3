"""Das Blatt der Woche, the writes: a week's set, a class tournament, opening a deal (one try),
and what a contest game at the table tells us (every move, then the result)."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from skatschule.classrooms.selectors import own_classroom
from skatschule.core.notfound import NotFound
from skatschule.engine import GameState
from skatschule.engine.bots import BotLevel
from skatschule.engine.lists import seeger_totals
from skatschule.table import services as table_services

from . import selectors
from .deals import DEALS_PER_SET, deal_of, week_key, week_of
from .models import DealSet, Entry

__all__ = [
    "LEVEL",
    "week_set",
    "create_tournament",
    "open_deal",
    "table_for",
    "record_moves",
    "on_contest_moved",
]

LEVEL = BotLevel.CLUB
"""The bots' level at every contest table: the club player, seeded by the position and without a
wall-clock cap (:func:`skatschule.table.services.fixed_bot_rng`), quick enough for the request."""

TITLE_LENGTH = 100


def week_set(*, when: datetime | None = None) -> DealSet:
    """The set of the week that holds ``when`` (default: now), made on first sight."""
    year, week = week_of(when)
    found, _ = DealSet.objects.get_or_create(key=week_key(year, week), classroom=None)
    return found


@transaction.atomic
def create_tournament(*, teacher: Any, classroom_id: object, title: str) -> DealSet:
    """A class tournament ("Klassenturnier"): six deals of its own for the teacher's class, from
    a random key (the deals follow from it and the secret). ``NotFound`` for anyone else's class."""
    classroom = own_classroom(teacher, pk=classroom_id)
    name = " ".join(title.split())[:TITLE_LENGTH]
    if not name:
        raise ValueError("a tournament needs a name")
    return DealSet.objects.create(key=f"turnier-{secrets.token_hex(12)}", classroom=classroom, title=name)


def table_for(*, entry: Entry) -> table_services.Table:
    """The contest table of ``entry`` as it stands (its moves; the bots fixed)."""
    return table_services.Table(entry.seed, entry.seat, list(entry.moves), level=LEVEL, contest=int(entry.pk))


def open_deal(*, user: Any, deal_set: DealSet, number: int, now: datetime | None = None) -> Entry:
    """The learner's try at deal ``number`` of ``deal_set``: made at the first opening (with the
    bots' moves up to the learner's first turn), the same row every time after, finished or not.
    ``NotFound`` when the set cannot be played by ``user`` now (another week, another class)."""
    if not 1 <= number <= DEALS_PER_SET or not selectors.can_play(user=user, deal_set=deal_set, now=now):
        raise NotFound("no such deal to play")
    entry = Entry.objects.filter(user=user, deal_set=deal_set, number=number).first()
    if entry is not None:
        return entry
    seed, seat = deal_of(deal_set.key, number)
    table = table_services.Table(seed, seat, [], level=LEVEL, contest=1)
    moves = table_services.bot_moves(table=table)
    try:
        with transaction.atomic():
            return Entry.objects.create(user=user, deal_set=deal_set, number=number, seed=seed, seat=seat, moves=moves)
    except IntegrityError:  # opened at the same time in another tab: that one is the try
        return Entry.objects.get(user=user, deal_set=deal_set, number=number)


def _finish(entry: Entry, state: GameState) -> None:
    entry.finished = timezone.now()
    outcome = state.outcome()
    if outcome is None or state.declarer is None:  # passed in: nobody scores
        entry.contract, entry.declarer, entry.won, entry.score, entry.points = None, None, None, None, 0
        return
    entry.contract = next((m for m in entry.moves if m and m[0] == "g"), None)
    entry.declarer = state.declarer
    entry.declarer_augen = state.declarer_augen()
    entry.won = outcome.won
    entry.score = outcome.score
    entry.points = seeger_totals(3, [(state.declarer, outcome.score)])[entry.seat]


@transaction.atomic
def record_moves(*, user: Any, entry_id: int, seed: int, seat: int, moves: list[Any]) -> Entry | None:
    """Keep the moves of the learner's contest game; at the end, its result (once). Only moves that
    continue the kept ones are taken (one try: nothing is taken back or played again), and only
    for the learner's own, unfinished entry of that deal. Returns the entry, None if refused."""
    entry = Entry.objects.select_for_update().filter(pk=entry_id, user=user, seed=seed, seat=seat).first()
    if entry is None or entry.is_finished or moves[: len(entry.moves)] != entry.moves:
        return None
    state = table_services.replay(table=table_services.Table(seed, seat, list(moves), level=LEVEL, contest=entry_id))
    entry.moves = list(moves)
    if state.is_over():
        _finish(entry, state)
    entry.save()
    return entry


def on_contest_moved(*, sender: object, table: table_services.Table, user: Any, state: GameState, **_: Any) -> None:
    """The table's ``contest_moved`` signal: keep the moves (and the result) of the entry."""
    record_moves(user=user, entry_id=table.contest, seed=table.seed, seat=table.seat, moves=table.moves)
