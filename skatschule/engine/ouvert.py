""" "Ist mein Null ouvert / Grand ouvert sicher?": a hand against the distributions of the unseen cards.

The declarer's ten cards (and the skat, if known) are fixed; the other cards are dealt to
the two defenders (and the skat) in every way, or in a seeded sample when there are too
many (there nearly always are: 20 cards split 10/10 alone give 184,756 ways). Each deal is
solved with all cards open (:mod:`.solver`): in Null, does the declarer take no trick; in a
Grand (or suit game) ouvert, does he take every trick?
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb

from .cards import CARDS, Card, CardSet
from .errors import SkatError
from .games import GameType
from .solver import solve

__all__ = ["OuvertCheck", "check_ouvert", "sure_from_the_top"]


@dataclass(frozen=True)
class OuvertCheck:
    """How the hand fares: ``wins`` of ``tried`` distributions; ``counter`` one that beats it
    (the three hands by seat and the skat), or None."""

    game: GameType
    declarer: int
    tried: int
    wins: int
    possible: int
    """How many distributions there are in all (``tried`` is all of them when equal)."""
    counter: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None
    top_down: bool = False
    """A Grand from Vorhand whose every trick is sure whatever the distribution
    (:func:`sure_from_the_top`): safe by proof, not by sample."""

    @property
    def exhaustive(self) -> bool:
        return self.tried == self.possible

    @property
    def proven(self) -> bool:
        """Safe against every distribution: by :attr:`top_down`, or every one tried and won."""
        return self.top_down or (self.exhaustive and self.wins == self.tried)


def sure_from_the_top(game: GameType, hand: CardSet, *, declarer: int = 0, skat: CardSet | None = None) -> bool:
    """Does a Grand declarer who leads (Vorhand) take every trick however the other cards lie?

    Sure when he holds the highest jacks, at least as many as the defenders can hold (leading
    them draws every other jack, as a defender must follow), and in every suit only cards that
    no card outside his hand and the known skat can beat: after the jacks no defender can
    trump, and each lead of his highest card in a suit takes the trick. A sufficient test, so
    True is a proof; False says nothing."""
    if game is not GameType.GRAND or declarer != 0:
        return False
    gone = hand.mask | (skat.mask if skat is not None else 0)
    trumps = game.trumps_in_order
    mine = [t for t in trumps if hand.mask & t.bit]
    theirs = [t for t in trumps if not gone & t.bit]
    if mine != list(trumps[: len(mine)]) or len(mine) < len(theirs):
        return False
    for card in hand:
        if card.bit & game.trump_mask:
            continue
        group = game.follow_mask[card.index] & ~game.trump_mask
        above = [c for c in CARDS if group & c.bit and not gone & c.bit and game.beats[c.index * 32 + card.index]]
        if above:
            return False
    return True


def check_ouvert(  # noqa: PLR0913 - over the budget since issue 27; to be split
    game: GameType,
    cards: Sequence[Card],
    *,
    declarer: int = 0,
    skat: Sequence[Card] = (),
    samples: int = 300,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> OuvertCheck:
    """Solve the hand against every distribution of the unseen cards, or ``samples`` of them.
    ``progress`` is told after each distribution how many were solved and how many will be."""
    hand = CardSet(cards)
    known_skat = CardSet(skat)
    if len(hand) != 10 or len(cards) != 10:
        raise SkatError(
            "Ein Blatt für die Prüfung hat genau zehn verschiedene Karten",
            "A hand to check has exactly ten different cards",
        )
    if len(known_skat) not in (0, 2) or known_skat.mask & hand.mask:
        raise SkatError(
            "Der Skat hat zwei Karten, die nicht in der Hand sind", "The skat is two cards that are not in the hand"
        )
    if declarer not in (0, 1, 2):
        raise SkatError("Plätze sind 0, 1 und 2", "Seats are 0, 1 and 2")
    unseen = [c for c in CARDS if not (hand.mask | known_skat.mask) & c.bit]
    skat_free = 0 if known_skat else 2
    possible = comb(len(unseen), skat_free) * comb(len(unseen) - skat_free, 10)
    rng = random.Random(seed)
    defenders = [s for s in range(3) if s != declarer]
    wins = tried = 0
    counter = None
    seen: set[tuple[int, int]] = set()
    for _ in range(samples * 3):
        if tried >= min(samples, possible):
            break
        pool = list(unseen)
        rng.shuffle(pool)
        skat_cards = tuple(pool[:skat_free]) if skat_free else tuple(known_skat)
        rest = pool[skat_free:]
        a, b = CardSet(rest[:10]), CardSet(rest[10:])
        key = (a.mask, b.mask)
        if key in seen:
            continue
        seen.add(key)
        hands = [hand, hand, hand]
        hands[defenders[0]] = a
        hands[defenders[1]] = b
        solution = solve(
            game, declarer, hands, leader=0, skat=CardSet(skat_cards), card_values=False, all_tricks=not game.is_null
        )
        tried += 1
        if progress is not None:
            progress(tried, min(samples, possible))
        if solution.declarer_wins:
            wins += 1
        elif counter is None:
            counter = (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), skat_cards)
    top_down = sure_from_the_top(game, hand, declarer=declarer, skat=known_skat)
    return OuvertCheck(game, declarer, tried, wins, possible, counter, top_down)
