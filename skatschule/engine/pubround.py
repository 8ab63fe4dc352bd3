"""Pub rounds as immutable states (chapter K; not ISkO).

Two small state machines in the style of python-chess: a state is a frozen value,
``legal_actions()`` lists what may happen next, and ``apply(action)`` returns the next
state (or raises :class:`~skatschule.engine.errors.SkatError` for an illegal action).

- :class:`KontraState` is one game's Kontra and Re: who may say Kontra (K.1.1),
  until when (K.1.2), and Re only by the declarer in answer to it, never on Null or
  Null Hand (K.1.3).
- :class:`PubRound` is an evening's queue of Bock and Ramsch rounds (K.2, K.4.3): the
  triggers of :func:`~skatschule.engine.pub.starts_bock_round` (K.2.1), a round of
  Bock games and then compulsory Ramsch games with one escape Grand Hand per player,
  at most one round waiting while one runs, a Ramsch inside a Bock round neither
  doubled nor replaced, a player change that keeps the queue (K.2.4). It also keeps
  the list entries and their totals (ISkO list, Seeger-Fabian, Bierlachs, money).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction

from .bidding import AuctionMove, Bid, Hold, Pass
from .errors import SkatError
from .explain import Step
from .games import TOTAL_POINTS, Contract
from .lists import BierlachsRound, bierlachs_rows, isko_totals, seeger_totals
from .pub import RAMSCH_PAR, BockReading, RamschResult, bock_trigger, score_ramsch, starts_bock_round
from .scoring import Outcome
from .text import Text

__all__ = [
    "KontraReading",
    "DoublingPhase",
    "SayKontra",
    "SayRe",
    "DeclineRe",
    "LayOut",
    "FirstCard",
    "KontraAction",
    "KontraState",
    "kontra_eligible",
    "auction_summary",
    "AuctionSummary",
    "DealKind",
    "QueuedRound",
    "GamePlayed",
    "EscapeGrand",
    "RamschPlayed",
    "PassedIn",
    "PlayerChange",
    "PlayersLeave",
    "RoundEvent",
    "PubRound",
    "Transfer",
    "pay_off",
    "round_cents",
    "bock_trigger",
    "BockReading",
    "score_broken_ramsch",
]


# --------------------------------------------------------------------------- Kontra and Re


class KontraReading(Enum):
    """Who may say Kontra (K.1.1)."""

    CLUB = "club"
    """Seed 004: a defender who bid or held at least 18; rearhand also without a bid when
    forehand and middlehand had already reached 20 before rearhand's turn."""
    HOUSE = "house"
    """Seed 002's reading: a defender who took part in the bidding, or rearhand who would
    have had to go beyond 18 (the bid already stood at 18 or more when rearhand came in)."""


@dataclass(frozen=True, slots=True)
class AuctionSummary:
    """What K.1.1 needs from an auction: each seat's highest bid or held value (0: none)
    and the value standing when rearhand first spoke."""

    highest: tuple[int, int, int]
    before_rearhand: int


def auction_summary(moves: Sequence[AuctionMove]) -> AuctionSummary:
    """Summarise an auction given as its moves (``Bid``, ``Hold``, ``Pass`` of seats 0-2)."""
    highest = [0, 0, 0]
    value = 0
    before_rearhand: int | None = None
    for move in moves:
        if move.seat == 2 and before_rearhand is None:
            before_rearhand = value
        if isinstance(move, Bid):
            value = move.value
            highest[move.seat] = max(highest[move.seat], value)
        elif isinstance(move, Hold):
            highest[move.seat] = max(highest[move.seat], value)
        elif not isinstance(move, Pass):  # pragma: no cover - the union is closed
            raise SkatError("Unbekannter Reizschritt", "Unknown auction move")
    return AuctionSummary((highest[0], highest[1], highest[2]), value if before_rearhand is None else before_rearhand)


