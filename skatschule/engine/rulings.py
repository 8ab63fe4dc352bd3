"""Rulings on irregularities (Regelverstöße), as the ISkO decides them.

Given a game in progress and an irregularity, :func:`rule` computes whether the
game ends, who wins, at which value, and why, with the rule ids. The principles,
all from ISkO chapter 3 and 4.4.3, applied in this order:

1. A game already decided stays decided (ISkO 3.1.3; seed 001 5.4): the declarer
   has won with his 61st Auge (incl. the skat) once any level he needs is reached;
   the defenders have won with their 60th Auge, or as soon as the declarer can no
   longer reach a level he needs. The party that had won wins with the Augen it had.
2. Otherwise a violation loses the game for the guilty party at level einfach (3.1.4);
   announced levels still count (4.2.5).
3. If the innocent party is the declarer and he needed a higher level (announced, or
   to reach an overbid value), that level is awarded (3.1.5), unless the defenders
   have already reached it, or it was impossible before the first trick, as Schwarz is
   in every "ohne" game, because a defender holds the Kreuz-Bube (4.4.3).
4. A lead out of turn to the last trick does not matter (3.1.10): the last trick is
   forced, so the engine plays it out and scores the game normally.
5. The declarer may pick up his own fallen cards without consequence (3.1.9).

Further events (casebook work), each with the ISkO rule it rests on:

- ``declarer_leads_before_declaring`` (3.1.1): the declarer leads before his
  announcement; he has lost "a game" with the last bid and his matadors. The engine
  writes down the cheapest suit or Grand game (no Hand level: it was not announced)
  whose value, overbid multiple included, reaches the bid, and counts it double.
- ``invalid_declaration`` (2.4.4): a Null game announced after the pick-up that can no
  longer reach the bid ends as a lost suit or Grand game, computed as above (the one
  :func:`~.scoring.cheapest_lost_game` that also scores such a Null when it is played out).
  Any other event in a Null below the bid is ruled the same way: the announcement had
  already lost the game.
- ``wrong_card_count`` (3.2.6): a player holds too many or too few cards although the
  deal was correct; the party with the right number wins at level einfach (principles
  1-3 apply as for any other violation).
- ``declarer_claims`` (3.3.4): the declarer lays his cards open. With the defenders'
  consent (``accepted``, default true) he wins his announced game, plus a level he
  ``claimed`` (``schneider``/``schwarz``) or had already reached; if a defender refuses,
  play continues open and the ``continuation`` cards are played out and scored.
- ``defender_plays_open`` (3.3.5): a defender lays his cards open in a suit or Grand
  game. If the defenders take every remaining trick however the cards are played, the
  tricks are theirs; otherwise all remaining tricks go to the declarer. Decided by an
  exhaustive search (at most six cards per hand).
- ``continuation`` on a violation (3.1.6): the innocent party demands that play goes
  on; the violation counts as not committed, the given cards (the corrected card
  first) are played out and the game is scored as it ends.
- ``declarer_concedes`` with ``accepted: false`` while he holds fewer than nine cards
  (3.3.2): the concession is void, play goes on with the ``continuation``.

A :class:`Ruling` names the guilty :class:`Party` and the counted :class:`Level` as
enums. The vectors contract's ``ruling`` input is read by
:func:`skatschule.engine.vectors.ruling_from_input`, which builds the state and the
:class:`Event` and calls :func:`rule`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import CARDS, Card, CardSet
from .errors import SkatError
from .explain import Derivation, Step, plural, rule_ids_of
from .game import GameState, Phase
from .games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, SPLIT_POINTS, WIN_POINTS, Contract
from .names import card_ref, game_ref
from .scoring import Outcome, cheapest_lost_game, game_value, score_game, settle
from .seats import SEATS
from .text import Text

__all__ = ["Irregularity", "Party", "Level", "Event", "Ruling", "rule"]


class Irregularity(Enum):
    REVOKE = "revoke"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    SKAT_VIEWED = "skat_viewed"
    CARDS_EXPOSED = "cards_exposed"
    DECLARER_CONCEDES = "declarer_concedes"
    DEFENDER_CONCEDES = "defender_concedes"
    DECLARER_LEADS_EARLY = "declarer_leads_before_declaring"
    INVALID_DECLARATION = "invalid_declaration"
    WRONG_CARD_COUNT = "wrong_card_count"
    DECLARER_CLAIMS = "declarer_claims"
    DEFENDER_PLAYS_OPEN = "defender_plays_open"

    @property
    def name_de(self) -> str:
        return _NAMES[self][0]

    @property
    def name_en(self) -> str:
        return _NAMES[self][1]

    @property
    def rule_id(self) -> str:
        """The ISkO rule that names this irregularity."""
        return _RULE_OF[self]


_NAMES = {
    Irregularity.REVOKE: ("falsches Bedienen", "revoke"),
    Irregularity.LEAD_OUT_OF_TURN: ("unberechtigtes Ausspielen", "lead out of turn"),
    Irregularity.SKAT_VIEWED: ("Skat während des Spiels angesehen", "skat looked at during play"),
    Irregularity.CARDS_EXPOSED: ("Karten aufgedeckt", "cards exposed"),
    Irregularity.DECLARER_CONCEDES: ("Aufgabe durch den Alleinspieler", "declarer concedes"),
    Irregularity.DEFENDER_CONCEDES: ("Aufgabe durch die Gegenpartei", "defenders concede"),
    Irregularity.DECLARER_LEADS_EARLY: (
        "Ausspielen des Alleinspielers vor der Spielansage",
        "the declarer leads before his announcement",
    ),
    Irregularity.INVALID_DECLARATION: ("ungültige Spielansage", "invalid announcement"),
    Irregularity.WRONG_CARD_COUNT: ("falsche Kartenzahl", "wrong number of cards"),
    Irregularity.DECLARER_CLAIMS: ("Abkürzen durch den Alleinspieler", "claim by the declarer"),
    Irregularity.DEFENDER_PLAYS_OPEN: ("offenes Spiel eines Gegenspielers", "a defender plays open"),
}
_RULE_OF = {
    Irregularity.REVOKE: "3.2.3",
    Irregularity.LEAD_OUT_OF_TURN: "3.1.3",
    Irregularity.SKAT_VIEWED: "3.2.8",
    Irregularity.CARDS_EXPOSED: "3.1.9",
    Irregularity.DECLARER_CONCEDES: "3.3.1",
    Irregularity.DEFENDER_CONCEDES: "3.3.3",
    Irregularity.DECLARER_LEADS_EARLY: "3.1.1",
    Irregularity.INVALID_DECLARATION: "2.4.4",
    Irregularity.WRONG_CARD_COUNT: "3.2.6",
    Irregularity.DECLARER_CLAIMS: "3.3.4",
    Irregularity.DEFENDER_PLAYS_OPEN: "3.3.5",
}


class Party(Enum):
    """The two parties of a game: the declarer alone, or the two defenders together."""

    DECLARER = "declarer"
    DEFENDERS = "defenders"


class Level(Enum):
    """The level of winning counted in a suit or Grand game's value (ISkO 4.2.3, 4.2.4)."""

    EINFACH = "einfach"
    SCHNEIDER = "schneider"
    SCHWARZ = "schwarz"


