"""Puzzles: card-play decisions with one answer that the solver proves.

A :class:`Spot` is one decision of a game, told by the game's record (deal, declarer,
game, discard and the cards played before it), so the engine rebuilds the position
with :class:`~.game.GameState`. :func:`examine` decides whether the spot is a puzzle:

* the open-hand solver (:mod:`.solver`) values every legal card of the player to move;
  a card *keeps the result* when it reaches the best :func:`result` the mover's side can
  make sure of (won or lost, and the Schneider level: Augen 0-30, 31-60, 61-89, 90-120;
  in Null won or lost);
* exactly one card keeps it, or one set of equivalent cards (same group, same Augen, no
  live card between them: they do the same in every continuation);
* at least one legal card does not.

Everything else is rejected with a reason (:class:`Reject`), and the reasons are
counted. A puzzle is then checked once more from the player's own view: over ``samples``
deals of the unseen cards that fit everything the player has seen (own hand, cards
played, suits not followed, the skat for a declarer who picked it up), the answer must
keep the best result of every deal, and each other card must fail in at least one.
A puzzle that passes is shown from the player's view (:attr:`View.PLAYER`, with the
number of deals stated); one that does not is shown with all cards open
(:attr:`View.OPEN`).

Themes (:class:`Theme`) are tagged from the position and the solution line.
"""

from __future__ import annotations

import enum
import hashlib
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .bots import BotLevel, SeatView, bot_move, choose_card, choose_contract, choose_discard, sample_deal
from .cards import Card, CardSet, Deal, deal_cards, mask_points, parse_card, parse_cards
from .errors import SkatError
from .explain import Step, Text
from .game import GameState, Phase, Play
from .games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, SPLIT_POINTS, TOTAL_POINTS, Contract, GameType
from .names import card_ref, cards_ref, game_ref
from .seats import SEATS
from .solver import SearchAborted, Solution, solve, tables_for
from .sorting import sort_hand
from .text import lang_of

__all__ = [
    "Spot",
    "View",
    "Theme",
    "Reject",
    "Puzzle",
    "Verdict",
    "result",
    "result_text",
    "equivalent",
    "examine",
    "consistent_hands",
    "spots_of",
    "explain",
    "check_unique",
    "retag",
    "spots_from_state",
    "Mistake",
    "mistakes",
    "GUESSES",
    "balanced",
    "legal_in_page_order",
    "Goal",
    "AUGEN_MARGIN",
    "from_bot_game",
    "strong_game",
    "from_strong_game",
    "puzzles_of_game",
    "Batch",
    "generate",
    "Graded",
    "grade",
    "spot_of",
]


class View(enum.Enum):
    OPEN = "offen"
    """All cards open: the answer holds for this deal."""
    PLAYER = "spieler"
    """The player's own view: the answer holds over the sampled deals that fit it."""


class Theme(enum.Enum):
    """What a puzzle is about (slugs are part of URLs: never change one)."""

    SCHMIEREN = "schmieren"
    ABWERFEN = "abwerfen"
    TRUMPF_ZIEHEN = "trumpf-ziehen"
    STECHEN = "stechen-uebernehmen"
    DURCH_DIE_HAND = "durch-die-hand"
    NULL_VERTEIDIGUNG = "null-verteidigung"
    NULL_ALLEINSPIEL = "null-alleinspiel"
    SCHNEIDER_RETTEN = "schneider-retten"
    SCHNEIDER_SPIELEN = "schneider-spielen"
    LETZTES_STICHPAAR = "letztes-stichpaar"
    AUGEN = "augen-sichern"
    ALLEINSPIEL = "alleinspiel"
    GEGENSPIEL = "gegenspiel"

    @property
    def title(self) -> Text:
        return _THEME_TITLES[self]

    @property
    def about(self) -> Text:
        return _THEME_ABOUT[self]


_THEME_TITLES = {
    Theme.SCHMIEREN: Text("Schmieren", "Smearing"),
    Theme.ABWERFEN: Text("Abwerfen", "Throwing off"),
    Theme.TRUMPF_ZIEHEN: Text("Trumpf ziehen", "Drawing trumps"),
    Theme.STECHEN: Text("Stechen oder Übernehmen", "Trumping or overtaking"),
    Theme.DURCH_DIE_HAND: Text("Anspielen durch die Hand", "Leading through the declarer"),
    Theme.NULL_VERTEIDIGUNG: Text("Null-Verteidigung", "Defending a Null"),
    Theme.NULL_ALLEINSPIEL: Text("Null-Alleinspiel", "Playing a Null"),
    Theme.SCHNEIDER_RETTEN: Text("Schneider retten", "Escaping Schneider"),
    Theme.SCHNEIDER_SPIELEN: Text("Schneider spielen", "Making Schneider"),
    Theme.LETZTES_STICHPAAR: Text("Das letzte Stichpaar", "The last two tricks"),
    Theme.AUGEN: Text("Augen sichern", "Saving card points"),
    Theme.ALLEINSPIEL: Text("Als Alleinspieler", "As the declarer"),
    Theme.GEGENSPIEL: Text("Als Gegenspieler", "As a defender"),
}

