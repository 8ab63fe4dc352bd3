"""The referee's calculator: does a claim hold, whatever the other side plays? (ISkO 3.3.4, 3.3.5)

When the declarer lays his cards down with a claim ("the rest is mine", "Schneider"), or a
defender plays open ("all ours"), the referee must say whether the claim was sure. The reading
used here, with every card open as the referee sees them afterwards:

* the **claiming side** chooses its cards as it likes (it plays its best): in 3.3.4 the declarer
  plays on himself with his cards open, and the "Spielführung" of 3.3.5 is the conduct of the
  game by the other side;
* the claim holds only if it is met **against every legal play of the other side**; if it is not,
  :func:`check_claim` gives a refuting line, every card to the end of the game, after which the
  claim is broken however the claiming side played along it.

>>> from skatschule.engine import CardSet, GameType
>>> position = ClaimPosition(
...     GameType.GRAND,
...     0,
...     (CardSet("CA CT S7 H7 H8 D7"), CardSet("SA ST SK DA DT DK"), CardSet("HA HT HK HQ CK DQ")),
...     leader=0,
...     tally=Tally(14, 0, 4, 0),
... )
>>> verdict = check_claim(position, Claim(Side.DEFENDERS, Goal.REST))
>>> verdict.holds, verdict.line[0].code  # forehand leads the ace of clubs at once
(False, 'CA')
>>> verdict.end.declarer_tricks > 4
True

Claims on Augen (61, 90, 31) and on every trick for the declarer are asked of the open-hand
solver (:mod:`.solver`); claims that the defenders take every remaining trick (or that the
declarer gets one) are searched here, on tricks only, with equal cards merged.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .cards import DECK, Card, CardSet, mask_points, parse_card
from .errors import SkatError
from .game import GameState, Phase
from .games import (
    OUT_OF_SCHNEIDER,
    SCHNEIDER_POINTS,
    SPLIT_POINTS,
    TOTAL_POINTS,
    WIN_POINTS,
    GameType,
    augen_to_stop,
    legal_cards,
    trick_winner,
)
from .seats import SEATS
from .solver import SearchAborted, solve
from .text import Text

__all__ = [
    "ClaimError",
    "Side",
    "Goal",
    "Claim",
    "Tally",
    "ClaimPosition",
    "ClaimVerdict",
    "LineTrick",
    "check_claim",
    "goals_for",
    "SearchAborted",
]

TOTAL_AUGEN = TOTAL_POINTS


class ClaimError(SkatError):
    """An impossible position, or a claim that does not fit the game."""


class Side(enum.Enum):
    """The party that claims."""

    DECLARER = "declarer"
    DEFENDERS = "defenders"


class Goal(enum.Enum):
    """What the claiming side says it reaches by the end of the game."""

    REST = "rest"
    """every remaining trick"""
    WIN = "win"
    """the game: 61 Augen for the declarer, 60 for the defenders; in Null the declarer's trickless
    game (declarer) or a trick for him (defenders)"""
    SCHNEIDER = "schneider"
    """90 Augen or more"""
    OUT_OF_SCHNEIDER = "31"
    """31 Augen or more (out of Schneider)"""
    SCHWARZ = "schwarz"
    """every trick of the game"""
    TRICK = "trick"
    """at least one more trick"""


_GOALS = (Goal.REST, Goal.WIN, Goal.SCHNEIDER, Goal.OUT_OF_SCHNEIDER, Goal.SCHWARZ, Goal.TRICK)


def augen_goal(goal: Goal, side: Side) -> int:
    """The Augen ``side`` must reach for an Augen ``goal``: the game is 61 for the declarer and
    60 for the defenders, Schneider 90, out of Schneider 31 (the engine's numbers, 4.2)."""
    if goal is Goal.WIN:
        return WIN_POINTS if side is Side.DECLARER else SPLIT_POINTS
    return {Goal.SCHNEIDER: SCHNEIDER_POINTS, Goal.OUT_OF_SCHNEIDER: OUT_OF_SCHNEIDER}[goal]


def goals_for(game: GameType) -> tuple[Goal, ...]:
    """The goals a claim may name in ``game``: in Null only the game itself."""
    return (Goal.WIN,) if game.is_null else _GOALS


@dataclass(frozen=True)
class Tally:
    """The Augen (the declarer's with the skat) and tricks each side has taken so far."""

    declarer_augen: int = 0
    defender_augen: int = 0
    declarer_tricks: int = 0
    defender_tricks: int = 0

    def augen(self, side: Side) -> int:
        return self.declarer_augen if side is Side.DECLARER else self.defender_augen

    def tricks(self, side: Side) -> int:
        return self.declarer_tricks if side is Side.DECLARER else self.defender_tricks

    def text(self) -> Text:
        d, f = self.declarer_augen, self.defender_augen
        dt, ft = self.declarer_tricks, self.defender_tricks
        return Text(
            f"Alleinspieler {d} Augen und {dt} {_stiche(dt)}, Gegenpartei {f} Augen und {ft} {_stiche(ft)}",
            f"declarer {d} card points and {dt} {_tricks(dt)}, defenders {f} card points and {ft} {_tricks(ft)}",
        )


def _stiche(n: int) -> str:
    return "Stich" if n == 1 else "Stiche"


def _tricks(n: int) -> str:
    return "trick" if n == 1 else "tricks"


@dataclass(frozen=True)
class Claim:
    """A claim: ``side`` says it reaches ``goal`` by the end of the game."""

    side: Side
    goal: Goal

    @property
    def other(self) -> Side:
        return Side.DEFENDERS if self.side is Side.DECLARER else Side.DECLARER

    def check(self, game: GameType) -> None:
        if self.goal not in goals_for(game):
            raise ClaimError(
                "Im Nullspiel kann nur das Spiel selbst beansprucht werden",
                "In a Null game only the game itself can be claimed",
            )

    def met(self, game: GameType, start: Tally, end: Tally) -> bool:
        """Is the claim met by a game that went from ``start`` to ``end``?"""
        side, other, goal = self.side, self.other, self.goal
        if game.is_null:
            return (end.declarer_tricks == 0) == (side is Side.DECLARER)
        if goal is Goal.REST:
            return end.tricks(other) == start.tricks(other)
        if goal is Goal.TRICK:
            return end.tricks(side) > start.tricks(side)
        if goal is Goal.SCHWARZ:
            return end.tricks(other) == 0
        return end.augen(side) >= augen_goal(goal, side)

    def text(self, game: GameType) -> Text:
        """The claim as a sentence: "Der Alleinspieler macht alle restlichen Stiche"."""
        decl = self.side is Side.DECLARER
        who = Text("Der Alleinspieler", "The declarer") if decl else Text("Die Gegenpartei", "The defenders")
        if game.is_null:
            what = (
                Text("bekommt keinen Stich", "takes no trick")
                if decl
                else Text("bringt dem Alleinspieler einen Stich bei", "makes the declarer take a trick")
            )
        else:
            what = {
                Goal.REST: Text("macht alle restlichen Stiche", "takes every remaining trick"),
                Goal.WIN: Text(
                    f"erreicht {augen_goal(Goal.WIN, self.side)} Augen (gewinnt)",
                    f"reaches {augen_goal(Goal.WIN, self.side)} card points (wins)",
                ),
                Goal.SCHNEIDER: Text(
                    f"erreicht {SCHNEIDER_POINTS} Augen (Schneider)",
                    f"reaches {SCHNEIDER_POINTS} card points (Schneider)",
                ),
                Goal.OUT_OF_SCHNEIDER: Text(
                    f"erreicht {OUT_OF_SCHNEIDER} Augen (aus dem Schneider)",
                    f"reaches {OUT_OF_SCHNEIDER} card points (out of Schneider)",
                ),
                Goal.SCHWARZ: Text("macht alle Stiche des Spiels (Schwarz)", "takes every trick of the game (Schwarz)"),
                Goal.TRICK: Text("macht noch mindestens einen Stich", "takes at least one more trick"),
            }[self.goal]
        return Text(f"{who.de} {what.de}", f"{who.en} {what.en}")


@dataclass(frozen=True)
class ClaimPosition:
    """A position to judge: the cards left in each hand (seats 0 Vorhand, 1 Mittelhand,
    2 Hinterhand, without the cards of ``trick``), the seat that led the current trick (or
    leads the next) and the 0-2 cards it holds, and what each side has taken so far.

    The constructor refuses an impossible position with :class:`ClaimError`: a card twice,
    hands that do not fit the trick, tricks or Augen that do not fit the cards gone (the Augen
    are not checked in Null, where they do not count).
    """

    game: GameType
    declarer: int
    hands: tuple[CardSet, CardSet, CardSet]
    leader: int
    trick: tuple[Card, ...] = ()
    tally: Tally = field(default_factory=Tally)

    def __post_init__(self) -> None:
        _check_position(self)

    @classmethod
    def of(cls, state: GameState) -> ClaimPosition:
        """The position of a game in its play phase (a table game, an ISS record, a case)."""
        if state.phase is not Phase.PLAY or state.contract is None or state.declarer is None:
            raise ClaimError("Nur ein laufendes Kartenspiel lässt sich prüfen", "Only a game in play can be judged")
        tally = Tally(
            state.declarer_augen(),
            state.defender_augen(),
            state.declarer_trick_count,
            state.defender_trick_count,
        )
        hands = (CardSet(state.hands[0]), CardSet(state.hands[1]), CardSet(state.hands[2]))
        return cls(state.contract.game, int(state.declarer), hands, state.leader, tuple(state.trick), tally)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    @property
    def is_over(self) -> bool:
        return not any(self.hands)

    @property
    def tricks_left(self) -> int:
        """The tricks still to be completed (the current one included)."""
        return len(self.hands[self.leader]) + (1 if self.trick else 0)

    def side_of(self, seat: int) -> Side:
        return Side.DECLARER if seat == self.declarer else Side.DEFENDERS

    def legal(self) -> CardSet:
        return legal_cards(self.game, self.hands[self.to_move], self.trick)

    def play(self, card: Card) -> ClaimPosition:
        """The position after ``card`` of the seat to move (a :class:`ClaimError` if not legal)."""
        if card not in self.legal():
            raise ClaimError(
                f"{card.code} darf {SEATS[self.to_move].text.de} hier nicht spielen",
                f"{SEATS[self.to_move].text.en.capitalize()} may not play {card.code} here",
            )
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] = hands[seat] - CardSet([card])
        trick = self.trick + (card,)
        if len(trick) < 3:
            return replace(self, hands=(hands[0], hands[1], hands[2]), trick=trick)
        winner = (self.leader + trick_winner(self.game, trick)) % 3
        augen = sum(c.points for c in trick)
        t = self.tally
        if winner == self.declarer:
            tally = replace(t, declarer_augen=t.declarer_augen + augen, declarer_tricks=t.declarer_tricks + 1)
        else:
            tally = replace(t, defender_augen=t.defender_augen + augen, defender_tricks=t.defender_tricks + 1)
        return replace(self, hands=(hands[0], hands[1], hands[2]), leader=winner, trick=(), tally=tally)

    def codes(self) -> dict[str, object]:
        """The position as plain data (for a job's payload and a link)."""
        t = self.tally
        return {
            "game": self.game.value,
            "declarer": self.declarer,
            "hands": [h.codes() for h in self.hands],
            "leader": self.leader,
            "trick": [c.code for c in self.trick],
            "tally": [t.declarer_augen, t.defender_augen, t.declarer_tricks, t.defender_tricks],
        }

    @classmethod
    def from_codes(cls, data: Mapping[str, object]) -> ClaimPosition:
        hands = data["hands"]
        trick = data["trick"]
        tally = data["tally"]
        assert isinstance(hands, list) and isinstance(trick, list) and isinstance(tally, list)
        game = data["game"]
        declarer, leader = data["declarer"], data["leader"]
        assert isinstance(game, str) and isinstance(declarer, int) and isinstance(leader, int)
        return cls(
            GameType(game),
            declarer,
            (_cards(hands[0]), _cards(hands[1]), _cards(hands[2])),
            leader,
            tuple(parse_card(str(c)) for c in trick),
            Tally(*(int(n) for n in tally)),
        )


