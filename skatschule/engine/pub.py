"""Pub rules (seed 004): Ramsch, Schieberamsch and Bock rounds. Not part of the ISkO.

Ramsch is played like a Grand (only the jacks are trumps) with no declarer; the
last trick takes the skat. Scoring follows seed 004's "entschärfte" rule: every
Schieben and a Jungfrau raise the multiplier by one (not double it), so the worst
case is 120 x 5 = 600; a Durchmarsch scores +120 without multipliers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, CardSet, Deal
from .errors import IllegalMove, SkatError
from .explain import Derivation, Step
from .games import SPLIT_POINTS, TOTAL_POINTS, GameType, legal_cards, trick_winner
from .names import card_ref
from .rules import BockReading
from .scoring import Outcome
from .seats import SEATS

__all__ = ["RamschResult", "play_ramsch", "score_ramsch", "starts_bock_round", "bock_trigger", "BockReading"]


RAMSCH_PAR = TOTAL_POINTS // 2
"""Ramsch: each player but the loser gets the difference of his Augen to 60 (K.3.4)."""


@dataclass(frozen=True, slots=True)
class RamschResult:
    augen: tuple[int, int, int]
    tricks: tuple[int, int, int]
    scores: tuple[int, int, int]
    multiplier: int
    durchmarsch: int | None
    losers: tuple[int, ...]
    steps: Derivation


def play_ramsch(deal: Deal, plays: Sequence[Card]) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Play all 30 cards of a Ramsch (Grand rules, Vorhand leads); Augen and tricks per seat.

    The skat goes to whoever takes the last trick (K.3.3).
    """
    hands = [CardSet(deal.hand(s)) for s in range(3)]
    augen, tricks = [0, 0, 0], [0, 0, 0]
    leader, trick = 0, list[Card]()
    if len(plays) != 30:
        raise SkatError("Ein Ramsch hat 30 gespielte Karten", "A Ramsch has 30 played cards")
    for card in plays:
        seat = (leader + len(trick)) % 3
        if card not in legal_cards(GameType.GRAND, hands[seat], trick):
            raise IllegalMove(f"{card_ref(card)} ist hier nicht erlaubt", f"The {card_ref(card)} is not allowed here")
        hands[seat] = hands[seat] - CardSet([card])
        trick.append(card)
        if len(trick) == 3:
            leader = (leader + trick_winner(GameType.GRAND, trick)) % 3
            augen[leader] += sum(c.points for c in trick)
            tricks[leader] += 1
            trick = []
    augen[leader] += sum(c.points for c in deal.skat)
    return (augen[0], augen[1], augen[2]), (tricks[0], tricks[1], tricks[2])


def score_ramsch(augen: Sequence[int], tricks: Sequence[int], schieben: int = 0) -> RamschResult:
    """Score a Ramsch (K.3.4-K.3.6, K.4.2).

    The player with the most Augen (all of them on a tie) gets them as minus points
    times the multiplier (1 + Schieben + 1 if someone stayed Jungfrau); each other
    player gets 60 minus his own Augen as plus points (our reading of seed 004's
    "Differenz zu 60", see K.3.4). A player with every trick (Durchmarsch) gets +120.
    """
    if len(augen) != 3 or len(tricks) != 3 or sum(augen) != TOTAL_POINTS or sum(tricks) != 10 or not 0 <= schieben <= 3:
        raise SkatError(
            "Ramsch: drei Spieler, 120 Augen, 10 Stiche, höchstens dreimal geschoben",
            "Ramsch: three players, 120 card points, 10 tricks, at most three pushes",
        )
    if any(t == 0 and a > 0 for a, t in zip(augen, tricks)):
        raise SkatError("Wer keinen Stich hat, hat auch keine Augen", "A player without a trick has no card points")
    steps: list[Step] = []
    if 10 in tricks:
        winner = list(tricks).index(10)
        steps.append(
            Step(
                "Durchmarsch: alle Stiche, +120 ohne Vervielfachung",
                "Durchmarsch: every trick, +120 without multipliers",
                ("K.3.6",),
            )
        )
        scores = tuple(TOTAL_POINTS if p == winner else 0 for p in range(3))
        return RamschResult(
            (augen[0], augen[1], augen[2]),
            (tricks[0], tricks[1], tricks[2]),
            (scores[0], scores[1], scores[2]),
            1,
            winner,
            (),
            tuple(steps),
        )
    jungfrau = sum(1 for t in tricks if t == 0)
    multiplier = 1 + schieben + (1 if jungfrau else 0)
    worst = max(augen)
    losers = tuple(p for p in range(3) if augen[p] == worst)
    steps.append(
        Step(
            f"Faktor {multiplier}: 1 + {schieben} × geschoben" + (" + Jungfrau" if jungfrau else ""),
            f"multiplier {multiplier}: 1 + {schieben} pushes" + (" + Jungfrau" if jungfrau else ""),
            ("K.4.2", "K.3.5") if jungfrau else ("K.4.2",),
        )
    )
    out = []
    for p in range(3):
        if p in losers:
            out.append(-worst * multiplier)
        else:
            out.append(RAMSCH_PAR - augen[p])
    # each entry named by its seat: a score sheet's columns are players, whose seats rotate
    by_seat_de = ", ".join(f"{SEATS[p].text.de} {out[p]}" for p in range(3))
    by_seat_en = ", ".join(f"{SEATS[p].text.en} {out[p]}" for p in range(3))
    steps.append(
        Step(
            f"Die meisten Augen ({worst}) zählen minus: {by_seat_de}",
            f"The most card points ({worst}) count as minus: {by_seat_en}",
            ("K.3.4",),
        )
    )
    return RamschResult(
        (augen[0], augen[1], augen[2]),
        (tricks[0], tricks[1], tricks[2]),
        (out[0], out[1], out[2]),
        multiplier,
        None,
        losers,
        tuple(steps),
    )


def bock_trigger(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    kontra: bool,
    re: bool,
    won: bool,
    null: bool,
    declarer_points: int,
    reading: BockReading = BockReading.DECLARER_LOST,
) -> bool:
    """Does a game start a Bock/Ramsch round (K.2.1)? The one place that decides it:
    a lost Kontra (read by ``reading``), any Kontra with Re, and a 60:60 split (Spaltarsch)
    in a suit or Grand game."""
    if kontra and re:
        return True
    if kontra and won is (reading is BockReading.DEFENDERS_LOST):
        return True
    return not null and declarer_points == SPLIT_POINTS


def starts_bock_round(outcome: Outcome, reading: BockReading | None = None) -> bool:
    """:func:`bock_trigger` read from a scored game, by default with its rule set's reading
    (a conceded game has no 60:60 split; the Revolution counts as a Null)."""
    return bock_trigger(
        kontra=outcome.kontra,
        re=outcome.re,
        won=outcome.won,
        null=outcome.contract.game.is_null,
        declarer_points=0 if outcome.calls.conceded else outcome.declarer_points,
        reading=outcome.rules.bock_reading if reading is None else reading,
    )