_THEME_ABOUT = {
    Theme.SCHMIEREN: Text(
        "Der Partner bekommt den Stich: jetzt eine Karte mit vielen Augen dazugeben.",
        "Your partner takes the trick: add a card worth many points to it.",
    ),
    Theme.ABWERFEN: Text(
        "Nicht bedienen können und keinen Trumpf geben: welche Karte darf weg?",
        "You cannot follow and do not trump: which card can go?",
    ),
    Theme.TRUMPF_ZIEHEN: Text(
        "Der Alleinspieler spielt Trumpf aus, um den Gegnern die Trümpfe zu nehmen.",
        "The declarer leads trumps to take the defenders' trumps away.",
    ),
    Theme.STECHEN: Text(
        "Mit Trumpf stechen oder die Karte des Partners übernehmen, um den Stich zu holen.",
        "Trump in, or overtake your partner's card, to win the trick.",
    ),
    Theme.DURCH_DIE_HAND: Text(
        "Der Gegenspieler spielt so aus, dass der Alleinspieler als Nächster zugeben muss.",
        "A defender leads so that the declarer has to play next.",
    ),
    Theme.NULL_VERTEIDIGUNG: Text(
        "Im Nullspiel den Alleinspieler zu einem Stich zwingen.", "Force the declarer to take a trick in a Null game."
    ),
    Theme.NULL_ALLEINSPIEL: Text(
        "Im Nullspiel ohne Stich durchkommen.", "Get through a Null game without taking a trick."
    ),
    Theme.SCHNEIDER_RETTEN: Text("Die eigene Partei über 30 Augen bringen.", "Bring your own side past 30 points."),
    Theme.SCHNEIDER_SPIELEN: Text("Die andere Partei unter 31 Augen halten.", "Keep the other side below 31 points."),
    Theme.LETZTES_STICHPAAR: Text(
        "Die Entscheidung fällt in den letzten beiden Stichen.", "The decision falls in the last two tricks."
    ),
    Theme.AUGEN: Text(
        "Das Ergebnis steht fest, aber nur eine Karte holt zehn oder mehr Augen mehr für deine Partei.",
        "The result is settled, but only one card gets your side ten or more points more.",
    ),
    Theme.ALLEINSPIEL: Text("Du spielst allein gegen zwei.", "You play alone against two."),
    Theme.GEGENSPIEL: Text("Du spielst mit deinem Partner gegen den Alleinspieler.", "You and your partner defend."),
}


class Reject(enum.Enum):
    """Why a decision is no puzzle."""

    ONE_CARD = "one-card"
    """Only one legal card, or only equivalent ones: nothing to decide."""
    NO_DIFFERENCE = "no-difference"
    """Every legal card keeps the result (and, in suit and Grand games, the same Augen)."""
    SEVERAL = "several"
    """More than one card (not equivalent to each other) keeps the result."""
    BUDGET = "budget"
    """The solver needed more than its node budget."""
    SMALL = "small"
    """Every card keeps the result, and the card with the most Augen saves fewer than AUGEN_MARGIN."""


@dataclass(frozen=True, slots=True)
class Spot:
    """One decision of a game, by its record: play ``plays`` from the start, then it is the mover's turn."""

    deal: Deal
    declarer: int
    game: GameType
    discard: tuple[Card, ...]
    plays: tuple[Card, ...]

    def state(self) -> GameState:
        """The game at the decision, rebuilt by the engine."""
        contract = Contract(self.game, hand=not self.discard)
        state = GameState.start(
            self.deal, declarer=self.declarer, bid=18, contract=contract, discard=self.discard or None
        )
        for card in self.plays:
            state.play(card)
        return state

    @property
    def key(self) -> str:
        """A stable id: the same record always gives the same id."""
        text = "|".join(
            [
                " ".join(" ".join(c.code for c in part) for part in self.deal),
                str(self.declarer),
                self.game.value,
                " ".join(c.code for c in self.discard),
                " ".join(c.code for c in self.plays),
            ]
        )
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def as_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal.codes(),
            "declarer": self.declarer,
            "game": self.game.value,
            "discard": [c.code for c in self.discard],
            "plays": [c.code for c in self.plays],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Spot:
        return cls(
            Deal.from_codes(data["deal"]),
            int(data["declarer"]),
            GameType(data["game"]),
            tuple(parse_cards(list(data["discard"]))),
            tuple(parse_cards(list(data["plays"]))),
        )


def result(game: GameType, value: int | bool) -> int:
    """The result class of a solver value, higher is better for the declarer.

    Suit and Grand games: 0 (at most 30 Augen, Schneider lost), 1 (31-60, lost), 2 (61-89,
    won), 3 (90 or more, won Schneider). Null: 1 won, 0 lost.
    """
    if game.is_null:
        return 1 if value else 0
    points = int(value)
    if points < OUT_OF_SCHNEIDER:
        return 0
    if points <= SPLIT_POINTS:
        return 1
    if points < SCHNEIDER_POINTS:
        return 2
    return 3


def result_text(game: GameType, value: int | bool) -> Text:
    """The result of a solver value in words (from the declarer's side)."""
    if game.is_null and value:
        return Text("der Alleinspieler bleibt ohne Stich: gewonnen", "the declarer takes no trick: won")
    if game.is_null:
        return Text("der Alleinspieler muss einen Stich nehmen: verloren", "the declarer must take a trick: lost")
    points = int(value)
    level = result(game, points)
    de = ("verloren, Schneider", "verloren", "gewonnen", "gewonnen, Schneider")[level]
    en = ("lost, Schneider", "lost", "won", "won, Schneider")[level]
    return Text(f"Alleinspieler {points} Augen: {de}", f"declarer {points} card points: {en}")


