"""A fast open-hand playout: one deal played to the end by a fixed one-trick look-ahead.

The Drücken trainer (:mod:`.discard`) plays every one of the 66 discards of a hand against a
few hundred sampled deals; the solver (:mod:`.solver`) needs tens of milliseconds per
question and deal, so this module plays each deal once, quickly, with all cards open:

* **the last card of a trick**: each legal card is scored by what the trick then brings;
* **the second card**: each legal card is tried against that answer of the third player;
* **the lead**: each card (one of each run of equivalent cards) is tried against both answers.

A card scores the Augen the trick brings its party (Augen the other party takes count against
it), less what the card costs to spend: a high trump costs more than a low one and any trump
more than a plain card, so nobody spends the Kreuz-Bube to win two Augen or throws a trump
on a lost trick. In Null a trick the declarer takes is the lost game for both parties' scores;
the declarer spends his highest cards first, the defenders keep theirs.

This estimates open-hand play; it is not the best play the solver proves (it sees one trick
ahead). Its inputs are integers (card masks in the numbering of :mod:`.cards`), and it imports
nothing, so ``make setup`` compiles it with mypyc like the solver.
"""

from __future__ import annotations

from typing import Final

__all__ = ["Tables", "tables", "play", "KINDS"]

KINDS: Final = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
"""The game kinds by number: 0-3 the suit games (in the suits' order), 4 Grand, 5 Null."""

_POINTS: Final = (11, 10, 4, 3, 2, 0, 0, 0)
"""Augen by rank index (A T K Q J 9 8 7, as in :mod:`.cards`)."""
_SUIT_POWER: Final = (6, 5, 4, 3, -1, 2, 1, 0)
"""A plain suit's order, A highest; the jack (-1) is a trump outside Null."""
_NULL_POWER: Final = (7, 3, 6, 5, 4, 2, 1, 0)
"""The Null order A K Q J T 9 8 7, by rank index."""
_NULL_LOSS: Final = 1600


def _index_table() -> list[int]:
    out = [0] * 65537
    for i in range(17):
        out[1 << i] = i
    return out


_INDEX: Final = _index_table()


def _index(bit: int) -> int:
    """The card index of a one-bit mask."""
    low = bit & 0xFFFF
    if low:
        return _INDEX[low]
    return 16 + _INDEX[bit >> 16]


class Tables:
    """What the playout needs of one game, as lists by card index."""

    def __init__(self, kind: int) -> None:
        null = kind == 5
        group = [0] * 32
        power = [0] * 32
        points = [0] * 32
        masks = [0] * 5
        for index in range(32):
            suit = index // 8
            rank = index % 8
            points[index] = _POINTS[rank]
            if null:
                group[index] = suit + 1
                power[index] = _NULL_POWER[rank]
            elif rank == 4:
                power[index] = (11 if kind < 4 else 4) - suit  # Kreuz-Bube highest
            elif kind < 4 and suit == kind:
                power[index] = _SUIT_POWER[rank]
            else:
                group[index] = suit + 1
                power[index] = _SUIT_POWER[rank]
            masks[group[index]] |= 1 << index
        self.null: bool = null
        self.group: list[int] = group
        self.points: list[int] = points
        self.masks: list[int] = masks
        self.above, self.between = _order(group, power, null)
        self.cost: list[int] = _costs(group, power, null)


def _order(group: list[int], power: list[int], null: bool) -> tuple[list[int], list[int]]:
    """``above[c]``: the cards that beat c (higher in its group; any trump beats a plain card);
    ``between[a * 32 + b]``: the cards of their group strictly between a and b."""
    above = [0] * 32
    between = [0] * 1024
    for a in range(32):
        for b in range(32):
            if group[b] != group[a]:
                if group[b] == 0 and not null:
                    above[a] |= 1 << b
                continue
            if power[b] > power[a]:
                above[a] |= 1 << b
            lo = min(power[a], power[b])
            hi = max(power[a], power[b])
            for c in range(32):
                if group[c] == group[a] and lo < power[c] < hi:
                    between[a * 32 + b] |= 1 << c
    return above, between


def _costs(group: list[int], power: list[int], null: bool) -> list[int]:
    """What spending a card costs: the declarer (first 32 entries), the defenders (the others)."""
    cost = [0] * 64
    for c in range(32):
        if null:
            cost[c] = -power[c]
            cost[32 + c] = power[c]
        elif group[c] == 0:
            cost[c] = cost[32 + c] = 20 + 6 * power[c]
        else:
            cost[c] = cost[32 + c] = 2 * power[c]
    return cost


def tables(kind: int) -> Tables:
    return Tables(kind)


