"""A whole club evening at one table: every deal in order, valued under one rule set.

:func:`play_evening` feeds the deals through :class:`~.pubround.PubRound` (the Bock and
Ramsch queue, the dealer, the list entries) and values every game with
:func:`~.scoring.score_game` (through :func:`~.houserules.score_house`) under the evening's
rule set (ISkO or pub rules plus the house switches). :func:`play_deal` values one deal; the
score sheet's replay calls it too. The totals come from the round: the ISkO list, Seeger-Fabian, Bierlachs
and the money at an exact stake (:class:`fractions.Fraction`, seed 003 plays for 1/10,
1/4 and 1/2 cent).

Where the seeds leave a question open, the engine names its reading:

- **Bierlachs, two over the limit in one game** (:data:`.lists.BIERLACHS_TIE`): every player
  who reaches the limit in the same game loses the round, in seat order.
- **"Mit 30 aus dem Schneider"** helps the defenders only (K.7.4; seed 002 names only them).
- **The Bock trigger "Kontra verloren"** (:class:`~.rules.BockReading`): the declarer lost a
  game with Kontra (seed 004), unless the switch ``bock_reading`` says ``defenders_lost``.
- **Ausweich-Grand**: once per player and Ramsch round (seed 004), a Grand Hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from .errors import SkatError
from .explain import Derivation, Step
from .games import GameType
from .houserules import HouseGame, doublings, score_house
from .pub import score_ramsch, starts_bock_round
from .pubround import (
    DealKind,
    EscapeGrand,
    GamePlayed,
    PassedIn,
    PubRound,
    RamschPlayed,
    RoundEvent,
    score_broken_ramsch,
)
from .rules import RuleSet

__all__ = [
    "EveningGame",
    "EveningRamsch",
    "EveningPassed",
    "EveningDeal",
    "EveningRow",
    "Evening",
    "parse_stake",
    "play_evening",
    "play_deal",
]


@dataclass(frozen=True, slots=True)
class EveningGame:
    """A played game: the declarer (player index) and the game as the list enters it.

    ``game.doublings`` counts Kontra, Re and the further levels; ``game.bock`` is set by
    the evening, not by the caller."""

    declarer: int
    game: HouseGame


@dataclass(frozen=True, slots=True)
class EveningRamsch:
    """A (Schiebe)ramsch: Augen and tricks of Vorhand, Mittelhand and Hinterhand;
    ``broken_by``: the player (0-2) whose irregularity broke it off (K.3.6)."""

    augen: tuple[int, ...]
    tricks: tuple[int, ...]
    schieben: int = 0
    broken_by: int | None = None


@dataclass(frozen=True, slots=True)
class EveningPassed:
    """A deal nobody bid (ISkO only: thrown in, the next player deals)."""


EveningDeal = EveningGame | EveningRamsch | EveningPassed


@dataclass(frozen=True, slots=True)
class EveningRow:
    """One deal on the list: its kind, the dealer, the entry per player, the derivation, and
    for a played game the declarer and whether he won."""

    deal: DealKind
    dealer: int
    entry: tuple[int, ...]
    steps: Derivation
    declarer: int | None = None
    won: bool | None = None


@dataclass(frozen=True, slots=True)
class Evening:
    round: PubRound
    rows: tuple[EveningRow, ...]
    stake: Fraction

    @property
    def players(self) -> int:
        return self.round.players

    def bierlachs(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(minus points of the round under way, losers of the finished rounds in order);
        several over the limit in one game all lose (:data:`.lists.BIERLACHS_TIE`)."""
        rounds = self.round.bierlachs()
        return rounds[-1].minus, tuple(p for r in rounds for p in r.losers)

    def cents(self) -> tuple[Fraction, ...]:
        """What each player wins (+) or pays (-), exactly: balance × stake."""
        return tuple(b * self.stake for b in self.round.balances())


STAKE_LENGTH = 16
"""A typed stake has at most this many characters (so ``1e999999`` never becomes a number)."""


def parse_stake(raw: object) -> Fraction:
    """A stake in cents per point: an integer, a decimal (``0,25`` or ``0.25``) or a fraction
    string such as ``"1/4"``."""
    try:
        if isinstance(raw, bool):
            raise TypeError
        if isinstance(raw, int):
            stake = Fraction(raw)
        elif isinstance(raw, float):
            stake = Fraction(str(raw))
        elif isinstance(raw, str):
            text = raw.strip().replace(",", ".")
            if len(text) > STAKE_LENGTH or not text.isascii() or "e" in text.lower():
                raise ValueError
            stake = Fraction(text)
        else:
            raise TypeError
    except (TypeError, ValueError, ZeroDivisionError):
        raise SkatError(
            "Der Einsatz ist eine Zahl oder ein Bruch wie 1/4", "The stake is a number or a fraction such as 1/4"
        ) from None
    if stake < 0:
        raise SkatError("Der Einsatz je Punkt ist nicht negativ", "The stake per point is not negative")
    return stake


