"""Das Blatt der Woche, the reads: which sets a learner may play, a set's deals with the learner's
tries, the comparison of a finished deal with everyone's, and a set's ranking by Seeger-Fabian."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet, Sum

from skatschule.classrooms.models import Classroom
from skatschule.core.notfound import NotFound
from skatschule.core.people import person_name
from skatschule.engine import Contract, parse_game
from skatschule.table.models import TableGame

from .deals import DEALS_PER_SET, monday_of, week_key, week_of
from .models import DealSet, Entry

__all__ = [
    "DealLine",
    "Comparison",
    "Result",
    "RankLine",
    "can_play",
    "deal_set",
    "week_before",
    "deal_lines",
    "own_entry",
    "comparison",
    "ranking",
    "tournaments_for",
    "contract_of",
    "entry_of",
    "can_see",
    "stored_game",
]


def _is_member(user: Any, classroom: Classroom | None) -> bool:
    if classroom is None:
        return False
    return bool(classroom.teacher_id == user.pk or classroom.memberships.filter(student=user).exists())


def can_play(*, user: Any, deal_set: DealSet, now: datetime | None = None) -> bool:
    """A week's set is played in its week (before or after, it can only be looked at); a class
    tournament by the class's members and teacher, at any time."""
    if not getattr(user, "is_authenticated", False):
        return False
    if deal_set.classroom_id is not None:
        return _is_member(user, deal_set.classroom)
    return deal_set.key == week_key(*week_of(now))


def can_see(*, user: Any, deal_set: DealSet) -> bool:
    """Anyone sees a week's set; a tournament only its class (members and teacher)."""
    if deal_set.classroom_id is None:
        return True
    return getattr(user, "is_authenticated", False) and _is_member(user, deal_set.classroom)


def deal_set(*, user: Any, key: str) -> DealSet:
    """The set ``key`` for ``user``; ``NotFound`` for an unknown key or a class not theirs."""
    found = DealSet.objects.select_related("classroom").filter(key=key[:40]).first()
    if found is None or not can_see(user=user, deal_set=found):
        raise NotFound("no such deal set")
    return found


def week_before(*, deal_set: DealSet) -> DealSet | None:
    """The week before a week's set, if anyone opened its page then (None for a tournament)."""
    if deal_set.classroom_id is not None:
        return None
    year, week = (int(part) for part in deal_set.key.split("-W"))
    monday = monday_of(year, week) - timedelta(days=7)
    iso = monday.isocalendar()
    return DealSet.objects.filter(key=week_key(iso.year, iso.week), classroom=None).first()


@dataclass(frozen=True)
class DealLine:
    """One deal of a set for the learner: not opened, running, or finished with the points."""

    number: int
    entry: Entry | None

    @property
    def started(self) -> bool:
        return self.entry is not None

    @property
    def finished(self) -> bool:
        return self.entry is not None and self.entry.is_finished


def deal_lines(*, user: Any, deal_set: DealSet) -> list[DealLine]:
    mine: dict[int, Entry] = {}
    if getattr(user, "is_authenticated", False):
        mine = {e.number: e for e in Entry.objects.filter(user=user, deal_set=deal_set)}
    return [DealLine(n, mine.get(n)) for n in range(1, DEALS_PER_SET + 1)]


def own_entry(*, user: Any, deal_set: DealSet, number: int) -> Entry:
    """The learner's try at a deal; ``NotFound`` when there is none."""
    found = Entry.objects.filter(user=user, deal_set=deal_set, number=number).first() if user.is_authenticated else None
    if found is None:
        raise NotFound("no try at this deal")
    return found


def contract_of(entry: Entry) -> Contract | None:
    """The contract of a finished entry (None: passed in)."""
    move = entry.contract
    if not isinstance(move, list) or len(move) != 6:
        return None
    return Contract(
        parse_game(move[1]),
        hand=bool(move[2]),
        ouvert=bool(move[3]),
        schneider_announced=bool(move[4]),
        schwarz_announced=bool(move[5]),
    )