def _rules_of(game: GameType, values: Iterable[int]) -> tuple[str, ...]:
    if game.is_null:
        return ("4.2.7",)
    levels = {result(game, v) for v in values}
    return ("4.2.2", "4.2.3") if levels & {0, 3} else ("4.2.2",)


def equivalent(state: GameState, a: Card, b: Card) -> bool:
    """Do ``a`` and ``b`` of the mover's hand do the same in every continuation?

    Same group (to be followed), same Augen, and no card between them still in another
    hand or on the table (the solver's quasi-symmetry).
    """
    if a == b:
        return True
    assert state.contract is not None
    tables = tables_for(state.contract.game)
    ia, ib = tables.to_solver[a.index], tables.to_solver[b.index]
    if tables.klass[ia] != tables.klass[ib]:
        return False
    seat = state.to_move
    assert seat is not None
    live = (state.hands[0] | state.hands[1] | state.hands[2]) & ~state.hands[seat]
    for c in state.trick:
        live |= c.bit
    low, high = sorted((ia, ib))
    return not any(live >> tables.to_card[i] & 1 for i in range(low + 1, high))


def _classes(state: GameState, cards: Iterable[Card]) -> list[list[Card]]:
    """The cards grouped into sets of equivalent cards."""
    groups: list[list[Card]] = []
    for card in sorted(cards):
        for group in groups:
            if equivalent(state, group[0], card):
                group.append(card)
                break
        else:
            groups.append([card])
    return groups


def _solve(state: GameState, hands: Sequence[int], skat: int, max_nodes: int | None) -> Solution:
    assert state.contract is not None and state.declarer is not None
    return solve(
        state.contract.game,
        state.declarer,
        [CardSet(h) for h in hands],
        leader=state.leader,
        trick=state.trick,
        skat=CardSet(skat),
        points=state.declarer_trick_points,
        max_nodes=max_nodes,
    )


class Goal(enum.Enum):
    """What the answer keeps."""

    RESULT = "ergebnis"
    """Won or lost, and the Schneider level (see :func:`result`)."""
    AUGEN = "augen"
    """The most Augen for the mover's side: every other card gives away at least :data:`AUGEN_MARGIN`."""


AUGEN_MARGIN = 10


def _keepers(state: GameState, solution: Solution, goal: Goal = Goal.RESULT) -> tuple[set[Card], int]:
    """The cards that keep the best result (or the most Augen) for the mover's side, and that measure."""
    assert state.contract is not None
    game = state.contract.game
    if goal is Goal.RESULT:
        levels = {c: result(game, v) for c, v in solution.card_values.items()}
    else:
        levels = {c: int(v) for c, v in solution.card_values.items()}
    pick = max if state.to_move == state.declarer else min
    best = pick(levels.values())
    return {c for c, lv in levels.items() if lv == best}, best


def _augen_clear(state: GameState, solution: Solution, answer: Sequence[Card]) -> bool:
    """Does every card but the answer give away at least AUGEN_MARGIN Augen?"""
    mine = state.to_move == state.declarer
    best = int(solution.card_values[answer[0]])
    for card, v in solution.card_values.items():
        if card not in answer and (best - int(v) if mine else int(v) - best) < AUGEN_MARGIN:
            return False
    return True


def consistent_hands(state: GameState, rng: random.Random) -> tuple[list[int], int] | None:
    """A random deal of the cards the mover cannot see that fits everything the mover saw.

    Returns the three hands and the skat (masks), or None when no fitting deal was found.
    Seen: the own hand, the cards played, the skat when the mover is the declarer who
    picked it up; a seat that did not follow a group holds none of it. The bots' sampler
    (:func:`.bots.sample_deal`, without inference from the bidding) with 50 shuffles.
    """
    seat = state.to_move
    assert seat is not None and state.contract is not None
    return sample_deal(SeatView.of(state, seat), rng, tries=50)


@dataclass(frozen=True)
class Graded:
    """Which legal cards of the player to move are right at a decision (a teacher's stop in a study).

    Graded as a puzzle's answer is found (:func:`examine`), but for any decision, not only one
    with a single answer: ``right`` are the cards that keep the best :func:`result` of the mover's
    side; when every legal card keeps it in a suit or Grand game, the cards that keep the most
    Augen for the mover's side (``goal`` :attr:`Goal.AUGEN`). ``values``: the solver's value after
    each legal card (the declarer's Augen with the skat, or in Null whether he stays without a trick).
    """

    right: tuple[Card, ...]
    values: dict[Card, int | bool]
    goal: Goal


def grade(state: GameState, *, max_nodes: int | None = None) -> Graded:
    """Grade every legal card of the mover at ``state`` with all cards open (see :class:`Graded`).
    Raises :class:`~.solver.SearchAborted` when the search needs more than ``max_nodes``."""
    if state.contract is None or state.to_move is None or state.is_over():
        raise SkatError("An dieser Stelle ist keine Karte zu spielen", "No card is to be played here")
    solution = _solve(state, state.hands, state.skat, max_nodes)
    goal = Goal.RESULT
    keep, _ = _keepers(state, solution)
    if len(keep) == len(solution.card_values) and not state.contract.game.is_null:
        goal = Goal.AUGEN
        keep, _ = _keepers(state, solution, goal)
    return Graded(tuple(sorted(keep)), dict(solution.card_values), goal)