def play_evening(
    *,
    players: int,
    dealer: int,
    rules: RuleSet,
    deals: Sequence[EveningDeal],
    stake: Fraction = Fraction(1),
) -> Evening:
    """Play the evening's deals in order (K.2, K.4.3; ISkO 2.3.7 for thrown-in deals).

    ``rules`` is the ISkO or the pub rules with the table's house switches; under pub
    rules Kontra, Re, Bock and Ramsch rounds apply, with ``rules.bock_reading``."""
    pub = rules.doublings
    state = PubRound(players=players, dealer=dealer, ramsch_when_passed=rules.ramsch_when_passed, bock_rounds=pub)
    rows: list[EveningRow] = []
    for number, deal in enumerate(deals, start=1):
        try:
            row, state = play_deal(state, deal, rules)
        except SkatError as err:
            raise SkatError(f"Spiel {number}: {err.text.de}", f"Game {number}: {err.text.en}") from None
        rows.append(row)
    return Evening(state, tuple(rows), stake)


def play_deal(state: PubRound, deal: EveningDeal, rules: RuleSet) -> tuple[EveningRow, PubRound]:
    """The next deal on the list: the one place that values a deal of an evening, for
    :func:`play_evening` and the score sheet. Returns the list row and the round after it."""
    kind, dealer = state.next_kind, state.dealer
    event: RoundEvent
    steps: Derivation
    declarer: int | None = None
    won: bool | None = None
    if isinstance(deal, EveningPassed):
        if rules.ramsch_when_passed:
            raise SkatError(
                "Nach den Kneipenregeln wird nicht eingepasst, sondern geramscht (K.3.1)",
                "Under pub rules no deal is thrown in; Ramsch is played (K.3.1)",
            )
        event = PassedIn()
        steps = (
            Step(
                "Eingepasst: kein Eintrag, der nächste gibt",
                "Passed in: no entry, the next player deals",
                ("2.3.7", "A.1.3"),
            ),
        )
    elif isinstance(deal, EveningRamsch):
        event, steps = _ramsch(deal, kind, rules)
    else:
        event, steps, won = _game(state, deal, kind, rules)
        declarer = deal.declarer
    new = state.apply(event)
    return EveningRow(kind, dealer, new.entries[-1], steps, declarer, won), new


def _ramsch(deal: EveningRamsch, kind: DealKind, rules: RuleSet) -> tuple[RoundEvent, Derivation]:
    if not rules.doublings:
        raise SkatError("Ramsch gibt es nur nach den Kneipenregeln (K.3)", "Ramsch exists only under pub rules (K.3)")
    if deal.broken_by is not None:
        result = score_broken_ramsch(deal.augen, deal.tricks, deal.broken_by, deal.schieben)
    else:
        result = score_ramsch(deal.augen, deal.tricks, deal.schieben)
    steps = result.steps
    if kind is DealKind.BOCK:
        steps = steps + (
            Step(
                "Ramsch in der Bockrunde: nicht verdoppelt, verbraucht ein Bockspiel",
                "Ramsch in the Bock round: not doubled, uses up one Bock game",
                ("K.2.2",),
            ),
        )
    return RamschPlayed(result.scores), steps


def _game(state: PubRound, deal: EveningGame, kind: DealKind, rules: RuleSet) -> tuple[RoundEvent, Derivation, bool]:
    pub = rules.doublings
    if not 0 <= deal.declarer < state.players:
        raise SkatError(f"Unbekannter Spieler {deal.declarer}", f"Unknown player {deal.declarer}")
    # Kontra, Re and the further levels exist only under pub rules (checked where they are counted)
    doublings(kontra=deal.game.doublings > 0, re=False, more=0, null_closed=False, pub=pub)
    game = replace(deal.game, bock=kind is DealKind.BOCK)
    outcome = score_house(game, rules)
    trigger = pub and starts_bock_round(outcome)
    event: RoundEvent
    if kind is DealKind.RAMSCH:
        if game.game is not GameType.GRAND or not game.hand:
            raise SkatError(
                "In der Ramschrunde wird geramscht oder ein Ausweich-Grand Hand gespielt (K.4.3)",
                "In the Ramsch round it is Ramsch or an escape Grand Hand (K.4.3)",
            )
        event = EscapeGrand(deal.declarer, outcome.score, outcome.won, trigger)
    else:
        event = GamePlayed(deal.declarer, outcome.score, outcome.won, kind is DealKind.BOCK, trigger)
    return event, outcome.steps, outcome.won