@dataclass(frozen=True)
class Result:
    """One finished try at a deal, without a name: the contract, who declared (the learner or a
    computer player), the declarer's Augen and result, the learner's Seeger-Fabian points."""

    contract: Contract | None
    learner_declared: bool
    declarer_augen: int | None
    won: bool | None
    points: int
    mine: bool


@dataclass(frozen=True)
class Comparison:
    """The learner's finished try beside everyone's finished tries at the same deal."""

    entry: Entry
    results: list[Result]
    """Everyone's (the learner's among them, marked), best points first."""
    rank: int
    """The learner's place by points (1: best; ties share the place)."""
    players: int
    same_contract: int
    """How many played the same contract as the learner (by the same seat)."""
    better: int
    """How many got more points than the learner."""


def _result(entry: Entry, mine: bool) -> Result:
    return Result(
        contract_of(entry),
        entry.declarer is not None and entry.declarer == entry.seat,
        entry.declarer_augen,
        entry.won,
        entry.points,
        mine,
    )


def comparison(*, user: Any, deal_set: DealSet, number: int) -> Comparison:
    """The comparison of the learner's finished try; ``NotFound`` before it is finished (nothing of
    the others' games shows before one's own is played)."""
    entry = own_entry(user=user, deal_set=deal_set, number=number)
    if not entry.is_finished:
        raise NotFound("the deal is not finished yet")
    others = Entry.objects.filter(deal_set=deal_set, number=number, finished__isnull=False).order_by("-points", "pk")
    results = [_result(e, e.pk == entry.pk) for e in others]
    better = sum(1 for r in results if r.points > entry.points)
    same = sum(1 for e in others if e.contract == entry.contract and e.declarer == entry.declarer)
    return Comparison(entry, results, better + 1, len(results), same, better)


@dataclass(frozen=True)
class RankLine:
    place: int
    user_id: int
    name: str
    points: int
    deals: int


def ranking(*, deal_set: DealSet) -> list[RankLine]:
    """A set's ranking: each player's Seeger-Fabian points over the finished deals of the set,
    most first (ties share a place, then by name). For a class tournament only the class's
    members count."""
    rows: QuerySet[Entry] = Entry.objects.filter(deal_set=deal_set, finished__isnull=False)
    if deal_set.classroom_id is not None:
        rows = rows.filter(user__memberships__classroom_id=deal_set.classroom_id)
    totals = rows.values("user").annotate(total=Sum("points"), deals=Count("pk", filter=Q(finished__isnull=False)))
    users = {u.pk: u for u in _users([int(t["user"]) for t in totals])}
    lines = sorted(
        ((int(t["total"] or 0), person_name(users[int(t["user"])]), int(t["user"]), int(t["deals"])) for t in totals),
        key=lambda x: (-x[0], x[1]),
    )
    out: list[RankLine] = []
    for i, (points, name, uid, deals) in enumerate(lines):
        place = out[-1].place if out and out[-1].points == points else i + 1
        out.append(RankLine(place, uid, name, points, deals))
    return out


def _users(ids: list[int]) -> QuerySet[Any]:
    return get_user_model().objects.filter(pk__in=ids)


def tournaments_for(*, user: Any) -> QuerySet[DealSet]:
    """The class tournaments of the classes ``user`` belongs to or teaches, newest first."""
    if not getattr(user, "is_authenticated", False):
        return DealSet.objects.none()
    return (
        DealSet.objects.filter(
            Q(classroom__memberships__student=user) | Q(classroom__teacher=user), classroom__isnull=False
        )
        .distinct()
        .select_related("classroom")
    )


def entry_of(*, user: Any, entry_id: int) -> Entry:
    """The learner's own entry ``entry_id``; ``NotFound`` for anyone else's."""
    found = Entry.objects.select_related("deal_set").filter(pk=entry_id, user=user).first()
    if found is None:
        raise NotFound("no such entry")
    return found


def stored_game(*, entry: Entry) -> TableGame | None:
    """The table's stored game of a finished entry (its board and analysis), if it was stored."""
    return TableGame.objects.filter(user_id=entry.user_id, seed=entry.seed, seat=entry.seat).first()