def kontra_eligible(
    summary: AuctionSummary, declarer: int, reading: KontraReading = KontraReading.CLUB
) -> frozenset[int]:
    """The defenders (seats 0-2) who may say Kontra (K.1.1, K.7.1)."""
    out = set()
    for seat in range(3):
        if seat == declarer:
            continue
        if summary.highest[seat] >= 18:
            out.add(seat)
        elif seat == 2:
            threshold = 20 if reading is KontraReading.CLUB else 18
            if summary.before_rearhand >= threshold:
                out.add(seat)
    return frozenset(out)


class DoublingPhase(Enum):
    OPEN = "open"
    """Kontra may still come (from an eligible defender before his first card)."""
    AWAIT_RE = "await_re"
    """Kontra has been said; the declarer answers at once with Re or not."""
    SETTLED = "settled"
    """No more doublings: the game goes on with its cards."""


@dataclass(frozen=True, slots=True)
class SayKontra:
    seat: int


@dataclass(frozen=True, slots=True)
class SayRe:
    pass


@dataclass(frozen=True, slots=True)
class DeclineRe:
    pass


@dataclass(frozen=True, slots=True)
class LayOut:
    """The declarer of an open game lays the cards face up."""


@dataclass(frozen=True, slots=True)
class FirstCard:
    """``seat`` plays its first card of the game."""

    seat: int


KontraAction = SayKontra | SayRe | DeclineRe | LayOut | FirstCard


@dataclass(frozen=True, slots=True)
class KontraState:
    """Kontra and Re in one game (K.1.1-K.1.3); build it with :meth:`start`."""

    declarer: int
    eligible: frozenset[int]
    open_game: bool
    re_allowed: bool
    phase: DoublingPhase = DoublingPhase.OPEN
    kontra_by: int | None = None
    re: bool = False
    laid_out: bool = False
    played: frozenset[int] = frozenset()

    @classmethod
    def start(
        cls,
        contract: Contract,
        declarer: int,
        summary: AuctionSummary,
        reading: KontraReading = KontraReading.CLUB,
    ) -> KontraState:
        if declarer not in (0, 1, 2):
            raise SkatError("Der Alleinspieler sitzt auf Platz 0, 1 oder 2", "The declarer sits in seat 0, 1 or 2")
        re_allowed = not (contract.game.is_null and not contract.ouvert)
        return cls(declarer, kontra_eligible(summary, declarer, reading), contract.ouvert, re_allowed)

    @property
    def kontra(self) -> bool:
        return self.kontra_by is not None

    @property
    def doublings(self) -> int:
        """How many times the entry is doubled by this game's calls (0, 1 or 2)."""
        return int(self.kontra) + int(self.re)

    def may_say_kontra(self, seat: int) -> bool:
        return (
            self.phase is DoublingPhase.OPEN
            and self.kontra_by is None
            and seat in self.eligible
            and seat not in self.played
            and not (self.open_game and self.laid_out)
        )

    def legal_actions(self) -> tuple[KontraAction, ...]:
        if self.phase is DoublingPhase.AWAIT_RE:
            return (SayRe(), DeclineRe())
        out: list[KontraAction] = [SayKontra(s) for s in sorted(self.eligible) if self.may_say_kontra(s)]
        if self.open_game and not self.laid_out:
            out.append(LayOut())
        elif len(self.played) < 3:
            # the first trick is played in seat order: Vorhand leads, then Mittelhand, Hinterhand
            out.append(FirstCard(len(self.played)))
        return tuple(out)

    def apply(self, action: KontraAction) -> KontraState:
        if action not in self.legal_actions():
            raise SkatError(*self._why_not(action))
        if isinstance(action, SayKontra):
            nxt = DoublingPhase.AWAIT_RE if self.re_allowed else DoublingPhase.SETTLED
            return replace(self, kontra_by=action.seat, phase=nxt)
        if isinstance(action, SayRe):
            return replace(self, re=True, phase=DoublingPhase.SETTLED)
        if isinstance(action, DeclineRe):
            return replace(self, phase=DoublingPhase.SETTLED)
        if isinstance(action, LayOut):
            return replace(self, laid_out=True)
        return replace(self, played=self.played | {action.seat})

    def _why_not(self, action: KontraAction) -> tuple[str, str]:  # noqa: C901 - over the budget since issue 27; to be split
        if self.phase is DoublingPhase.AWAIT_RE:
            return (
                "Erst antwortet der Alleinspieler auf das Kontra, mit Re oder ohne (K.1.3)",
                "First the declarer answers the Kontra, with Re or without (K.1.3)",
            )
        if isinstance(action, (SayRe, DeclineRe)):
            if self.kontra and not self.re_allowed:
                return ("Auf Null und Null Hand gibt es kein Re (K.1.3)", "There is no Re on Null or Null Hand (K.1.3)")
            return ("Re gibt es nur als Antwort auf ein Kontra (K.1.3)", "Re only answers a Kontra (K.1.3)")
        if isinstance(action, SayKontra):
            if action.seat == self.declarer:
                return ("Kontra sagt nur ein Gegenspieler (K.1.1)", "Only a defender says Kontra (K.1.1)")
            if self.kontra:
                return ("In diesem Spiel ist schon Kontra gesagt", "Kontra has already been said in this game")
            if action.seat not in self.eligible:
                return (
                    "Kontra darf nur, wer mindestens 18 gereizt oder gehalten hat (K.1.1)",
                    "Only a player who bid or held at least 18 may say Kontra (K.1.1)",
                )
            if self.open_game and self.laid_out:
                return (
                    "Bei offenen Spielen kommt Kontra vor dem Aufdecken (K.1.2)",
                    "In open games Kontra comes before the cards are laid out (K.1.2)",
                )
            return (
                "Kontra kommt vor der eigenen ersten Karte (K.1.2)",
                "Kontra comes before one's own first card (K.1.2)",
            )
        if isinstance(action, LayOut):
            return (
                "Nur offene Spiele werden aufgedeckt, und nur einmal",
                "Only open games are laid out, and only once",
            )
        if self.open_game and not self.laid_out:
            return (
                "Ein offenes Spiel wird vor der ersten Karte aufgedeckt",
                "An open game is laid out before the first card",
            )
        if isinstance(action, FirstCard) and action.seat not in self.played:
            return (
                "Den ersten Stich spielen Vorhand, Mittelhand und Hinterhand der Reihe nach",
                "The first trick is played by forehand, middlehand and rearhand in turn",
            )
        return ("Diese Karte ist schon gespielt", "That first card has already been played")


