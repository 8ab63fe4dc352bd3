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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .bidding import SEAT_NAMES_DE, SEAT_NAMES_EN
from .cards import CARDS, Card, CardSet
from .errors import SkatError
from .explain import Derivation, Step, rule_ids_of
from .game import GameState, Phase
from .scoring import game_value, settle

__all__ = ["Irregularity", "Event", "Ruling", "rule", "ruling_from_input"]


class Irregularity(Enum):
    REVOKE = "revoke"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    SKAT_VIEWED = "skat_viewed"
    CARDS_EXPOSED = "cards_exposed"
    DECLARER_CONCEDES = "declarer_concedes"
    DEFENDER_CONCEDES = "defender_concedes"

    @property
    def name_de(self) -> str:
        return _NAMES[self][0]

    @property
    def name_en(self) -> str:
        return _NAMES[self][1]


_NAMES = {
    Irregularity.REVOKE: ("falsches Bedienen", "revoke"),
    Irregularity.LEAD_OUT_OF_TURN: ("unberechtigtes Ausspielen", "lead out of turn"),
    Irregularity.SKAT_VIEWED: ("Skat während des Spiels angesehen", "skat looked at during play"),
    Irregularity.CARDS_EXPOSED: ("Karten aufgedeckt", "cards exposed"),
    Irregularity.DECLARER_CONCEDES: ("Aufgabe durch den Alleinspieler", "declarer concedes"),
    Irregularity.DEFENDER_CONCEDES: ("Aufgabe durch die Gegenpartei", "defenders concede"),
}
_RULE_OF = {
    Irregularity.REVOKE: "3.2.3",
    Irregularity.LEAD_OUT_OF_TURN: "3.1.3",
    Irregularity.SKAT_VIEWED: "3.2.8",
    Irregularity.CARDS_EXPOSED: "3.1.9",
    Irregularity.DECLARER_CONCEDES: "3.3.1",
    Irregularity.DEFENDER_CONCEDES: "3.3.3",
}


@dataclass(frozen=True, slots=True)
class Event:
    """What happened: ``seat`` commits ``kind`` (with ``card`` for revokes and leads)."""

    kind: Irregularity
    seat: int
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's decision, for the declarer."""

    game_ends: bool
    won: bool
    value: int
    score: int
    guilty: str | None
    """"declarer", "defenders" or None (no violation, e.g. a concession or the last trick)."""
    steps: Derivation

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return rule_ids_of(self.steps)

    def explain(self, lang: str = "de") -> list[str]:
        return [s.text(lang) for s in self.steps]

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


def _ruling(state: GameState, m: int, won: bool, schneider: bool, schwarz: bool, guilty: str | None,
            steps: list[Step], game_ends: bool = True) -> Ruling:
    assert state.contract is not None
    settled = settle(state.contract, m, bid=state.bid, won=won, schneider=schneider, schwarz=schwarz,
                     rules=state.rules)
    return Ruling(game_ends, settled.won, settled.value, settled.score, guilty, tuple(steps) + settled.steps)


def _party(state: GameState, seat: int) -> str:
    return "declarer" if seat == state.declarer else "defenders"


