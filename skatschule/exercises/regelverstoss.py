"""Regelverstoß: a generated game in progress, an irregularity, and the referee's ruling.

A random deal, a declaration, random legal plays up to a random point, then one injected
irregularity (revoke, lead out of turn, skat looked at, cards exposed, a concession). The
rulings engine (:func:`skatschule.engine.rulings.rule`) decides; its derivation is the
feedback. Everything comes from the one random generator of the exercise, so
``(difficulty, seed)`` determines the question.

- Level 1 (choice ``alleinspieler`` / ``gegenpartei``): who wins? Suit and Grand games after
  picking up the skat, no overbid, the four violations (revoke, lead out of turn, skat
  looked at by a defender, a defender's cards exposed). The winner is drawn first (each
  half of the seeds), then deals until the ruling agrees: guessing one side wins half.
- Level 2 (number): the list entry. Also hand games, Null games, the declarer looking at
  the skat in a hand game, and concessions by either side.
- Level 3 (number): the list entry. Also announced Schneider/Schwarz, overbid games (the
  declarer needs Schneider to reach the bid) and a lead out of turn to the last trick.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatschule.engine import (
    BID_VALUES,
    SEATS,
    Card,
    CardSet,
    Contract,
    Deal,
    GameState,
    GameType,
    SkatError,
    Text,
    deal_cards,
    game_value,
    matadors,
    matadors_text,
)
from skatschule.engine.names import card_ref
from skatschule.engine.rulings import Event, Irregularity, Ruling, rule
from skatschule.engine.sorting import sort_hand

from .base import Choice, Question
from .exercise import EngineExercise
from .grading import Solution
from .helpers import SUIT_GAMES, codes, signed, trick_facts

__all__ = ["EVENTS", "Regelverstoss", "Scenario", "WINNER_OPTIONS", "winner_value"]

RULES = ("3.1.3", "3.1.4", "3.1.5", "3.2.3", "3.2.8", "3.1.9", "3.3.1", "3.3.3")
WINNER_OPTIONS = (
    Choice("alleinspieler", Text("Der Alleinspieler gewinnt", "The declarer wins")),
    Choice(
        "gegenpartei",
        Text("Die Gegenpartei gewinnt (der Alleinspieler verliert)", "The defenders win (the declarer loses)"),
    ),
)

EVENTS = (
    Irregularity.REVOKE,
    Irregularity.LEAD_OUT_OF_TURN,
    Irregularity.SKAT_VIEWED,
    Irregularity.CARDS_EXPOSED,
    Irregularity.DECLARER_CONCEDES,
    Irregularity.DEFENDER_CONCEDES,
)
"""The irregularities the exercise sets (and a teacher can set up in an own question)."""
_EVENTS = {
    1: (Irregularity.REVOKE, Irregularity.LEAD_OUT_OF_TURN, Irregularity.SKAT_VIEWED, Irregularity.CARDS_EXPOSED),
    2: EVENTS,
    3: EVENTS,
}


def winner_value(ruling: Ruling) -> str:
    return "alleinspieler" if ruling.won else "gegenpartei"


@dataclass(frozen=True, slots=True)
class Scenario:
    deal: Deal
    declarer: int
    bid: int
    contract: Contract
    discard: tuple[Card, ...] | None
    plays: tuple[Card, ...]
    event: Event
    level: int

    def state(self) -> GameState:
        """The game just before the irregularity (a fresh one each time: ``rule`` may play on)."""
        state = GameState.start(
            self.deal, declarer=self.declarer, bid=self.bid, contract=self.contract, discard=self.discard
        )
        for card in self.plays:
            state.play(card)
        return state

    def ruling(self) -> Ruling:
        return rule(self.state(), self.event)


# --------------------------------------------------------------------------- drawing


def _contract(rng: random.Random, level: int) -> Contract:
    if level >= 2 and rng.random() < 0.15:
        return rng.choice(
            (Contract(GameType.NULL), Contract(GameType.NULL, hand=True), Contract(GameType.NULL, ouvert=True))
        )
    game = rng.choice(SUIT_GAMES + (GameType.GRAND,))
    if level == 1:
        return Contract(game)
    hand = rng.random() < 0.4
    if level == 3 and hand and rng.random() < 0.5:
        if rng.random() < 0.7:
            return Contract(game, hand=True, schneider_announced=True)
        return Contract(game, hand=True, schwarz_announced=True)
    return Contract(game, hand=hand)


def _bid(rng: random.Random, contract: Contract, count: int, level: int) -> int:
    plain = game_value(contract, count).value
    if level == 3 and not contract.game.is_null and not contract.hand and rng.random() < 0.35:
        schneider = game_value(contract, count, schneider=True).value
        above = [b for b in BID_VALUES if plain < b <= schneider]
        if above:
            return rng.choice(above)
    candidates = [b for b in BID_VALUES if b <= plain]
    return rng.choice(candidates[-4:])


def _random_plays(rng: random.Random, state: GameState) -> list[Card]:
    plays: list[Card] = []
    while not state.is_over():
        card = rng.choice(list(state.legal_cards()))
        state.play(card)
        plays.append(card)
    return plays


def _revoke_card(state: GameState) -> Card | None:
    """A card the player to move holds but may not play (None if every card is legal)."""
    seat = state.to_move
    assert seat is not None
    illegal = [c for c in state.hand(seat) if not state.legal_cards().mask & c.bit]
    return illegal[0] if illegal else None


def _draw(rng: random.Random, level: int) -> Scenario | None:  # noqa: C901 - over the budget since issue 27; to be split
    deal = deal_cards(rng=rng)
    declarer = rng.randrange(3)
    contract = _contract(rng, level)
    discard: tuple[Card, ...] | None = None
    twelve = list(deal.hand(declarer)) + list(deal.skat)
    if not contract.hand:
        discard = tuple(rng.sample(twelve, 2))
    count = 0 if contract.game.is_null else matadors(contract.game, CardSet(twelve))
    bid = _bid(rng, contract, count, level)
    start = GameState.start(deal, declarer=declarer, bid=bid, contract=contract, discard=discard)
    plays = _random_plays(rng, start)
    kind = rng.choice(_EVENTS[level])
    if kind is Irregularity.SKAT_VIEWED and level >= 2 and contract.hand and rng.random() < 0.5:
        seat = declarer
    elif kind in (Irregularity.SKAT_VIEWED, Irregularity.CARDS_EXPOSED, Irregularity.DEFENDER_CONCEDES):
        seat = rng.choice([s for s in range(3) if s != declarer])
    elif kind is Irregularity.DECLARER_CONCEDES:
        seat = declarer
    else:
        seat = -1  # decided below, with the position

    last = len(plays) - 1  # at most this many cards played: the game is still running
    if kind is Irregularity.LEAD_OUT_OF_TURN:
        tricks_max = last // 3
        if level < 3:
            tricks_max = min(tricks_max, 8)
        k = 3 * rng.randint(0, tricks_max)
    elif kind is Irregularity.DECLARER_CONCEDES and rng.random() < 0.5:
        k = rng.randint(0, min(last, 2))  # still holding nine or ten cards
    else:
        k = rng.randint(0, min(last, 26 if level == 1 else last))
    state = GameState.start(deal, declarer=declarer, bid=bid, contract=contract, discard=discard)
    for played in plays[:k]:
        state.play(played)
    card: Card | None = None
    to_move = state.to_move
    assert to_move is not None
    if kind is Irregularity.REVOKE:
        # move on to the next moment at which the player to move could revoke
        while (card := _revoke_card(state) if state.trick else None) is None:
            if k >= last:
                return None
            state.play(plays[k])
            k += 1
        revoker = state.to_move
        assert revoker is not None
        seat = revoker
    elif kind is Irregularity.LEAD_OUT_OF_TURN:
        seat = rng.choice([s for s in range(3) if s != to_move])
        card = rng.choice(list(state.hand(seat)))
    event = Event(kind, seat, card)
    scenario = Scenario(deal, declarer, bid, contract, discard, tuple(plays[:k]), event, level)
    try:
        scenario.ruling()
    except SkatError:  # pragma: no cover - a scenario the engine refuses: draw again
        return None
    return scenario


# --------------------------------------------------------------------------- texts


def _event_texts(scenario: Scenario, state: GameState) -> tuple[str, str]:
    event = scenario.event
    who = SEATS[event.seat].text
    who_de, who_en = who.de, who.en.capitalize()
    role_de = "der Alleinspieler" if event.seat == scenario.declarer else "ein Gegenspieler"
    role_en = "the declarer" if event.seat == scenario.declarer else "a defender"
    kind = event.kind
    if kind is Irregularity.REVOKE:
        assert event.card is not None
        return (
            f"{who_de} ({role_de}) legt {card_ref(event.card)} zu, obwohl er bedienen könnte. Das wird sofort bemerkt.",
            f"{who_en} ({role_en}) plays the {card_ref(event.card)} although he could follow. It is noticed at once.",
        )
    if kind is Irregularity.LEAD_OUT_OF_TURN:
        assert event.card is not None and state.to_move is not None
        to_move = SEATS[state.to_move].text
        return (
            f"{who_de} ({role_de}) spielt {card_ref(event.card)} aus, obwohl {to_move.de} am Zug ist.",
            f"{who_en} ({role_en}) leads the {card_ref(event.card)}, although {to_move.en} is to lead.",
        )
    if kind is Irregularity.SKAT_VIEWED:
        return (
            f"{who_de} ({role_de}) dreht während des Spiels den Skat um und sieht ihn sich an.",
            f"During play, {who_en} ({role_en}) turns over the skat and looks at it.",
        )
    if kind is Irregularity.CARDS_EXPOSED:
        return (
            f"{who_de} ({role_de}) legt mehrere seiner Karten offen auf den Tisch.",
            f"{who_en} ({role_en}) puts several of his cards face up on the table.",
        )
    if kind is Irregularity.DECLARER_CONCEDES:
        left = len(state.hand(scenario.declarer))
        if left >= 9:
            return (
                f"Der Alleinspieler ({who_de}) hat noch {left} Karten und gibt sein Spiel auf.",
                f"The declarer ({who_en}) still holds {left} cards and concedes his game.",
            )
        return (
            f"Der Alleinspieler ({who_de}) hat noch {left} Karten und gibt sein Spiel auf; "
            "ein Gegenspieler ist einverstanden.",
            f"The declarer ({who_en}) holds {left} cards and concedes his game; a defender agrees.",
        )
    return (
        f"{who_de} ({role_de}) erklärt, die Gegenpartei gebe das Spiel auf.",
        f"{who_en} ({role_en}) says the defenders give up the game.",
    )


def _facts(scenario: Scenario, state: GameState) -> list[Text]:
    contract = scenario.contract
    d = scenario.declarer
    facts = [
        Text(f"Spiel: {contract.ref('de', capital=True)}", f"Game: {contract.ref('en', capital=True)}"),
        Text(f"Alleinspieler: {SEATS[d].text.de}", f"Declarer: {SEATS[d].text.en.capitalize()}"),
        Text(f"Gereizt bis: {scenario.bid}", f"Bid: {scenario.bid}"),
    ]
    if not contract.game.is_null:
        m = state.matadors()
        facts.append(
            Text(f"Spitzen (mit Skat): {matadors_text(m, 'de')}", f"Matadors (skat included): {matadors_text(m, 'en')}")
        )
    done = state.trick_count
    defender_points = state.defender_augen()
    facts.append(Text(f"Fertige Stiche: {done}", f"Tricks completed: {done}"))
    if contract.game.is_null:
        facts.append(
            Text(
                f"Stiche des Alleinspielers: {state.declarer_trick_count}",
                f"Declarer's tricks: {state.declarer_trick_count}",
            )
        )
    else:
        facts.append(
            Text(
                f"Augen des Alleinspielers (mit Skat): {state.declarer_augen()}",
                f"Declarer's card points (skat included): {state.declarer_augen()}",
            )
        )
        facts.append(Text(f"Augen der Gegenpartei: {defender_points}", f"Defenders' card points: {defender_points}"))
        facts.append(
            Text(
                f"Stiche der Gegenpartei: {state.defender_trick_count}",
                f"Defenders' tricks: {state.defender_trick_count}",
            )
        )
    if state.trick:
        facts += trick_facts(state.trick, state.leader)
    if done == 9 and not state.trick:
        last_de = ", ".join(f"{SEATS[s].text.de}: {card_ref(next(iter(state.hand(s))))}" for s in range(3))
        last_en = ", ".join(f"{SEATS[s].text.en.capitalize()}: {card_ref(next(iter(state.hand(s))))}" for s in range(3))
        facts.append(Text(f"Letzte Karten: {last_de}", f"Last cards: {last_en}"))
    return facts


class Regelverstoss(EngineExercise[Scenario]):
    slug = "regelverstoss"
    name = Text("Regelverstoß", "Irregularity")
    description = Text(
        "Mitten im Spiel passiert ein Regelverstoß: Wie entscheidet der Schiedsrichter?",
        "An irregularity in the middle of a game: how does the referee decide?",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        # Level 1 asks who wins: the winner is drawn first and deals are drawn until the
        # ruling agrees, so that neither answer is right more often than the other.
        target = rng.choice(WINNER_OPTIONS).value if difficulty == 1 else None
        while True:
            scenario = _draw(rng, difficulty)
            if scenario is not None and (target is None or winner_value(scenario.ruling()) == target):
                return scenario

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        state = scenario.state()
        event_de, event_en = _event_texts(scenario, state)
        facts = _facts(scenario, state)
        own = scenario.contract.hand and scenario.event.seat == scenario.declarer
        hand = state.hand(scenario.declarer)
        cards = (
            codes(sort_hand(hand, scenario.contract.game))
            if own or scenario.event.kind is Irregularity.DECLARER_CONCEDES
            else ()
        )
        rules = ("3.1.3", "3.1.4", "3.1.5", scenario.event.kind.rule_id)
        if difficulty == 1:
            return self.question(
                difficulty,
                seed,
                Text(
                    f"{event_de} Wie entscheidet der Schiedsrichter: Wer gewinnt das Spiel?",
                    f"{event_en} How does the referee rule: who wins the game?",
                ),
                "choice",
                options=WINNER_OPTIONS,
                facts=facts,
                trick=codes(state.trick),
                cards=cards,
                rule_ids=rules,
            )
        return self.question(
            difficulty,
            seed,
            Text(
                f"{event_de} Wie entscheidet der Schiedsrichter, und was wird für den Alleinspieler in die Liste "
                "geschrieben? Verlorene Spiele mit einem Minus davor.",
                f"{event_en} How does the referee rule, and what is written on the score sheet for the declarer? "
                "Lost games with a minus sign.",
            ),
            "number",
            facts=facts,
            trick=codes(state.trick),
            cards=cards,
            rule_ids=rules,
        )

    def solve(self, scenario: Scenario) -> Solution:
        ruling = scenario.ruling()
        steps = tuple(ruling.steps)
        ids = ruling.rule_ids
        winner = winner_value(ruling)
        label = next(o for o in WINNER_OPTIONS if o.value == winner)
        entry = signed(ruling.score)
        if scenario.level == 1:
            return Solution((winner,), Text(f"{label.label.de} ({entry})", f"{label.label.en} ({entry})"), steps, ids)
        return Solution(
            (str(ruling.score),), Text(f"{entry} ({label.label.de})", f"{entry} ({label.label.en})"), steps, ids
        )