# --------------------------------------------------------------------------- the evening


class DealKind(Enum):
    """What the next deal is (K.2.2, K.4.3)."""

    NORMAL = "normal"
    BOCK = "bock"
    RAMSCH = "ramsch"


@dataclass(frozen=True, slots=True)
class QueuedRound:
    """A running Bock/Ramsch round: games left in each part, and who used the escape Grand."""

    bock_left: int
    ramsch_left: int
    escaped: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class GamePlayed:
    """A game with a declarer (player index at the table) and its list entry.

    ``bock`` says whether the entry was doubled as a Bock game; ``triggers`` whether the
    game starts a Bock/Ramsch round (K.2.1). :meth:`of` takes both from an Outcome.
    """

    declarer: int
    score: int
    won: bool
    bock: bool = False
    triggers: bool = False

    @classmethod
    def of(cls, declarer: int, outcome: Outcome) -> GamePlayed:
        return cls(declarer, outcome.score, outcome.won, outcome.bock, starts_bock_round(outcome))


@dataclass(frozen=True, slots=True)
class EscapeGrand:
    """A Grand Hand played instead of a compulsory Ramsch (K.4.3)."""

    declarer: int
    score: int
    won: bool
    triggers: bool = False

    @classmethod
    def of(cls, declarer: int, outcome: Outcome) -> EscapeGrand:
        return cls(declarer, outcome.score, outcome.won, starts_bock_round(outcome))