def spot_of(state: GameState) -> Spot:
    """The record of a game in its play phase (deal, declarer, game, discard, every card played)."""
    if state.contract is None or state.declarer is None:
        raise SkatError("Das Spiel hat keine Ansage", "The game has no declaration")
    return Spot(state.deal, state.declarer, state.contract.game, tuple(_discard_of(state)), tuple(_plays_of(state)))


@dataclass(frozen=True)
class Puzzle:
    """A decision with one proven answer (see the module text)."""

    spot: Spot
    answer: tuple[Card, ...]
    """The card that keeps the result, with the cards equivalent to it."""
    values: dict[Card, int | bool]
    """The solver's value after each legal card (Augen of the declarer, or won in Null)."""
    line: tuple[Card, ...]
    """The rest of the game with best play after the answer."""
    view: View
    samples: int
    """Deals sampled for the player's view (0 when shown open)."""
    sample_seed: int
    themes: tuple[Theme, ...]
    rating: int
    source: str = "bots"
    goal: Goal = Goal.RESULT

    @property
    def id(self) -> str:
        return self.spot.key

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            **self.spot.as_dict(),
            "answer": [c.code for c in self.answer],
            "values": {c.code: v for c, v in sorted(self.values.items())},
            "line": [c.code for c in self.line],
            "view": self.view.value,
            "samples": self.samples,
            "sample_seed": self.sample_seed,
            "themes": [t.value for t in self.themes],
            "rating": self.rating,
            "source": self.source,
            "goal": self.goal.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        spot = Spot.from_dict(data)
        if data.get("id", spot.key) != spot.key:
            raise SkatError("Die Aufgaben-Id passt nicht zur Stellung", "The puzzle id does not fit the position")
        return cls(
            spot,
            tuple(parse_cards(list(data["answer"]))),
            {parse_card(k): v for k, v in data["values"].items()},
            tuple(parse_cards(list(data["line"]))),
            View(data["view"]),
            int(data["samples"]),
            int(data["sample_seed"]),
            tuple(Theme(t) for t in data["themes"]),
            int(data["rating"]),
            str(data.get("source", "bots")),
            Goal(data.get("goal", Goal.RESULT.value)),
        )


@dataclass(frozen=True)
class Verdict:
    """What :func:`examine` found: a puzzle, or the reason there is none."""

    puzzle: Puzzle | None
    reject: Reject | None = None
    nodes: int = 0
    details: dict[str, int] = field(default_factory=dict)


def _line(state: GameState, max_nodes: int | None) -> list[Card]:
    """Best play to the end from here (each card the first one that keeps the solver's value)."""
    out: list[Card] = []
    state = _copy(state)
    while not state.is_over():
        legal = list(state.legal_cards())
        if len(legal) == 1:
            card = legal[0]
        else:
            solution = _solve(state, state.hands, state.skat, max_nodes)
            card = solution.best_cards()[0]
        out.append(card)
        state.play(card)
    return out


def _copy(state: GameState) -> GameState:
    assert state.contract is not None and state.declarer is not None
    return Spot(
        state.deal,
        state.declarer,
        state.contract.game,
        tuple(_discard_of(state)),
        tuple(_plays_of(state)),
    ).state()


def _plays_of(state: GameState) -> list[Card]:
    return [c for t in state.tricks for c in t.cards] + list(state.trick)


def _discard_of(state: GameState) -> list[Card]:
    if state.contract is None or state.contract.hand:
        return []
    return list(CardSet(state.skat))


def _themes(  # noqa: C901 - over the budget since issue 27; to be split
    state: GameState, answer: Card, values: dict[Card, int | bool], line: Sequence[Card], goal: Goal
) -> list[Theme]:
    assert state.contract is not None and state.declarer is not None and state.to_move is not None
    game = state.contract.game
    seat = state.to_move
    declarer = state.declarer
    mine = seat == declarer
    out: list[Theme] = [Theme.ALLEINSPIEL if mine else Theme.GEGENSPIEL]
    if game.is_null:
        out.append(Theme.NULL_ALLEINSPIEL if mine else Theme.NULL_VERTEIDIGUNG)
    hand = state.hands[seat]
    if hand.bit_count() <= 2:
        out.append(Theme.LETZTES_STICHPAAR)
    trick = list(state.trick)
    is_trump = bool(game.trump_mask & answer.bit)
    if not trick:
        if mine and is_trump and not game.is_null:
            out.append(Theme.TRUMPF_ZIEHEN)
        if not mine and (seat + 1) % 3 == declarer:
            out.append(Theme.DURCH_DIE_HAND)
    else:
        follow = game.follow_mask[trick[0].index]
        can_follow = bool(hand & follow)
        top = trick[0]
        top_pos = 0
        for k, c in enumerate(trick[1:], 1):
            if game.beats[c.index * 32 + top.index]:
                top, top_pos = c, k
        top_seat = (state.leader + top_pos) % 3
        beats = game.beats[answer.index * 32 + top.index]
        partner_on_top = (top_seat == declarer) == mine and top_seat != seat
        if not can_follow and not is_trump:
            out.append(Theme.ABWERFEN)
        if beats and not game.is_null and ((not can_follow and is_trump) or partner_on_top):
            out.append(Theme.STECHEN)
        # who takes this trick in the solution line
        full = trick + [answer] + list(line[: 2 - len(trick)])
        if len(full) == 3 and not mine and not game.is_null:
            winner = (state.leader + _winner(game, full)) % 3
            if winner != declarer and winner != seat and answer.points >= 10:
                out.append(Theme.SCHMIEREN)
    if goal is Goal.AUGEN:
        out.append(Theme.AUGEN)
    elif not game.is_null:
        best = result(game, values[answer])
        others = [result(game, v) for c, v in values.items() if result(game, v) != best]
        if others:
            # the result one step from the answer's: the declarer's best is the highest, so the
            # nearest other is the highest below it; a defender's best is the lowest
            nearest = max(others) if mine else min(others)
            theme = _schneider_theme(mine, best, nearest)
            if theme is not None:
                out.append(theme)
    return out


