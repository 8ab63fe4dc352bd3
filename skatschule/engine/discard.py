"""Drücken: grade all 66 ways to put two of twelve cards away, by the expected list score.

The declarer holds twelve cards after picking up the skat. For a game, every discard (two of
the twelve, 66 in all) meets the same sampled deals of the defenders' 20 cards (common random
numbers: a difference between two discards is never the luck of the deal). Each deal is
played to the end with all cards open by the quick look-ahead of :mod:`.playout`; the
declarer sits in Vorhand and leads the first trick. The Augen put away count for him
(ISkO 1.2.1). The list score of the deal follows from :func:`.scoring.game_value` with the
Spitzen of the twelve cards: won ``+value``, lost ``-2 * value`` (ISkO 4.3.1, 4.3.4;
Schneider and Schwarz 4.2.3; Null 23).

Why not the solver: one of its yes/no questions costs tens of milliseconds on ten-card hands,
and 66 discards over 200 deals ask 13,200 of them per game. The playout answers one deal in
well under a millisecond (compiled), so all 66 discards of a game take about a second.

:func:`grade` grades one game; :func:`grade_hand` the learner's game and the best one: every
other game is first screened over the first :data:`SCREEN_DEALS` deals (the same deals), the
most promising is then graded over all of them. :class:`HandGrading` keeps both, serialises to
JSON for the jobs and ranks a learner's answer (:meth:`HandGrading.rank`).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, CardSet, parse_card
from .games import WIN_POINTS, Contract, GameType
from .playout import Tables, play, tables
from .scoring import game_value, levels_reached, matadors_in_mask

__all__ = [
    "CANDIDATE_GAMES",
    "DEALS",
    "SCREEN_DEALS",
    "DiscardGrade",
    "game_tables",
    "level_values",
    "settle_playout",
    "GameGrading",
    "HandGrading",
    "deals_for",
    "grade",
    "grade_hand",
    "rank_of",
    "all_discards",
]

CANDIDATE_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)
DEALS = 200
"""Deals of the defenders' cards per grading (the issue asks for at least 200)."""
SCREEN_DEALS = 40
"""Deals on which the other games are screened before the most promising is graded in full."""

_KIND = {game: i for i, game in enumerate(CANDIDATE_GAMES)}


@dataclass(frozen=True, slots=True)
class DiscardGrade:
    """One discard for one game over the sampled deals."""

    cards: tuple[Card, Card]
    game: GameType
    total: int
    """The sum of the list scores over the deals."""
    won: int
    deals: int
    augen: int = 0
    """The declarer's Augen (skat included) summed over the deals."""
    tricks: int = 0
    """The declarer's tricks summed over the deals."""

    @property
    def expected(self) -> float:
        """The expected list score (mean over the deals)."""
        return self.total / self.deals if self.deals else 0.0

    @property
    def augen_away(self) -> int:
        """The Augen put away: they count for the declarer."""
        return self.cards[0].points + self.cards[1].points

    @property
    def mean_augen(self) -> float:
        return self.augen / self.deals if self.deals else 0.0

    @property
    def mean_tricks(self) -> float:
        return self.tricks / self.deals if self.deals else 0.0

    def as_json(self) -> list[Any]:
        return [self.cards[0].code, self.cards[1].code, self.total, self.won, self.augen, self.tricks]

    @classmethod
    def from_json(cls, game: GameType, deals: int, row: Sequence[Any]) -> DiscardGrade:
        a, b = sorted((parse_card(str(row[0])), parse_card(str(row[1]))))
        return cls((a, b), game, int(row[2]), int(row[3]), deals, int(row[4]), int(row[5]))


@dataclass(frozen=True, slots=True)
class GameGrading:
    """All graded discards of one game, best first."""

    game: GameType
    deals: int
    grades: tuple[DiscardGrade, ...]

    @property
    def best(self) -> DiscardGrade:
        return self.grades[0]

    def rank(self, cards: Iterable[Card]) -> int:
        """The place (1 = best) of a discard; ties share the better place."""
        return rank_of(self.grades, tuple(cards))

    def grade_of(self, cards: Iterable[Card]) -> DiscardGrade:
        pair = tuple(sorted(cards))
        return next(g for g in self.grades if g.cards == pair)

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game.value, "deals": self.deals, "grades": [g.as_json() for g in self.grades]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameGrading:
        game = GameType(str(data["game"]))
        deals = int(data["deals"])
        return cls(game, deals, tuple(DiscardGrade.from_json(game, deals, row) for row in data["grades"]))


