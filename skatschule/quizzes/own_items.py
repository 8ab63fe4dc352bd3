"""Own questions (issue 18): a teacher sets up a situation with the card picker and asks it
as one of the existing exercise types. The answer is never typed by the teacher: the
exercise type asks (``ask``) and the engine solves (``solve``), exactly as for generated
items. Only the situation is stored (:class:`~skatschule.quizzes.models.OwnItem`).

Types (from the existing exercise types):

- ``stich`` "Wer bekommt den Stich?": game, who leads, the three cards in play order.
- ``zugeben`` "Welche Karten darf ich zugeben?": game, who leads, one or two cards on the
  table, and the hand of the player to move.
- ``spielwert`` "Was ist das Spiel wert?": the declaration (game, Hand, Schneider/Schwarz
  angesagt, ouvert), the declarer's ten cards and the skat (the engine counts the Spitzen
  from them, ISkO 1.4) and how the game was won (einfach, Schneider, Schwarz). A
  declaration the rules forbid is refused with the engine's reason (``Contract.problems``).
- ``regelverstoss`` "Regelverstoß": a game in progress and an irregularity, ruled by the
  rulings engine (:mod:`.own_rulings`).

Impossible situations are refused with the engine's message: every card is read by the
engine (unknown codes), and the cards are checked as one deal by
``engine.Deal.from_codes`` (a card twice, a hand of more than ten cards). The situation
is completed to a deal that makes the trick legal (whoever did not follow holds no card of
the led suit); a trick card the player could not have played is refused as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from skatschule.classrooms.services import is_teacher
from skatschule.core.notfound import NotFound
from skatschule.core.text import one_line
from skatschule.engine import Card, CardSet, Contract, GameType, SkatError, legal_cards, matadors, parse_card
from skatschule.engine.cards import Deal
from skatschule.engine.numbers import plain_number
from skatschule.exercises import REGISTRY
from skatschule.exercises.base import Feedback, Question
from skatschule.exercises.exercise import EngineExercise
from skatschule.exercises.grading import mark, read_answer
from skatschule.exercises.spielwert import Scenario as ValueScenario
from skatschule.exercises.stich import Scenario as TrickScenario
from skatschule.exercises.stich import follows
from skatschule.exercises.zugeben import Scenario as PlayScenario
from skatschule.training.services.issuing import clean_answer

from .imported import IMPORTED_KIND, ImportedType
from .models import MAX_ITEMS, OwnItem, Quiz, QuizItem
from .own_input import ALL_CODES, FLAGS, OwnItemError, engine_error, read_cards, read_contract, read_game, read_seat
from .own_rulings import IrregularSituation, check_irregularity

__all__ = [
    "OWN_KINDS",
    "GAMES",
    "OwnItemError",
    "builder_fields",
    "check_situation",
    "create_own_item",
    "delete_own_item",
    "own_question",
    "grade_own",
]

OWN_KINDS = ("stich", "zugeben", "spielwert", "regelverstoss")
RESULTS = ("einfach", "schneider", "schwarz")
GAMES = tuple(game.value for game in GameType)


def _check_deal(game: GameType, leader: int, trick: list[Card], hand: list[Card]) -> None:
    """Complete the situation to a whole deal and let the engine check it."""
    seats: list[list[Card]] = [[], [], []]
    for i, card in enumerate(trick):
        seats[(leader + i) % 3].append(card)
    mover = (leader + len(trick)) % 3
    if hand:
        seats[mover].extend(hand)
    used = {c for part in seats for c in part}
    lead = trick[0] if trick else None
    rest = [c for c in (parse_card(code) for code in ALL_CODES) if c not in used]
    # who did not follow must hold no card that follows: give them the others first
    for i in range(1, len(trick)):
        seat = (leader + i) % 3
        if lead is not None and not follows(game, lead, trick[i]):
            free = [c for c in rest if not follows(game, lead, c)]
            need = max(0, 10 - len(seats[seat]))
            take = free[:need]
            seats[seat].extend(take)
            rest = [c for c in rest if c not in take]
    for seat in range(3):
        need = max(0, 10 - len(seats[seat]))
        seats[seat].extend(rest[:need])
        rest = rest[need:]
    skat = rest[:2]
    try:
        deal = Deal.from_codes([[c.code for c in part] for part in seats] + [[c.code for c in skat]])
    except SkatError as exc:
        raise engine_error(exc) from None
    for i in range(1, len(trick)):
        seat = (leader + i) % 3
        held = CardSet(deal.hand(seat))
        if trick[i] not in legal_cards(game, held, trick[:i]):
            raise OwnItemError(
                f"Unmöglich: Die {i + 1}. Karte bedient nicht, obwohl sie bedienen könnte.",
                f"Impossible: card {i + 1} does not follow although it could.",
            )


@dataclass(frozen=True)
class Situation:
    kind: str
    game: GameType
    leader: int
    trick: tuple[Card, ...]
    hand: tuple[Card, ...]
    skat: tuple[Card, ...] = ()
    flags: tuple[str, ...] = ()
    result: str = ""

    level = 1
    """Own items of these types are asked at level 1 (the level only names the type's
    generator; it does not change a given situation)."""

    def contract(self) -> Contract:
        return Contract(self.game, **{flag: True for flag in self.flags})

    def scenario(self) -> Any:
        if self.kind == "stich":
            return TrickScenario(self.game, self.leader, (self.trick[0], self.trick[1], self.trick[2]))
        if self.kind == "spielwert":
            contract = self.contract()
            spitzen = 0 if self.game.is_null else matadors(self.game, self.hand + self.skat)
            return ValueScenario(contract, spitzen, self.result in ("schneider", "schwarz"), self.result == "schwarz")
        return PlayScenario(self.game, self.leader, self.trick, self.hand)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game.value,
            "leader": self.leader,
            "trick": [c.code for c in self.trick],
            "hand": [c.code for c in self.hand],
        }
        if self.kind == "spielwert":
            data.update(skat=[c.code for c in self.skat], flags=list(self.flags), result=self.result)
        return data


def _check_value(
    game: GameType, flags: Sequence[str], result: str, hand: list[Card], skat: list[Card]
) -> tuple[str, ...]:
    """A won game the rules allow: the engine checks the declaration and the cards."""
    contract = read_contract(game, flags)
    chosen = tuple(flag for flag in FLAGS if getattr(contract, flag) and flag in set(flags))
    if game.is_null:
        if result not in ("", "einfach"):
            raise OwnItemError("Ein Nullspiel hat keine Gewinnstufen.", "A Null game has no levels.")
        result = "einfach"
    elif result not in RESULTS:
        raise OwnItemError("Bitte wähle, wie das Spiel gewonnen wurde.", "Please choose how the game was won.")
    elif contract.schwarz_announced and result != "schwarz":
        raise OwnItemError(
            "Schwarz angesagt (oder offen gespielt): gewonnen ist das Spiel nur, wenn die Gegenspieler keinen "
            "Stich bekommen.",
            "Schwarz announced (or an open game): it is won only if the defenders take no trick.",
        )
    elif contract.schneider_announced and result == "einfach":
        raise OwnItemError(
            "Schneider angesagt: gewonnen ist das Spiel nur mit Schneider.",
            "Schneider announced: the game is won only with Schneider.",
        )
    try:
        Deal.from_codes([[c.code for c in hand], *_others(hand + skat), [c.code for c in skat]])
    except SkatError as exc:
        raise engine_error(exc) from None
    return chosen


def _others(used: list[Card]) -> list[list[str]]:
    """The two other hands, filled from the cards not given (the engine checks the whole deal)."""
    rest = [code for code in ALL_CODES if parse_card(code) not in set(used)]
    return [rest[:10], rest[10:20]]


def check_situation(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    kind: str,
    game: str,
    leader: object = 0,
    trick: Sequence[str] = (),
    hand: Sequence[str] = (),
    skat: Sequence[str] = (),
    flags: Sequence[str] = (),
    result: str = "",
) -> Situation:
    """The situation if the engine accepts it; :class:`OwnItemError` with the reason otherwise."""
    if kind not in OWN_KINDS:
        raise OwnItemError("Diese Frageart gibt es nicht.", "There is no such question type.")
    played = read_cards(trick)
    held = read_cards(hand)
    game_type, seat = read_game(game), read_seat(leader)
    if kind == "spielwert":
        kept = read_cards(skat)
        chosen = _check_value(game_type, flags, result, held, kept)
        return Situation(
            kind,
            game_type,
            0,
            (),
            tuple(sorted(held, key=lambda c: c.index)),
            tuple(sorted(kept, key=lambda c: c.index)),
            chosen,
            result if not game_type.is_null else "einfach",
        )
    if kind == "stich":
        if len(played) != 3:
            raise OwnItemError(
                "Ein Stich hat drei Karten: wähle die 1., 2. und 3. Karte.",
                "A trick has three cards: choose the 1st, 2nd and 3rd.",
            )
        held = []
    else:
        if not 1 <= len(played) <= 2:
            raise OwnItemError(
                "Wähle eine oder zwei Karten, die schon auf dem Tisch liegen.",
                "Choose one or two cards already on the table.",
            )
        if not held:
            raise OwnItemError(
                "Wähle die Karten der Hand, die jetzt dran ist.", "Choose the cards of the hand to play now."
            )
    _check_deal(game_type, seat, played, held)
    return Situation(kind, game_type, seat, tuple(played), tuple(sorted(held, key=lambda c: c.index)))


def situation_of(item: OwnItem) -> Situation | IrregularSituation:
    data = item.situation or {}
    if item.kind == "regelverstoss":
        return check_irregularity(
            game=data.get("game", ""),
            flags=data.get("flags", []),
            declarer=data.get("declarer"),
            bid=data.get("bid"),
            hand=data.get("hand", []),
            skat=data.get("skat", []),
            plays=data.get("plays", []),
            event=data.get("event", {}),
            question=data.get("question", ""),
        )
    return check_situation(
        kind=item.kind,
        game=data.get("game", ""),
        leader=data.get("leader"),
        trick=data.get("trick", []),
        hand=data.get("hand", []),
        skat=data.get("skat", []),
        flags=data.get("flags", []),
        result=data.get("result", ""),
    )


@transaction.atomic
def create_own_item(*, owner: User, kind: str, title: str, **situation: Any) -> OwnItem:
    """Save the teacher's situation once the engine accepts it (the keywords of
    :func:`check_situation`, or of :func:`~.own_rulings.check_irregularity` for "regelverstoss")."""
    if not is_teacher(user=owner):
        raise NotFound("not a teacher")
    title = one_line(title, 120)
    if not title:
        raise OwnItemError("Bitte gib der Aufgabe einen Titel.", "Please give the item a title.")
    checked = check_irregularity(**situation) if kind == "regelverstoss" else check_situation(kind=kind, **situation)
    return OwnItem.objects.create(owner=owner, kind=kind, title=title, situation=checked.as_json())


def builder_fields(item: OwnItem) -> dict[str, Any]:
    """The builder's form fields that set up ``item`` again (to start a new item from it)."""
    data = item.situation or {}
    fields: dict[str, Any] = {"art": item.kind, "title": item.title, "game": data.get("game", "")}
    for name in ("hand", "skat", "flags"):
        if data.get(name):
            fields[name] = list(data[name])
    if item.kind == "regelverstoss":
        event = data.get("event", {})
        fields.update(
            declarer=data.get("declarer", 0),
            bid=data.get("bid", 18),
            event_kind=event.get("kind", ""),
            event_seat=event.get("seat", ""),
            event_card=event.get("card", ""),
            question=data.get("question", ""),
        )
        fields.update({f"play{n}": code for n, code in enumerate(data.get("plays", []), start=1)})
        return fields
    fields["leader"] = data.get("leader", 0)
    fields.update({f"trick{n}": code for n, code in enumerate(data.get("trick", []), start=1)})
    if item.kind == "spielwert":
        fields["result"] = data.get("result", "")
    return fields


