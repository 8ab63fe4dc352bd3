"""Moments of an ISS record as exercises, graded by the engine (reads only, no Django).

At a moment of a record (the first ``step`` cards played, :meth:`IssGame.position`) the
viewer asks what the engine can answer:

- ``legal``: "Welche Karten darf … spielen?" while a trick is under way or to be led;
- ``stich``: "Wer bekommt den Stich?" when the ``step``-th card completed a trick;
- ``augen``: "Wie viele Augen hat der Alleinspieler?" at the end of a suit or Grand game
  that was played to its end (no one gave up);
- ``liste``: "Was wird notiert?" at the end of any game with a declarer.

The answers never leave the server before the visitor answers: the page gets the question
only (the seats in their fixed order Vorhand, Mittelhand, Hinterhand; a number field), and
:func:`grade` works the answer out again from the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from skatschule.engine import SEATS, CardSet, GameState, Phase, SkatError, Step, parse_cards
from skatschule.engine.iss import IssGame
from skatschule.engine.names import card_ref
from skatschule.engine.scoring import concede
from skatschule.exercises.answers import parse_number
from skatschule.exercises.helpers import signed
from skatschule.exercises.stich import trick_steps

__all__ = ["KINDS", "Graded", "kinds_at", "trick_done", "grade", "augen_steps", "result_steps"]

KINDS = ("legal", "stich", "augen", "liste")


@dataclass(frozen=True)
class Graded:
    """The engine's verdict on one answer: the right answer and why (steps in German and English,
    with name references for the visitor's deck)."""

    kind: str
    correct: bool
    right: tuple[str, ...]
    """Card codes (``legal``), the seat as ``"0"``-``"2"`` (``stich``) or the number (``augen``, ``liste``)."""
    given: tuple[str, ...]
    steps: tuple[Step, ...] = field(default_factory=tuple)


def trick_done(game: IssGame, step: int) -> bool:
    """Did the ``step``-th card complete a trick (the trick still lies on the table)?"""
    return 0 < step <= len(game.plays) and step % 3 == 0


def _at_end(game: IssGame, step: int) -> bool:
    return step >= len(game.plays) and game.state.contract is not None and game.state.declarer is not None


def _asks_augen(game: IssGame) -> bool:
    contract = game.state.contract
    return contract is not None and not contract.game.is_null and game.resigned is None


def kinds_at(game: IssGame, step: int) -> tuple[str, ...]:
    """The exercises the moment after ``step`` cards offers, in the order the page shows them."""
    step = min(max(step, 0), len(game.plays))
    kinds: list[str] = []
    if trick_done(game, step):
        kinds.append("stich")
    else:
        probe = game.position(step)
        if probe.phase is Phase.PLAY and probe.to_move is not None:
            kinds.append("legal")
    if _at_end(game, step):
        if _asks_augen(game):
            kinds.append("augen")
        kinds.append("liste")
    return tuple(kinds)


def augen_steps(state: GameState) -> tuple[Step, ...]:
    """How the declarer's Augen add up: the skat (or the two cards he put away) and each of his tricks."""
    declarer = state.declarer
    assert declarer is not None
    skat = sorted(CardSet(state.skat), key=lambda c: c.index)
    put = "die gedrückten Karten" if state.picked_up else "Skat"
    put_en = "the two cards he put away" if state.picked_up else "skat"
    names = " + ".join(f"{card_ref(c)} {c.points}" for c in skat)
    skat_points = sum(c.points for c in skat)
    steps = [
        Step(
            f"Der Skat zählt für den Alleinspieler; {put}: {names} = {skat_points}",
            f"The skat counts for the declarer; {put_en}: {names} = {skat_points}",
            ("4.2.2",),
        )
    ]
    total = skat_points
    for number, trick in enumerate(state.tricks, 1):
        if trick.winner != declarer:
            continue
        total += trick.points
        cards = " + ".join(f"{card_ref(c)} {c.points}" for c in trick.cards)
        steps.append(
            Step(
                f"{number}. Stich ({SEATS[declarer].text.de}): {cards} = {trick.points}",
                f"Trick {number} ({SEATS[declarer].text.en}): {cards} = {trick.points}",
                ("3.4.2",),
            )
        )
    if len(steps) == 1:
        steps.append(Step("Der Alleinspieler hat keinen Stich bekommen", "The declarer took no trick", ("3.4.2",)))
    steps.append(Step(f"Zusammen: {total} Augen", f"In all: {total} card points", ("4.2.2",)))
    return tuple(steps)


def result_steps(game: IssGame) -> tuple[Step, ...]:
    """The engine's derivation of the list entry: the scored game, or the concession."""
    state = game.state
    if state.contract is None:
        return ()
    outcome = game.outcome()
    if outcome is not None:
        steps = tuple(Step(de, en) for de, en in zip(outcome.explain("de"), outcome.explain("en"), strict=True))
        if game.resigned == "declarer":
            gave_up = Step(
                "Der Alleinspieler hat aufgegeben: die Karten, die noch in den Händen sind, zählen für die Gegenpartei",
                "The declarer gave up: the cards still in the hands count for the defenders",
            )
            return (gave_up, *steps)
        if game.resigned == "defenders":
            gave_up = Step(
                "Die Gegenpartei hat aufgegeben: die Karten, die noch in den Händen sind, zählen für den Alleinspieler",
                "The defenders gave up: the cards still in the hands count for the declarer",
            )
            return (gave_up, *steps)
        return steps
    return concede(state.contract, state.matadors(), bid=state.bid, rules=state.rules).steps


def grade(game: IssGame, step: int, kind: str, answer: Sequence[str]) -> Graded:
    """Grade ``answer`` to the exercise ``kind`` at the moment after ``step`` cards.

    Raises :class:`SkatError` when the moment does not offer the exercise, or the answer
    cannot be read (a card code, a seat, a whole number)."""
    step = min(max(step, 0), len(game.plays))
    if kind not in kinds_at(game, step):
        raise SkatError(
            "Diese Übung gibt es an dieser Stelle des Spiels nicht", "This exercise is not offered at this moment"
        )
    probe = game.position(step)
    if kind == "legal":
        assert probe.to_move is not None
        given_cards = set(parse_cards([str(c)[:3] for c in answer][:10]))
        right_cards = set(probe.legal_cards())
        return Graded(
            kind,
            given_cards == right_cards,
            tuple(c.code for c in sorted(right_cards, key=lambda c: c.index)),
            tuple(c.code for c in sorted(given_cards, key=lambda c: c.index)),
        )
    if kind == "stich":
        seat = answer[0].strip() if len(answer) == 1 else ""
        if seat not in ("0", "1", "2"):
            raise SkatError("Bitte einen der drei Plätze wählen", "Please choose one of the three seats")
        contract = probe.contract
        assert contract is not None
        trick = probe.tricks[-1]
        return Graded(
            kind,
            int(seat) == trick.winner,
            (str(trick.winner),),
            (seat,),
            tuple(trick_steps(contract.game, trick.leader, trick.cards)),
        )
    number = parse_number(list(answer))
    expected = game.answer()
    if kind == "augen":
        right = int(str(expected["declarer_points"]))
        return Graded(kind, number == right, (str(right),), (str(number),), augen_steps(game.state))
    right = int(str(expected["score"]))
    return Graded(kind, number == right, (signed(right),), (signed(number),), result_steps(game))