@dataclass(frozen=True, slots=True)
class HandGrading:
    """The learner's game and the best game of a hand, each with all 66 discards graded."""

    cards: tuple[Card, ...]
    chosen: GameGrading
    best: GameGrading
    screened: dict[GameType, float] = field(default_factory=dict)
    """The expected score of each game's best discard on the screening deals."""

    @property
    def deals(self) -> int:
        return self.chosen.deals

    @property
    def chose_best_game(self) -> bool:
        return self.best.game is self.chosen.game

    def as_json(self) -> dict[str, Any]:
        return {
            "cards": [c.code for c in self.cards],
            "chosen": self.chosen.as_json(),
            "best": self.best.as_json(),
            "screened": {game.value: value for game, value in self.screened.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandGrading:
        return cls(
            tuple(parse_card(str(c)) for c in data["cards"]),
            GameGrading.from_json(data["chosen"]),
            GameGrading.from_json(data["best"]),
            {GameType(str(k)): float(v) for k, v in dict(data.get("screened", {})).items()},
        )


def _twelve(twelve: Iterable[Card]) -> list[Card]:
    cards = sorted(set(twelve))
    if len(cards) != 12:
        raise ValueError("twelve different cards are needed")
    return cards


def all_discards(twelve: Iterable[Card]) -> list[tuple[Card, Card]]:
    """The 66 pairs of the twelve cards."""
    return list(itertools.combinations(_twelve(twelve), 2))


def deals_for(twelve: Sequence[Card], count: int, seed: int) -> list[tuple[int, int]]:
    """``count`` random splits of the other 20 cards into the two defenders' hands (masks).

    The generator is seeded with the hand and ``seed``: the same hand always meets the same deals.
    """
    cards = _twelve(twelve)
    mine = CardSet(cards).mask
    rest = [i for i in range(32) if not mine >> i & 1]
    rng = random.Random(f"discard:{seed}:{' '.join(c.code for c in cards)}")
    out: list[tuple[int, int]] = []
    for _ in range(count):
        rng.shuffle(rest)
        a = 0
        for i in rest[:10]:
            a |= 1 << i
        b = 0
        for i in rest[10:]:
            b |= 1 << i
        out.append((a, b))
    return out


@functools.cache
def game_tables(game: GameType) -> Tables:
    """The playout's tables of ``game`` (kept: one set per game)."""
    return tables(_KIND[game])


@functools.cache
def level_values(game: GameType, matadors: int) -> tuple[int, int, int]:
    """The value of ``game`` with pick-up plain, with Schneider and with Schwarz (Null: its
    fixed value three times)."""
    contract = Contract(game)
    if game.is_null:
        value = game_value(contract).value
        return value, value, value
    return (
        game_value(contract, matadors).value,
        game_value(contract, matadors, schneider=True).value,
        game_value(contract, matadors, schneider=True, schwarz=True).value,
    )


def settle_playout(result: int, away: int, null: bool, values: tuple[int, int, int]) -> tuple[int, bool]:
    """The value and the win of one deal played out by :func:`.playout.play` for the declarer:
    ``away`` the Augen in the skat (they count for him), ``values`` from :func:`level_values`.
    Won with 61 Augen (Null: without a trick); Schneider and Schwarz by either party count."""
    if null:
        return values[0], result == 0
    got = (result >> 4) + away
    schneider, schwarz = levels_reached(got, result & 15)
    return values[2 if schwarz else 1 if schneider else 0], got >= WIN_POINTS


def _accumulate(
    cards: list[Card], game: GameType, pairs: Sequence[tuple[Card, Card]], deals: Sequence[tuple[int, int]]
) -> list[list[int]]:
    """Per pair: [total score, won, Augen, tricks] over ``deals``."""
    t = game_tables(game)
    twelve_mask = CardSet(cards).mask
    values = level_values(game, 0 if game.is_null else matadors_in_mask(game, twelve_mask))
    null = game.is_null
    out: list[list[int]] = []
    for a, b in pairs:
        skat = a.bit | b.bit
        hand = twelve_mask & ~skat
        away = a.points + b.points
        total = won = augen = tricks = 0
        for left, right in deals:
            result = play(hand, left, right, 0, 0, t)
            value, win = settle_playout(result, away, null, values)
            if null:
                tricks += result
            else:
                augen += (result >> 4) + away
                tricks += result & 15
            if win:
                total += value
                won += 1
            else:
                total -= 2 * value
        out.append([total, won, augen, tricks])
    return out


def _sorted(grades: list[DiscardGrade]) -> tuple[DiscardGrade, ...]:
    return tuple(sorted(grades, key=lambda g: (-g.total, -g.augen, -g.augen_away, g.cards)))


def grade(
    twelve: Sequence[Card],
    game: GameType,
    *,
    deals: int = DEALS,
    seed: int = 0,
    discards: Iterable[tuple[Card, Card]] | None = None,
) -> list[DiscardGrade]:
    """Every discard (or the ones given) for ``game``, best expected list score first."""
    cards = _twelve(twelve)
    sampled = deals_for(cards, deals, seed)
    pairs = [tuple(sorted(p)) for p in discards] if discards is not None else all_discards(cards)
    rows = _accumulate(cards, game, pairs, sampled)  # type: ignore[arg-type]
    grades = [DiscardGrade((p[0], p[1]), game, row[0], row[1], deals, row[2], row[3]) for p, row in zip(pairs, rows)]
    return list(_sorted(grades))


def rank_of(grades: Sequence[DiscardGrade], cards: tuple[Card, ...]) -> int:
    """The place (1 = best) of a discard among the graded ones; ties share the better place."""
    pair = tuple(sorted(cards))
    mine = next(g for g in grades if g.cards == pair)
    return 1 + sum(1 for g in grades if g.total > mine.total)


def grade_hand(  # noqa: PLR0913 - over the budget since issue 27; to be split
    twelve: Sequence[Card],
    game: GameType,
    *,
    deals: int = DEALS,
    seed: int = 0,
    screen: int = SCREEN_DEALS,
    games: Sequence[GameType] = CANDIDATE_GAMES,
) -> HandGrading:
    """All 66 discards for ``game`` and for the best game of the hand, over ``deals`` deals.

    Every other game of ``games`` is screened over the first ``screen`` deals; the one whose
    best discard scores highest there is graded over all deals and is the best game if its best
    discard beats that of ``game``.
    """
    cards = _twelve(twelve)
    sampled = deals_for(cards, deals, seed)
    pairs = all_discards(cards)

    def full(kind: GameType) -> GameGrading:
        rows = _accumulate(cards, kind, pairs, sampled)
        grades = [DiscardGrade(p, kind, r[0], r[1], deals, r[2], r[3]) for p, r in zip(pairs, rows)]
        return GameGrading(kind, deals, _sorted(grades))

    chosen = full(game)
    first = sampled[: min(screen, deals)]
    screened: dict[GameType, float] = {}
    for other in games:
        if other is game:
            continue
        rows = _accumulate(cards, other, pairs, first)
        screened[other] = max(r[0] for r in rows) / len(first)
    best = chosen
    if screened:
        hope = max(screened, key=lambda g: screened[g])
        challenger = full(hope)
        if challenger.best.total > chosen.best.total:
            best = challenger
    return HandGrading(tuple(cards), chosen, best, screened)


BENCH_HANDS = (
    ("CJ SJ HA HT HK H9 H7 CA C8 SK S7 D9", GameType.HEARTS),
    ("CJ HJ CA CT CK C9 C8 SA ST H7 H8 DK", GameType.CLUBS),
    ("CJ SJ HJ CA CT SA ST SK HA H7 D8 D7", GameType.GRAND),
    ("DJ SA SK SQ S9 S8 HT HQ D7 DA DT C7", GameType.SPADES),
    ("C7 C8 C9 S7 S8 SJ H7 H9 HQ D7 D8 DT", GameType.NULL),
)
"""Fixed hands for :func:`main`: suit games, a Grand, a weak suit game and a Null."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """How often the playout and the solver win the same deals for one hand, game and discard."""

    game: GameType
    discard: tuple[Card, Card]
    deals: int
    playout_won: int
    """Deals the playout wins for the declarer (61 Augen; Null: no trick)."""
    solver_won: int
    """Deals the declarer wins with best play of all three, cards open (the solver's proof)."""
    agree: int
    """Deals where both say the same."""


def calibrate(twelve: Sequence[Card], game: GameType, *, deals: int = 40, seed: int = 0) -> Calibration:
    """Play the best discard of ``game`` (by the playout) over ``deals`` sampled deals twice:
    by :func:`.playout.play` and by the solver's proof with open cards, and count the wins.

    The solver plays perfectly with all cards open, which is the ceiling of both parties'
    play; where the playout wins more often, it rates the declarer too high."""
    from .solver import solve

    cards = _twelve(twelve)
    best = grade(cards, game, deals=deals, seed=seed)[0].cards
    skat = best[0].bit | best[1].bit
    twelve_mask = CardSet(cards).mask
    hand = twelve_mask & ~skat
    away = best[0].points + best[1].points
    values = level_values(game, 0 if game.is_null else matadors_in_mask(game, twelve_mask))
    t = game_tables(game)
    target = None if game.is_null else WIN_POINTS
    playout_won = solver_won = agree = 0
    for left, right in deals_for(cards, deals, seed):
        _, by_play = settle_playout(play(hand, left, right, 0, 0, t), away, game.is_null, values)
        hands = [CardSet(hand), CardSet(left), CardSet(right)]
        by_proof = solve(game, 0, hands, leader=0, skat=list(best), card_values=False, target=target).declarer_wins
        playout_won += by_play
        solver_won += by_proof
        agree += by_play == by_proof
    return Calibration(game, best, deals, playout_won, solver_won, agree)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m skatschule.engine.discard``: CPU seconds per :func:`grade_hand` (the last line),
    beside the solver's cost for the same work, measured on a sample and extrapolated."""
    import argparse
    import time

    from . import compiled
    from .cards import parse_cards
    from .solver import solve

    parser = argparse.ArgumentParser(description="time the Drücken grading")
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument(
        "--calibrate",
        type=int,
        metavar="N",
        help="instead: the playout's wins beside the solver's proof over N deals of each hand (and Grand)",
    )
    args = parser.parse_args(argv)
    if args.calibrate:
        return _print_calibration(args.calibrate)
    build = "compiled" if compiled.ACTIVE else "pure Python"
    times = []
    for text, game in BENCH_HANDS:
        cards = parse_cards(text)
        start = time.process_time()
        found = grade_hand(cards, game, deals=args.deals)
        took = time.process_time() - start
        times.append(took)
        best = found.best.best
        print(
            f"{text} {game.value}: {took:.2f} s; best game {found.best.game.value}, "
            f"best discard {best.cards[0].code} {best.cards[1].code} ({best.expected:+.1f})"
        )
    # the reference: the solver's yes/no question "61?" for a few discards and deals, per question
    cards = parse_cards(BENCH_HANDS[0][0])
    sample = deals_for(cards, 4, 0)
    asked = 0
    start = time.process_time()
    for a, b in all_discards(cards)[-3:]:
        hand = CardSet(cards).mask & ~(a.bit | b.bit)
        for left, right in sample:
            hands = [CardSet(hand), CardSet(left), CardSet(right)]
            solve(BENCH_HANDS[0][1], 0, hands, leader=0, skat=[a, b], card_values=False, target=WIN_POINTS)
            asked += 1
    per_question = (time.process_time() - start) / asked
    questions = 66 * args.deals * 2 + 5 * 66 * SCREEN_DEALS
    print(f"reference: the solver's 61-question {per_question * 1000:.0f} ms ({build}); the same grading")
    print(f"  with one question per deal and discard would take about {per_question * questions:.0f} s")
    print(f"engine: {build}; {len(times)} hands, {args.deals} deals, the longest {max(times):.2f} s")
    print(f"seconds_per_grading: {sum(times) / len(times):.2f}")
    return 0


def _print_calibration(deals: int) -> int:
    from .cards import parse_cards

    rows: list[Calibration] = []
    for text, game in BENCH_HANDS:
        for kind in dict.fromkeys((game, GameType.GRAND)):
            row = calibrate(parse_cards(text), kind, deals=deals)
            rows.append(row)
            print(
                f"{text} {kind.value}, discard {row.discard[0].code} {row.discard[1].code}: playout won "
                f"{row.playout_won}/{deals}, solver {row.solver_won}/{deals}, same verdict {row.agree}/{deals}"
            )
    total = deals * len(rows)
    playout = sum(r.playout_won for r in rows)
    solver = sum(r.solver_won for r in rows)
    agree = sum(r.agree for r in rows)
    print(f"playout wins {playout}/{total}, solver (open cards, best play) {solver}/{total}")
    print(f"same_verdict: {agree / total:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