def _schneider_theme(mine: bool, best: int, nearest: int) -> Theme | None:
    """The Schneider theme of an answer whose result class is ``best`` where the nearest other card gives ``nearest``.

    Classes of :func:`result`: 0 declarer Schneider, 1 declarer lost, 2 won, 3 won Schneider. Who
    keeps his own side out of Schneider *rettet* it (the declarer at 31 or more, the defenders at
    89 or less for the declarer); who keeps the other side in it *spielt* it.
    """
    if {best, nearest} == {0, 1}:
        if mine and best == 1:
            return Theme.SCHNEIDER_RETTEN
        if not mine and best == 0:
            return Theme.SCHNEIDER_SPIELEN
    if {best, nearest} == {2, 3}:
        if not mine and best == 2:
            return Theme.SCHNEIDER_RETTEN
        if mine and best == 3:
            return Theme.SCHNEIDER_SPIELEN
    return None


def _winner(game: GameType, cards: Sequence[Card]) -> int:
    top = 0
    for k in (1, 2):
        if game.beats[cards[k].index * 32 + cards[top].index]:
            top = k
    return top


def _rating(state: GameState, classes: int, view: View) -> int:
    """A first guess of the difficulty: more choices, more tricks to see, the player's view."""
    cards_left = max(state.hands[s].bit_count() for s in range(3))
    return 1200 + 60 * (classes - 2) + 50 * cards_left + (100 if view is View.PLAYER else 0)


def examine(  # noqa: C901 - over the budget since issue 27; to be split
    spot: Spot,
    *,
    samples: int = 20,
    sample_seed: int = 0,
    max_nodes: int | None = 2_000_000,
    source: str = "bots",
) -> Verdict:
    """Is this decision a puzzle? (See the module text.)"""
    state = spot.state()
    if state.contract is None or state.to_move is None or state.is_over():
        raise SkatError("An dieser Stelle ist keine Karte zu spielen", "No card is to be played here")
    game = state.contract.game
    legal = list(state.legal_cards())
    classes = _classes(state, legal)
    if len(classes) < 2:
        return Verdict(None, Reject.ONE_CARD)
    try:
        solution = _solve(state, state.hands, state.skat, max_nodes)
    except SearchAborted:
        return Verdict(None, Reject.BUDGET)
    goal = Goal.RESULT
    keep, best = _keepers(state, solution)
    if len(keep) == len(legal):
        if game.is_null:
            return Verdict(None, Reject.NO_DIFFERENCE, solution.nodes)
        goal = Goal.AUGEN
        keep, best = _keepers(state, solution, goal)
        if len(keep) == len(legal):
            return Verdict(None, Reject.NO_DIFFERENCE, solution.nodes)
    kept = [group for group in classes if group[0] in keep]
    if len(kept) != 1:
        return Verdict(None, Reject.SEVERAL, solution.nodes)
    answer = tuple(kept[0])
    if goal is Goal.AUGEN and not _augen_clear(state, solution, answer):
        return Verdict(None, Reject.SMALL, solution.nodes)
    view = View.OPEN
    count = 0
    if samples:
        rng = random.Random(sample_seed)
        holds = True
        failed = {group[0]: False for group in classes if group[0] not in answer}
        for _ in range(samples):
            dealt = consistent_hands(state, rng)
            if dealt is None:
                holds = False
                break
            hands, skat = dealt
            try:
                sample = _solve(state, hands, skat, max_nodes)
            except SearchAborted:
                holds = False
                break
            keep_here, _ = _keepers(state, sample, goal)
            if answer[0] not in keep_here:
                holds = False
                break
            count += 1
            for card in failed:
                if card not in keep_here:
                    failed[card] = True
        if holds and all(failed.values()):
            view = View.PLAYER
    after = _copy(state)
    after.play(answer[0])
    line = tuple(_line(after, max_nodes))
    themes = tuple(_themes(state, answer[0], dict(solution.card_values), line, goal))
    puzzle = Puzzle(
        spot,
        answer,
        dict(solution.card_values),
        line,
        view,
        count if view is View.PLAYER else 0,
        sample_seed,
        themes,
        _rating(state, len(classes), view),
        source,
        goal,
    )
    return Verdict(puzzle, None, solution.nodes)


def retag(puzzle: Puzzle) -> Puzzle:
    """The puzzle with its themes derived afresh from its stored position, answer, values and line.

    The themes follow from the record alone (no search): ``make_puzzles --retag`` rewrites the
    shipped file with this after a change to the theme rules, and ``load_content`` carries it
    into the database.
    """
    state = puzzle.spot.state()
    themes = tuple(_themes(state, puzzle.answer[0], dict(puzzle.values), puzzle.line, puzzle.goal))
    return replace(puzzle, themes=themes)


