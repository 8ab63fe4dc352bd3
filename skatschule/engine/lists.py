"""Score lists (Abrechnung): the ISkO list, Seeger-Fabian and Bierlachs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import SkatError

__all__ = ["seeger_totals", "isko_totals", "bierlachs", "BierlachsRound", "SEEGER_WIN", "SEEGER_DEFENDER_BONUS"]

SEEGER_WIN = 50
"""Seeger-Fabian: +50 for every won game, -50 for every lost one."""
SEEGER_DEFENDER_BONUS = {3: 40, 4: 30}
"""When a declarer loses, every other player at the table gets this much."""

Entry = tuple[int | None, int]
"""(declarer or None when passed in, list entry of the declarer)."""


def _check(players: int, games: Iterable[Entry]) -> list[Entry]:
    if players not in (3, 4):
        raise SkatError("Eine Skatrunde hat drei oder vier Spieler", "A Skat table has three or four players")
    out = []
    for declarer, score in games:
        if declarer is not None and (
            not isinstance(declarer, int) or isinstance(declarer, bool) or not 0 <= declarer < players
        ):
            raise SkatError(f"Unbekannter Spieler {declarer!r}", f"Unknown player {declarer!r}")
        if not isinstance(score, int) or isinstance(score, bool):
            raise SkatError("Der Listeneintrag muss eine ganze Zahl sein", "The list entry must be an integer")
        out.append((declarer, score))
    return out


def isko_totals(players: int, games: Iterable[Entry]) -> list[int]:
    """The plain ISkO list: each declarer's entries added up."""
    totals = [0] * players
    for declarer, score in _check(players, games):
        if declarer is not None:
            totals[declarer] += score
    return totals


def seeger_totals(players: int, games: Iterable[Entry]) -> list[int]:
    """Seeger-Fabian totals (A.2): list entry +50 won / -50 lost; a lost game gives
    every other player +40 at a table of three, +30 at a table of four.

    The bonus points are never multiplied by Kontra, Re or Bock: they are added to
    the list entry, which already carries those doublings.
    """
    totals = [0] * players
    bonus = SEEGER_DEFENDER_BONUS[players] if players in SEEGER_DEFENDER_BONUS else 0
    for declarer, score in _check(players, games):
        if declarer is None:
            continue
        if score > 0:
            totals[declarer] += score + SEEGER_WIN
        else:
            totals[declarer] += score - SEEGER_WIN
            for other in range(players):
                if other != declarer:
                    totals[other] += bonus
    return totals


@dataclass(frozen=True, slots=True)
class BierlachsRound:
    """Minus points per player in one Bierlachs round and who lost it (None: still running)."""

    minus: tuple[int, ...]
    loser: int | None


def bierlachs(players: int, games: Sequence[Entry]) -> list[BierlachsRound]:
    """Bierlachs (A.3): only minus points. A won game is written as minus points for
    every opponent (at a table of four the dealer too), a lost game as the (doubled)
    entry for the declarer. Whoever reaches 301 (three players) or 401 (four) loses the
    round and a new one starts at zero.
    """
    limit = 301 if players == 3 else 401
    rounds: list[BierlachsRound] = []
    minus = [0] * players
    for declarer, score in _check(players, games):
        if declarer is None:
            continue
        if score > 0:
            for other in range(players):
                if other != declarer:
                    minus[other] += score
        else:
            minus[declarer] += -score
        worst = max(range(players), key=lambda p: minus[p])
        if minus[worst] >= limit:
            rounds.append(BierlachsRound(tuple(minus), worst))
            minus = [0] * players
    rounds.append(BierlachsRound(tuple(minus), None))
    return rounds