@dataclass(frozen=True, slots=True)
class RamschPlayed:
    """A Ramsch or Schieberamsch: the scores of forehand, middlehand and rearhand."""

    scores: tuple[int, int, int]

    @classmethod
    def of(cls, result: RamschResult) -> RamschPlayed:
        return cls(result.scores)


@dataclass(frozen=True, slots=True)
class PassedIn:
    """Nobody bid 18 and the deal was thrown in (ISkO 2.3.7; not under pub rules)."""


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """A new player takes ``seat``: the queue stays (K.2.4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayersLeave:
    """``count`` players leave without a successor; with one player left the queue is dropped (K.2.4)."""

    count: int


RoundEvent = GamePlayed | EscapeGrand | RamschPlayed | PassedIn | PlayerChange | PlayersLeave


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` owes ``payee`` exactly ``cents`` (a fraction at a stake like 1/4 cent)."""

    payer: int
    payee: int
    cents: Fraction

    @property
    def payable(self) -> int:
        """The amount rounded to whole cents for paying (half a cent up); sums stay exact."""
        return round_cents(self.cents)


def round_cents(amount: Fraction) -> int:
    """Whole cents for paying: to the nearest cent, half a cent away from zero."""
    whole = (abs(amount) * 2 + 1) // 2
    return int(whole if amount >= 0 else -whole)