def _value(seat: int, winner: int, augen: int, declarer: int, null: bool) -> int:
    """A trick won by ``winner`` with ``augen``, for ``seat``'s party."""
    if null:
        if winner != declarer:
            return 0
        return -_NULL_LOSS if seat == declarer else _NULL_LOSS
    if (winner == declarer) == (seat == declarer):
        return 16 * augen
    return -16 * augen


def _distinct(legal: int, others: int, t: Tables) -> int:
    """The legal cards less those equivalent to a kept one: same group and Augen, and no card
    of another hand between them in the group's order."""
    kept = 0
    group = t.group
    points = t.points
    between = t.between
    rest = legal
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = _index(bit)
        twin = False
        scan = kept
        while scan:
            other_bit = scan & -scan
            scan ^= other_bit
            other = _index(other_bit)
            if group[other] == group[card] and points[other] == points[card]:
                if not others & between[other * 32 + card]:
                    twin = True
                    break
        if not twin:
            kept |= bit
    return kept


def _third(hand: int, seat: int, led: int, best: int, holder: int, augen: int, declarer: int, t: Tables) -> int:  # noqa: PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
    """The last card of a trick: ``best`` (held by ``holder``) leads the trick so far."""
    follow = hand & t.masks[led]
    legal = follow if follow else hand
    null = t.null
    points = t.points
    cost = t.cost
    row = 0 if seat == declarer else 32
    beaters = t.above[best]
    choice = -1
    top = -(1 << 30)
    while legal:
        bit = legal & -legal
        legal ^= bit
        card = _index(bit)
        winner = seat if beaters & bit else holder
        score = _value(seat, winner, augen + points[card], declarer, null) - cost[row + card]
        if score > top:
            top = score
            choice = card
    return choice


def _second(hands: list[int], seat: int, lead: int, declarer: int, t: Tables) -> int:
    """The second card of a trick, tried against the third player's answer."""
    group = t.group
    led = group[lead]
    hand = hands[seat]
    third = (seat + 1) % 3
    leader = (seat + 2) % 3
    follow = hand & t.masks[led]
    legal = follow if follow else hand
    null = t.null
    points = t.points
    cost = t.cost
    above = t.above
    row = 0 if seat == declarer else 32
    third_hand = hands[third]
    beaters = above[lead]
    choice = -1
    top = -(1 << 30)
    rest = _distinct(legal, third_hand | hands[leader], t)
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = _index(bit)
        if beaters & bit:
            best = card
            holder = seat
        else:
            best = lead
            holder = leader
        augen = points[lead] + points[card]
        last = _third(third_hand, third, led, best, holder, augen, declarer, t)
        winner = third if above[best] >> last & 1 else holder
        score = _value(seat, winner, augen + points[last], declarer, null) - cost[row + card]
        if score > top:
            top = score
            choice = card
    return choice


def _lead(hands: list[int], seat: int, declarer: int, t: Tables) -> int:
    """The lead, tried against the answers of the other two."""
    second = (seat + 1) % 3
    third = (seat + 2) % 3
    null = t.null
    points = t.points
    cost = t.cost
    above = t.above
    group = t.group
    row = 0 if seat == declarer else 32
    choice = -1
    top = -(1 << 30)
    rest = _distinct(hands[seat], hands[second] | hands[third], t)
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = _index(bit)
        follow = _second(hands, second, card, declarer, t)
        if above[card] >> follow & 1:
            best = follow
            holder = second
        else:
            best = card
            holder = seat
        augen = points[card] + points[follow]
        last = _third(hands[third], third, group[card], best, holder, augen, declarer, t)
        winner = third if above[best] >> last & 1 else holder
        score = _value(seat, winner, augen + points[last], declarer, null) - cost[row + card]
        if score > top:
            top = score
            choice = card
    return choice


def play(hand0: int, hand1: int, hand2: int, declarer: int, leader: int, t: Tables) -> int:  # noqa: PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
    """Play the deal out; returns the declarer's Augen from tricks times 16 plus his tricks
    (in Null: 0 when he took no trick, else 1)."""
    hands = [hand0, hand1, hand2]
    points = t.points
    above = t.above
    augen = 0
    tricks = 0
    seat = leader
    while hands[seat]:
        card = _lead(hands, seat, declarer, t)
        hands[seat] ^= 1 << card
        second = (seat + 1) % 3
        follow = _second(hands, second, card, declarer, t)
        hands[second] ^= 1 << follow
        if above[card] >> follow & 1:
            best = follow
            holder = second
        else:
            best = card
            holder = seat
        third = (seat + 2) % 3
        total = points[card] + points[follow]
        last = _third(hands[third], third, t.group[card], best, holder, total, declarer, t)
        hands[third] ^= 1 << last
        if above[best] >> last & 1:
            holder = third
        total += points[last]
        if holder == declarer:
            if t.null:
                return 1
            augen += total
            tricks += 1
        seat = holder
    return augen * 16 + tricks