OPEN_SEARCH_MAX_CARDS = 6
"""The defender's open play is searched exhaustively only with at most this many cards a hand."""


@dataclass(frozen=True, slots=True)
class Event:
    """What happened: ``seat`` commits ``kind`` (with ``card`` for revokes and leads).

    ``accepted``: the defenders' consent to a claim or a late concession (None: not said).
    ``claimed``: the level a claiming declarer demands, as the value of a :class:`Level`
    (``schneider`` or ``schwarz``), read when the claim is ruled on.
    ``continuation``: the cards played after the event when play goes on (the innocent
    party demanded it, a claim was refused, a late concession was refused).
    """

    kind: Irregularity
    seat: int
    card: Card | None = None
    accepted: bool | None = None
    claimed: str | None = None
    continuation: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's decision, for the declarer."""

    game_ends: bool
    won: bool
    value: int
    score: int
    guilty: Party | None
    """The party that broke a rule, or None (no violation, e.g. a concession or the last trick)."""
    steps: Derivation
    level: Level | None = None
    """The highest level counted in the value (announced levels included); None for a Null
    game. Read-only information, not part of ``as_dict``."""
    overbid: bool = False
    """True when the counted value had to be raised to the bid (the game is then lost)."""

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The rules of the derivation: the irregularity's own rule, then the decisive rule
        of the verdict (the last step), then the rest in order."""
        steps = self.steps
        return rule_ids_of(steps[:1] + steps[-1:] + steps[1:-1])

    def explain(self, lang: str = "de", *, plain: bool = False) -> list[str]:
        """The steps' texts with name references (see :meth:`Step.text`); with ``plain``
        in the ISkO's (French) names."""
        return [s.plain(lang) if plain else s.text(lang) for s in self.steps]

    def as_dict(self) -> dict[str, object]:
        return {"won": self.won, "value": self.value, "score": self.score}


@dataclass(frozen=True, slots=True)
class _Need:
    schneider: bool
    schwarz: bool
    impossible: bool
    from_bid: bool


def _need(state: GameState, m: int) -> _Need:
    """Which level the declarer must reach to win: announced, or to reach the bid."""
    c = state.contract
    assert c is not None
    if c.game.is_null:
        base = game_value(c, rules=state.rules).value
        return _Need(False, False, base < state.bid, False)
    plain = game_value(c, m, rules=state.rules).value
    if plain >= state.bid:
        return _Need(c.schneider_announced, c.schwarz_announced, False, False)
    if game_value(c, m, schneider=True, rules=state.rules).value >= state.bid:
        return _Need(True, c.schwarz_announced, False, True)
    if game_value(c, m, schwarz=True, rules=state.rules).value >= state.bid:
        return _Need(True, True, False, True)
    return _Need(True, True, True, True)


def _level(contract: Contract, schneider: bool, schwarz: bool) -> Level | None:
    """The highest level counted for ``contract`` (as :func:`~.scoring.game_value` counts it)."""
    if contract.game.is_null:
        return None
    if schwarz or contract.schwarz_announced:
        return Level.SCHWARZ
    if schneider or contract.schneider_announced:
        return Level.SCHNEIDER
    return Level.EINFACH


def _from_outcome(outcome: Outcome, steps: list[Step]) -> Ruling:
    """The ruling for a game played (or laid out) to its end and scored normally."""
    return Ruling(
        True,
        outcome.won,
        outcome.value,
        outcome.score,
        None,
        tuple(steps) + outcome.steps,
        _level(outcome.contract, outcome.schneider, outcome.schwarz),
        outcome.overbid,
    )


Reason = tuple[str, str, tuple[str, ...]]
"""Why the game is won or lost: German, English, the rules (decisive first). It opens the
last step of a ruling, which states the verdict."""


def _ruling(  # noqa: PLR0913 - over the budget since issue 27; to be split
    state: GameState,
    *,
    m: int,
    won: bool,
    schneider: bool = False,
    schwarz: bool = False,
    guilty: Party | None = None,
    steps: list[Step],
    reason: Reason,
    game_ends: bool = True,
) -> Ruling:
    """The ruling with the verdict ``won`` at the levels ``schneider`` and ``schwarz``,
    settled by :func:`~.scoring.settle` (``m``: the declarer's matadors)."""
    assert state.contract is not None
    settled = settle(
        state.contract,
        m,
        bid=state.bid,
        won=won,
        schneider=schneider,
        schwarz=schwarz,
        rules=state.rules,
        reason=reason,
    )
    return Ruling(
        game_ends,
        settled.won,
        settled.value,
        settled.score,
        guilty,
        tuple(steps) + settled.steps,
        _level(state.contract, schneider, schwarz),
        settled.overbid,
    )


def _party(state: GameState, seat: int) -> Party:
    return Party.DECLARER if seat == state.declarer else Party.DEFENDERS