@dataclass(frozen=True, slots=True)
class PubRound:
    """An evening at a table of three or four: the Bock/Ramsch queue and the list entries.

    ``dealer`` is the player index of the dealer; at four the dealer sits out. Every
    entry is a tuple with one number per player, so the totals are the sum of entries.
    """

    players: int = 3
    dealer: int = 0
    ramsch_when_passed: bool = True
    """Pub rules: a deal nobody bids is played as (Schiebe)ramsch, never thrown in (K.3.1)."""
    bock_rounds: bool = True
    """Pub rules: triggers start Bock/Ramsch rounds (K.2.1); off, they are ignored (ISkO)."""
    running: QueuedRound | None = None
    waiting: int = 0
    present: int = 0
    entries: tuple[tuple[int, ...], ...] = ()
    declarers: tuple[int | None, ...] = ()
    totals: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise SkatError("Eine Skatrunde hat drei oder vier Spieler", "A Skat table has three or four players")
        if not 0 <= self.dealer < self.players:
            raise SkatError("Der Geber muss am Tisch sitzen", "The dealer must sit at the table")
        if not self.totals:
            object.__setattr__(self, "totals", (0,) * self.players)
        if not self.present:
            object.__setattr__(self, "present", self.players)

    # ---- reading the state

    @property
    def round_length(self) -> int:
        """Games in each part of a Bock/Ramsch round: three at three, a full round at four (K.2.2)."""
        return self.players

    @property
    def next_kind(self) -> DealKind:
        if self.running is None:
            return DealKind.NORMAL
        return DealKind.BOCK if self.running.bock_left > 0 else DealKind.RAMSCH

    @property
    def seats(self) -> tuple[int, int, int]:
        """The players in forehand, middlehand and rearhand for the next deal."""
        p = self.players
        return ((self.dealer + 1) % p, (self.dealer + 2) % p, (self.dealer + 3) % p)

    @property
    def sitting_out(self) -> int | None:
        return self.dealer if self.players == 4 else None

    @property
    def queued(self) -> int:
        """Bock/Ramsch rounds running or waiting (0, 1 or 2)."""
        return (self.running is not None) + self.waiting

    def may_escape(self, player: int) -> bool:
        return (
            self.next_kind is DealKind.RAMSCH
            and self.running is not None
            and player in self.seats
            and player not in self.running.escaped
        )

    def legal_events(self) -> tuple[type, ...]:
        """The kinds of event (classes) that may come next."""
        if self.present < self.players:
            return (PlayerChange, PlayersLeave)
        out: list[type] = [RamschPlayed]
        if self.next_kind is DealKind.RAMSCH:
            if any(self.may_escape(p) for p in self.seats):
                out.append(EscapeGrand)
        else:
            out.append(GamePlayed)
            if not self.ramsch_when_passed:
                out.append(PassedIn)
        out += [PlayerChange, PlayersLeave]
        return tuple(out)

    # ---- events

    def apply(self, event: RoundEvent) -> PubRound:  # noqa: C901 - over the budget since issue 27; to be split
        if type(event) not in self.legal_events():
            raise SkatError(*self._why_not(event))
        if isinstance(event, PlayerChange):
            if not 0 <= event.seat < self.players:
                raise SkatError("Unbekannter Platz", "Unknown seat")
            return replace(self, present=min(self.players, self.present + (self.present < self.players)))
        if isinstance(event, PlayersLeave):
            if not 1 <= event.count <= self.present:
                raise SkatError("So viele Spieler sitzen nicht am Tisch", "Not that many players sit at the table")
            present = self.present - event.count
            if present <= 1:
                return replace(self, present=present, running=None, waiting=0)
            return replace(self, present=present)
        kind = self.next_kind
        entry = [0] * self.players
        declarer: int | None = None
        triggers = False
        escaped: int | None = None
        if isinstance(event, GamePlayed):
            self._check_declarer(event.declarer)
            if event.bock != (kind is DealKind.BOCK):
                raise SkatError(
                    "Im Bockspiel zählt der Eintrag doppelt, sonst nicht (K.2.2)"
                    if kind is DealKind.BOCK
                    else "Nur ein Bockspiel wird verdoppelt (K.2.2)",
                    "A Bock game's entry is doubled, no other (K.2.2)",
                )
            entry[event.declarer] = event.score
            declarer, triggers = event.declarer, event.triggers
        elif isinstance(event, EscapeGrand):
            if not self.may_escape(event.declarer):
                raise SkatError(
                    "Jeder spielt in der Ramschrunde höchstens einen Ausweich-Grand (K.4.3)",
                    "Each player plays at most one escape Grand per Ramsch round (K.4.3)",
                )
            entry[event.declarer] = event.score
            declarer, triggers, escaped = event.declarer, event.triggers, event.declarer
        elif isinstance(event, RamschPlayed):
            for seat, score in zip(self.seats, event.scores):
                entry[seat] = score
        running, waiting = self.running, self.waiting
        if triggers and self.bock_rounds:
            if running is None:
                running = QueuedRound(self.round_length, self.round_length)
            elif waiting == 0:
                waiting = 1
        # the deal itself uses up one game of the round that was running when it was dealt
        if self.running is not None and running is not None:
            if escaped is not None:
                # the Grand replaces this Ramsch and one more Ramsch is added: the count stays
                running = replace(running, escaped=running.escaped | {escaped})
            elif running.bock_left > 0:
                running = replace(running, bock_left=running.bock_left - 1)
            else:
                running = replace(running, ramsch_left=running.ramsch_left - 1)
            if running.bock_left == 0 and running.ramsch_left == 0:
                running = QueuedRound(self.round_length, self.round_length) if waiting else None
                waiting = 0
        dealer = self.dealer if escaped is not None else (self.dealer + 1) % self.players
        return replace(
            self,
            dealer=dealer,
            running=running,
            waiting=waiting,
            entries=self.entries + (tuple(entry),),
            declarers=self.declarers + (declarer,),
            totals=tuple(t + e for t, e in zip(self.totals, entry)),
        )

    def _check_declarer(self, player: int) -> None:
        if player not in self.seats:
            raise SkatError(
                "Der Alleinspieler muss in diesem Spiel mitspielen (der Geber setzt am Vierertisch aus)",
                "The declarer must play in this deal (at four the dealer sits out)",
            )

    def _why_not(self, event: RoundEvent) -> tuple[str, str]:
        if self.present < self.players:
            return ("Erst muss der Tisch wieder voll sein", "The table must be full again first")
        if isinstance(event, EscapeGrand):
            return (
                "Einen Ausweich-Grand gibt es nur in der Ramschrunde, einmal je Spieler (K.4.3)",
                "An escape Grand exists only in the Ramsch round, once per player (K.4.3)",
            )
        if isinstance(event, GamePlayed):
            return (
                "In der Ramschrunde wird geramscht oder ein Ausweich-Grand gespielt (K.4.3)",
                "In the Ramsch round it is Ramsch or an escape Grand (K.4.3)",
            )
        return (
            "Nach den Kneipenregeln wird nicht eingepasst, sondern geramscht (K.3.1)",
            "Under pub rules no deal is thrown in; Ramsch is played (K.3.1)",
        )

    # ---- totals

    def game_entries(self) -> list[tuple[int | None, int]]:
        """(declarer, entry) of every game with a declarer, for :mod:`.lists`."""
        return [(d, e[d]) for d, e in zip(self.declarers, self.entries) if d is not None]

    def seeger_totals(self) -> tuple[int, ...]:
        """Seeger-Fabian (A.2) by :func:`.lists.seeger_totals` over the games with a declarer,
        plus the Ramsch entries as they are. The bonus is never doubled (K.1.4)."""
        games = self.game_entries()
        plain, seeger = isko_totals(self.players, games), seeger_totals(self.players, games)
        return tuple(t - p + s for t, p, s in zip(self.totals, plain, seeger))

    def won_lost(self) -> tuple[tuple[int, int], ...]:
        counts = [[0, 0] for _ in range(self.players)]
        for declarer, entry in zip(self.declarers, self.entries):
            if declarer is not None:
                counts[declarer][0 if entry[declarer] > 0 else 1] += 1
        return tuple((w, lost) for w, lost in counts)

    def bierlachs(self, limit: int | None = None) -> tuple[BierlachsRound, ...]:
        """Bierlachs (A.3) by :func:`.lists.bierlachs` over every entry, Ramsch included."""
        return tuple(bierlachs_rows(self.players, zip(self.declarers, self.entries), limit=limit))

    def balances(self) -> tuple[int, ...]:
        """Points each player wins (+) or pays (-) when everyone settles with everyone
        (A.4.2): a declarer is paid his entry by each other player at the table, the
        one sitting out included, so a player's balance is n × total minus the sum."""
        n, whole = self.players, sum(self.totals)
        return tuple(n * t - whole for t in self.totals)

    def settlement(self, cents_per_point: Fraction | int) -> tuple[Transfer, ...]:
        return pay_off(self.balances(), cents_per_point)

    def explain_queue(self) -> tuple[Step, ...]:
        if self.running is None:
            return (Step("Keine Bock- oder Ramschrunde", "No Bock or Ramsch round", ("K.2.2",)),)
        r = self.running
        ramsch_en = f"{r.ramsch_left} compulsory Ramsch {'game' if r.ramsch_left == 1 else 'games'}"
        if r.bock_left:
            bock_de = f"{r.bock_left} {'Bockspiel' if r.bock_left == 1 else 'Bockspiele'}"
            bock_en = f"{r.bock_left} Bock {'game' if r.bock_left == 1 else 'games'}"
            line = Text(f"Noch {bock_de}, dann {r.ramsch_left} Pflichtramsch", f"{bock_en} left, then {ramsch_en}")
        else:
            line = Text(f"Noch {r.ramsch_left} Pflichtramsch", f"{ramsch_en} left")
        steps = [Step.of(line, ("K.2.2", "K.4.3"))]
        if self.waiting:
            steps.append(
                Step("Eine weitere Bock/Ramsch-Runde wartet", "One more Bock/Ramsch round is waiting", ("K.2.2",))
            )
        return tuple(steps)


