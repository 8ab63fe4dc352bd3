"""Reads for studies: a teacher's studies, a learner's, one study by its link, the board at a step
(never past a stop the asker has not answered), and the results by stop and by learner."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from skatschule.classrooms.models import Membership
from skatschule.classrooms.selectors import is_id
from skatschule.core.notfound import NotFound
from skatschule.core.people import person_name
from skatschule.engine.cards import CardSet
from skatschule.engine.puzzles import Spot, spot_of
from skatschule.engine.sorting import sort_hand
from skatschule.owners import Owner
from skatschule.table import selectors as table_selectors
from skatschule.table import services as table_services
from skatschule.table.models import TableGame

from .models import TOKEN_LENGTH, Study, StudyAnswer, StudyStop

__all__ = [
    "teacher_studies",
    "learner_studies",
    "own_study",
    "study_by_token",
    "Board",
    "board",
    "StopResult",
    "study_results",
    "table_games",
    "table_game_spot",
]


def teacher_studies(*, teacher: Any) -> QuerySet[Study]:
    return Study.objects.filter(teacher=teacher).select_related("classroom")


def learner_studies(*, user: Any) -> QuerySet[Study]:
    """The studies shared with the classes ``user`` belongs to."""
    if not user.is_authenticated:
        return Study.objects.none()
    return Study.objects.filter(classroom__memberships__student=user).select_related("classroom")


def own_study(*, teacher: Any, pk: object) -> Study:
    found = Study.objects.filter(teacher=teacher, pk=int(str(pk))).first() if is_id(value=pk) else None
    if found is None:
        raise NotFound("no such study of this teacher")
    return found


def study_by_token(*, token: str, user: Any) -> Study:
    """The study of a link, for its teacher, for anyone while the link is shared, and for the
    members of the class it is shared with; NotFound for everyone else."""
    if not token or len(token) > TOKEN_LENGTH:
        raise NotFound("no such study")
    study = Study.objects.filter(token=token).select_related("classroom").first()
    if study is None:
        raise NotFound("no such study")
    if study.link_shared:
        return study
    if user.is_authenticated:
        if study.teacher_id == user.pk:
            return study
        if study.classroom_id and Membership.objects.filter(classroom_id=study.classroom_id, student=user).exists():
            return study
    raise NotFound("no such study for this visitor")


@dataclass(frozen=True)
class Board:
    """The study at one step (``step`` cards played), as far as the asker may see it.

    ``limit``: the furthest step the asker may go to (the first stop he has not answered, or the
    end). At a stop not yet answered, ``legal`` lists the cards he may choose; ``answer`` is his
    answer once given, and only then ``right`` and ``values`` (the grading) are filled in.
    """

    step: int
    limit: int
    total: int
    game: str
    declarer: int
    hands: tuple[tuple[int, tuple[str, ...]], ...]
    skat: tuple[str, ...]
    put_away: bool
    trick: tuple[tuple[int, str], ...]
    played: tuple[tuple[int, int, str], ...]
    """(number, seat, code) of every card played so far."""
    declarer_augen: int
    defender_augen: int
    mover: int | None
    note: str
    stop: StudyStop | None
    legal: tuple[str, ...] = ()
    answer: StudyAnswer | None = None
    right: tuple[str, ...] = ()
    values: tuple[tuple[str, Any], ...] = ()
    stops: tuple[int, ...] = field(default_factory=tuple)


def _answers(owner: Owner, study: Study) -> dict[int, StudyAnswer]:
    rows = StudyAnswer.objects.owned_by(owner).filter(stop__study=study).select_related("stop")
    return {row.stop.moment: row for row in rows}


def board(*, study: Study, step: object, owner: Owner, sees_all: bool = False) -> Board:
    """The board at ``step`` (clamped to what the asker may see; ``sees_all``: the teacher)."""
    spot = Spot.from_dict(study.record)
    total = len(spot.plays)
    stops = {s.moment: s for s in study.stops.all()}
    if not sees_all:  # a stop too big to grade is no stop for the class (the teacher is told)
        stops = {m: s for m, s in stops.items() if s.status != StudyStop.Status.TOO_BIG}
    answers = _answers(owner, study) if stops else {}
    limit = total
    if not sees_all:
        open_stops = [m for m in stops if m not in answers]
        limit = min(open_stops, default=total)
    text = str(step)
    wanted = int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else 0
    at = max(0, min(wanted, limit))
    state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, ()).state()
    seats: list[int] = []
    for card in spot.plays[:at]:
        assert state.to_move is not None
        seats.append(state.to_move)
        state.play(card)
    game = spot.game
    hands = tuple((seat, tuple(c.code for c in sort_hand(CardSet(state.hands[seat]), game))) for seat in range(3))
    played = tuple((n + 1, seats[n], card.code) for n, card in enumerate(spot.plays[:at]))
    trick = tuple((seat, code) for (_n, seat, code) in played[len(played) - len(state.trick) :]) if state.trick else ()
    declarer_augen = state.declarer_trick_points
    taken = sum(c.points for t in state.tricks for c in t.cards)
    stop = stops.get(at)
    given = answers.get(at) if stop is not None else None
    legal: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    values: tuple[tuple[str, Any], ...] = ()
    if stop is not None and state.to_move is not None:
        legal = tuple(c.code for c in state.legal_cards())
        if given is not None or sees_all:
            right = tuple(stop.right)
            values = tuple(sorted(stop.values.items()))
    return Board(
        step=at,
        limit=limit,
        total=total,
        game=game.value,
        declarer=spot.declarer,
        hands=hands,
        skat=tuple(c.code for c in sort_hand(CardSet(state.skat), game)),
        put_away=bool(spot.discard),
        trick=trick,
        played=played,
        declarer_augen=declarer_augen,
        defender_augen=taken - declarer_augen,
        mover=state.to_move,
        note=str(study.notes.get(str(at), "")),
        stop=stop,
        legal=legal,
        answer=given,
        right=right,
        values=values,
        stops=tuple(sorted(stops)),
    )


@dataclass(frozen=True)
class StopResult:
    moment: int
    status: str
    right: tuple[str, ...]
    answers: int
    correct: int
    by_learner: tuple[tuple[str, str, bool], ...]
    """(name, card, correct) of each signed-in learner who answered."""


def study_results(*, study: Study) -> list[StopResult]:
    """Each stop with its right cards and every answer (the teacher's page)."""
    out = []
    for stop in study.stops.all():
        rows = list(stop.answers.select_related("user").order_by("user__username", "created"))
        out.append(
            StopResult(
                stop.moment,
                stop.status,
                tuple(stop.right),
                len(rows),
                sum(1 for r in rows if r.correct),
                tuple((person_name(r.user), r.card, r.correct) for r in rows if r.user is not None),
            )
        )
    return out


def table_games(*, teacher: Any) -> list[TableGame]:
    """The teacher's own stored table games that were played, newest first: sources for a study."""
    return list(TableGame.objects.filter(user=teacher).exclude(game="").order_by("-created", "-pk")[:50])


def table_game_spot(*, teacher: Any, pk: object) -> Spot:
    """The game of one of the teacher's stored table games; NotFound for anyone else's."""
    row = table_selectors.game_of(user=teacher, pk=int(str(pk))) if is_id(value=pk) else None
    if row is None:
        raise NotFound("no such table game of this teacher")
    table = table_services.Table(int(row.seed), int(row.seat), list(row.moves), None, row.took_back)
    state = table_services.replay(table=table)
    if state.contract is None:
        raise NotFound("a passed-in game")
    return spot_of(state)
