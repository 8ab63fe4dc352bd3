"""Drücken: grade all 66 ways to put two of twelve cards away, by the expected list score.

The declarer holds twelve cards after picking up the skat. For a game, every discard (two of
the twelve, 66 in all) is played out open-handed over the same sampled deals of the defenders'
20 cards (common random numbers: every discard meets the same deals). Per deal the solver
answers two yes/no questions (:func:`.solver.solve` with ``target``): does the declarer reach
61 Augen, and then 90 (Schneider) when he wins, or 31 (out of Schneider) when he loses. Null
asks once: does the declarer take no trick. The list score of the deal follows from
:func:`.scoring.game_value` with the matadors of the twelve cards: won ``+value``, lost
``-2 * value`` (ISkO 4.3.1, 4.3.4; Schneider 4.2.3).

The Augen put away count for the declarer (ISkO 1.2.1). :class:`DiscardGrade` keeps, per
discard, the mean score, the deals won and the Augen put away; :func:`grade` sorts them best
first, :func:`rank_of` gives a learner's place among the 66, and :func:`best_game` compares the
games. Cost: 66 x ``deals`` x 2 solver questions on full ten-card deals; see the README for the
figures with today's solver.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, CardSet, mask_points
from .games import Contract, GameType
from .scoring import game_value, matadors_in_mask
from .solver import solve

__all__ = ["DiscardGrade", "GameGrade", "deals_for", "grade", "rank_of", "best_game", "CANDIDATE_GAMES"]

CANDIDATE_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)


@dataclass(frozen=True, slots=True)
class DiscardGrade:
    """One discard for one game over the sampled deals."""

    cards: tuple[Card, Card]
    game: GameType
    total: int
    """The sum of the list scores over the deals."""
    won: int
    deals: int

    @property
    def expected(self) -> float:
        """The expected list score (mean over the deals)."""
        return self.total / self.deals if self.deals else 0.0

    @property
    def augen_away(self) -> int:
        """The Augen put away: they count for the declarer."""
        return self.cards[0].points + self.cards[1].points


@dataclass(frozen=True, slots=True)
class GameGrade:
    """The best discard of one game."""

    game: GameType
    best: DiscardGrade


def deals_for(twelve: Sequence[Card], count: int, seed: int) -> list[tuple[int, int]]:
    """``count`` random splits of the other 20 cards into the two defenders' hands (masks)."""
    mine = CardSet(twelve).mask
    rest = [i for i in range(32) if not mine >> i & 1]
    if len(rest) != 20:
        raise ValueError("twelve different cards are needed")
    rng = random.Random(f"discard:{seed}")
    out: list[tuple[int, int]] = []
    for _ in range(count):
        rng.shuffle(rest)
        a = sum(1 << i for i in rest[:10])
        b = sum(1 << i for i in rest[10:])
        out.append((a, b))
    return out


def _score(
    game: GameType, twelve_mask: int, hand: int, skat: int, defenders: tuple[int, int], declarer: int
) -> tuple[int, bool]:
    hands = [0, 0, 0]
    hands[declarer] = hand
    hands[(declarer + 1) % 3] = defenders[0]
    hands[(declarer + 2) % 3] = defenders[1]
    sets = [CardSet(h) for h in hands]
    contract = Contract(game)
    if game.is_null:
        won = solve(game, declarer, sets, leader=0, skat=CardSet(skat), card_values=False).declarer_wins
        value = game_value(contract).value
        return (value if won else -2 * value), won

    def reaches(target: int) -> bool:
        return solve(game, declarer, sets, leader=0, skat=CardSet(skat), card_values=False, target=target).declarer_wins

    won = reaches(61)
    schneider = reaches(90) if won else not reaches(31)
    value = game_value(contract, matadors_in_mask(game, twelve_mask), schneider=schneider).value
    return (value if won else -2 * value), won


def grade(
    twelve: Sequence[Card],
    game: GameType,
    *,
    deals: int = 200,
    seed: int = 0,
    declarer: int = 0,
    discards: Iterable[tuple[Card, Card]] | None = None,
) -> list[DiscardGrade]:
    """Every discard (or the ones given) for ``game``, best expected list score first.

    The declarer sits in ``declarer``'s seat, Vorhand (seat 0) leads the first trick.
    """
    cards = sorted(set(twelve))
    if len(cards) != 12:
        raise ValueError("twelve different cards are needed")
    twelve_mask = CardSet(cards).mask
    sampled = deals_for(cards, deals, seed)
    chosen = list(discards) if discards is not None else list(itertools.combinations(cards, 2))
    out: list[DiscardGrade] = []
    for pair in chosen:
        a, b = sorted(pair)
        skat = a.bit | b.bit
        hand = twelve_mask & ~skat
        total = 0
        won = 0
        for defenders in sampled:
            score, w = _score(game, twelve_mask, hand, skat, defenders, declarer)
            total += score
            won += w
        out.append(DiscardGrade((a, b), game, total, won, deals))
    out.sort(key=lambda g: (-g.total, -g.augen_away, g.cards))
    return out


def rank_of(grades: Sequence[DiscardGrade], cards: tuple[Card, Card]) -> int:
    """The place (1 = best) of a discard among the graded ones; ties share the better place."""
    pair = tuple(sorted(cards))
    mine = next(g for g in grades if g.cards == pair)
    return 1 + sum(1 for g in grades if g.total > mine.total)


def best_game(
    twelve: Sequence[Card], *, deals: int = 200, seed: int = 0, games: Sequence[GameType] = CANDIDATE_GAMES
) -> list[GameGrade]:
    """The best discard of each game, best game first."""
    out = [GameGrade(game, grade(twelve, game, deals=deals, seed=seed)[0]) for game in games]
    out.sort(key=lambda g: -g.best.total)
    return out


def augen_of(cards: Iterable[Card]) -> int:
    return mask_points(CardSet(cards).mask)
