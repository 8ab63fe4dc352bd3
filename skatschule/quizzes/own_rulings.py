"""Own questions of the type "Regelverstoß" (issue 18): a teacher sets up a game in progress
and an irregularity; the rulings engine decides, as in the generated exercise.

The teacher gives the declaration, the declarer's seat and bid, the declarer's ten cards and
the skat, the cards played so far in order, and what happened (a revoke, a lead out of
turn, the skat looked at, cards exposed, a concession) by whom, with the card where one
belongs to it. The defenders' hands are completed by the engine
(:class:`skatschule.engine.completion.PartialDeal`) so that every play was legal; when the
ruling would depend on how the unnamed cards are split, the situation is refused, because
the question would then rest on cards the teacher never chose.

Asked as the exercise asks it: "Wer gewinnt?" (the winner) or "Was wird notiert?" (the
entry on the score sheet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skatschule.engine import BID_VALUES, Card, Contract, SkatError
from skatschule.engine.completion import PartialDeal
from skatschule.engine.rulings import Event, Irregularity
from skatschule.exercises.regelverstoss import EVENTS, Scenario

from .own_input import FLAGS, OwnItemError, engine_error, read_cards, read_contract, read_game, read_seat

__all__ = ["EVENTS", "QUESTIONS", "IrregularSituation", "check_irregularity"]

WITH_CARD = (Irregularity.REVOKE, Irregularity.LEAD_OUT_OF_TURN)
QUESTIONS = {"gewinner": 1, "liste": 2}
"""The question form and the exercise level that asks it (1: who wins, 2: the list entry)."""
MAX_PLAYS = 29


@dataclass(frozen=True)
class IrregularSituation:
    kind = "regelverstoss"
    contract: Contract
    declarer: int
    bid: int
    hand: tuple[Card, ...]
    skat: tuple[Card, ...]
    plays: tuple[Card, ...]
    event: Event
    question: str
    scenario_: Scenario

    @property
    def level(self) -> int:
        return QUESTIONS[self.question]

    def scenario(self) -> Scenario:
        return self.scenario_

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.contract.game.value,
            "flags": [flag for flag in FLAGS if getattr(self.contract, flag)],
            "declarer": self.declarer,
            "bid": self.bid,
            "hand": [c.code for c in self.hand],
            "skat": [c.code for c in self.skat],
            "plays": [c.code for c in self.plays],
            "event": {
                "kind": self.event.kind.value,
                "seat": self.event.seat,
                "card": self.event.card.code if self.event.card else "",
            },
            "question": self.question,
        }


def _bid(value: object) -> int:
    try:
        bid = int(str(value))
    except ValueError:
        bid = 0
    if bid not in BID_VALUES:
        raise OwnItemError("Bitte wähle einen Reizwert (18, 20, 22 …).", "Please choose a bid value (18, 20, 22 …).")
    return bid


def _event(kind: str, seat: object, card: str) -> Event:
    try:
        irregularity = Irregularity(str(kind))
    except ValueError:
        irregularity = None
    if irregularity not in EVENTS:
        raise OwnItemError("Bitte wähle, welcher Regelverstoß passiert.", "Please choose what irregularity happens.")
    assert irregularity is not None
    who = read_seat(seat, ("Bitte wähle, wer den Regelverstoß begeht.", "Please choose who commits it."))
    if irregularity not in WITH_CARD:
        return Event(irregularity, who)
    if not card:
        raise OwnItemError(
            "Zu diesem Regelverstoß gehört eine Karte: wähle sie.", "This irregularity needs a card: choose it."
        )
    return Event(irregularity, who, read_cards([card])[0])


def _scenario(part: PartialDeal, contract: Contract, bid: int, event: Event, level: int) -> Scenario:
    """The scenario on the first completed deal; refused if another completion rules otherwise."""
    try:
        deals = part.completions()
        scenarios = [
            Scenario(deal, part.declarer, bid, contract, None if contract.hand else part.skat, part.plays, event, level)
            for deal in deals
        ]
        rulings = [scenario.ruling() for scenario in scenarios]
    except SkatError as exc:
        raise engine_error(exc) from None
    if len({(ruling.won, ruling.score) for ruling in rulings}) > 1:
        raise OwnItemError(
            "Die Entscheidung hängt hier davon ab, welcher Gegenspieler welche der nicht genannten Karten hält. "
            "Lass mehr Karten spielen oder wähle einen anderen Zeitpunkt.",
            "Here the ruling depends on which defender holds which of the cards not named. "
            "Let more cards be played or choose another moment.",
        )
    return scenarios[0]


def check_irregularity(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    game: str,
    flags: Sequence[str],
    declarer: object,
    bid: object,
    hand: Sequence[str],
    skat: Sequence[str],
    plays: Sequence[str],
    event: Mapping[str, Any],
    question: str,
) -> IrregularSituation:
    """The situation if the engine accepts it; :class:`OwnItemError` with the reason otherwise."""
    contract = read_contract(read_game(game), flags)
    seat = read_seat(declarer, ("Bitte wähle den Alleinspieler.", "Please choose the declarer."))
    value = _bid(bid)
    held, kept, played = read_cards(hand), read_cards(skat), read_cards(plays)
    if len(held) != 10:
        raise OwnItemError(
            f"Wähle die zehn Karten des Alleinspielers (gewählt: {len(held)}).",
            f"Choose the declarer's ten cards (chosen: {len(held)}).",
        )
    if len(kept) != 2:
        raise OwnItemError(
            f"Wähle die zwei Karten im Skat (gewählt: {len(kept)}).",
            f"Choose the two cards in the skat (chosen: {len(kept)}).",
        )
    if len(played) > MAX_PLAYS:
        raise OwnItemError(
            "Höchstens neun Stiche und zwei Karten des zehnten dürfen schon gespielt sein.",
            "At most nine tricks and two cards of the tenth can have been played.",
        )
    if question not in QUESTIONS:
        raise OwnItemError("Bitte wähle, was gefragt wird.", "Please choose what is asked.")
    happened = _event(str(event.get("kind", "")), event.get("seat"), str(event.get("card", "") or ""))
    holds: tuple[tuple[int, Card], ...] = ()
    can_follow: tuple[int, Card] | None = None
    if happened.card is not None:
        holds = ((happened.seat, happened.card),)
        if happened.kind is Irregularity.REVOKE and len(played) % 3:
            can_follow = (happened.seat, played[len(played) - len(played) % 3])
    part = PartialDeal(
        contract.game,
        seat,
        tuple(held),
        tuple(kept),
        tuple(played),
        holds,
        can_follow,
    )
    scenario = _scenario(part, contract, value, happened, QUESTIONS[question])
    return IrregularSituation(
        contract,
        seat,
        value,
        tuple(sorted(held, key=lambda c: c.index)),
        tuple(sorted(kept, key=lambda c: c.index)),
        tuple(played),
        happened,
        question,
        scenario,
    )