def _cards(codes: object) -> CardSet:
    assert isinstance(codes, list)
    return CardSet(parse_card(str(c)) for c in codes)


def _check_position(p: ClaimPosition) -> None:
    if p.declarer not in (0, 1, 2) or p.leader not in (0, 1, 2):
        raise ClaimError(
            "Plätze sind Vorhand, Mittelhand und Hinterhand", "Seats are forehand, middlehand and rearhand"
        )
    if len(p.trick) > 2:
        raise ClaimError(
            "Im laufenden Stich liegen höchstens zwei Karten", "At most two cards lie in the current trick"
        )
    seen = 0
    for part in (*p.hands, CardSet(p.trick)):
        if seen & part.mask:
            twice = CardSet(seen & part.mask).codes()
            raise ClaimError(
                f"Doppelt angegeben: {' '.join(twice)}. Jede Karte gibt es nur einmal.",
                f"Listed twice: {' '.join(twice)}. Each card exists only once.",
            )
        seen |= part.mask
    if len(set(p.trick)) != len(p.trick):
        raise ClaimError("Eine Karte liegt doppelt im Stich", "A card lies twice in the trick")
    # a seat that already played to the current trick holds one card fewer
    counts = [len(p.hands[(p.leader + k) % 3]) + (1 if k < len(p.trick) else 0) for k in range(3)]
    if len(set(counts)) != 1:
        held = [len(h) for h in p.hands]
        raise ClaimError(
            "Die Kartenzahlen passen nicht zusammen: Vorhand {}, Mittelhand {}, Hinterhand {} Karten, "
            "im Stich {}. Jeder Platz braucht gleich viele (die schon in den Stich gespielten mitgezählt).".format(
                *held, len(p.trick)
            ),
            "The numbers of cards do not fit: forehand {}, middlehand {}, rearhand {} cards, {} in the trick. "
            "Every seat needs as many (counting those played to the trick).".format(*held, len(p.trick)),
        )
    if len(p.trick) == 2:
        second = (p.leader + 1) % 3
        follow = p.game.follow_mask[p.trick[0].index]
        if not p.trick[1].bit & follow and p.hands[second].mask & follow:
            raise ClaimError(
                f"{SEATS[second].text.de} hat {p.trick[1].code} nicht bedient, obwohl es ging: "
                "Das ist ein Bedienfehler, kein Fall für diese Rechnung.",
                f"{SEATS[second].text.en.capitalize()} did not follow suit with {p.trick[1].code} although "
                "able to: that is a revoke, not a case for this calculation.",
            )
    _check_tally(p, counts[0], seen)