def pay_off(balances: Sequence[int], cents_per_point: Fraction | int) -> tuple[Transfer, ...]:
    """Who pays whom how many cents, exactly (the stake may be a fraction of a cent, seed 003:
    1/10, 1/4, 1/2): the biggest debtor pays the biggest creditor first."""
    cents_per_point = Fraction(cents_per_point)
    if cents_per_point < 0:
        raise SkatError("Der Einsatz je Punkt ist nicht negativ", "The stake per point is not negative")
    if sum(balances) != 0:
        raise SkatError("Die Salden müssen sich aufheben", "The balances must add up to zero")
    owe: dict[int, Fraction] = {p: -b * cents_per_point for p, b in enumerate(balances) if b < 0}
    get: dict[int, Fraction] = {p: b * cents_per_point for p, b in enumerate(balances) if b > 0}
    out: list[Transfer] = []
    while owe and get:
        payer = max(owe, key=lambda p: (owe[p], -p))
        payee = max(get, key=lambda p: (get[p], -p))
        amount = min(owe[payer], get[payee])
        out.append(Transfer(payer, payee, amount))
        owe[payer] -= amount
        get[payee] -= amount
        if not owe[payer]:
            del owe[payer]
        if not get[payee]:
            del get[payee]
    return tuple(out)