def check_unique(puzzle: Puzzle) -> bool:
    """Does the solver prove the stored answer, and only it, for the stored position?"""
    verdict = examine(puzzle.spot, samples=0, max_nodes=None)
    return verdict.puzzle is not None and set(verdict.puzzle.answer) == set(puzzle.answer)


def spots_of(  # noqa: PLR0913 - over the budget since issue 27; to be split
    deal: Deal, declarer: int, game: GameType, discard: Sequence[Card], plays: Sequence[Card], *, last_tricks: int = 5
) -> Iterator[Spot]:
    """Every decision of a played game within its last ``last_tricks`` tricks."""
    first = (10 - last_tricks) * 3
    for n in range(first, len(plays)):
        yield Spot(deal, declarer, game, tuple(discard), tuple(plays[:n]))


def explain(puzzle: Puzzle) -> tuple[Step, ...]:
    """Why the answer is right: its result, the line of play, and what every other card gives."""
    state = puzzle.spot.state()
    assert state.contract is not None and state.declarer is not None and state.to_move is not None
    game = state.contract.game
    steps: list[Step] = []
    legal = state.legal_cards()
    hand = CardSet(state.hands[state.to_move])
    if len(legal) < len(hand):
        steps.append(
            Step(
                f"Erlaubt sind nur {cards_ref(legal)}: es muss bedient werden",
                f"Only {cards_ref(legal)} may be played: you must follow",
                ("3.2.1",),
            )
        )
    answer = puzzle.answer[0]
    value = puzzle.values[answer]
    same = f" (ebenso {cards_ref(puzzle.answer[1:])})" if len(puzzle.answer) > 1 else ""
    same_en = f" (so does {cards_ref(puzzle.answer[1:])})" if len(puzzle.answer) > 1 else ""
    text = result_text(game, value)
    augen = puzzle.goal is Goal.AUGEN
    mine = state.to_move == state.declarer

    def own(v: int | bool) -> int:
        """The Augen of the mover's side after a card with the solver's value ``v``."""
        return int(v) if mine else TOTAL_POINTS - int(v)

    if augen:
        # every card keeps the result: the point is the Augen, so say how many
        steps.append(
            Step(
                f"{card_ref(answer)}{same} bringt deiner Partei bei bestem Spiel beider Seiten die meisten "
                f"Augen: {own(value)} (Ergebnis: {text.de})",
                f"{card_ref(answer)}{same_en} gets your side the most card points with best play by both "
                f"sides: {own(value)} (result: {text.en})",
                _rules_of(game, [value]),
            )
        )
    else:
        steps.append(
            Step(
                f"{card_ref(answer)}{same} hält das Ergebnis bei bestem Spiel beider Seiten: {text.de}",
                f"{card_ref(answer)}{same_en} keeps the result with best play by both sides: {text.en}",
                _rules_of(game, [value] if not isinstance(value, bool) else []),
            )
        )
    if puzzle.line:
        tricks_de: list[str] = []
        cards = [answer, *puzzle.line]
        start = len(state.trick)
        chunk = 3 - start
        parts = [cards[:chunk]] + [cards[i : i + 3] for i in range(chunk, len(cards), 3)]
        for part in parts:
            tricks_de.append(" ".join(f"⟦card:{c.code}⟧" for c in part))
        steps.append(
            Step(
                "Der weitere Verlauf: " + " | ".join(tricks_de),
                "The play that follows: " + " | ".join(tricks_de),
                ("3.4.2",),
            )
        )
    by_value: dict[int | bool, list[Card]] = {}
    for card, v in puzzle.values.items():
        if card not in puzzle.answer:
            by_value.setdefault(v, []).append(card)
    for v, cards_failing in sorted(by_value.items(), key=lambda kv: int(kv[0])):
        text = result_text(game, v)
        named = cards_ref(sorted(cards_failing))
        if augen:
            fewer = own(value) - own(v)
            de = f"Mit {named}: deine Partei {own(v)} Augen, {fewer} weniger, bei demselben Ergebnis ({text.de})"
            en = f"With {named}: your side {own(v)} card points, {fewer} fewer, with the same result ({text.en})"
        else:
            de, en = f"Mit {named}: {text.de}", f"With {named}: {text.en}"
        steps.append(Step(de, en, _rules_of(game, [v] if not isinstance(v, bool) else [])))
    return tuple(steps)


def describe(puzzle: Puzzle, lang: str = "de") -> str:
    """The task in one sentence: who plays which game, and what to find."""
    state = puzzle.spot.state()
    assert state.contract is not None and state.declarer is not None and state.to_move is not None
    game = state.contract.game
    mover = state.to_move
    role_de = "Alleinspieler" if mover == state.declarer else "Gegenspieler"
    role_en = "the declarer" if mover == state.declarer else "a defender"
    augen = puzzle.goal is Goal.AUGEN
    if lang_of(lang) != "en":
        goal = (
            "Welche Karte bringt deiner Partei die meisten Augen?"
            if augen
            else "Welche Karte hält das beste Ergebnis für deine Partei?"
        )
        return (
            f"{game_ref(game)}, Alleinspieler ist {SEATS[state.declarer].text.de}. Du sitzt in "
            f"{SEATS[mover].text.de} und bist {role_de}. {goal}"
        )
    goal = (
        "Which card gets your side the most card points?"
        if augen
        else "Which card keeps the best result for your side?"
    )
    # not the game first: the English names of the suit games are lower case ("bells")
    return (
        f"The declarer is {SEATS[state.declarer].text.en}, playing {game_ref(game)}. You sit in "
        f"{SEATS[mover].text.en} and are {role_en}. {goal}"
    )