@transaction.atomic
def delete_own_item(*, owner: User, item: OwnItem) -> None:
    """Delete the owner's item unless a quiz asks it (its results would lose their question)."""
    if item.owner_id != owner.pk:
        raise NotFound("not yours")
    used = QuizItem.objects.filter(kind=item_kind(item)).select_related("quiz").first()
    if used is not None:
        raise OwnItemError(
            f"Die Aufgabe steht im Quiz „{used.quiz.title}“ und bleibt deshalb erhalten.",
            f"The item is part of the quiz “{used.quiz.title}” and so it stays.",
        )
    item.delete()


def _engine_type(item: OwnItem) -> EngineExercise[Any]:
    """The exercise type of an own item's situation (every one of :data:`OWN_KINDS` is an engine exercise)."""
    kind = REGISTRY[item.kind]
    assert isinstance(kind, EngineExercise), item.kind
    return kind


def own_question(item: OwnItem) -> tuple[Question, Feedback]:
    """The question as students see it, and the engine's right answer with its derivation."""
    if item.kind == IMPORTED_KIND:
        imported = ImportedType(item, item_kind(item))
        question = imported.generate(1, 0)
        return question, imported.grade(question, imported.correct_answer(question))
    kind = _engine_type(item)
    situation = situation_of(item)
    scenario = situation.scenario()
    question = kind.ask(scenario, situation.level, item.pk)
    solution = kind.solve(scenario)
    right = mark(question, read_answer(question, list(solution.raw), kind.aliases(scenario)), solution)
    return question, right


