"""How high may I bid? The answer graded by play instead of by counting.

Lesson 7's hand evaluation (:mod:`.evaluation`) counts trumps, sure cards and safe suits. This
module asks the cards instead: for ten cards in a seat (Vorhand, Mittelhand, Hinterhand) the
other 22 cards are dealt at random into the skat and the two other hands, :data:`DEALS` times
(seeded by the hand, the seat and a seed: the same hand always meets the same deals). For every
candidate game (the suit games, Grand and Null with pick-up, and Null Hand) every deal is played
to the end with open cards by the quick look-ahead of :mod:`.playout`, as in the Drücken trainer
(:mod:`.discard`): the declarer picks up the skat and puts away two cards as the bots do
(:func:`.bots.declaring.choose_discard`); Vorhand leads the first trick. A game counts as
chosen before the skat is seen, as when a player sets his limit, and all games meet the same
deals.

The list score of a deal depends on the bid: won and worth at least the bid ``+value``; lost
``-2 * value``; worth less than the bid (overbid, ISkO 4.4.1) lost with the lowest multiple of
the base value that reaches the bid (4.4.2). The matadors come from the twelve cards (1.4.2);
Schneider and Schwarz count (4.2.3). A Null is worth its fixed value and cannot be declared
above it (2.4.4): above its value it is no candidate.

A game's own limit is the highest bid (:data:`.bidding.BID_VALUES`) at which its expected list
score is still positive; the hand's graded bid is the highest of them (0: pass), and the best
game is the game with that limit. :class:`BidGrading` keeps for each game how often each
(value, won) outcome came up, so the expected score at any bid follows without playing again.

``python -m skatschule.engine.bidplay`` compares lesson 7's limit with the graded bid over
1,000 seeded hands (:func:`main`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .bidding import BID_VALUES
from .bots.declaring import choose_discard
from .cards import CARDS, Card, CardSet, parse_card
from .discard import game_tables, level_values, settle_playout
from .games import Contract, GameType
from .playout import play
from .rules import ISKO
from .scoring import game_value, lowest_multiple, matadors_in_mask

__all__ = [
    "CANDIDATES",
    "DEALS",
    "LADDER",
    "GameOutcomes",
    "BidGrading",
    "grade_bid",
    "step_of",
    "steps_apart",
    "contract_key",
]

DEALS = 200
"""Deals of the skat and the other hands per grading (the issue asks for at least 200)."""
CANDIDATES: tuple[Contract, ...] = (
    Contract(GameType.CLUBS),
    Contract(GameType.SPADES),
    Contract(GameType.HEARTS),
    Contract(GameType.DIAMONDS),
    Contract(GameType.GRAND),
    Contract(GameType.NULL),
    Contract(GameType.NULL, hand=True),
)
"""The games a bidder may have in mind: those of lesson 7's evaluation."""
LADDER: tuple[int, ...] = (0, *BID_VALUES)
"""The answers in order: 0 (pass), then every bid."""


def step_of(bid: int) -> int:
    """The place of a bid on :data:`LADDER` (pass is 0); ValueError for a value nobody can bid."""
    return LADDER.index(bid)


def steps_apart(a: int, b: int) -> int:
    """How many bid steps lie between two answers (pass counts as the step below 18)."""
    return abs(step_of(a) - step_of(b))


def contract_key(contract: Contract) -> str:
    """``hearts``, ``null``, ``null hand``: a candidate's name in JSON (read back by
    :meth:`.Contract.parse`)."""
    return f"{contract.game.value} hand" if contract.hand else contract.game.value