def augen_so_far(state: GameState) -> tuple[int, int]:
    """Augen in the tricks taken so far: the declarer's, the defenders'."""
    played = 0
    for t in state.tricks:
        for c in t.cards:
            played |= c.bit
    declarer = state.declarer_trick_points
    return declarer, mask_points(played) - declarer


def from_bot_game(
    seed: int, *, samples: int = 20, last_tricks: int = 7, null: bool = False
) -> tuple[list[Puzzle], dict[str, int]]:
    """Play one seeded deal bot against bot (every seat the PIMC bot) and examine its last decisions.

    The bots' rule never declares Null; with ``null`` the declarer plays a Null game instead and
    puts away his two highest cards in the Null order. Returns the puzzles found and how many
    decisions were rejected, by reason (and how many puzzles are shown open or from the
    player's view).
    """
    rng = random.Random(f"puzzle-game:{seed}" + (":null" if null else ""))
    deal = deal_cards(rng=rng)
    declarer = seed % 3
    twelve = list(deal.hand(declarer)) + list(deal.skat)
    if null:
        contract = Contract(GameType.NULL)
        order = tables_for(GameType.NULL).to_solver
        high = sorted(twelve, key=lambda c: order[c.index] % 8)
        discard: tuple[Card, Card] = (high[0], high[1])
    else:
        contract = choose_contract(twelve)
        discard = choose_discard(twelve, contract.game)
    state = GameState.start(deal, declarer=declarer, bid=18, contract=contract, discard=discard)
    while not state.is_over():
        # early on the bot's searches run out of budget and it plays by its rule: a small budget
        # decides as well, and faster; no time cap, so the same seed gives the same game anywhere
        budget = 5_000 if state.trick_count < 3 else 20_000
        state.play(choose_card(state, rng=rng, samples=6, time_cap=None, max_nodes=budget).card)
    plays = [c for t in state.tricks for c in t.cards]
    spots = spots_of(deal, declarer, contract.game, discard, plays, last_tricks=last_tricks)
    return _tally(examine(spot, samples=samples, sample_seed=seed) for spot in spots)


def strong_game(seed: int) -> GameState:
    """One seeded deal played from the auction to the last trick, every seat the strongest bot.

    Bidding, the skat and the declaration follow :func:`.bots.bot_move` at
    :attr:`.bots.BotLevel.STRONG`; every card is the strong level's choice without its time
    cap, so the same seed gives the same game on any machine. The game may end in the auction
    (all passed): then it has no contract.
    """
    rng = random.Random(f"puzzle-strong:{seed}")
    state = GameState(deal_cards(rng=rng))
    config = replace(BotLevel.STRONG.config, time_cap=None)
    while not state.is_over():
        if state.phase is Phase.PLAY:
            state.push(Play(choose_card(state, config=config, rng=rng).card))
        else:
            state.push(bot_move(state, level=BotLevel.STRONG, rng=rng))
    return state


def from_strong_game(seed: int, *, samples: int = 20, last_tricks: int = 7) -> tuple[list[Puzzle], dict[str, int]]:
    """The puzzles in the last decisions of one :func:`strong_game` (every seat), with the counts by reason."""
    return puzzles_of_game(strong_game(seed), samples=samples, sample_seed=seed, last_tricks=last_tricks)


def puzzles_of_game(
    state: GameState, *, samples: int = 20, sample_seed: int = 0, last_tricks: int = 7, source: str = ""
) -> tuple[list[Puzzle], dict[str, int]]:
    """The puzzles in the last decisions of a played game (every seat), with the counts by reason.

    A game passed in counts as ``passed``; an ouvert game as ``ouvert`` (its open hand is
    part of every player's view, which the sampled check does not model).
    """
    if state.contract is None:
        return [], {"passed": 1}
    if state.contract.ouvert:
        return [], {"ouvert": 1}
    return _tally(
        examine(spot, samples=samples, sample_seed=sample_seed, source=source or STRONG_SOURCE)
        for spot in spots_from_state(state, last_tricks=last_tricks)
    )


def _tally(verdicts: Iterable[Verdict]) -> tuple[list[Puzzle], dict[str, int]]:
    """The puzzles among ``verdicts`` and how many verdicts there were by view or reject reason."""
    found: list[Puzzle] = []
    counts: dict[str, int] = {}
    for verdict in verdicts:
        if verdict.puzzle is not None:
            found.append(verdict.puzzle)
            key = verdict.puzzle.view.value
        else:
            assert verdict.reject is not None
            key = verdict.reject.value
        counts[key] = counts.get(key, 0) + 1
    return found, counts


STRONG_SOURCE = "bots-stark"
"""The source of the puzzles from :func:`from_strong_game` (``bots``: the older PIMC games of :func:`from_bot_game`)."""