def _check_tally(p: ClaimPosition, held: int, seen: int) -> None:
    """The tricks and Augen taken so far against the cards gone (``held`` cards a seat)."""
    t = p.tally
    if min(t.declarer_augen, t.defender_augen, t.declarer_tricks, t.defender_tricks) < 0:
        raise ClaimError("Augen und Stiche können nicht negativ sein", "Card points and tricks cannot be negative")
    played = 10 - held
    if t.declarer_tricks + t.defender_tricks != played:
        raise ClaimError(
            f"Gespielt sind {played} Stiche (jeder hält noch {held} Karten), eingetragen "
            f"{t.declarer_tricks} + {t.defender_tricks}.",
            f"{played} tricks have been played (everyone still holds {held} cards), entered "
            f"{t.declarer_tricks} + {t.defender_tricks}.",
        )
    if p.game.is_null:
        return
    gone = TOTAL_AUGEN - mask_points(seen)
    if t.declarer_augen + t.defender_augen != gone:
        raise ClaimError(
            f"Die Augen passen nicht zu den Karten: Aus dem Spiel (Stiche und Skat) sind {gone} Augen, "
            f"eingetragen {t.declarer_augen} + {t.defender_augen} = {t.declarer_augen + t.defender_augen}.",
            f"The card points do not fit the cards: {gone} card points are out of play (tricks and skat), "
            f"entered {t.declarer_augen} + {t.defender_augen} = {t.declarer_augen + t.defender_augen}.",
        )
    if t.defender_tricks == 0 and t.defender_augen:
        raise ClaimError(
            "Ohne Stich hat die Gegenpartei keine Augen", "Without a trick the defenders have no card points"
        )
    if t.declarer_tricks == 0 and t.declarer_augen > 22:
        raise ClaimError(
            "Ohne Stich hat der Alleinspieler nur die Augen des Skats, höchstens 22",
            "Without a trick the declarer has only the skat's card points, at most 22",
        )


