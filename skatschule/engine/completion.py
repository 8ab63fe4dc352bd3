"""A whole deal from the part of it that is known.

A situation set up by hand (a teacher's own question, a referee's case) names the
declarer's ten cards, the skat and the cards played so far, but not the defenders' hands.
:class:`PartialDeal` completes it to deals that make every play legal:

- who played which card follows from the tricks (Vorhand leads first, the winner of a
  trick leads the next, ISkO 3.4.1, 3.4.2);
- a defender who did not follow suit holds no card of that suit for the rest of the
  game (ISkO 3.2.1), so such cards go to the other defender;
- ``holds`` names cards a seat must still have (the card of a revoke or of a lead out of
  turn), and ``can_follow`` a seat that must still be able to follow a led card (a revoke
  is only one when the player could have followed).

The defenders' unplayed cards are often not fixed by these facts. :meth:`completions`
returns the deal that gives the free cards to the first defender first and the one that
gives them to the second: a result that differs between them depends on cards nobody set.

>>> from skatschule.engine import GameType, parse_cards
>>> part = PartialDeal(
...     GameType.GRAND,
...     0,
...     tuple(parse_cards("CJ SJ HJ DJ CA CT SA ST HA HT".split())),
...     tuple(parse_cards(["D7", "D8"])),
...     tuple(parse_cards(["CJ", "C7", "C8"])),
... )
>>> part.seats()
(0, 1, 2)
>>> len(part.completions()[0].hand(1))
10
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import DECK, Card, Deal
from .errors import IllegalMove, InvalidCard
from .games import GameType, trick_winner
from .names import card_ref

__all__ = ["PartialDeal"]


def _follows(game: GameType, lead: Card, card: Card) -> bool:
    return bool(game.follow_mask[lead.index] & card.bit)


@dataclass(frozen=True, slots=True)
class PartialDeal:
    """What is known of a deal in ``game`` with ``declarer`` (seat 0-2).

    ``declarer_cards`` are the ten cards the declarer plays with (after discarding),
    ``skat`` the two cards put away (or left untouched in a hand game), ``plays`` every
    card played so far, in order.
    """

    game: GameType
    declarer: int
    declarer_cards: tuple[Card, ...]
    skat: tuple[Card, ...]
    plays: tuple[Card, ...] = ()
    holds: tuple[tuple[int, Card], ...] = ()
    can_follow: tuple[int, Card] | None = None

    @property
    def defenders(self) -> tuple[int, int]:
        first, second = (seat for seat in range(3) if seat != self.declarer)
        return first, second

    def seats(self) -> tuple[int, ...]:
        """The seat that played each card of ``plays`` (from the tricks' winners)."""
        seats: list[int] = []
        leader = 0
        for start in range(0, len(self.plays), 3):
            trick = self.plays[start : start + 3]
            seats += [(leader + i) % 3 for i in range(len(trick))]
            if len(trick) == 3:
                leader = (leader + trick_winner(self.game, trick)) % 3
        return tuple(seats)

    def _check_known(self) -> None:
        if len(self.declarer_cards) != 10 or len(self.skat) != 2:
            raise InvalidCard(
                "Der Alleinspieler hat zehn Karten, im Skat liegen zwei",
                "The declarer holds ten cards and the skat two",
            )
        held = [c for _, c in self.holds]
        # the declarer's plays come from his ten cards: those two lists may share cards, no others
        for named in (list(self.declarer_cards) + list(self.skat), list(self.plays) + held):
            twice = sorted({c for c in named if named.count(c) > 1}, key=lambda c: c.index)
            if twice:
                refs = ", ".join(card_ref(c) for c in twice)
                raise InvalidCard(f"Diese Karten kommen zweimal vor: {refs}", f"These cards appear twice: {refs}")
        for card in self.skat:
            if card in self.plays or card in held:
                raise IllegalMove(
                    f"{card_ref(card)} liegt im Skat: im Spiel ist sie nicht",
                    f"The {card_ref(card)} is in the skat: it is not in play",
                )

    def _voids(self, seats: Sequence[int]) -> dict[int, list[Card]]:
        """For each defender, the led cards he did not follow (he has no such card left)."""
        voids: dict[int, list[Card]] = {seat: [] for seat in self.defenders}
        for i, card in enumerate(self.plays):
            seat, lead = seats[i], self.plays[i - i % 3]
            if i % 3 == 0:
                continue
            if seat == self.declarer:
                if card not in self.declarer_cards:
                    raise IllegalMove(
                        f"{card_ref(card)} wird vom Alleinspieler gespielt, ist aber nicht unter seinen Karten",
                        f"The {card_ref(card)} is played by the declarer but is not among his cards",
                    )
                continue
            if any(_follows(self.game, earlier, card) for earlier in voids[seat]):
                raise IllegalMove(
                    f"Unmöglich: {card_ref(card)} bedient eine Farbe, die derselbe Spieler vorher nicht bedient hat",
                    f"Impossible: the {card_ref(card)} follows a suit the same player failed to follow before",
                )
            if not _follows(self.game, lead, card):
                voids[seat].append(lead)
        for i, card in enumerate(self.plays):
            if i % 3 == 0 and seats[i] == self.declarer and card not in self.declarer_cards:
                raise IllegalMove(
                    f"{card_ref(card)} wird vom Alleinspieler ausgespielt, ist aber nicht unter seinen Karten",
                    f"The {card_ref(card)} is led by the declarer but is not among his cards",
                )
            if seats[i] != self.declarer and (card in self.declarer_cards or card in self.skat):
                raise IllegalMove(
                    f"{card_ref(card)} spielt ein Gegenspieler, sie gehört aber dem Alleinspieler oder liegt im Skat",
                    f"A defender plays the {card_ref(card)}, but it is the declarer's or in the skat",
                )
        return voids

    def completions(self) -> list[Deal]:  # noqa: C901 - over the budget since issue 27; to be split
        """One or two deals that fit everything known (see the module text), or :class:`SkatError`."""
        self._check_known()
        seats = self.seats()
        voids = self._voids(seats)
        first, second = self.defenders
        played = {seat: [c for c, s in zip(self.plays, seats) if s == seat] for seat in (0, 1, 2)}
        still: dict[int, list[Card]] = {seat: [] for seat in (0, 1, 2)}
        for seat, card in self.holds:
            if seat == self.declarer:
                if card not in self.declarer_cards:
                    raise IllegalMove(
                        f"{card_ref(card)} hat der Alleinspieler nicht (mehr)",
                        f"The declarer does not hold the {card_ref(card)}",
                    )
            elif card in self.declarer_cards:
                raise IllegalMove(
                    f"{card_ref(card)} gehört dem Alleinspieler, nicht einem Gegenspieler",
                    f"The {card_ref(card)} is the declarer's, not a defender's",
                )
            elif any(_follows(self.game, lead, card) for lead in voids[seat]):
                raise IllegalMove(
                    f"Unmöglich: {card_ref(card)} kann dieser Spieler nicht mehr haben, er hat die Farbe nicht bedient",
                    f"Impossible: that player cannot hold the {card_ref(card)} any more, he did not follow that suit",
                )
            still[seat].append(card)
        used = set(self.declarer_cards) | set(self.skat) | set(self.plays) | {c for _, c in self.holds}
        free = [c for c in DECK if c not in used]

        def allowed(card: Card, seat: int) -> bool:
            return not any(_follows(self.game, lead, card) for lead in voids[seat])

        if self.can_follow is not None:
            seat, lead = self.can_follow
            if seat == self.declarer:
                left = set(self.declarer_cards) - set(played[seat])
                if not any(_follows(self.game, lead, c) for c in left):
                    raise IllegalMove(
                        "Der Alleinspieler hat keine Karte, mit der er bedienen könnte",
                        "The declarer holds no card to follow with",
                    )
            elif not any(_follows(self.game, lead, c) for c in still[seat]):
                candidates = [c for c in free if _follows(self.game, lead, c) and allowed(c, seat)]
                if not candidates:
                    raise IllegalMove(
                        "Unmöglich: dieser Spieler kann gar nicht bedienen, keine Karte der Farbe ist mehr frei",
                        "Impossible: that player cannot follow at all, no card of the suit is left",
                    )
                still[seat].append(candidates[0])
                free.remove(candidates[0])
        given = {seat: played[seat] + still[seat] for seat in (0, 1, 2)}
        need = {seat: 10 - len(given[seat]) for seat in self.defenders}
        only = {
            seat: [c for c in free if allowed(c, seat) and not allowed(c, other)]
            for seat, other in ((first, second), (second, first))
        }
        nobody = [c for c in free if not allowed(c, first) and not allowed(c, second)]
        if nobody:
            refs = ", ".join(card_ref(c) for c in nobody)
            raise IllegalMove(
                f"Unmöglich: {refs} kann keiner der Gegenspieler haben, beide haben die Farbe nicht bedient",
                f"Impossible: neither defender can hold {refs}, both failed to follow that suit",
            )
        if any(need[seat] < 0 or len(only[seat]) > need[seat] for seat in self.defenders):
            raise IllegalMove(
                "Unmöglich: so viele Karten passen nicht in die Hände der Gegenspieler",
                "Impossible: that many cards do not fit into the defenders' hands",
            )
        both = [c for c in free if allowed(c, first) and allowed(c, second)]
        deals: list[Deal] = []
        for favoured, other in ((first, second), (second, first)):
            take = need[favoured] - len(only[favoured])
            hands = {
                self.declarer: list(self.declarer_cards),
                favoured: given[favoured] + only[favoured] + both[:take],
                other: given[other] + only[other] + both[take:],
            }
            deal = Deal.from_codes([[c.code for c in hands[seat]] for seat in range(3)] + [[c.code for c in self.skat]])
            if deal not in deals:
                deals.append(deal)
        return deals