@dataclass(slots=True)
class _Case:
    """An irregularity in a game in play, with the figures every handler reads."""

    state: GameState
    event: Event
    contract: Contract
    declarer: int
    to_move: int
    m: int
    """The declarer's matadors."""
    need: _Need
    d_augen: int
    f_augen: int
    steps: list[Step]


@dataclass(frozen=True, slots=True)
class _Standing:
    """Whether the game was already decided before the irregularity (principle 1)."""

    declarer_has_won: bool
    lost_by_play: bool
    out_of_reach: bool

    @property
    def defenders_have_won(self) -> bool:
        return self.lost_by_play or self.out_of_reach


_Handler = Callable[[GameState, Event], Ruling]


def rule(state: GameState, event: Event) -> Ruling:
    """The ruling for ``event`` in ``state`` (a game in play, just before the event).

    ``declarer_leads_before_declaring`` takes a state between the auction and the
    announcement instead. Events with a ``continuation`` play those cards on ``state``.
    Each irregularity has its own handler (:data:`_HANDLERS`)."""
    return _HANDLERS[event.kind](state, event)


def _open_case(state: GameState, event: Event) -> _Case:
    """The case of an irregularity during play: checks that the game is in play and the seat
    exists, and opens the derivation with the event itself."""
    if state.phase != Phase.PLAY or state.contract is None or state.declarer is None:
        raise SkatError(
            "Ein Regelverstoß wird hier nur während des Spiels entschieden",
            "Irregularities are ruled here only while the game is in play",
        )
    if event.seat not in (0, 1, 2):
        raise SkatError(f"Unbekannter Platz {event.seat}", f"Unknown seat {event.seat}")
    m = state.matadors()
    need = _need(state, m)
    d_augen = state.declarer_augen()
    f_augen = state.defender_augen()
    steps: list[Step] = [_event_step(state, event)]
    to_move = state.to_move
    assert to_move is not None
    return _Case(state, event, state.contract, state.declarer, to_move, m, need, d_augen, f_augen, steps)


def _check_card_in_hand(case: _Case) -> None:
    """A revoke or a lead names a card the player holds."""
    event = case.event
    if event.card is None:
        raise SkatError("Zu diesem Regelverstoß gehört eine Karte", "This irregularity needs a card")
    if not case.state.hands[event.seat] & event.card.bit:
        who = SEATS[event.seat].text
        raise SkatError(
            f"{card_ref(event.card)} ist nicht in der Hand von {who.de}",
            f"The {card_ref(event.card)} is not in {who.en}'s hand",
        )


def _check_defender(case: _Case) -> None:
    if case.event.seat == case.declarer:
        raise SkatError("Der Alleinspieler ist kein Gegenspieler", "The declarer is not a defender")


def _check_no_continuation(case: _Case) -> None:
    """Only violations, claims and concessions can be followed by further play."""
    kind = case.event.kind
    if case.event.continuation is not None:
        raise SkatError(f"Nach {kind.name_de} wird nicht weitergespielt", f"Play does not go on after {kind.name_en}")


def _null_lost_by_announcement(case: _Case) -> Ruling | None:
    """A Null announced above the bid was lost with its announcement (2.4.4): nothing
    later counts."""
    contract = case.contract
    if contract.game.is_null and game_value(contract, rules=case.state.rules).value < case.state.bid:
        return _unplayable_null(case.state, case.steps)
    return None


# --- the handlers, one per irregularity