def grade_own(item: OwnItem, values: Sequence[str]) -> Feedback:
    """Grade an answer to the item (AnswerError if it cannot be read)."""
    if item.kind == IMPORTED_KIND:
        imported = ImportedType(item, item_kind(item))
        return imported.grade(imported.generate(1, 0), values)
    kind = _engine_type(item)
    situation = situation_of(item)
    scenario = situation.scenario()
    question = kind.ask(scenario, situation.level, item.pk)
    return mark(question, read_answer(question, values, kind.aliases(scenario)), kind.solve(scenario))


# --- own items in quizzes -----------------------------------------------------------------------

KIND_PREFIX = "eigen-"
"""A quiz item ``kind`` of ``eigen-<OwnItem id>`` asks that own item (the seed is ignored:
an own item has one fixed situation, the same for everyone)."""


def item_kind(item: OwnItem) -> str:
    return f"{KIND_PREFIX}{item.pk}"


class OwnItemType:
    """The parts of an exercise type the quiz pages use, for one own item."""

    levels = 1

    def __init__(self, item: OwnItem) -> None:
        self.item = item
        self.slug = item_kind(item)
        self._type = REGISTRY[item.kind]

    def title(self, lang: str = "de") -> str:
        return self._type.title(lang)  # the type's title, never the teacher's (it may tell the answer)

    def generate(self, difficulty: int, seed: int) -> Question:
        question, _ = own_question(self.item)
        return replace(question, kind=self.slug)

    def grade(self, question: Question, values: Sequence[str]) -> Feedback:
        return grade_own(self.item, clean_answer(question=question, values=values))

    def correct_answer(self, question: Question) -> list[str]:
        return list(_engine_type(self.item).solve(situation_of(self.item).scenario()).raw)


