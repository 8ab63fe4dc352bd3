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

:func:`game_possible` checks all of that (the card totals with a small table over the
deck's card values, built once per set of fixed cards).

Every exercise that states a finished game goes through one door, a :class:`Witness`: a deal
and its thirty cards played by the rules that end with exactly the stated numbers
(:func:`ending` counts them by replaying the cards). :func:`finished_game` and
:func:`finished_ramsch` find one for given numbers (a search that deals each card only when
it is played, steered by the Augen still needed; cheap, and kept per result);
:func:`played_game` and :func:`played_ramsch` deal and play at random around given cards and
state what came out. A question built this way states a game that happened.

>>> from skatschule.engine.games import GameType
>>> game_possible(GameType.GRAND, matadors=1, points=61, tricks=9)
False
>>> game_possible(GameType.GRAND, matadors=1, points=61, tricks=2)
True
>>> game_possible(GameType.CLUBS, matadors=6, points=30, tricks=3)
False
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .cards import CARDS, DECK, Card, CardSet, Deal, Rank, Suit, deal_cards, mask_points
from .errors import IllegalMove
from .games import TOTAL_POINTS, GameType, legal_cards, trick_winner
from .houserules import spitze_made as spitze_fell
from .scoring import matadors

__all__ = [
    "Ending",
    "Witness",
    "declarer_points_possible",
    "ending",
    "finished_game",
    "finished_ramsch",
    "game_possible",
    "played_game",
    "played_ramsch",
    "possible_declarer_points",
    "replay",
    "spitze_possible",
]

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


def game_possible(  # noqa: PLR0913 - over the budget since issue 27; to be split
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


# --------------------------------------------------------------------------- witnesses

SEAT_BITS = 0b0111
"""Who may hold a card: bits 0 to 2 for the seats, bit 3 for the skat."""
SKAT_BIT = 0b1000
VALUES = (0, 2, 3, 4, 10, 11)


@dataclass(frozen=True, slots=True)
class Witness:
    """A whole game that ends with the stated numbers: the deal (the hands as played, Vorhand
    first, and the skat at the end of the game) and the thirty cards in the order they were
    played, Vorhand leading the first trick. ``declarer`` is the declarer's seat (None in Ramsch).

    :func:`replay` plays it again by the engine's rules (``legal_cards``, ``trick_winner``)."""

    game: GameType
    deal: Deal
    plays: tuple[Card, ...]
    declarer: int | None

    def tricks(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """Each trick as (its winner's seat, its cards in play order)."""
        return replay(self.game, self.deal, self.plays)


def replay(game: GameType, deal: Deal, plays: Sequence[Card]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Play ``plays`` on ``deal`` (Vorhand leads); every card must be legal. The tricks as
    (winner's seat, cards). Raises :class:`~.errors.IllegalMove` on a card that may not be played."""
    hands = [CardSet(deal.hand(s)) for s in range(3)]
    if len(plays) != 3 * TRICKS:
        raise IllegalMove("Ein Spiel hat 30 gespielte Karten", "A game has 30 played cards")
    leader, done = 0, []
    for start in range(0, 3 * TRICKS, 3):
        trick = tuple(plays[start : start + 3])
        for i, card in enumerate(trick):
            seat = (leader + i) % 3
            if card not in legal_cards(game, hands[seat], trick[:i]):
                raise IllegalMove(f"{card.code} ist hier nicht erlaubt", f"{card.code} may not be played here")
            hands[seat] = hands[seat] - CardSet([card])
        leader = (leader + trick_winner(game, trick)) % 3
        done.append((leader, trick))
    return tuple(done)


@dataclass(frozen=True, slots=True)
class Ending:
    """What a witness ends with, counted from its cards."""

    matadors: int
    points: int
    """The declarer's Augen, skat included (Ramsch: see ``augen``)."""
    tricks: int
    spitze_winners: tuple[Card, ...]
    """The cards that won the declarer's last tricks, last trick first, up to his first lost one."""
    augen: tuple[int, int, int]
    """Ramsch: each seat's Augen, the skat to the winner of the last trick."""
    trick_counts: tuple[int, int, int]


def ending(witness: Witness) -> Ending:
    """Count the witness's game from its cards (replayed by the rules)."""
    tricks = witness.tricks()
    augen, counts = [0, 0, 0], [0, 0, 0]
    for winner, cards in tricks:
        augen[winner] += sum(c.points for c in cards)
        counts[winner] += 1
    skat_points = sum(c.points for c in witness.deal.skat)
    declarer = witness.declarer
    owner = tricks[-1][0] if declarer is None else declarer
    augen[owner] += skat_points
    if declarer is None:
        return Ending(0, 0, 0, (), (augen[0], augen[1], augen[2]), (counts[0], counts[1], counts[2]))
    held = CardSet(witness.deal.hand(declarer)) | CardSet(witness.deal.skat)
    winners: list[Card] = []
    for winner, cards in reversed(tricks):
        if winner != declarer:
            break
        winners.append(cards[trick_winner(witness.game, cards)])
    return Ending(
        matadors(witness.game, held),
        augen[declarer],
        counts[declarer],
        tuple(winners),
        (augen[0], augen[1], augen[2]),
        (counts[0], counts[1], counts[2]),
    )


@cache
def _reach(counts: tuple[int, ...], n: int) -> int:
    """Every total of Augen (as bits of an int) that exactly ``n`` cards can have, drawn from
    ``counts[i]`` cards worth ``VALUES[i]``."""
    if n < 0 or n > sum(counts):
        return 0
    row = [1] + [0] * n
    for value, count in zip(VALUES, counts, strict=True):
        new = [0] * (n + 1)
        for have in range(n + 1):
            if row[have]:
                for k in range(min(count, n - have) + 1):
                    new[have + k] |= row[have] << (value * k)
        row = new
    return row[n]


_VALUE_MASKS = tuple(sum(c.bit for c in CARDS if c.points == value) for value in VALUES)


def _counts(mask: int) -> tuple[int, ...]:
    """How many cards of ``mask`` are worth each of :data:`VALUES`."""
    return tuple((mask & values).bit_count() for values in _VALUE_MASKS)


def _pick(rng: random.Random, free: int, n: int, need: int) -> int:
    """A random set (mask) of ``n`` cards of ``free`` worth ``need`` Augen together, or 0 if
    there is none: the count of each card value is chosen so the rest can still make up the
    total (:func:`_reach` over the values not yet chosen)."""
    counts = _counts(free)
    if n < 0 or need < 0 or not _reach(counts, n) >> need & 1:
        return 0
    chosen = 0
    for i, value in enumerate(VALUES):
        later = (0,) * (i + 1) + counts[i + 1 :]
        options = [
            k
            for k in range(min(counts[i], n) + 1)
            if need >= value * k and _reach(later, n - k) >> (need - value * k) & 1
        ]
        k = rng.choice(options)
        cards = [c for c in CardSet(free & _VALUE_MASKS[i])]
        rng.shuffle(cards)
        for card in cards[:k]:
            chosen |= card.bit
        n -= k
        need -= value * k
    return chosen


def _strength(game: GameType) -> tuple[int, ...]:
    """How many of the 31 other cards each card beats when it is led (0 to 31)."""
    return tuple(
        sum(1 for other in CARDS if other is not card and not game.beats[other.index * 32 + card.index]) // 4
        for card in CARDS
    )


_STRENGTH = {game: _strength(game) for game in GameType}
"""Each card's strength when led, in eighths of the deck (0 to 7)."""


class _Search:
    """Deal and play a game card by card, each card given to a seat only when he plays it.

    A seat that does not follow suit is void in that suit from then on (he gets no more of
    it); before each trick is accepted, the cards still unplayed must fit the seats' room
    and voids (Hall's condition over who may hold what), and each side's Augen must still be
    reachable. Seat 0 is the declarer (``parties`` (0, 1, 1)) or, in Ramsch, each seat is
    its own party (0, 1, 2)."""

    def __init__(  # noqa: PLR0913 - over the budget since issue 27; to be split
        self,
        game: GameType,
        *,
        parties: tuple[int, int, int],
        points: tuple[int, ...],
        tricks: tuple[int, ...],
        holders: Sequence[int],
        skat_party: int,
        spitze: tuple[Card, ...],
        spitze_made: bool,
        must: tuple[int, int],
        seed: str,
        budget: int,
        leaders: tuple[int, ...] = (0, 1, 2),
    ) -> None:
        self.game = game
        self.parties = parties
        self.want_points = points
        self.want_tricks = tricks
        self.holdable = [sum(c.bit for c in CARDS if holders[c.index] >> h & 1) for h in range(4)]
        self.skat_party = skat_party
        self.ramsch = parties == (0, 1, 2)
        """Ramsch: each seat for himself, and the skat goes with the last trick (to ``skat_party``)."""
        self.spitze = spitze
        self.spitze_made = spitze_made
        self.must = must
        self.rng = random.Random(seed)
        self.budget = budget
        self.leaders = leaders
        self.plays: list[Card] = []
        self.seat_cards: list[list[Card]] = [[], [], []]
        self.skat = 0

    # ---- checks
    def _fits(self, pool: int, voids: Sequence[int], room: Sequence[int]) -> bool:
        """Can the unplayed cards ``pool`` still go to seats with ``room`` cards left and these
        voids, two of them to the skat? (Hall: every set of holders has room for the cards only
        they may take.)"""
        can = [pool & self.holdable[s] & ~voids[s] for s in range(3)]
        can.append(pool & self.holdable[3])
        capacity = (room[0], room[1], room[2], SKAT_CARDS)
        for subset in range(16):
            outside = 0
            space = 0
            for h in range(4):
                if subset >> h & 1:
                    space += capacity[h]
                else:
                    outside |= can[h]
            if (pool & ~outside).bit_count() > space:
                return False
        return True

    def _reachable(self, pool: int, got_points: Sequence[int], got_tricks: Sequence[int]) -> bool:
        left = [want - got for want, got in zip(self.want_tricks, got_tricks, strict=True)]
        if min(left) < 0:
            return False
        if self.spitze_made:  # every other trump is out before the Spitzen take the last tricks (or in the skat)
            others = pool & self.game.trump_mask & ~sum(c.bit for c in self.spitze)
            before = TRICKS - len(self.spitze) - sum(got_tricks)
            if others.bit_count() > 3 * max(before, 0) + SKAT_CARDS or left[0] < min(
                len(self.spitze), TRICKS - sum(got_tricks)
            ):
                return False  # ... and he keeps a trick for each of them
        if not self.ramsch:
            mine, theirs = self.must[0] & pool, self.must[1] & pool
            free = pool & ~mine & ~theirs
            need = self.want_points[0] - got_points[0] - mask_points(mine)
            n = 3 * left[0] + SKAT_CARDS - mine.bit_count()
            if need < 0 or not _reach(_counts(free), n) >> need & 1:
                return False
            if left[0] < mine.bit_count() - SKAT_CARDS:
                return False  # each of his top trumps takes a trick of its own, two may lie in the skat
            return left[1] >= -(-theirs.bit_count() // 2)  # two of their top trumps at most in one trick
        counts = _counts(pool)
        for party in range(3):
            need = self.want_points[party] - got_points[party]
            n = 3 * left[party] + (SKAT_CARDS if party == self.skat_party else 0)
            if need < 0 or not _reach(counts, n) >> need & 1:
                return False
        return True

    def run(self) -> tuple[int, list[list[Card]], list[Card], list[Card]] | None:
        """(first leader, each seat's cards, the plays, the skat) or None."""
        leaders = list(self.leaders)
        self.rng.shuffle(leaders)
        for first in leaders:
            if self._trick(first, DECK.mask, [0, 0, 0], [0, 0, 0], [0, 0, 0], 0):
                return first, self.seat_cards, self.plays, list(CardSet(self.skat))
            if self.budget <= 0:
                return None
        return None

    def _targets(self, pool: int, left: Sequence[int], got_points: Sequence[int], plan: Sequence[int]) -> list[int]:
        """For each party, a set of the unplayed cards its tricks (and the skat) could hold,
        drawn at random among those with the right Augen: its cards are tried first. The
        ``plan`` of the trick before is kept while it still fits."""
        for party in range(3):
            n = 3 * left[party] + (SKAT_CARDS if party == self.skat_party else 0)
            kept = plan[party] & pool
            if kept.bit_count() != n or mask_points(kept) != self.want_points[party] - got_points[party]:
                break
        else:
            return [plan[0] & pool, plan[1] & pool, plan[2] & pool]
        targets = [0, 0, 0]
        if not self.ramsch:
            mine, theirs = self.must[0] & pool, self.must[1] & pool
            n = 3 * left[0] + SKAT_CARDS - mine.bit_count()
            need = self.want_points[0] - got_points[0] - mask_points(mine)
            picked = _pick(self.rng, pool & ~mine & ~theirs, n, need)
            if picked or n == 0:
                targets[0] = mine | picked
                targets[1] = pool & ~targets[0]
            return targets
        rest = pool
        for party in range(2):
            n = 3 * left[party] + (SKAT_CARDS if party == self.skat_party else 0)
            targets[party] = _pick(self.rng, rest, n, self.want_points[party] - got_points[party])
            rest &= ~targets[party]
        targets[2] = rest
        return targets

    def _options(  # noqa: PLR0913 - over the budget since issue 27; to be split
        self, seat: int, pool: int, voids: Sequence[int], index: int, led: Card | None, aim: float, prefer: int
    ) -> list[Card]:
        """The cards ``seat`` may get and play now, in the order to try them: following suit
        first (no void to keep to), then those of ``prefer``, then those worth about ``aim``."""
        cards = list(CardSet(pool & self.holdable[seat] & ~voids[seat]))
        if self.spitze_made and self.parties[seat] == 0:
            if index >= TRICKS - len(self.spitze):  # the Spitzen take the last tricks, the lowest the last
                cards = [c for c in cards if c is self.spitze[TRICKS - 1 - index]]
            else:
                cards = [c for c in cards if c not in self.spitze]
        noise = self.rng.random
        group = self.game.follow_mask[led.index] if led is not None else 0
        keyed = sorted((not c.bit & group, not c.bit & prefer, abs(c.points - aim) + 4 * noise(), c) for c in cards)
        return [c for *_, c in keyed]

    def _candidates(  # noqa: PLR0913 - over the budget since issue 27; to be split
        self,
        seats: tuple[int, int, int],
        pool: int,
        voids: Sequence[int],
        index: int,
        party: int,
        aim: float,
        prefer: int,
    ) -> Iterator[tuple[Card, Card, Card]]:
        """The tricks ``party`` takes, in the order to try them (see :meth:`_options`)."""
        for first in self._options(seats[0], pool, voids, index, None, aim, prefer):
            for second in self._options(seats[1], pool & ~first.bit, voids, index, first, aim, prefer):
                for third in self._options(seats[2], pool & ~first.bit & ~second.bit, voids, index, first, aim, prefer):
                    trick = (first, second, third)
                    winner = self.parties[seats[trick_winner(self.game, trick)]]
                    last_to_skat = not self.ramsch or index < TRICKS - 1 or winner == self.skat_party
                    if winner == party and last_to_skat:
                        yield trick

    def _trick(  # noqa: PLR0913 - over the budget since issue 27; to be split
        self,
        leader: int,
        pool: int,
        voids: list[int],
        got_points: list[int],
        got_tricks: list[int],
        index: int,
        plan: Sequence[int] = (0, 0, 0),
    ) -> bool:
        """Deal and play trick ``index`` and the rest; True when the game ends as wanted."""
        if index == TRICKS:
            self.skat = pool
            return self._done(pool, got_points, got_tricks)
        seats = (leader, (leader + 1) % 3, (leader + 2) % 3)
        left = [want - got for want, got in zip(self.want_tricks, got_tricks, strict=True)]
        targets = self._targets(pool, left, got_points, plan)
        aims = [p for p in range(3) if left[p] > 0]
        if self.spitze_made and index >= TRICKS - len(self.spitze):
            aims = [0]  # made Spitzen take the last tricks for him
        self.rng.shuffle(aims)
        aims.sort(key=lambda p: -left[p] * self.rng.random())  # the side with more tricks to take, more often
        for party in aims:
            cards = 3 * left[party] + (SKAT_CARDS if self.skat_party == party else 0)
            aim = (self.want_points[party] - got_points[party]) / cards
            for trick in self._candidates(seats, pool, voids, index, party, aim, targets[party]):
                self.budget -= 1
                if self.budget <= 0:
                    return False
                new_voids = self._voids(voids, seats, trick)
                rest = pool & ~trick[0].bit & ~trick[1].bit & ~trick[2].bit
                points, tricks = list(got_points), list(got_tricks)
                points[party] += trick[0].points + trick[1].points + trick[2].points
                tricks[party] += 1
                if not self._reachable(rest, points, tricks) or not self._fits(
                    rest, new_voids, [TRICKS - index - 1] * 3
                ):
                    continue
                self.plays.extend(trick)
                for seat, card in zip(seats, trick, strict=True):
                    self.seat_cards[seat].append(card)
                if self._trick(self._winner(seats, trick), rest, new_voids, points, tricks, index + 1, targets):
                    return True
                del self.plays[-3:]
                for seat in seats:
                    self.seat_cards[seat].pop()
        return False

    def _winner(self, seats: tuple[int, int, int], trick: tuple[Card, Card, Card]) -> int:
        return seats[trick_winner(self.game, trick)]

    def _voids(self, voids: Sequence[int], seats: tuple[int, int, int], trick: tuple[Card, Card, Card]) -> list[int]:
        """The voids after ``trick``: a seat that did not follow suit has no more of that suit."""
        group = self.game.follow_mask[trick[0].index]
        new = list(voids)
        for seat, card in zip(seats[1:], trick[1:], strict=True):
            if not card.bit & group:
                new[seat] |= group
        return new

    def _done(self, pool: int, got_points: Sequence[int], got_tricks: Sequence[int]) -> bool:
        points = list(got_points)
        points[self.skat_party] += mask_points(pool)
        if self.spitze:
            winners: list[Card] = []
            for start in range(len(self.plays) - 3, -1, -3):
                trick = self.plays[start : start + 3]
                seat = next(s for s in range(3) if trick[0] in self.seat_cards[s])
                if (seat + trick_winner(self.game, trick)) % 3 != 0:
                    break
                winners.append(trick[trick_winner(self.game, trick)])
            if spitze_fell(self.game, len(self.spitze), winners) != self.spitze_made:
                return False
        return tuple(points) == tuple(self.want_points) and tuple(got_tricks) == tuple(self.want_tricks)


BUDGET = 30
"""Tricks tried at most per search; a search that runs out tries again in another order."""
ROUNDS = 30
FEW_ROUNDS = 12
"""Fewer tries for a Ramsch (a tie or a Durchmarsch)."""


def _rotate(first: int, seat_cards: Sequence[Sequence[Card]], skat: Sequence[Card]) -> Deal:
    """The deal with the first trick's leader as Vorhand (the seats keep their order)."""
    hands = [tuple(seat_cards[(first + s) % 3]) for s in range(3)]
    return Deal(hands[0], hands[1], hands[2], tuple(skat))


def _swap_suits(game: GameType) -> dict[Card, Card]:
    """Clubs and the trump suit of ``game`` exchanged, jacks kept: a game of clubs read as ``game``."""
    suit = game.trump_suit
    swap = {Suit.CLUBS: suit, suit: Suit.CLUBS} if suit is not None else {}
    return {c: c if c.rank is Rank.JACK else CARDS[8 * swap.get(c.suit, c.suit) + c.rank] for c in CARDS}


def _holders(
    game: GameType,
    matadors: int,
    spitze: int,
) -> list[int]:
    """Who may hold each card (bits: seats 0-2, the skat): the declarer (seat 0) and the skat
    hold the cards the matadors and Spitzen put with him, the defenders (1, 2) the others'."""
    holders = [SEAT_BITS | SKAT_BIT] * 32
    mine, theirs = _held(game, matadors, spitze) or (frozenset(), frozenset())
    for card in mine:
        holders[card.index] = 1 | SKAT_BIT
    for card in theirs:
        holders[card.index] = 0b110
    for card in game.trumps_in_order[len(game.trumps_in_order) - spitze :] if spitze else ():
        holders[card.index] = 1  # announced Spitzen are played
    return holders


def _search_game(  # noqa: PLR0913 - over the budget since issue 27; to be split
    game: GameType,
    matadors: int,
    points: int,
    tricks: int,
    spitze: int,
    spitze_made: bool,
) -> Witness | None:
    holders = _holders(game, matadors, spitze)
    mine, theirs = _taken(game, matadors, spitze, spitze_made)
    lowest = tuple(reversed(game.trumps_in_order))[:spitze]
    key = f"{game.value} {matadors} {points} {tricks} {spitze} {spitze_made}"
    for round_ in range(ROUNDS):
        found = _Search(
            game,
            parties=(0, 1, 1),
            points=(points, TOTAL_POINTS - points, 0),
            tricks=(tricks, TRICKS - tricks, 0),
            holders=holders,
            skat_party=0,
            spitze=lowest,
            spitze_made=spitze_made,
            must=(CardSet(mine).mask, CardSet(theirs).mask),
            seed=f"{key} {round_}",
            budget=BUDGET * (1 + 10 * spitze_made),  # made Spitzen: a longer way to the last tricks
        ).run()
        if found is not None:
            first, seat_cards, plays, rest = found
            return Witness(game, _rotate(first, seat_cards, rest), tuple(plays), (0 - first) % 3)
    return None


@lru_cache(maxsize=4096)
def _free_witness(  # noqa: PLR0913 - over the budget since issue 27; to be split
    game: GameType, matadors: int, points: int, tricks: int, spitze: int, spitze_made: bool
) -> Witness | None:
    """A witness with free cards, found once per game (a suit game as clubs, read back)."""
    if game.is_suit_game and game is not GameType.CLUBS:
        clubs = _free_witness(GameType.CLUBS, matadors, points, tricks, spitze, spitze_made)
        if clubs is None:
            return None
        swap = _swap_suits(game)
        deal = Deal(*(tuple(swap[c] for c in part) for part in clubs.deal))
        return Witness(game, deal, tuple(swap[c] for c in clubs.plays), clubs.declarer)
    return _search_game(game, matadors, points, tricks, spitze, spitze_made)


def finished_game(  # noqa: PLR0913 - over the budget since issue 27; to be split
    game: GameType,
    *,
    matadors: int,
    points: int,
    tricks: int,
    spitze: int = 0,
    spitze_made: bool = False,
) -> Witness | None:
    """A whole game of ``game`` that ends exactly so, or None if there is none: the declarer
    holds ``matadors`` (``+N`` mit, ``-N`` ohne, skat included), takes ``tricks`` tricks and
    ``points`` Augen with the skat; ``spitze`` lowest trumps announced (K.7.8), made or not.

    The one door for every exercise that states a finished game: the game is dealt and
    played by the rules (:func:`replay`), so what it states can happen. Cheap: a game the
    card counts rule out (:func:`game_possible`) is refused at once, and a search gives each
    card to a seat only as he plays it (see :class:`_Search`).

    >>> from skatschule.engine.games import GameType
    >>> finished_game(GameType.SPADES, matadors=-3, points=120, tricks=10) is None
    True
    >>> finished_game(GameType.HEARTS, matadors=-3, points=87, tricks=8) is None  # 27 Augen in 3 cards
    True
    >>> w = finished_game(GameType.HEARTS, matadors=-3, points=88, tricks=8)
    >>> end = ending(w)
    >>> (end.matadors, end.points, end.tricks)
    (-3, 88, 8)
    """
    spitze_made = spitze_made and spitze > 0  # without Spitzen there is nothing to make
    if game.is_null or not game_possible(
        game, matadors=matadors, points=points, tricks=tricks, spitze=spitze, spitze_made=spitze_made
    ):
        return None
    witness = _free_witness(game, matadors, points, tricks, spitze, spitze_made)
    if witness is None:
        return None
    end = ending(witness)
    made = spitze_fell(game, spitze, end.spitze_winners) if spitze else False
    if (end.matadors, end.points, end.tricks, made) != (matadors, points, tricks, spitze_made):
        raise AssertionError(f"witness ends {end}")  # pragma: no cover - a bug in the search
    return witness


@lru_cache(maxsize=4096)
def finished_ramsch(augen: tuple[int, int, int], tricks: tuple[int, int, int]) -> Witness | None:
    """A whole Ramsch (Grand rules, no declarer, the skat to the last trick) that ends with
    each seat's ``augen`` (skat included) and ``tricks``, or None if there is none."""
    if sum(augen) != TOTAL_POINTS or sum(tricks) != TRICKS or min(augen) < 0 or min(tricks) < 0:
        return None
    if any(t == 0 and a for a, t in zip(augen, tricks, strict=True)):
        return None
    deck = _counts(DECK.mask)
    for a, t in zip(augen, tricks, strict=True):
        if not (_reach(deck, 3 * t) | (_reach(deck, 3 * t + SKAT_CARDS) if t else 0)) >> a & 1:
            return None  # his tricks (and the skat, if he takes the last trick) cannot hold that much
    takers = [seat for seat in range(3) if tricks[seat]]
    for round_ in range(FEW_ROUNDS):
        found = _Search(
            GameType.GRAND,
            parties=(0, 1, 2),
            points=augen,
            tricks=tricks,
            holders=[SEAT_BITS | SKAT_BIT] * 32,
            skat_party=takers[round_ % len(takers)],
            spitze=(),
            spitze_made=False,
            must=(0, 0),
            seed=f"ramsch {augen} {tricks} {round_}",
            budget=BUDGET,
            leaders=(0,),  # each seat's numbers are Vorhand's, Mittelhand's, Hinterhand's
        ).run()
        if found is None:
            continue
        first, seat_cards, plays, rest = found
        witness = Witness(GameType.GRAND, _rotate(first, seat_cards, rest), tuple(plays), None)
        end = ending(witness)
        if (end.augen, end.trick_counts) != (augen, tricks):
            raise AssertionError(f"witness ends {end}")  # pragma: no cover - a bug in the search
        return witness
    return None


# --------------------------------------------------------------------------- games played out

PLAYOUTS = 300
"""Games dealt and played at most by :func:`played_game` before it gives up."""


def _playout(rng: random.Random, game: GameType, deal: Deal, sides: tuple[int, int, int], bias: float) -> list[Card]:
    """The thirty cards of a game played by the rules: each seat plays a random legal card, or
    (with chance ``bias``) the one best for side 0: its own strongest, the others' weakest."""
    hands = [CardSet(deal.hand(s)) for s in range(3)]
    strength = _STRENGTH[game]
    plays: list[Card] = []
    leader = 0
    for _ in range(TRICKS):
        trick: list[Card] = []
        for i in range(3):
            seat = (leader + i) % 3
            legal = list(legal_cards(game, hands[seat], trick))
            if rng.random() < bias:
                card = (max if sides[seat] == 0 else min)(legal, key=lambda c: (strength[c.index], c.points))
            else:
                card = rng.choice(legal)
            hands[seat] = hands[seat] - CardSet([card])
            trick.append(card)
        plays.extend(trick)
        leader = (leader + trick_winner(game, trick)) % 3
    return plays


def played_game(
    rng: random.Random,
    game: GameType,
    *,
    twelve: Sequence[Card],
    skat: Sequence[Card] | None = None,
    accept: Callable[[Ending], bool],
) -> Witness | None:
    """A game of ``game`` whose declarer holds ``twelve`` (hand and skat; the skat is ``skat`` in
    a hand game), the other cards dealt at random and every card played by the rules, that
    ``accept`` takes (for example: won with Schneider); None if none of :data:`PLAYOUTS` is.
    The stated game is read off the witness, so it is one that happened."""
    others = [c for c in CARDS if c not in set(twelve)]
    for _ in range(PLAYOUTS):
        rng.shuffle(others)
        if skat is not None:
            kept = tuple(skat)
        else:
            kept = tuple(rng.sample(list(twelve), SKAT_CARDS))
        hand = tuple(c for c in twelve if c not in kept)
        declarer = rng.randrange(3)
        hands: list[tuple[Card, ...]] = [(), (), ()]
        hands[declarer] = hand
        hands[(declarer + 1) % 3] = tuple(others[:10])
        hands[(declarer + 2) % 3] = tuple(others[10:])
        deal = Deal(hands[0], hands[1], hands[2], kept)
        sides = tuple(0 if s == declarer else 1 for s in range(3))
        plays = _playout(rng, game, deal, (sides[0], sides[1], sides[2]), rng.random())
        witness = Witness(game, deal, tuple(plays), declarer)
        if accept(ending(witness)):
            return witness
    return None


def played_ramsch(rng: random.Random, *, accept: Callable[[Ending], bool], virgin: int | None = None) -> Witness | None:
    """A Ramsch dealt at random and played by the rules that ``accept`` takes (its ``augen`` and
    ``trick_counts`` by seat); ``virgin``: the seat that plays to stay without a trick. None if
    none of :data:`PLAYOUTS` is."""
    for _ in range(PLAYOUTS):
        deal = deal_cards(rng=rng)
        sides = tuple(1 if s == virgin else 0 for s in range(3))
        bias = rng.random() if virgin is not None else 0.0
        plays = _playout(rng, GameType.GRAND, deal, (sides[0], sides[1], sides[2]), bias)
        witness = Witness(GameType.GRAND, deal, tuple(plays), None)
        if accept(ending(witness)):
            return witness
    return None
