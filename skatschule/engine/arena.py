"""Bot strength, measured: duplicate deals scored by Seeger-Fabian.

``python -m skatschule.engine.arena`` plays each pairing of players on the same seeded
deals. A deal is played once per seat rotation: player A sits in seat 0, then 1, then 2,
player B in the other two seats, so every hand (and every seat's turn to bid and lead)
is played by both. Every game goes from the auction to the last card; each player bids,
declares and plays by its own level. The score of a game is the Seeger-Fabian list
(:func:`..lists.seeger_totals`: the list entry plus 50 for a won game, minus 50 for a lost
one, and 40 for each defender when the declarer loses; a passed-in deal counts 0).

For one deal, A's mean Seeger-Fabian points per game (over its three games) minus B's
(over its six) is one measurement; the pairing's result is their mean over the deals
with a 95 % confidence interval (normal approximation, mean ± 1.96 standard errors).
Positive: A is stronger. The players: random legal cards (bidding and declaring like
the bots), and each :class:`.bots.BotLevel` (the beginner is the rule bot).

Also printed, under each pairing: how many games each player declared and won, and which
part of the difference comes from the games A declared (the rest from the games B declared,
A defending): the bidding is the same at every level, so the declarer and mostly the game
are the same in all three rotations and the split shows whether A gains with its own games
or on defence. And the CPU time per card decision of each level. Choices depend only on the
deal and fixed seeds (the arena runs the levels without their time caps), so a run can
be repeated exactly and spread over processes (``--jobs``). The last line is the figure
of the last pairing.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .bots import BotLevel, bot_move, choose_card, random_card
from .cards import deal_cards
from .game import GameState, Phase, Play
from .lists import seeger_totals

__all__ = ["PLAYERS", "GameRecord", "DealRecord", "PairingResult", "play_game", "play_deal", "run_pairing", "main"]

RANDOM = "random"
PLAYERS: tuple[str, ...] = (RANDOM,) + tuple(level.value for level in BotLevel)
"""Weakest first: random legal cards, then the bot levels."""

DEFAULT_PAIRINGS = ("beginner-random", "club-beginner", "strong-club", "strong-beginner")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of the arena."""

    points: list[int]
    """Each seat's Seeger-Fabian points."""
    declarer: int | None
    """None: passed in."""
    won: bool
    seconds: dict[str, float]
    """CPU seconds spent on card decisions, per player."""
    decisions: dict[str, int]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal's three games (one per seat rotation) from the first player's side."""

    diff: float
    """The first player's mean points per game minus the second's."""
    as_declarer: float
    """The part of ``diff`` from the games the first player declared (the rest: the second did)."""
    declared: dict[str, tuple[int, int]]
    """Per player: games declared and won."""
    seconds: dict[str, float]
    decisions: dict[str, int]


@dataclass(frozen=True, slots=True)
class PairingResult:
    first: str
    second: str
    deals: int
    mean: float
    """The first player's mean Seeger-Fabian points per game minus the second's."""
    low: float
    high: float
    seconds: dict[str, float]
    """CPU seconds spent on card decisions, per player."""
    decisions: dict[str, int]
    as_declarer: float = 0.0
    """The part of ``mean`` from the games the first player declared."""
    declared: dict[str, tuple[int, int]] | None = None
    """Per player: games declared and won."""

    def roles(self) -> str:
        """Where the difference comes from: the games each side declared, and how often it won."""
        declared = self.declared or {}
        parts = []
        for player in (self.first, self.second):
            games, won = declared.get(player, (0, 0))
            share = f"{100 * won / games:.1f} %" if games else "-"
            parts.append(f"{player} declared {games} games, won {share}")
        return (
            f"{'; '.join(parts)}; of the {self.mean:+.1f}: {self.as_declarer:+.1f} from games {self.first} "
            f"declared, {self.mean - self.as_declarer:+.1f} from games {self.second} declared"
        )

    def line(self) -> str:
        return (
            f"{self.first} vs {self.second}: {self.mean:+.1f} points per game, "
            f"95 % CI [{self.low:+.1f}, {self.high:+.1f}] over {self.deals} deals"
        )

    def cost(self, player: str) -> str:
        n = self.decisions.get(player, 0)
        ms = 1000 * self.seconds.get(player, 0.0) / n if n else 0.0
        return f"{player}: {ms:.1f} ms per card ({n} cards)"


def _card(state: GameState, player: str, rng: random.Random) -> Play:
    if player == RANDOM:
        return Play(random_card(state, rng))
    level = BotLevel(player)
    return Play(choose_card(state, config=replace(level.config, time_cap=None), rng=rng).card)


def play_game(deal_seed: int, players: Sequence[str], *, rng_seed: int = 0) -> GameRecord:
    """One game on the deal ``deal_seed``, seat ``s`` played by ``players[s]``: the
    Seeger-Fabian points of each seat, the declarer, and the CPU seconds and count of card
    decisions per player."""
    state = GameState(deal_cards(deal_seed))
    rngs = [random.Random(rng_seed * 3 + s) for s in range(3)]
    seconds: dict[str, float] = {}
    decisions: dict[str, int] = {}
    while not state.is_over():
        seat = state.to_move
        assert seat is not None
        player = players[seat]
        if state.phase is Phase.PLAY:
            start = time.process_time()
            state.push(_card(state, player, rngs[seat]))
            seconds[player] = seconds.get(player, 0.0) + time.process_time() - start
            decisions[player] = decisions.get(player, 0) + 1
        else:
            # random play bids and declares like the bots (with the one bidding rule)
            level = BotLevel.BEGINNER if player == RANDOM else BotLevel(player)
            state.push(bot_move(state, level=level))
    outcome = state.outcome()
    if outcome is None:
        return GameRecord([0, 0, 0], None, False, seconds, decisions)
    points = seeger_totals(3, [(state.declarer, outcome.score)])
    return GameRecord(points, state.declarer, outcome.won, seconds, decisions)


def play_deal(args: tuple[int, str, str]) -> DealRecord:
    """One deal, once per seat rotation: ``first`` in one seat, ``second`` in the other two.
    The first's mean points per game minus the second's, and what went into it."""
    deal_seed, first, second = args
    diff = as_declarer = 0.0
    declared: dict[str, tuple[int, int]] = {}
    seconds: dict[str, float] = {}
    decisions: dict[str, int] = {}
    for seat in range(3):
        players = [first if s == seat else second for s in range(3)]
        game = play_game(deal_seed, players, rng_seed=deal_seed * 3 + seat)
        term = game.points[seat] / 3 - (sum(game.points) - game.points[seat]) / 6
        diff += term
        if game.declarer is not None:
            who = players[game.declarer]
            games, won = declared.get(who, (0, 0))
            declared[who] = (games + 1, won + game.won)
            if game.declarer == seat:
                as_declarer += term
        for player, value in game.seconds.items():
            seconds[player] = seconds.get(player, 0.0) + value
        for player, count in game.decisions.items():
            decisions[player] = decisions.get(player, 0) + count
    return DealRecord(diff, as_declarer, declared, seconds, decisions)


def run_pairing(first: str, second: str, deals: Sequence[int], *, jobs: int = 1, progress: int = 0) -> PairingResult:
    """Play ``first`` against ``second`` on the seeded ``deals`` (``progress``: print the
    result so far after every so many deals)."""
    for player in (first, second):
        if player not in PLAYERS:
            raise ValueError(f"unknown player {player!r}: one of {', '.join(PLAYERS)}")
    work = [(seed, first, second) for seed in deals]
    results: list[DealRecord] = []
    if jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(jobs) as pool:
            for result in pool.imap(play_deal, work, chunksize=2):
                results.append(result)
                _progress(first, second, results, progress)
    else:
        for item in work:
            results.append(play_deal(item))
            _progress(first, second, results, progress)
    return _summary(first, second, results)


def _progress(first: str, second: str, results: list[DealRecord], every: int) -> None:
    if every and len(results) % every == 0:
        print(f"  after {_summary(first, second, results).line()}", flush=True)


def _summary(first: str, second: str, results: list[DealRecord]) -> PairingResult:
    diffs = [r.diff for r in results]
    seconds: dict[str, float] = {}
    decisions: dict[str, int] = {}
    declared: dict[str, tuple[int, int]] = {}
    for record in results:
        for player, value in record.seconds.items():
            seconds[player] = seconds.get(player, 0.0) + value
        for player, count in record.decisions.items():
            decisions[player] = decisions.get(player, 0) + count
        for player, (games, won) in record.declared.items():
            before = declared.get(player, (0, 0))
            declared[player] = (before[0] + games, before[1] + won)
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    as_declarer = sum(r.as_declarer for r in results) / n if n else 0.0
    return PairingResult(first, second, n, mean, mean - half, mean + half, seconds, decisions, as_declarer, declared)


def card_costs(level: BotLevel, deals: Sequence[int]) -> list[float]:
    """CPU seconds of each card decision when ``level`` plays all three seats of ``deals``, with
    the level's own budget and time cap (as at the table), sorted."""
    times: list[float] = []
    for seed in deals:
        state = GameState(deal_cards(seed))
        rng = random.Random(seed)
        while not state.is_over():
            if state.phase is Phase.PLAY:
                start = time.process_time()
                card = choose_card(state, level=level, rng=rng).card
                times.append(time.process_time() - start)
                state.push(Play(card))
            else:
                state.push(bot_move(state, level=level))
    return sorted(times)


