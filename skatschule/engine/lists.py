"""Score lists (Abrechnung): the ISkO list, Seeger-Fabian and Bierlachs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import SkatError

__all__ = [
    "seeger_totals",
    "isko_totals",
    "bierlachs",
    "bierlachs_rows",
    "BierlachsRound",
    "BIERLACHS_TIE",
    "BIERLACHS_LIMIT",
    "SEEGER_WIN",
    "SEEGER_DEFENDER_BONUS",
]

SEEGER_WIN = 50
"""Seeger-Fabian: +50 for every won game, -50 for every lost one."""
SEEGER_DEFENDER_BONUS = {3: 40, 4: 30}
"""When a declarer loses, every other player at the table gets this much."""
BIERLACHS_LIMIT = {3: 301, 4: 401}
"""Bierlachs: the minus points that lose a round, at three and at four."""

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
    """Minus points per player in one Bierlachs round and who lost it (empty: still running)."""

    minus: tuple[int, ...]
    losers: tuple[int, ...]

    @property
    def loser(self) -> int | None:
        """The first loser (seat order), or None while the round runs."""
        return self.losers[0] if self.losers else None


BIERLACHS_TIE = "all_over_the_limit_lose"
"""The engine's reading where the seeds are silent (A.3): when two or more players reach the
limit in the same game, every one of them has lost the round (listed in seat order)."""

Row = tuple[int | None, Sequence[int]]
"""(declarer or None, the entry per player) of one deal; a Ramsch has no declarer."""


def bierlachs(players: int, games: Sequence[Entry], *, limit: int | None = None) -> list[BierlachsRound]:
    """Bierlachs (A.3) over games given as (declarer, list entry): see :func:`bierlachs_rows`."""
    rows: list[Row] = []
    for declarer, score in _check(players, games):
        entry = [0] * players
        if declarer is not None:
            entry[declarer] = score
        rows.append((declarer, entry))
    return bierlachs_rows(players, rows, limit=limit)


def bierlachs_rows(players: int, rows: Iterable[Row], *, limit: int | None = None) -> list[BierlachsRound]:
    """Bierlachs (A.3): only minus points. A won game is written as minus points for
    every other player at the table (at four the one sitting out too), a lost game as the
    (doubled) entry for the declarer, a Ramsch as its minus entries. Whoever reaches
    ``limit`` (301 at three, 401 at four) loses the round and a new one starts at zero;
    several in one game all lose (:data:`BIERLACHS_TIE`). The last round is the one under way."""
    limit = limit or BIERLACHS_LIMIT[players]
    rounds: list[BierlachsRound] = []
    minus = [0] * players
    for declarer, entry in rows:
        if declarer is not None and entry[declarer] > 0:
            for other in range(players):
                if other != declarer:
                    minus[other] += entry[declarer]
        else:
            for p, e in enumerate(entry):
                if e < 0:
                    minus[p] -= e
        over = tuple(p for p in range(players) if minus[p] >= limit)
        if over:
            rounds.append(BierlachsRound(tuple(minus), over))
            minus = [0] * players
    rounds.append(BierlachsRound(tuple(minus), ()))
    return rounds