def _rule_revoke(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    _check_card_in_hand(case)
    who = SEATS[event.seat].text
    if event.seat != case.to_move:
        raise SkatError(
            f"{who.de} ist nicht an der Reihe; das wäre unberechtigtes Ausspielen, kein falsches Bedienen",
            f"{who.en} is not to play; that is a lead out of turn, not a revoke",
        )
    assert event.card is not None
    if state.legal_cards().mask & event.card.bit:
        raise SkatError(
            f"{card_ref(event.card)} ist regelgerecht: kein falsches Bedienen",
            f"The {card_ref(event.card)} is legal: no revoke",
        )
    return _rule_violation(case)


def _rule_lead_out_of_turn(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    _check_card_in_hand(case)
    if event.seat == case.to_move:
        who = SEATS[event.seat].text
        raise SkatError(
            f"{who.de} ist an der Reihe: das Ausspielen ist berechtigt", f"{who.en} is to play: the lead is legal"
        )
    if state.trick_count == 9:
        case.steps.append(
            Step(
                "Zum letzten Stich hat jeder nur noch eine Karte, wer zuerst legt, ändert nichts: "
                "der Stich wird normal zu Ende gespielt",
                "At the last trick everyone holds one card, so who puts it down first changes nothing: "
                "the trick is played out as usual",
                ("3.1.10",),
            )
        )
        final = _play_out_last_trick(state)
        return _from_outcome(final.score(), case.steps)
    return _rule_violation(case)


def _rule_cards_exposed(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    if event.seat == case.declarer:
        raise SkatError(
            "Rutschen dem Alleinspieler Karten aus der Hand, nimmt er sie einfach zurück: das Spiel geht weiter "
            "(ISkO 3.1.9)",
            "Cards that slip out of the declarer's hand he simply takes back: play continues (ISkO 3.1.9)",
        )
    return _rule_violation(case)


def _rule_plain_violation(state: GameState, event: Event) -> Ruling:
    """A violation with no check of its own (the skat looked at, a wrong card count)."""
    return _rule_violation(_open_case(state, event))


def _rule_declarer_concedes(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    if event.seat != case.declarer:
        raise SkatError("Nur der Alleinspieler kann sein Spiel aufgeben", "Only the declarer can concede his game")
    lost = _null_lost_by_announcement(case)
    if lost is not None:
        return lost
    if event.accepted is False:
        return _refused_concession(case)
    decided = _decided(case, _standing(case))
    if decided is not None:
        return decided
    steps = case.steps
    contract = case.contract
    cards_left = CardSet(state.hands[case.declarer]).mask.bit_count()
    if cards_left < 9:
        steps.append(
            Step(
                f"Mit {plural(cards_left, 'Karte')} braucht die Aufgabe die Zustimmung eines "
                f"Gegenspielers; sie liegt vor",
                f"With {plural(cards_left, 'card', 'en')} the concession needs a defender's consent, which was given",
                ("3.3.2",),
            )
        )
    reason: Reason = (
        "der Alleinspieler gibt auf; gewertet wird die Stufe einfach mit seinen Spitzen, mindestens zum "
        "Reizwert" + _announced_note(contract, "de"),
        "the declarer concedes; the simple level counts, with his matadors and at least at the bid"
        + _announced_note(contract, "en"),
        ("3.3.1",) + _announced_rule(contract),
    )
    return _ruling(state, m=case.m, won=False, steps=steps, reason=reason)


def _refused_concession(case: _Case) -> Ruling:
    """A concession the defenders refuse (3.3.2): void with fewer than nine cards, play goes on."""
    state, event = case.state, case.event
    cards_left = CardSet(state.hands[case.declarer]).mask.bit_count()
    if cards_left >= 9:
        raise SkatError(
            "Mit mindestens neun Karten braucht die Aufgabe keine Zustimmung",
            "With nine cards or more the concession needs no consent",
        )
    if event.continuation is None:
        raise SkatError(
            "Die Aufgabe ist abgelehnt: es fehlen die weitergespielten Karten",
            "The concession was refused: the cards played on are missing",
        )
    case.steps.append(
        Step(
            f"Mit {cards_left} Karten ist die Aufgabe ohne Zustimmung unwirksam: es wird weitergespielt",
            f"With {cards_left} cards the concession is void without consent: play goes on",
            ("3.3.2",),
        )
    )
    return _play_on(state, event.continuation, case.steps)


def _rule_defender_concedes(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    _check_defender(case)
    _check_no_continuation(case)
    lost = _null_lost_by_announcement(case)
    if lost is not None:
        return lost
    decided = _decided(case, _standing(case))
    if decided is not None:
        return decided
    reason: Reason = (
        "gibt ein Gegenspieler auf, gilt das für die ganze Gegenpartei (gemeinsame Haftung)",
        "a defender's concession binds both defenders (joint liability)",
        ("3.3.3", "2.5.2"),
    )
    return _innocent_declarer(state, case.m, case.need, case.steps, None, reason)


def _rule_defender_plays_open(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    _check_defender(case)
    _check_no_continuation(case)
    lost = _null_lost_by_announcement(case)
    if lost is not None:
        return lost
    return _defender_open(state, event, case.steps)


def _rule_invalid_declaration(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    _check_no_continuation(case)
    if event.seat != case.declarer:
        raise SkatError("Die Spielansage macht der Alleinspieler", "The declarer makes the announcement")
    contract = case.contract
    null_value = game_value(contract, rules=state.rules).value if contract.game.is_null else 0
    if not (contract.game.is_null and not contract.hand and null_value < state.bid):
        raise SkatError(
            "Diese Ansage ist gültig und durchführbar; die Engine entscheidet hier nur das "
            "undurchführbare Nullspiel nach Skataufnahme",
            "This announcement is valid and playable; the engine rules here only on the null game "
            "after a pick-up that cannot reach the bid",
        )
    return _unplayable_null(state, case.steps)


def _rule_declarer_claims(state: GameState, event: Event) -> Ruling:
    case = _open_case(state, event)
    lost = _null_lost_by_announcement(case)
    if lost is not None:
        return lost
    if event.seat != case.declarer:
        raise SkatError(
            "Nur der Alleinspieler kann so abkürzen; für Gegenspieler gilt das offene Spiel (3.3.5)",
            "Only the declarer can claim like this; a defender plays open instead (3.3.5)",
        )
    if event.accepted is False:
        if event.continuation is None:
            raise SkatError(
                "Ein Gegenspieler stimmt nicht zu: es fehlen die offen weitergespielten Karten",
                "A defender refuses: the cards played on in the open are missing",
            )
        case.steps.append(
            Step(
                "Ein Gegenspieler stimmt nicht zu: Die Karten des Alleinspielers bleiben aufgedeckt, "
                "es wird weitergespielt und nach dem Ausgang gewertet",
                "A defender refuses: play continues with the declarer's cards face up and is scored by its outcome",
                ("3.3.4",),
            )
        )
        return _play_on(state, event.continuation, case.steps)
    standing = _standing(case)
    if not standing.defenders_have_won:
        return _accepted_claim(state, event, case.m, case.need, case.d_augen, case.f_augen, case.steps)
    decided = _decided(case, standing)
    assert decided is not None  # the defenders had won
    return decided


def _rule_declarer_leads_early(state: GameState, event: Event) -> Ruling:
    return _leads_before_announcement(state, event)


def _rule_violation(case: _Case) -> Ruling:
    """A violation (3.1): play goes on if the innocent party demands it (3.1.6); otherwise a
    game already decided stays decided, and an open one is lost by the guilty party."""
    state, event, steps = case.state, case.event, case.steps
    lost = _null_lost_by_announcement(case)
    if lost is not None:
        return lost
    if event.continuation is not None:
        steps.append(
            Step(
                "Die schuldlose Partei verlangt Weiterspiel: der Regelverstoß gilt als nicht begangen, "
                "die Karte wird berichtigt und das Spiel zu Ende gespielt",
                "The innocent party demands that play continues: the violation counts as not committed, "
                "the card is corrected and the game is played to its end",
                ("3.1.6", "3.1.2"),
            )
        )
        return _play_on(state, event.continuation, steps)
    decided = _decided(case, _standing(case))
    if decided is not None:
        return decided
    contract = case.contract
    guilty = _party(state, event.seat)
    if guilty is Party.DECLARER:
        reason: Reason = (
            "der Alleinspieler hat vor der Spielentscheidung gegen die Regeln verstoßen; gewertet wird die "
            "Stufe einfach" + _announced_note(contract, "de"),
            "the declarer broke a rule while the game was still open; the simple level counts"
            + _announced_note(contract, "en"),
            ("3.1.4",) + _announced_rule(contract),
        )
        return _ruling(state, m=case.m, won=False, guilty=guilty, steps=steps, reason=reason)
    reason = (
        "ein Gegenspieler hat vor der Spielentscheidung gegen die Regeln verstoßen, und das gilt für beide "
        "Gegenspieler (gemeinsame Haftung)",
        "a defender broke a rule while the game was still open, and that counts against both defenders "
        "(joint liability)",
        ("3.1.4", "2.5.2"),
    )
    return _innocent_declarer(state, case.m, case.need, steps, guilty, reason)


_HANDLERS: dict[Irregularity, _Handler] = {
    Irregularity.REVOKE: _rule_revoke,
    Irregularity.LEAD_OUT_OF_TURN: _rule_lead_out_of_turn,
    Irregularity.SKAT_VIEWED: _rule_plain_violation,
    Irregularity.CARDS_EXPOSED: _rule_cards_exposed,
    Irregularity.DECLARER_CONCEDES: _rule_declarer_concedes,
    Irregularity.DEFENDER_CONCEDES: _rule_defender_concedes,
    Irregularity.DECLARER_LEADS_EARLY: _rule_declarer_leads_early,
    Irregularity.INVALID_DECLARATION: _rule_invalid_declaration,
    Irregularity.WRONG_CARD_COUNT: _rule_plain_violation,
    Irregularity.DECLARER_CLAIMS: _rule_declarer_claims,
    Irregularity.DEFENDER_PLAYS_OPEN: _rule_defender_plays_open,
}
"""One handler per irregularity: each checks its event, then rules on it."""


# --- a game decided before the irregularity (principle 1)


def _standing(case: _Case) -> _Standing:
    """Had either party already won before the irregularity?"""
    state, need = case.state, case.need
    if case.contract.game.is_null:
        return _Standing(False, state.declarer_trick_count > 0, need.impossible)
    d_augen, f_augen = case.d_augen, case.f_augen
    declarer_reached = (not need.schneider or d_augen >= SCHNEIDER_POINTS) and not need.schwarz
    out_of_reach = (
        need.impossible
        or (need.schneider and f_augen >= OUT_OF_SCHNEIDER)
        or (need.schwarz and (state.defender_trick_count > 0 or case.m < 0))
    )
    return _Standing(
        d_augen >= WIN_POINTS and declarer_reached and not need.impossible, f_augen >= SPLIT_POINTS, out_of_reach
    )


def _decided(case: _Case, standing: _Standing) -> Ruling | None:
    """The ruling for a game already decided (3.1.3), or None if it was still open."""
    if standing.declarer_has_won:
        return _already_won(case)
    if standing.lost_by_play:
        return _already_lost(case)
    if standing.out_of_reach:
        return _out_of_reach(case)
    return None


def _already_won(case: _Case) -> Ruling:
    d_augen, f_augen, need = case.d_augen, case.f_augen, case.need
    case.steps.append(_augen_step(d_augen, f_augen))
    reason: Reason = (
        f"mit {d_augen} Augen{' und der nötigen Stufe' if need.schneider else ''} war das Spiel für den "
        f"Alleinspieler schon gewonnen, und ein entschiedenes Spiel bleibt entschieden",
        f"with {d_augen} card points{' and the level he needed' if need.schneider else ''} the declarer had "
        f"already won, and a decided game stays decided",
        ("3.1.3", "4.2.2"),
    )
    if case.contract.game.is_null:
        return _ruling(case.state, m=case.m, won=True, steps=case.steps, reason=reason)
    schneider = d_augen >= SCHNEIDER_POINTS
    return _ruling(case.state, m=case.m, won=True, schneider=schneider, steps=case.steps, reason=reason)


def _already_lost(case: _Case) -> Ruling:
    state, steps = case.state, case.steps
    if case.contract.game.is_null:
        tricks = state.declarer_trick_count
        steps.append(
            Step(
                f"Der Alleinspieler hat im Nullspiel schon {plural(tricks, 'Stich')} bekommen",
                f"The declarer has already taken {plural(tricks, 'trick', 'en')} in his null game",
                ("4.2.7",),
            )
        )
        reason: Reason = (
            "damit war das Nullspiel schon verloren, und ein entschiedenes Spiel bleibt entschieden",
            "so the null game was already lost, and a decided game stays decided",
            ("3.1.3", "4.2.7"),
        )
        return _ruling(state, m=case.m, won=False, steps=steps, reason=reason)
    f_augen = case.f_augen
    steps.append(_augen_step(case.d_augen, f_augen))
    reason = (
        f"mit {f_augen} Augen der Gegenpartei war das Spiel für den Alleinspieler schon verloren, und "
        f"ein entschiedenes Spiel bleibt entschieden",
        f"with the defenders' {f_augen} card points the declarer had already lost, and a decided game stays decided",
        ("3.1.3", "4.2.2"),
    )
    schneider = f_augen >= SCHNEIDER_POINTS
    return _ruling(state, m=case.m, won=False, schneider=schneider, steps=steps, reason=reason)


def _out_of_reach(case: _Case) -> Ruling:
    state, event = case.state, case.event
    fact, before_first_trick = _unreachable(state, case.m, case.need, case.f_augen)
    case.steps.append(fact)
    reason: Reason
    if event.kind is Irregularity.DECLARER_CONCEDES:
        reason = (
            "der Alleinspieler gibt auf, und gewinnen konnte er das Spiel ohnehin nicht mehr",
            "the declarer concedes, and he could no longer win the game anyway",
            ("3.3.1", "2.4.3"),
        )
    elif _party(state, event.seat) is Party.DEFENDERS and before_first_trick:
        reason = (
            "ein Spiel, dessen nötige Stufe schon vor dem ersten Stich unerreichbar war, gewinnt der "
            "Alleinspieler auch durch einen Fehler der Gegenpartei nicht",
            "a game whose needed level was out of reach before the first trick cannot become the "
            "declarer's through the defenders' mistake either",
            ("4.4.3", "3.1.3"),
        )
    else:
        reason = (
            "der Alleinspieler konnte das Spiel schon vorher nicht mehr gewinnen",
            "the declarer could no longer win the game even before",
            ("3.1.3",),
        )
    return _ruling(state, m=case.m, won=False, steps=case.steps, reason=reason)


_EVENT_TEXTS: dict[Irregularity, Callable[[str, str, str], tuple[str, str]]] = {
    Irregularity.REVOKE: lambda de, en, card: (
        (
            f"{de} bedient nicht: {card} statt einer Karte der verlangten Farbe, die er hält",
            f"{en} revokes: the {card} instead of a card of the suit led, which he holds",
        )
        if card
        else (f"{de} bedient falsch", f"{en} revokes")
    ),
    Irregularity.LEAD_OUT_OF_TURN: lambda de, en, card: (
        (f"{de} spielt {card} aus, ohne an der Reihe zu sein", f"{en} leads the {card} out of turn")
        if card
        else (f"{de} spielt aus, ohne an der Reihe zu sein", f"{en} leads out of turn")
    ),
    Irregularity.SKAT_VIEWED: lambda de, en, card: (
        f"{de} sieht während des Spiels den Skat an",
        f"{en} looks at the skat during play",
    ),
    Irregularity.CARDS_EXPOSED: lambda de, en, card: (f"{de} deckt Karten auf", f"{en} exposes cards"),
    Irregularity.DECLARER_CONCEDES: lambda de, en, card: (f"{de} gibt das Spiel auf", f"{en} concedes the game"),
    Irregularity.DEFENDER_CONCEDES: lambda de, en, card: (f"{de} gibt das Spiel auf", f"{en} concedes the game"),
    Irregularity.WRONG_CARD_COUNT: lambda de, en, card: (
        f"{de} hat eine falsche Zahl von Karten",
        f"{en} holds a wrong number of cards",
    ),
    Irregularity.DECLARER_CLAIMS: lambda de, en, card: (
        f"{de} legt seine Karten auf und beansprucht die restlichen Stiche",
        f"{en} lays his cards face up and claims the remaining tricks",
    ),
    Irregularity.DEFENDER_PLAYS_OPEN: lambda de, en, card: (
        f"{de} legt seine Karten offen hin",
        f"{en} lays his cards face up",
    ),
}
"""What the player did, in German and English, from who (seat and role) and the card named."""


def _event_step(state: GameState, event: Event) -> Step:
    """The first step: who did what, as a fact (seat and role)."""
    name = SEATS[event.seat].text
    declarer = event.seat == state.declarer
    who_de = f"{name.de} ({'Alleinspieler' if declarer else 'Gegenspieler'})"
    who_en = f"{name.en} ({'the declarer' if declarer else 'a defender'})"
    card = card_ref(event.card) if event.card is not None else ""
    kind = event.kind
    texts = _EVENT_TEXTS.get(kind)
    if texts is not None:
        de, en = texts(who_de, who_en, card)
    else:
        contract = state.contract
        de = f"{who_de} sagt {contract.ref('de')} an" if contract else f"{who_de}: {kind.name_de}"
        en = f"{who_en} announces {contract.ref('en')}" if contract else f"{who_en}: {kind.name_en}"
    return Step(de[:1].upper() + de[1:], en[:1].upper() + en[1:], (kind.rule_id,))


def _augen_step(d_augen: int, f_augen: int) -> Step:
    return Step(
        f"Vor dem Regelverstoß: Alleinspieler {d_augen} Augen, Gegenpartei {f_augen} Augen",
        f"Before the irregularity: declarer {d_augen} card points, defenders {f_augen} card points",
        (),
    )


def _announced_note(contract: Contract, lang: str) -> str:
    """``; die angesagte Stufe Schneider zählt mit`` when an announced level counts too (4.2.5)."""
    if contract.game.is_null or not (contract.schneider_announced or contract.schwarz_announced):
        return ""
    level = "Schwarz" if contract.schwarz_announced else "Schneider"
    return Text(f", dazu die angesagte Stufe {level}", f", plus the announced level {level}").get(lang)


def _announced_rule(contract: Contract) -> tuple[str, ...]:
    return ("4.2.5",) if _announced_note(contract, "de") else ()


def _unreachable(state: GameState, m: int, need: _Need, f_augen: int) -> tuple[Step, bool]:
    """Why the declarer can no longer win, as a fact; and whether that was so before the
    first trick (ISkO 4.4.3)."""
    contract = state.contract
    assert contract is not None
    bid = state.bid
    name_de, name_en = contract.ref("de"), contract.ref("en")
    if need.impossible:
        if contract.game.is_null:
            value = game_value(contract, rules=state.rules).value
            return Step(
                f"{name_de} ist nur {value} wert, der Reizwert ist {bid}: überreizt",
                f"{name_en} is worth only {value}, the bid is {bid}: overbid",
                ("4.1.2",),
            ), True
        value = game_value(contract, m, schwarz=True, rules=state.rules).value
        return Step(
            f"Selbst mit Schwarz ist {name_de} nur {value} wert, der Reizwert ist {bid}: das Spiel war schon "
            f"vor dem ersten Stich überreizt",
            f"Even with Schwarz, {name_en} is worth only {value}, the bid is {bid}: the game was overbid "
            f"before the first trick",
            ("4.4.3",),
        ), True
    needed_de = "angesagt" if not need.from_bid else f"zum Reizwert {bid}"
    needed_en = "as announced" if not need.from_bid else f"for the bid of {bid}"
    if need.schwarz and m < 0:
        return Step(
            f"Der Alleinspieler braucht Schwarz ({needed_de}); ohne Spitzen hält ein Gegenspieler "
            f"den höchsten Trumpf ({card_ref('CJ')}) und macht damit immer einen Stich: Schwarz war schon vor dem "
            "ersten Stich unmöglich",
            f"The declarer needs Schwarz ({needed_en}); without matadors a defender holds the "
            f"highest trump ({card_ref('CJ')}), which always takes a trick: Schwarz was impossible before the "
            "first trick",
            ("4.4.3",),
        ), True
    if need.schwarz and state.defender_trick_count > 0:
        return Step(
            f"Der Alleinspieler braucht Schwarz ({needed_de}), aber die Gegenpartei hat schon einen Stich",
            f"The declarer needs Schwarz ({needed_en}), but the defenders already have a trick",
            ("4.2.4",),
        ), False
    return Step(
        f"Der Alleinspieler braucht Schneider ({needed_de}), aber die Gegenpartei hat schon {f_augen} Augen",
        f"The declarer needs Schneider ({needed_en}), but the defenders already have {f_augen} card points",
        ("4.2.3",),
    ), False


def _innocent_declarer(  # noqa: PLR0913 - over the budget since issue 27; to be split
    state: GameState, m: int, need: _Need, steps: list[Step], guilty: Party | None, reason: Reason
) -> Ruling:
    contract = state.contract
    assert contract is not None
    if contract.game.is_null:
        return _ruling(state, m=m, won=True, guilty=guilty, steps=steps, reason=reason)
    if need.schneider and not contract.schneider_announced:
        level_de = "Schwarz" if need.schwarz else "Schneider"
        steps.append(
            Step(
                f"Zum Reizwert {state.bid} braucht der Alleinspieler {level_de}: diese Stufe wird ihm zuerkannt",
                f"For the bid of {state.bid} the declarer needs {level_de}: that level is awarded to him",
                ("3.1.5",),
            )
        )
    text_de, text_en, rules = reason
    return _ruling(
        state,
        m=m,
        won=True,
        schneider=need.schneider,
        schwarz=need.schwarz,
        guilty=guilty,
        steps=steps,
        reason=(text_de, text_en, rules),
    )


def _play_on(state: GameState, cards: Sequence[Card], steps: list[Step]) -> Ruling:
    """Play ``cards`` on ``state`` (legally, to the end of the game) and score the result."""
    for card in cards:
        if state.is_over():
            break
        state.play(card)
    if not state.is_over():
        raise SkatError(
            "Die weitergespielten Karten führen nicht bis zum Spielende",
            "The cards played on do not reach the end of the game",
        )
    outcome = state.score()
    return _from_outcome(outcome, steps)


def _accepted_claim(  # noqa: PLR0913 - over the budget since issue 27; to be split
    state: GameState, event: Event, m: int, need: _Need, d_augen: int, f_augen: int, steps: list[Step]
) -> Ruling:
    """A claim the defenders accept, the game not yet won by them (ISkO 3.3.4)."""
    contract = state.contract
    assert contract is not None
    try:
        claimed = Level(event.claimed or "einfach")
    except ValueError:
        raise SkatError(
            f"Unbekannte Gewinnstufe {event.claimed!r} (einfach, schneider, schwarz)",
            f"Unknown level {event.claimed!r} (einfach, schneider, schwarz)",
        ) from None
    if contract.game.is_null:
        reason: Reason = (
            "die Gegenspieler stimmen der Abkürzung zu: das Nullspiel zählt als durchgespielt",
            "the defenders agree to the claim: the null game counts as played out",
            ("3.3.4",),
        )
        return _ruling(state, m=m, won=True, steps=steps, reason=reason)
    if claimed is not Level.EINFACH and f_augen >= OUT_OF_SCHNEIDER:
        raise SkatError(
            f"Schneider ist nicht mehr möglich: die Gegenspieler haben {f_augen} Augen",
            f"Schneider is no longer possible: the defenders have {f_augen} card points",
        )
    if claimed is Level.SCHWARZ and state.defender_trick_count > 0:
        raise SkatError(
            "Schwarz ist nicht mehr möglich: die Gegenspieler haben einen Stich",
            "Schwarz is no longer possible: the defenders have a trick",
        )
    schneider = need.schneider or claimed is not Level.EINFACH or d_augen >= SCHNEIDER_POINTS
    schwarz = need.schwarz or claimed is Level.SCHWARZ
    if claimed is not Level.EINFACH:
        steps.append(
            Step(
                f"Mit dem Abkürzen beansprucht er {claimed.value.capitalize()}",
                f"Together with the claim he demands {claimed.value.capitalize()}",
                ("3.3.4",),
            )
        )
    elif d_augen >= SCHNEIDER_POINTS and not need.schneider:
        steps.append(
            Step(
                f"Schneider war mit {d_augen} Augen schon erreicht",
                f"Schneider was already reached with {d_augen} card points",
                ("4.2.3",),
            )
        )
    if need.schneider and not contract.schneider_announced:
        steps.append(
            Step(
                "Die zum Reizwert nötige Stufe gehört zum angesagten Spiel",
                "The level needed for the bid belongs to the announced game",
                ("3.1.5",),
            )
        )
    reason = (
        "die Gegenspieler stimmen der Abkürzung zu: das angesagte Spiel zählt wie beansprucht",
        "the defenders agree to the claim: the announced game counts as claimed",
        ("3.3.4",),
    )
    return _ruling(state, m=m, won=True, schneider=schneider, schwarz=schwarz, steps=steps, reason=reason)


def _defender_open(state: GameState, event: Event, steps: list[Step]) -> Ruling:
    """A defender lays his cards open (ISkO 3.3.5): all remaining tricks go to the defenders
    if they take them however the cards are played, otherwise to the declarer."""
    contract = state.contract
    assert contract is not None and state.declarer is not None
    if contract.game.is_null:
        raise SkatError(
            "Das offene Spiel eines Gegenspielers regelt die ISkO nur für Farb- und Grandspiele",
            "The ISkO rules on a defender playing open only for suit and Grand games",
        )
    most = max(CardSet(h).mask.bit_count() for h in state.hands)
    if most > OPEN_SEARCH_MAX_CARDS:
        raise SkatError(
            f"Zu früh: die Prüfung aller Spielverläufe geht bis {OPEN_SEARCH_MAX_CARDS} Karten je Hand",
            f"Too early: checking every line of play works up to {OPEN_SEARCH_MAX_CARDS} cards a hand",
        )
    rest_points = sum(CardSet(h).points for h in state.hands) + sum(c.points for c in state.trick)
    rest_tricks = 10 - state.trick_count
    sure = _defenders_take_all(state, {})
    d_points = state.declarer_augen()
    d_tricks = state.declarer_trick_count
    if sure:
        steps.append(
            Step(
                f"Die Gegenpartei bekommt jeden der restlichen {rest_tricks} Stiche, wie auch immer gespielt "
                f"wird: sie gehören ihr",
                f"The defenders take each of the remaining {rest_tricks} tricks however the cards are played: "
                f"they are theirs",
                ("3.3.5",),
            )
        )
    else:
        steps.append(
            Step(
                f"Es gibt einen regelgerechten Spielverlauf, in dem der Alleinspieler einen Stich bekommt: "
                f"alle restlichen {rest_tricks} Stiche ({rest_points} Augen) gehören ihm",
                f"There is a legal line of play in which the declarer takes a trick: all remaining "
                f"{rest_tricks} tricks ({rest_points} card points) are his",
                ("3.3.5",),
            )
        )
        d_points += rest_points
        d_tricks += rest_tricks
    outcome = score_game(
        contract, state.matadors(), bid=state.bid, declarer_points=d_points, declarer_tricks=d_tricks, rules=state.rules
    )
    return _from_outcome(outcome, steps)


def _defenders_take_all(state: GameState, memo: dict[tuple[int, int, int, int], bool]) -> bool:
    """Does every legal continuation give every remaining trick to the defenders?"""
    if state.is_over() or state.trick_count == 10:
        return True
    key = (state.hands[0], state.hands[1], state.hands[2], state.leader)
    if not state.trick:
        known = memo.get(key)
        if known is not None:
            return known
    result = True
    for card in state.legal_cards():
        before = state.declarer_trick_count
        state.play(card)
        ok = state.declarer_trick_count == before
        if ok:
            ok = _defenders_take_all(state, memo)
        state.pop()
        if not ok:
            result = False
            break
    if not state.trick:
        memo[key] = result
    return result


def _cheapest_lost_game(state: GameState, steps: list[Step], guilty: Party | None, reason: Reason) -> Ruling:
    """The lost game "by the last bid and the matadors" (ISkO 2.4.4, 3.1.1): the game of
    :func:`~.scoring.cheapest_lost_game` (the same one that scores an overbid Null),
    counted double as a lost game."""
    assert state.declarer is not None
    contract, count, _ = cheapest_lost_game(state.bid, state.declarer_cards().mask, state.rules)
    steps.append(
        Step(
            f"Angeschrieben wird das billigste Farb- oder Grandspiel, das mit den Spitzen des Alleinspielers den "
            f"Reizwert {state.bid} erreicht: {game_ref(contract.game)}",
            f"The entry is the cheapest suit or Grand game that reaches the bid of {state.bid} with the declarer's "
            f"matadors: {game_ref(contract.game)}",
            ("2.4.4",),
        )
    )
    settled = settle(contract, count, bid=state.bid, won=False, rules=state.rules, reason=reason)
    return Ruling(
        True, False, settled.value, settled.score, guilty, tuple(steps) + settled.steps, Level.EINFACH, settled.overbid
    )


def _unplayable_null(state: GameState, steps: list[Step]) -> Ruling:
    """A Null whose value is below the bid (ISkO 2.4.4): lost as the cheapest suit or Grand
    game, whatever happened in play (the same game :func:`~.scoring.score_game` counts)."""
    contract = state.contract
    assert contract is not None
    null_value = game_value(contract, rules=state.rules).value
    steps.append(
        Step(
            f"{contract.ref('de')} ist nur {null_value} wert, der Reizwert ist {state.bid}",
            f"{contract.ref('en')} is worth only {null_value}, the bid is {state.bid}",
            ("4.1.2",),
        )
    )
    reason: Reason = (
        "ein Nullspiel unter dem Reizwert ist nicht durchführbar, daher zählt ein Farb- oder "
        "Grandspiel nach der letzten Reizhöhe und den Spitzen",
        "a null game below the bid cannot be played, so a suit or Grand game counts, by the last bid and the matadors",
        ("2.4.4",),
    )
    return _cheapest_lost_game(state, steps, Party.DECLARER, reason)


def _leads_before_announcement(state: GameState, event: Event) -> Ruling:
    if state.declarer is None or state.phase not in (Phase.SKAT, Phase.DISCARD, Phase.DECLARE):
        raise SkatError(
            "Ausspielen vor der Spielansage: das Reizen muss beendet und noch kein Spiel angesagt sein",
            "Leading before the announcement: the auction must be over and no game announced yet",
        )
    if event.seat != state.declarer:
        raise SkatError(
            "Vor der Spielansage entscheidet die Engine nur das Ausspielen des Alleinspielers",
            "Before the announcement the engine rules only on a lead by the declarer",
        )
    if event.card is not None and not state.hands[event.seat] & event.card.bit:
        raise SkatError(
            f"{card_ref(event.card)} ist nicht in der Hand des Alleinspielers",
            f"The {card_ref(event.card)} is not in the declarer's hand",
        )
    name = SEATS[event.seat].text
    steps = [
        Step(
            f"{name.de} (Alleinspieler) spielt aus, bevor er ein Spiel angesagt hat",
            f"{name.en.capitalize()} (the declarer) leads before announcing a game",
            ("3.1.1",),
        )
    ]
    reason: Reason = (
        "wer als Alleinspieler vor der Spielansage ausspielt, hat ein Spiel verloren, nach der letzten "
        "Reizhöhe und seinen Spitzen",
        "a declarer who leads before his announcement has lost a game, by the last bid and his matadors",
        ("3.1.1", "2.4.4"),
    )
    return _cheapest_lost_game(state, steps, Party.DECLARER, reason)


def _play_out_last_trick(state: GameState) -> GameState:
    """Play the forced last trick (each player holds one card) and return the finished game."""
    while not state.is_over():
        seat = state.to_move
        assert seat is not None
        mask = state.hands[seat]
        state.play(CARDS[(mask & -mask).bit_length() - 1])
    return state