@dataclass(frozen=True)
class LineTrick:
    """One trick of a line: who led, the cards in play order, who took it; ``shown`` cards at
    its start were already on the table in the position."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None
    shown: int = 0


@dataclass(frozen=True)
class ClaimVerdict:
    """The answer: does ``claim`` hold in ``position``? If not, ``line`` is every card to the end
    of the game in a course that breaks it, and ``end`` the tally after it."""

    position: ClaimPosition
    claim: Claim
    holds: bool
    line: tuple[Card, ...] = ()
    end: Tally | None = None
    best_augen: int | None = None
    """For claims on Augen: the declarer's Augen at the end when both sides play their best."""

    def tricks(self) -> list[LineTrick]:
        """The line trick by trick (the current trick's cards on the table included)."""
        out: list[LineTrick] = []
        p = self.position
        cards = list(p.trick)
        shown = len(cards)
        leader = p.leader
        for card in self.line:
            p = p.play(card)
            cards.append(card)
            if len(cards) == 3:
                out.append(LineTrick(leader, tuple(cards), p.leader, shown))
                cards, shown, leader = [], 0, p.leader
        if cards:
            out.append(LineTrick(leader, tuple(cards), None, shown))
        return out

    def summary(self) -> Text:
        claim = self.claim.text(self.position.game)
        if self.holds:
            return Text(
                f"Die Forderung gilt: {claim.de[0].lower()}{claim.de[1:]}, wie die andere Partei auch spielt.",
                f"The claim holds: {claim.en[0].lower()}{claim.en[1:]}, however the other side plays.",
            )
        assert self.end is not None
        end = self.end.text()
        return Text(
            f"Die Forderung gilt nicht. Mit dem Spielverlauf unten bricht die andere Partei sie; am Ende: {end.de}.",
            f"The claim does not hold. With the line below the other side breaks it; at the end: {end.en}.",
        )

    def to_data(self) -> dict[str, object]:
        """Plain data for a job's result (:meth:`from_data` reads it back)."""
        end = self.end
        return {
            "position": self.position.codes(),
            "side": self.claim.side.value,
            "goal": self.claim.goal.value,
            "holds": self.holds,
            "line": [c.code for c in self.line],
            "end": None
            if end is None
            else [end.declarer_augen, end.defender_augen, end.declarer_tricks, end.defender_tricks],
            "best_augen": self.best_augen,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> ClaimVerdict:
        position = data["position"]
        line = data["line"]
        end = data["end"]
        best = data.get("best_augen")
        assert isinstance(position, Mapping) and isinstance(line, list)
        return cls(
            ClaimPosition.from_codes(position),
            Claim(Side(str(data["side"])), Goal(str(data["goal"]))),
            bool(data["holds"]),
            tuple(parse_card(c) for c in line),
            None if not isinstance(end, list) else Tally(*(int(n) for n in end)),
            best if isinstance(best, int) else None,
        )


# --------------------------------------------------------------------------- the search


class _Query:
    """One yes/no question about a position: does the claim still hold from here? With the
    value of each legal card of the player to move (does it still hold after that card?)."""

    def __init__(self, claim: Claim, start: Tally, max_nodes: int | None) -> None:
        self.claim = claim
        self.start = start
        self.max_nodes = max_nodes

    def holds(self, p: ClaimPosition) -> bool:
        raise NotImplementedError  # pragma: no cover

    def values(self, p: ClaimPosition) -> dict[Card, bool]:
        return {card: self.holds(p.play(card)) for card in p.legal()}


class _SolverQuery(_Query):
    """Asked of the open-hand solver: Augen thresholds, every trick for the declarer, Null.
    The solver answers for the declarer; ``negate`` when the claim is the defenders'."""

    def __init__(self, claim: Claim, start: Tally, max_nodes: int | None, *, target: int | None, negate: bool) -> None:
        super().__init__(claim, start, max_nodes)
        self.target = target
        self.negate = negate

    def _solve(self, p: ClaimPosition, card_values: bool) -> tuple[bool, dict[Card, bool]]:
        options: dict[str, object] = {}
        if self.target is not None:
            options["target"] = self.target
        elif not p.game.is_null:
            options["all_tricks"] = True
        solution = solve(
            p.game,
            p.declarer,
            p.hands,
            leader=p.leader,
            trick=p.trick,
            points=p.tally.declarer_augen,
            card_values=card_values,
            max_nodes=self.max_nodes,
            **options,  # type: ignore[arg-type]
        )
        values = {card: bool(v) != self.negate for card, v in solution.card_values.items()}
        return solution.declarer_wins != self.negate, values

    def holds(self, p: ClaimPosition) -> bool:
        if p.is_over:
            return self.claim.met(p.game, self.start, p.tally)
        if _broken(p, self.claim, self.start):
            return False
        return self._solve(p, False)[0]

    def values(self, p: ClaimPosition) -> dict[Card, bool]:
        return self._solve(p, True)[1]


class _SweepQuery(_Query):
    """Can the defenders make sure of every remaining trick? (``negate``: the declarer's claim to
    one more trick.) Searched on tricks only: two cards of one hand and one suit (or of the trumps)
    with no card of another hand or of the table between them are the same card here."""

    def __init__(self, claim: Claim, start: Tally, max_nodes: int | None, *, negate: bool) -> None:
        super().__init__(claim, start, max_nodes)
        self.negate = negate
        self.memo: dict[tuple[int, int, int, int], bool] = {}
        self.nodes = 0

    def holds(self, p: ClaimPosition) -> bool:
        if p.is_over:
            return self.claim.met(p.game, self.start, p.tally)
        if p.tally.declarer_tricks > self.start.declarer_tricks:  # the sweep is broken: decided
            return self.negate
        masks = (p.hands[0].mask, p.hands[1].mask, p.hands[2].mask)
        return self._in_trick(p.game, p.declarer, masks, p.leader, p.trick) != self.negate

    @staticmethod
    def _moves(game: GameType, hand: int, legal: int, live: int) -> list[Card]:
        """The legal cards, one of each run of equal cards (``live``: the cards still in play)."""
        out: list[Card] = []
        for cards in _groups(game):
            previous_mine = False
            for card in cards:
                if not live & card.bit:
                    continue
                mine = bool(legal & card.bit)
                if mine and not previous_mine:
                    out.append(card)
                previous_mine = mine and bool(hand & card.bit)
        return out

    def _in_trick(
        self, game: GameType, declarer: int, hands: tuple[int, int, int], leader: int, trick: tuple[Card, ...]
    ) -> bool:
        """Do the defenders take this trick and every later one (with the best play)?"""
        if len(trick) == 3:
            winner = (leader + trick_winner(game, trick)) % 3
            if winner == declarer:
                return False
            if not hands[winner]:
                return True
            key = (hands[0], hands[1], hands[2], winner)
            known = self.memo.get(key)
            if known is None:
                known = self.memo[key] = self._in_trick(game, declarer, hands, winner, ())
            return known
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchAborted(self.nodes)
        seat = (leader + len(trick)) % 3
        hand = hands[seat]
        legal = hand & game.follow_mask[trick[0].index] if trick else hand
        legal = legal or hand
        live = hands[0] | hands[1] | hands[2]
        for card in trick:
            live |= card.bit
        defender = seat != declarer
        for card in self._moves(game, hand, legal, live):
            after = list(hands)
            after[seat] ^= card.bit
            result = self._in_trick(game, declarer, (after[0], after[1], after[2]), leader, trick + (card,))
            if result == defender:
                return result
        return not defender


@functools.cache
def _groups(game: GameType) -> tuple[tuple[Card, ...], ...]:
    """Each group that must be followed (the trumps, each plain suit), strongest card first."""
    groups: dict[int, list[Card]] = {}
    for card in DECK:
        groups.setdefault(game.follow_mask[card.index], []).append(card)
    out = []
    for cards in groups.values():
        strength = {c: sum(game.beats[c.index * 32 + o.index] for o in cards) for c in cards}
        out.append(tuple(sorted(cards, key=lambda c: -strength[c])))
    return tuple(out)


def _query(position: ClaimPosition, claim: Claim, max_nodes: int | None) -> _Query:
    start = position.tally
    side, goal, game = claim.side, claim.goal, position.game
    defenders = side is Side.DEFENDERS
    if game.is_null:
        return _SolverQuery(claim, start, max_nodes, target=None, negate=defenders)
    if goal in (Goal.WIN, Goal.SCHNEIDER, Goal.OUT_OF_SCHNEIDER):
        need = augen_goal(goal, side)
        # the defenders reach n Augen exactly when the declarer cannot make sure of 121 - n
        target = augen_to_stop(need) if defenders else need
        return _SolverQuery(claim, start, max_nodes, target=target, negate=defenders)
    if goal is Goal.TRICK:
        if defenders:  # the declarer cannot make sure of every trick
            return _SolverQuery(claim, start, max_nodes, target=None, negate=True)
        return _SweepQuery(claim, start, max_nodes, negate=True)
    # REST and SCHWARZ: the claiming side takes every remaining trick
    if defenders:
        return _SweepQuery(claim, start, max_nodes, negate=False)
    return _SolverQuery(claim, start, max_nodes, target=None, negate=False)


def check_claim(position: ClaimPosition, claim: Claim, *, max_nodes: int | None = None) -> ClaimVerdict:
    """Does ``claim`` hold in ``position`` against every play of the other side (the claiming
    side choosing its best)? If not, with a refuting line to the end of the game.

    ``max_nodes`` stops a search that grows too big with :class:`SearchAborted`.
    """
    claim.check(position.game)
    if position.is_over:
        raise ClaimError(
            "Alle Karten sind gespielt: Es gibt nichts mehr zu beanspruchen",
            "Every card has been played: there is nothing left to claim",
        )
    start = position.tally
    query = _query(position, claim, max_nodes)
    already_broken = _broken(position, claim, start)
    holds = False if already_broken else query.holds(position)
    if holds:
        return ClaimVerdict(position, claim, True)
    exact = isinstance(query, _SolverQuery) and query.target is not None
    line: list[Card] = []
    p = position
    best: int | None = None
    if exact and not already_broken:
        best, line = _best_line(position, max_nodes)
        for card in line:
            p = p.play(card)
    else:
        while not p.is_over:
            card = _refuting_card(p, claim, query)
            line.append(card)
            p = p.play(card)
    assert not claim.met(position.game, start, p.tally), "the refuting line must break the claim"
    return ClaimVerdict(position, claim, False, tuple(line), p.tally, best)


def _broken(p: ClaimPosition, claim: Claim, start: Tally) -> bool:
    """Is the claim (made at ``start``) broken already in ``p``, whatever is played now? Null
    after a trick of the declarer, every trick after one of the other side."""
    t = p.tally
    if p.game.is_null:
        return claim.side is Side.DECLARER and t.declarer_tricks > 0
    if claim.goal is Goal.SCHWARZ:
        return t.tricks(claim.other) > 0
    return claim.goal is Goal.REST and t.tricks(claim.other) > start.tricks(claim.other)


def _refuting_card(p: ClaimPosition, claim: Claim, query: _Query) -> Card:
    """The next card of a refuting line: the other side keeps the claim broken; the claiming
    side's every card fails anyway (the first of them is shown)."""
    legal = list(p.legal())
    if _broken(p, claim, query.start):
        return legal[0]
    values = query.values(p)
    failing = [c for c in legal if not values[c]]
    assert failing, "in a refuted position every side to move has a card that keeps it refuted"
    return failing[0]


def _best_line(position: ClaimPosition, max_nodes: int | None) -> tuple[int, list[Card]]:
    """Both sides' best play to the end (the declarer the most Augen, the defenders the fewest):
    the declarer's Augen at the end, and the cards."""
    p = position
    line: list[Card] = []
    value: int | None = None
    while not p.is_over:
        solution = solve(
            p.game,
            p.declarer,
            p.hands,
            leader=p.leader,
            trick=p.trick,
            points=p.tally.declarer_augen,
            max_nodes=max_nodes,
        )
        if value is None:
            value = solution.declarer_points
        card = solution.best_cards()[0]
        line.append(card)
        p = p.play(card)
    assert value is None or value == p.tally.declarer_augen
    return (p.tally.declarer_augen if value is None else value), line