def _print_costs(deals: Sequence[int]) -> None:
    for level in BotLevel:
        t = card_costs(level, deals)
        if not t:
            print(f"{level.value}: no card played (every deal passed in)", flush=True)
            continue
        ms = [1000 * x for x in t]
        print(
            f"{level.value}: {len(ms)} cards, CPU per card: mean {sum(ms) / len(ms):.1f} ms, "
            f"median {ms[len(ms) // 2]:.1f}, p95 {ms[int(0.95 * len(ms))]:.1f}, max {ms[-1]:.1f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-deal", type=int, default=0, help="seed of the first deal")
    parser.add_argument(
        "--pairings",
        default=",".join(DEFAULT_PAIRINGS),
        help=f"comma-separated A-B pairs of {', '.join(PLAYERS)} (default: %(default)s)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--progress", type=int, default=0, help="print the result so far every N deals")
    parser.add_argument(
        "--costs", action="store_true", help="instead: the CPU time per card of each level, all seats one level"
    )
    args = parser.parse_args(argv)
    pairings = [tuple(p.split("-")) for p in args.pairings.split(",") if p]
    for pair in pairings:
        if len(pair) != 2 or not set(pair) <= set(PLAYERS):
            parser.error(f"bad pairing {'-'.join(pair)!r}: use A-B with A, B in {', '.join(PLAYERS)}")
    deals = range(args.first_deal, args.first_deal + args.deals)
    if args.costs:
        _print_costs(deals)
        return 0
    print(f"{args.deals} duplicate deals (seeds {deals.start}..{deals.stop - 1}), three games each", flush=True)
    results = []
    for first, second in pairings:
        start = time.perf_counter()
        result = run_pairing(first, second, deals, jobs=args.jobs, progress=args.progress)
        results.append(result)
        costs = "; ".join(result.cost(p) for p in (first, second) if p != RANDOM)
        print(f"{result.line()} ({costs}; {time.perf_counter() - start:.0f} s wall time)", flush=True)
        print(f"  {result.roles()}", flush=True)
    if results:
        print(results[-1].line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