@dataclass(frozen=True, slots=True)
class GameOutcomes:
    """One candidate game over the sampled deals: how often each (value, won) came up."""

    contract: Contract
    deals: int
    outcomes: tuple[tuple[int, bool, int], ...]
    """(value, won, count), sorted."""

    @property
    def base(self) -> int:
        """The base value (ISkO 4.1.1); a Null has none and is never overbid (2.4.4)."""
        return 0 if self.contract.game.is_null else ISKO.base_value(self.contract.game)

    def declarable(self, bid: int) -> bool:
        """A Null cannot be declared above its value (ISkO 2.4.4); the others always can."""
        if not self.contract.game.is_null:
            return True
        return game_value(self.contract).value >= bid

    def total(self, bid: int) -> int:
        """The sum of the list scores at ``bid`` (overbid deals lost with the lowest multiple)."""
        base = self.base
        out = 0
        for value, won, count in self.outcomes:
            if won and value >= bid:
                out += value * count
            else:
                out -= 2 * (value if value >= bid else lowest_multiple(base, bid)) * count
        return out

    def expected(self, bid: int) -> float | None:
        """The expected list score at ``bid``; None where the game cannot be declared."""
        if not self.declarable(bid) or not self.deals:
            return None
        return self.total(max(bid, 1)) / self.deals

    def wins(self, bid: int) -> int:
        """Deals won and worth at least ``bid``."""
        return sum(count for value, won, count in self.outcomes if won and value >= bid)

    def win_chance(self, bid: int) -> float:
        return self.wins(bid) / self.deals if self.deals else 0.0

    @property
    def limit(self) -> int:
        """The highest bid at which the expected score stays positive (0: none)."""
        best = 0
        for bid in BID_VALUES:
            expected = self.expected(bid)
            if expected is not None and expected > 0:
                best = bid
        return best

    def as_json(self) -> dict[str, Any]:
        return {
            "game": contract_key(self.contract),
            "deals": self.deals,
            "outcomes": [[v, int(w), n] for v, w, n in self.outcomes],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOutcomes:
        rows = tuple((int(r[0]), bool(r[1]), int(r[2])) for r in data["outcomes"])
        return cls(Contract.parse(str(data["game"])), int(data["deals"]), rows)


@dataclass(frozen=True, slots=True)
class BidGrading:
    """Every candidate game of one hand in one seat over the same sampled deals."""

    cards: tuple[Card, ...]
    position: int
    """0 Vorhand, 1 Mittelhand, 2 Hinterhand."""
    deals: int
    games: tuple[GameOutcomes, ...]

    @property
    def limit(self) -> int:
        """The graded bid: the highest of the games' limits (0: pass)."""
        return max((g.limit for g in self.games), default=0)

    @property
    def best(self) -> GameOutcomes:
        """The game with the highest limit; on a tie (and when all pass) the higher expected
        score at that limit (at 18 when passing)."""
        bid = self.limit or BID_VALUES[0]

        def key(g: GameOutcomes) -> tuple[int, float]:
            expected = g.expected(bid)
            return g.limit, expected if expected is not None else -1e9

        return max(self.games, key=key)

    def game(self, contract: Contract) -> GameOutcomes:
        return next(g for g in self.games if g.contract == contract)

    def as_json(self) -> dict[str, Any]:
        return {
            "cards": [c.code for c in self.cards],
            "position": self.position,
            "deals": self.deals,
            "games": [g.as_json() for g in self.games],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BidGrading:
        return cls(
            tuple(parse_card(str(c)) for c in data["cards"]),
            int(data["position"]),
            int(data["deals"]),
            tuple(GameOutcomes.from_json(g) for g in data["games"]),
        )


def _ten(cards: Iterable[Card]) -> tuple[Card, ...]:
    ten = tuple(sorted(set(cards)))
    if len(ten) != 10:
        raise ValueError("ten different cards are needed")
    return ten


def deals_for(ten: Sequence[Card], position: int, count: int, seed: int) -> list[tuple[int, int, int]]:
    """``count`` random deals of the other 22 cards as masks: (skat, the next seat's hand, the
    seat after it). Seeded by the hand, the seat and ``seed``."""
    cards = _ten(ten)
    mine = CardSet(cards).mask
    rest = [i for i in range(32) if not mine >> i & 1]
    rng = random.Random(f"bid:{seed}:{position}:{' '.join(c.code for c in cards)}")
    out: list[tuple[int, int, int]] = []
    for _ in range(count):
        rng.shuffle(rest)
        skat = (1 << rest[0]) | (1 << rest[1])
        a = 0
        for i in rest[2:12]:
            a |= 1 << i
        b = 0
        for i in rest[12:]:
            b |= 1 << i
        out.append((skat, a, b))
    return out


def _cards_of(mask: int) -> list[Card]:
    return [CARDS[i] for i in range(32) if mask >> i & 1]


def grade_bid(
    ten: Sequence[Card],
    position: int,
    *,
    deals: int = DEALS,
    seed: int = 0,
    candidates: Sequence[Contract] = CANDIDATES,
) -> BidGrading:
    """Every game of ``candidates`` for these ten cards in seat ``position`` over ``deals`` deals."""
    if position not in (0, 1, 2):
        raise ValueError("the seat is 0 (Vorhand), 1 (Mittelhand) or 2 (Hinterhand)")
    if any(c.hand and not c.game.is_null for c in candidates):
        raise ValueError("of the hand games only Null Hand is a candidate (as in lesson 7)")
    cards = _ten(ten)
    mine = CardSet(cards).mask
    sampled = deals_for(cards, position, deals, seed)
    tallies: list[Counter[tuple[int, bool]]] = [Counter() for _ in candidates]
    for skat, a, b in sampled:
        twelve = mine | skat
        twelve_cards = _cards_of(twelve)
        for i, contract in enumerate(candidates):
            game = contract.game
            null = game.is_null
            if contract.hand:
                hand = mine
                away = 0
                values = (game_value(contract).value,) * 3
            else:
                x, y = choose_discard(twelve_cards, game)
                hand = twelve & ~(x.bit | y.bit)
                away = x.points + y.points
                values = level_values(game, 0 if null else matadors_in_mask(game, twelve))
            hands = [0, 0, 0]
            hands[position] = hand
            hands[(position + 1) % 3] = a
            hands[(position + 2) % 3] = b
            result = play(hands[0], hands[1], hands[2], position, 0, game_tables(game))
            tallies[i][settle_playout(result, away, null, values)] += 1
    games = tuple(
        GameOutcomes(contract, deals, tuple(sorted((v, w, n) for (v, w), n in tally.items())))
        for contract, tally in zip(candidates, tallies)
    )
    return BidGrading(cards, position, deals, games)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m skatschule.engine.bidplay``: lesson 7's limit beside the graded bid over
    seeded random hands; CPU time per grading beside the evaluation's; the agreement last."""
    import argparse
    import time

    from . import compiled
    from .evaluation import bid_limit

    parser = argparse.ArgumentParser(description="lesson 7's hand evaluation against the bid graded by play")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(f"bidplay-bench:{args.seed}")
    exact = near = playing = playing_exact = playing_near = 0
    higher = lower = 0
    graded_time = evaluation_time = 0.0
    for _ in range(args.hands):
        ten = rng.sample(CARDS, 10)
        position = rng.randrange(3)
        start = time.process_time()
        limit = bid_limit(ten)
        evaluation_time += time.process_time() - start
        start = time.process_time()
        graded = grade_bid(ten, position, deals=args.deals).limit
        graded_time += time.process_time() - start
        apart = steps_apart(limit, graded)
        exact += apart == 0
        near += apart <= 1
        higher += step_of(graded) > step_of(limit)
        lower += step_of(graded) < step_of(limit)
        if limit or graded:
            playing += 1
            playing_exact += apart == 0
            playing_near += apart <= 1
    n = args.hands
    build = "compiled" if compiled.ACTIVE else "pure Python"
    print(f"engine: {build}; {n} seeded random hands, a random seat each, {args.deals} deals per hand")
    print(
        f"CPU per hand: graded by play {graded_time / n * 1000:.1f} ms; reference, lesson 7's evaluation "
        f"{evaluation_time / n * 1000:.3f} ms"
    )
    print(f"play grades higher than the evaluation: {higher}, lower: {lower}")
    if playing:
        print(
            f"hands where at least one says play ({playing}): the same bid {playing_exact / playing:.1%}, "
            f"within one bid step {playing_near / playing:.1%}"
        )
    print(f"agreement over {n} hands: the same bid {exact / n:.1%}, within one bid step {near / n:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