def score_broken_ramsch(
    augen: Sequence[int],
    tricks: Sequence[int],
    breaker: int,
    schieben: int = 0,
) -> RamschResult:
    """A Ramsch that ``breaker`` (seat 0-2) breaks off (seed 004, K.7.12): every trick still
    to be played and the skat go to the breaker. ``augen`` and ``tricks`` are what each
    seat has taken so far. Should that give the breaker every trick, no Durchmarsch is
    counted: the breaker loses with 120 Augen and one Jungfrau, with the pushes' multiplier."""
    if len(augen) != 3 or len(tricks) != 3 or breaker not in (0, 1, 2):
        raise SkatError(
            "Ramsch: drei Spieler; der Abbrechende sitzt auf Platz 0, 1 oder 2",
            "Ramsch: three players; the one breaking off sits in seat 0, 1 or 2",
        )
    if sum(augen) > TOTAL_POINTS or sum(tricks) > 9 or min(*augen, *tricks) < 0:
        raise SkatError(
            "Bis zum Abbruch höchstens 9 Stiche und 120 Augen", "At most 9 tricks and 120 card points before the break"
        )
    full_augen, full_tricks = list(augen), list(tricks)
    full_augen[breaker] += TOTAL_POINTS - sum(augen)
    full_tricks[breaker] += 10 - sum(tricks)
    note = Step(
        "Abgebrochen: alle übrigen Stiche und der Skat gehen an den, der abbricht",
        "Broken off: every remaining trick and the skat go to the player who broke off",
        ("K.7.12",),
    )
    if full_tricks[breaker] < 10:
        result = score_ramsch(full_augen, full_tricks, schieben)
        return RamschResult(
            result.augen,
            result.tricks,
            result.scores,
            result.multiplier,
            result.durchmarsch,
            result.losers,
            (note, *result.steps),
        )
    multiplier = 1 + schieben + 1
    scores = tuple(-TOTAL_POINTS * multiplier if p == breaker else RAMSCH_PAR for p in range(3))
    steps = (
        note,
        Step(
            f"Kein Durchmarsch durch Abbruch: verloren mit 120 Augen und einer Jungfrau, Faktor 1 + {schieben} + 1 "
            f"= {multiplier}",
            "No Durchmarsch by breaking off: lost with 120 card points and one Jungfrau, multiplier 1 + "
            f"{schieben} + 1 = {multiplier}",
            ("K.7.12", "K.4.2", "K.3.5"),
        ),
        Step(
            f"120 × {multiplier} = {TOTAL_POINTS * multiplier} Minuspunkte; die anderen je 60 − 0 = 60",
            f"120 × {multiplier} = {TOTAL_POINTS * multiplier} minus points; the others 60 − 0 = 60 each",
            ("K.3.4",),
        ),
    )
    return RamschResult(
        (full_augen[0], full_augen[1], full_augen[2]),
        (full_tricks[0], full_tricks[1], full_tricks[2]),
        (scores[0], scores[1], scores[2]),
        multiplier,
        None,
        (breaker,),
        steps,
    )