def type_for(kind: str) -> OwnItemType | ImportedType | None:
    """The own item behind a quiz item kind ``eigen-<id>`` (None for every other kind)."""
    number = plain_number(kind[len(KIND_PREFIX) :]) if kind.startswith(KIND_PREFIX) else None
    if number is None:
        return None
    item = OwnItem.objects.filter(pk=number).first()
    if item is not None and item.kind == IMPORTED_KIND:
        return ImportedType(item, item_kind(item))
    return OwnItemType(item) if item is not None and item.kind in REGISTRY else None


def kind_title(item: OwnItem, lang: str) -> str:
    """The title of the item's type (an exercise type, or "imported question")."""
    if item.kind == IMPORTED_KIND:
        return ImportedType(item, item_kind(item)).title(lang)
    return REGISTRY[item.kind].title(lang)


def add_to_quiz(*, owner: User, item: OwnItem, quiz: Any) -> Any:
    """Append the own item to one of the owner's quizzes, while nobody has started it."""
    if item.owner_id != owner.pk or quiz.owner_id != owner.pk:
        raise NotFound("not yours")
    with transaction.atomic():
        locked = Quiz.objects.select_for_update().get(pk=quiz.pk)
        if locked.attempts.exists():
            raise OwnItemError(
                "Das Quiz wurde schon begonnen; seine Aufgaben bleiben, wie sie sind.",
                "The quiz has been started; its items stay as they are.",
            )
        count = locked.items.count()
        if count >= MAX_ITEMS:
            raise OwnItemError(
                f"Ein Quiz hat höchstens {MAX_ITEMS} Aufgaben.", f"A quiz has at most {MAX_ITEMS} items."
            )
        return QuizItem.objects.create(quiz=locked, position=count + 1, kind=item_kind(item), difficulty=1, seed=0)
