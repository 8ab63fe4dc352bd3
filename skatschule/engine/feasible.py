"""Which end results of a suit or Grand game can happen at all.

A finished game gives the declarer ``tricks`` tricks (three cards each) and the skat (two
cards); the defenders take the other ``10 - tricks`` tricks. So the declarer's Augen are the
points of ``3 * tricks + 2`` of the 32 cards and the defenders' the points of the rest. Not
every total can be made from that many cards: a trick holds at most 33 Augen (three aces),
the skat at most 22, and only twelve cards are worth nothing. The matadors say more: "mit N"
puts the top N trumps among the declarer's twelve cards, at most two of them in the skat, and
each one he plays wins its own trick; "ohne N" gives the top N trumps to the defenders, who
win every trick they fall in, two at most in one trick. The next trump (the defenders' under
"mit", the declarer's under "ohne") may end on either side. Announced Spitzen (K.7.8) are the
game's lowest trumps in the declarer's hand; made, they take the last tricks.

:func:`game_possible` checks all of that exactly (the card totals with a small table over the
deck's card values, built once per set of fixed cards).

>>> from skatschule.engine.games import GameType
>>> game_possible(GameType.GRAND, matadors=1, points=61, tricks=9)
False
>>> game_possible(GameType.GRAND, matadors=1, points=61, tricks=2)
True
>>> game_possible(GameType.CLUBS, matadors=6, points=30, tricks=3)
False
"""

from __future__ import annotations

from functools import cache

from .cards import DECK, Card
from .games import GameType

__all__ = ["declarer_points_possible", "game_possible", "possible_declarer_points", "spitze_possible"]

TRICKS = 10
SKAT_CARDS = 2


@cache
def _sums(mine: frozenset[Card], theirs: frozenset[Card]) -> tuple[frozenset[int], ...]:
    """For n = 0 to 32: every total of Augen of the declarer's cards if they are ``mine``
    and n more cards of the deck, none of ``theirs``."""
    free = [card for card in DECK if card not in mine and card not in theirs]
    reach: list[set[int]] = [{0}] + [set() for _ in free]
    for seen, card in enumerate(free, start=1):
        for n in range(seen, 0, -1):
            reach[n].update(total + card.points for total in reach[n - 1])
    base = sum(card.points for card in mine)
    return tuple(frozenset(total + base for total in sums) for sums in reach)


def possible_declarer_points(
    tricks: int, mine: frozenset[Card] = frozenset(), theirs: frozenset[Card] = frozenset()
) -> frozenset[int]:
    """Every total of Augen the declarer can have with ``tricks`` tricks, the skat counted,
    if his cards include ``mine`` and none of ``theirs``."""
    if not 0 <= tricks <= TRICKS:
        return frozenset()
    more = 3 * tricks + SKAT_CARDS - len(mine)
    table = _sums(mine, theirs)
    return table[more] if 0 <= more < len(table) else frozenset()


def declarer_points_possible(points: int, tricks: int) -> bool:
    """Can the declarer end with ``points`` Augen and ``tricks`` tricks (skat included)?"""
    return points in possible_declarer_points(tricks)


def _held(game: GameType, matadors: int, spitze: int) -> tuple[frozenset[Card], frozenset[Card]] | None:
    """The cards the matadors and Spitzen put in the declarer's and in the defenders' hands,
    or None if they clash."""
    trumps = game.trumps_in_order
    if game.is_null or matadors == 0 or abs(matadors) > len(trumps) or not 0 <= spitze <= len(trumps):
        return None
    held = abs(matadors)
    mine = set(trumps[:held]) if matadors > 0 else set(trumps[held : held + 1])
    theirs = set(trumps[held : held + 1]) if matadors > 0 else set(trumps[:held])
    lowest = set(trumps[len(trumps) - spitze :]) if spitze else set()
    if lowest & theirs:
        return None
    return frozenset(mine | lowest), frozenset(theirs)


def _taken(game: GameType, matadors: int, spitze: int, spitze_made: bool) -> tuple[frozenset[Card], frozenset[Card]]:
    """The cards that must end among the declarer's tricks and skat, and among the defenders' tricks.

    A top trump wins whatever trick it is played to, so "mit N" puts the top N trumps with the
    declarer and "ohne N" with the defenders; every other card held may be lost or won (the
    declarer's highest trump under "ohne", the defenders' first missing one under "mit"). Made
    Spitzen take the last tricks."""
    trumps = game.trumps_in_order
    top = frozenset(trumps[: abs(matadors)])
    made = frozenset(trumps[len(trumps) - spitze :]) if spitze and spitze_made else frozenset()
    return (top | made, frozenset()) if matadors > 0 else (made, top)


def spitze_possible(game: GameType, *, matadors: int, spitze: int) -> bool:
    """Can the declarer hold the ``spitze`` lowest trumps, announced as Spitze (K.5.5), with these
    matadors?
    "ohne 4" in Grand leaves him no jack; "mit 3" in Grand lacks the jack of diamonds."""
    return _held(game, matadors, spitze) is not None


def game_possible(
    game: GameType,
    *,
    matadors: int,
    points: int,
    tricks: int,
    spitze: int = 0,
    spitze_made: bool = False,
) -> bool:
    """Can a suit or Grand ``game`` end with the declarer holding ``matadors`` (``+N`` mit,
    ``-N`` ohne, over all his cards with the skat), ``points`` Augen and ``tricks`` tricks,
    the ``spitze`` lowest trumps announced as Spitze (K.5.5) and (if ``spitze_made``) made?"""
    if _held(game, matadors, spitze) is None:
        return False
    held = abs(matadors)
    if matadors > 0 and tricks < held - SKAT_CARDS:
        return False  # each top trump he plays wins a trick of its own; two may lie in the skat
    if matadors < 0 and TRICKS - tricks < -(-held // 2):
        return False  # each trick holding a top trump is the defenders', two of them at most in one
    if spitze_made and tricks < spitze:
        return False  # made Spitzen take the last tricks
    return points in possible_declarer_points(tricks, *_taken(game, matadors, spitze, spitze_made))