def rule(state: GameState, event: Event) -> Ruling:
    """The ruling for ``event`` in ``state`` (a game in play, just before the event)."""
    if state.phase != Phase.PLAY or state.contract is None or state.declarer is None:
        raise SkatError("Ein Regelverstoß wird hier nur während des Spiels entschieden",
                        "Irregularities are ruled here only while the game is in play")
    if event.seat not in (0, 1, 2):
        raise SkatError(f"Unbekannter Platz {event.seat}", f"Unknown seat {event.seat}")
    contract = state.contract
    m = state.matadors()
    need = _need(state, m)
    d_augen = state.declarer_augen()
    f_augen = sum(t.points for t in state.tricks) - state.declarer_points
    who_de, who_en = SEAT_NAMES_DE[event.seat], SEAT_NAMES_EN[event.seat]
    rule_id = _RULE_OF[event.kind]
    steps: list[Step] = [Step(f"{event.kind.name_de} durch {who_de}", f"{event.kind.name_en} by {who_en}", (rule_id,))]
    kind = event.kind
    to_move = state.to_move
    assert to_move is not None

    # --- events that are not violations, or checks of the event itself
    if kind in (Irregularity.REVOKE, Irregularity.LEAD_OUT_OF_TURN):
        if event.card is None:
            raise SkatError("Zu diesem Regelverstoß gehört eine Karte", "This irregularity needs a card")
        if not state.hands[event.seat] & event.card.bit:
            raise SkatError(f"{event.card.name_de} ist nicht in der Hand von {who_de}",
                            f"The {event.card.name_en} is not in {who_en}'s hand")
    if kind is Irregularity.REVOKE:
        if event.seat != to_move:
            raise SkatError(f"{who_de} ist nicht an der Reihe; das wäre unberechtigtes Ausspielen, kein falsches Bedienen",
                            f"{who_en} is not to play; that is a lead out of turn, not a revoke")
        assert event.card is not None
        if state.legal_cards().mask & event.card.bit:
            raise SkatError(f"{event.card.name_de} ist regelgerecht: kein falsches Bedienen",
                            f"The {event.card.name_en} is legal: no revoke")
    if kind is Irregularity.LEAD_OUT_OF_TURN:
        if event.seat == to_move:
            raise SkatError(f"{who_de} ist an der Reihe: das Ausspielen ist berechtigt",
                            f"{who_en} is to play: the lead is legal")
        if len(state.tricks) == 9:
            steps.append(Step("Unberechtigtes Ausspielen zum letzten Stich ist unerheblich: der letzte Stich wird ausgespielt",
                              "A lead out of turn to the last trick does not matter: the last trick is played out",
                              ("3.1.10",)))
            final = _play_out_last_trick(state)
            outcome = final.score()
            return Ruling(True, outcome.won, outcome.value, outcome.score, None, tuple(steps) + outcome.steps)
    if kind is Irregularity.CARDS_EXPOSED and event.seat == state.declarer:
        raise SkatError(
            "Der Alleinspieler darf herausgefallene Karten ohne Folgen wieder aufnehmen: das Spiel geht weiter (ISkO 3.1.9)",
            "The declarer may pick up his fallen cards without consequence: play continues (ISkO 3.1.9)",
        )
    if kind is Irregularity.DECLARER_CONCEDES and event.seat != state.declarer:
        raise SkatError("Nur der Alleinspieler kann sein Spiel aufgeben", "Only the declarer can concede his game")
    if kind is Irregularity.DEFENDER_CONCEDES and event.seat == state.declarer:
        raise SkatError("Der Alleinspieler ist kein Gegenspieler", "The declarer is not a defender")

    # --- is the game already decided?
    if contract.game.is_null:
        declarer_has_won = False
        defenders_have_won = state.declarer_trick_count > 0 or need.impossible
    else:
        declarer_reached = (not need.schneider or d_augen >= 90) and not need.schwarz
        declarer_has_won = d_augen >= 61 and declarer_reached and not need.impossible
        out_of_reach = (
            need.impossible
            or (need.schneider and f_augen >= 31)
            or (need.schwarz and (state.defender_trick_count > 0 or m < 0))
        )
        defenders_have_won = f_augen >= 60 or out_of_reach
    if defenders_have_won or declarer_has_won:
        winner_de = "Alleinspieler" if declarer_has_won else "Gegenpartei"
        winner_en = "declarer" if declarer_has_won else "defenders"
        steps.append(Step(
            f"Das Spiel war bereits entschieden (Alleinspieler {d_augen}, Gegenpartei {f_augen} Augen): "
            f"der {winner_de} hat gewonnen, ein gewonnenes Spiel geht nicht mehr verloren",
            f"The game was already decided (declarer {d_augen}, defenders {f_augen} card points): "
            f"the {winner_en} had won, and a won game cannot be lost again",
            ("3.1.3", "4.2.2")))
        if contract.game.is_null:
            return _ruling(state, m, declarer_has_won, False, False, None, steps)
        schneider = d_augen >= 90 if declarer_has_won else f_augen >= 90
        return _ruling(state, m, declarer_has_won, schneider, False, None, steps)

    # --- concessions
    if kind is Irregularity.DECLARER_CONCEDES:
        cards_left = CardSet(state.hands[state.declarer]).mask.bit_count()
        if cards_left < 9:
            steps.append(Step(f"Mit {cards_left} Karten braucht die Aufgabe die Zustimmung eines Gegenspielers",
                              f"With {cards_left} cards the concession needs a defender's consent", ("3.3.2",)))
        steps.append(Step("Das aufgegebene Spiel ist verloren, mindestens zum Reizwert und mit den Spitzen",
                          "The conceded game is lost, at least at the bid and with the matadors", ("3.3.1",)))
        return _ruling(state, m, False, False, False, None, steps)
    if kind is Irregularity.DEFENDER_CONCEDES:
        steps.append(Step("Gibt ein Gegenspieler auf, ist das Spiel für den Alleinspieler gewonnen (gemeinsame Haftung)",
                          "When a defender concedes, the declarer has won (joint liability)", ("3.3.3", "2.5.2")))
        return _innocent_declarer(state, m, need, steps, guilty=None)

    # --- violations before the decision
    guilty = _party(state, event.seat)
    if guilty == "declarer":
        steps.append(Step("Regelverstoß vor der Spielentscheidung: der Alleinspieler verliert in der Stufe einfach",
                          "A violation before the game was decided: the declarer loses at level einfach", ("3.1.4",)))
        return _ruling(state, m, False, False, False, guilty, steps)
    steps.append(Step("Regelverstoß der Gegenpartei vor der Spielentscheidung: der Alleinspieler gewinnt",
                      "A violation by the defenders before the game was decided: the declarer wins",
                      ("3.1.4", "2.5.2")))
    return _innocent_declarer(state, m, need, steps, guilty=guilty)