@dataclass
class Batch:
    """What one generation run found: the puzzles and the counts by reason."""

    puzzles: list[Puzzle] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    games: int = 0

    def add(self, puzzles: Sequence[Puzzle], counts: dict[str, int]) -> None:
        self.games += 1
        seen = {p.id for p in self.puzzles}
        self.puzzles.extend(p for p in puzzles if p.id not in seen)
        for key, n in counts.items():
            self.counts[key] = self.counts.get(key, 0) + n


def generate(first_seed: int, games: int, *, samples: int = 20) -> Batch:
    """Puzzles from ``games`` bot games with the seeds ``first_seed`` ... (deterministic)."""
    batch = Batch()
    for seed in range(first_seed, first_seed + games):
        batch.add(*from_bot_game(seed, samples=samples))
    return batch


# ---------------------------------------------------------------------------- guessing
Guess = Callable[[list[Card], GameType], Card]
"""A fixed way to pick a card without thinking: from the legal cards in the order the page shows them."""


def _kth(k: int) -> Guess:
    return lambda cards, game: cards[min(k, len(cards) - 1)]


def _kth_last(k: int) -> Guess:
    return lambda cards, game: cards[max(len(cards) - 1 - k, 0)]


GUESSES: dict[str, Guess] = {
    **{f"position {k + 1}": _kth(k) for k in range(4)},
    **{f"position {k + 1} from the right": _kth_last(k) for k in range(4)},
    "dearest": lambda cards, game: max(cards, key=lambda c: (c.points, -cards.index(c))),
    "cheapest": lambda cards, game: min(cards, key=lambda c: (c.points, cards.index(c))),
    "a trump first": lambda cards, game: next((c for c in cards if game.trump_mask & c.bit), cards[0]),
    "never a trump": lambda cards, game: next((c for c in cards if not game.trump_mask & c.bit), cards[-1]),
}
"""The guessing strategies of the guessing test (tests/puzzles/test_guessing.py)."""

BALANCE_MARGIN = 0.07
"""A new puzzle joins the shipped set only while no guess beats chance by more than this
(the guessing test allows 0.10)."""


def legal_in_page_order(puzzle: Puzzle) -> list[Card]:
    """The legal cards of the mover as the page shows the hand (sorted as players hold it)."""
    state = puzzle.spot.state()
    assert state.contract is not None and state.to_move is not None
    legal = state.legal_cards()
    return [c for c in sort_hand(state.hand(state.to_move), state.contract.game) if c in legal]


def _guess_row(puzzle: Puzzle) -> tuple[float, list[bool]]:
    cards = legal_in_page_order(puzzle)
    return len(puzzle.answer) / len(cards), [g(cards, puzzle.spot.game) in puzzle.answer for g in GUESSES.values()]


def balanced(kept: Sequence[Puzzle], candidates: Iterable[Puzzle]) -> tuple[list[Puzzle], int]:
    """Add the candidates (in id order) to ``kept`` while no guess beats chance by BALANCE_MARGIN.

    Puzzles already kept (published) always stay. Returns the new list and how many were left out.
    """
    out = list(kept)
    rows = [_guess_row(p) for p in out]
    chance = sum(r[0] for r in rows)
    hits = [sum(r[1][i] for r in rows) for i in range(len(GUESSES))]
    left_out = 0
    known = {p.id for p in out}
    for puzzle in sorted(candidates, key=lambda p: p.id):
        if puzzle.id in known:
            continue
        share, right = _guess_row(puzzle)
        n = len(out) + 1
        # the excess of right guesses over chance may grow by BALANCE_MARGIN a puzzle (plus a start of 2)
        if all(hits[i] + right[i] - chance - share <= BALANCE_MARGIN * n + 2 for i in range(len(GUESSES))):
            out.append(puzzle)
            known.add(puzzle.id)
            chance += share
            hits = [h + r for h, r in zip(hits, right, strict=True)]
        else:
            left_out += 1
    return out, left_out


# ---------------------------------------------------------------------------- from a played game
def spots_from_state(state: GameState, *, seat: int | None = None, last_tricks: int = 7) -> list[Spot]:
    """The decisions of a played game (of ``seat`` only, if given) within its last ``last_tricks`` tricks."""
    if state.contract is None or state.declarer is None:
        return []
    discard = tuple(_discard_of(state))
    plays = _plays_of(state)
    first = (10 - last_tricks) * 3
    out: list[Spot] = []
    probe = Spot(state.deal, state.declarer, state.contract.game, discard, ()).state()
    for n, card in enumerate(plays):
        if n >= first and (seat is None or probe.to_move == seat):
            out.append(Spot(state.deal, state.declarer, state.contract.game, discard, tuple(plays[:n])))
        probe.play(card)
    return out


@dataclass(frozen=True)
class Mistake:
    """A decision where the player's card gave away what the puzzle's answer keeps."""

    puzzle: Puzzle
    played: Card


def mistakes(state: GameState, seat: int, *, samples: int = 20, last_tricks: int = 7) -> list[Mistake]:
    """The puzzles in ``seat``'s own decisions that ``seat`` got wrong ("Aus meinen Fehlern")."""
    plays = _plays_of(state)
    out: list[Mistake] = []
    for spot in spots_from_state(state, seat=seat, last_tricks=last_tricks):
        verdict = examine(spot, samples=samples, sample_seed=len(spot.plays), source="own")
        played = plays[len(spot.plays)]
        if verdict.puzzle is not None and played not in verdict.puzzle.answer:
            out.append(Mistake(verdict.puzzle, played))
    return out