def _innocent_declarer(state: GameState, m: int, need: _Need, steps: list[Step], guilty: str | None) -> Ruling:
    contract = state.contract
    assert contract is not None
    if contract.game.is_null:
        return _ruling(state, m, True, False, False, guilty, steps)
    if need.schneider and not contract.schneider_announced:
        level_de = "Schwarz" if need.schwarz else "Schneider"
        steps.append(Step(f"Der Alleinspieler musste {level_de} erreichen; diese Stufe wird ihm zuerkannt",
                          f"The declarer had to reach {level_de}; that level is awarded to him", ("3.1.5",)))
    return _ruling(state, m, True, need.schneider, need.schwarz, guilty, steps)


def _play_out_last_trick(state: GameState) -> GameState:
    """Play the forced last trick (each player holds one card) and return the finished game."""
    while not state.is_over():
        seat = state.to_move
        assert seat is not None
        mask = state.hands[seat]
        state.play(CARDS[(mask & -mask).bit_length() - 1])
    return state


def ruling_from_input(inp: Mapping[str, Any], rules: str) -> Ruling:
    """A ``ruling`` case of the vectors contract: a replay input plus ``event``."""
    from .cards import parse_card
    from .vectors import replay_from_input

    state = replay_from_input(inp, rules)
    raw = inp["event"]
    try:
        kind = Irregularity(raw["type"])
    except ValueError:
        raise SkatError(f"Unbekannter Regelverstoß {raw['type']!r}", f"Unknown irregularity {raw['type']!r}") from None
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise SkatError("Der Platz des Regelverstoßes fehlt", "The seat of the irregularity is missing")
    card = parse_card(raw["card"]) if raw.get("card") else None
    return rule(state, Event(kind, seat, card))
