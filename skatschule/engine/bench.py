"""Benchmark: random legal complete games per second on one core, beside a naive oracle.

    python -m skatschule.engine.bench [--seconds 3] [--seed 1]
    python -m skatschule.engine.bench --solver [--deals 50]

Each game: a seeded deal, a random declarer and declaration (pick-up with a random
discard, or hand), 30 random legal cards (fewer where the rules end the game early)
chosen from the legal mask that :meth:`GameState.play` returns and checked again by it,
and the scored :class:`Outcome`. The same games are played by the naive oracle
(:mod:`.bench_naive`: lists of cards, legal cards by filtering the hand, tricks by comparing
ranks), in batches of 100, engine and oracle taking turns, each timed in CPU time of this
process (``time.process_time``), so that other work on a shared machine does not count and
a spell of load falls on both alike. It prints both rates, then ``games_per_second: N`` (the
engine) and last ``times_the_oracle: R`` (the engine's rate over the oracle's).

With ``--solver`` it times the open-hand solver instead (:mod:`.solver`) on a fixed set
of seeded full deals (10 cards a hand, Vorhand to lead, the skat as dealt put away):
the games cycle through Kreuz, Pik, Herz, Karo, Grand and Null, the declarer through
the three seats. For each deal it times the exact value and the win/lose question at 61
(Null: no trick?) in CPU time of this process (``time.process_time``), so that other work
on a shared machine does not count, for the compiled build (where built), the pure build
and the solver before issue 23 (:mod:`.bench_reference`, the reference in the same run),
deal by deal one build after the other, so that a spell of load hits all builds alike.
It prints mean and 95th percentile of each, the nodes of the exact values and their rate,
and last ``seconds_per_deal: N`` (the exact value's mean for the build that runs).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from . import compiled
from . import game as game_module
from .bench_naive import play_naive_game
from .cards import CARDS, CardSet, Deal, deal_cards
from .game import GameState
from .games import WIN_POINTS, Contract, GameType

__all__ = ["play_random_game", "report_times", "main"]

_DECLARATIONS = tuple((Contract(game), Contract(game, hand=True)) for game in GameType)
"""For each game type: the declaration after picking up the skat, and the hand game."""
_CARD_OF_BIT = {card.bit: card for card in CARDS}


def play_random_game(rng: random.Random) -> GameState:
    """One random legal game from the deal to the result."""
    random_ = rng.random
    deal = deal_cards(rng=rng)
    hand = random_() < 0.25
    contract = _DECLARATIONS[int(random_() * 6)][hand]
    declarer = int(random_() * 3)
    discard = None
    if not hand:
        # two different cards of the declarer's twelve, uniformly
        twelve = deal.hand(declarer) + deal.skat
        i = int(random_() * 12)
        j = int(random_() * 11)
        discard = (twelve[i], twelve[j + (j >= i)])
    state = GameState.start(deal, declarer=declarer, bid=18, contract=contract, discard=discard)
    play = state.play
    legal = state.legal_mask()
    while legal:  # 0 once the game is over
        # drop a random number (0 to n - 1) of the n legal cards, lowest first, and play
        # the lowest card left: each legal card with the same chance
        drop = random_() * legal.bit_count()
        while drop >= 1.0:
            legal &= legal - 1
            drop -= 1.0
        legal = play(_CARD_OF_BIT[legal & -legal])
    state.score()
    return state


_SOLVER_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)


def solver_deals(count: int = 50, seed: int = 2026) -> list[tuple[GameType, int, Deal]]:
    """The fixed set of the solver benchmark: (game, declarer, deal) for ``count`` seeded deals."""
    rng = random.Random(seed)
    return [(_SOLVER_GAMES[k % 6], k % 3, deal_cards(rng=rng)) for k in range(count)]


def pure_solver() -> ModuleType:
    """The solver's Python source loaded as a module of its own: the pure build beside the
    compiled one in one process (it is :mod:`.solver` itself when nothing is compiled)."""
    return pure_module("solver")


def pure_module(name: str) -> ModuleType:
    """The Python source of the compiled engine module ``name`` (one of
    :data:`.compiled.MODULES`) loaded as a module of its own, ``_<name>_pure``: the pure build
    beside the compiled one in one process (the module itself when nothing is compiled)."""
    module = importlib.import_module(f"{__package__}.{name}")
    if not compiled.ACTIVE:
        return module
    pure = f"{__package__}._{name}_pure"
    if pure in sys.modules:
        return sys.modules[pure]
    spec = importlib.util.spec_from_file_location(pure, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[pure] = module
    spec.loader.exec_module(module)
    return module


def _solve_deal(module: ModuleType, game: GameType, declarer: int, deal: Deal, target: int | None) -> Any:
    """``module.solve`` for a full deal (Vorhand leads, the skat as dealt put away): the exact
    value, or ``target`` yes/no (Null: no trick?); no card values."""
    return module.solve(
        game,
        declarer,
        [CardSet(deal.hand(s)) for s in range(3)],
        leader=0,
        skat=CardSet(deal.skat),
        card_values=False,
        target=None if game.is_null else target,
    )


def _time_deal(module: ModuleType, game: GameType, declarer: int, deal: Deal, target: int | None) -> tuple[float, int]:
    """CPU seconds and nodes of :func:`_solve_deal`."""
    start = time.process_time()
    solution = _solve_deal(module, game, declarer, deal, target)
    return time.process_time() - start, int(getattr(solution, "nodes", 0))


_QUERIES: dict[str, int | None] = {"win/lose at 61": WIN_POINTS, "exact value": None}


def _time_builds(
    builds: list[tuple[str, ModuleType]], deals: list[tuple[GameType, int, Deal]]
) -> tuple[dict[tuple[str, str], list[float]], dict[tuple[str, str], int]]:
    """CPU seconds per deal by (build, question), and the nodes over all deals. Deal by deal,
    all builds one after the other: a spell of load on the shared machine falls on every build
    alike instead of on whichever build runs then."""
    results: dict[tuple[str, str], list[float]] = {(label, query): [] for label, _ in builds for query in _QUERIES}
    nodes: dict[tuple[str, str], int] = {(label, query): 0 for label, _ in builds for query in _QUERIES}
    for query, target in _QUERIES.items():
        for game, declarer, deal in deals:
            for label, module in builds:
                seconds, count = _time_deal(module, game, declarer, deal, target)
                results[label, query].append(seconds)
                nodes[label, query] += count
    return results, nodes


def bench_solver(count: int, verbose: bool, reference: bool = True) -> float:
    """Exact value and win/lose at 61 per deal for the build that runs (compiled where built),
    the pure build and today's solver before issue 23 (:mod:`.bench_reference`), all in this run."""
    from . import bench_reference, solver

    deals = solver_deals(count)
    builds: list[tuple[str, ModuleType]] = []
    if compiled.ACTIVE:
        builds.append(("compiled", solver))
    builds.append(("pure", pure_solver()))
    if reference:
        builds.append(("reference (before)", bench_reference))
    results, nodes = _time_builds(builds, deals)
    if verbose:
        first = builds[0][1]
        for k, (game, declarer, deal) in enumerate(deals):
            solution = _solve_deal(first, game, declarer, deal, None)
            value = solution.declarer_wins if game.is_null else solution.declarer_points
            cells = "  ".join(
                f"{label[:4]} {results[label, 'exact value'][k]:6.3f}/{results[label, 'win/lose at 61'][k]:6.3f}"
                for label, _ in builds
            )
            print(f"{k:3d} {game.value:9s} declarer {declarer}: {value!s:>5}  {cells}  (s exact/61)")
    print(f"{len(deals)} full deals (10 cards a hand), CPU time of this process per deal, one core, CPython")
    ref = "reference (before)"
    for query in ("win/lose at 61", "exact value"):
        for label, _ in builds:
            times = results[label, query]
            line = f"{query:15s} {label:19s} mean {_mean(times) * 1000:9.1f} ms  p95 {_p95(times) * 1000:9.1f} ms"
            if reference and label != ref:
                line += f"  {_mean(results[ref, query]) / _mean(times):5.1f}x faster than the reference (mean)"
            print(line)
    for label, _ in builds:
        if label == ref:
            continue
        count = nodes[label, "exact value"]
        rate = count / max(sum(results[label, "exact value"]), 1e-9) / 1e6
        print(f"exact value     {label:19s} {count:,} nodes, {rate:.2f}M nodes/s")
    return report_times(results[builds[0][0], "exact value"], "seconds_per_deal")


def _mean(times: list[float]) -> float:
    return sum(times) / len(times)


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def report_times(times: list[float], figure: str) -> float:
    """Print mean, 95th percentile and maximum of ``times``, then ``figure: <mean>`` as the
    last line (the benchmark's figure); returns the mean."""
    mean = _mean(times)
    print(f"mean: {mean:.4f} s, p95: {_p95(times):.4f} s, max: {max(times):.4f} s")
    print(f"{figure}: {mean:.4f}")
    return mean


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solver", action="store_true", help="time the open-hand solver instead")
    parser.add_argument("--deals", type=int, default=50, help="with --solver: how many deals")
    parser.add_argument("--verbose", action="store_true", help="with --solver: one line per deal")
    parser.add_argument(
        "--no-reference", action="store_true", help="with --solver: skip the solver before issue 23 (slow)"
    )
    args = parser.parse_args(argv)
    if args.solver:
        bench_solver(args.deals, args.verbose, not args.no_reference)
        return 0
    bench_games(args.seconds, args.seed)
    return 0


def bench_games(seconds: float, seed: int) -> float:
    """Random games of the engine and of the naive oracle, the same games in turns of 100,
    for about ``seconds`` of CPU time in all; prints both rates and returns their ratio."""
    engine_rng, oracle_rng = random.Random(seed), random.Random(seed)
    for _ in range(200):  # warm up
        play_random_game(engine_rng)
        play_naive_game(oracle_rng)
    games = 0
    engine = oracle = 0.0
    clock = time.process_time
    while engine + oracle < seconds or not games:
        start = clock()
        for _ in range(100):
            play_random_game(engine_rng)
        middle = clock()
        for _ in range(100):
            play_naive_game(oracle_rng)
        engine += middle - start
        oracle += clock() - middle
        games += 100
    build = "interpreted" if str(game_module.__file__).endswith(".py") else "compiled"
    print(f"engine (game.py {build}): {games} games in {engine:.2f} s CPU, {games / engine:,.0f} games/s (CPython)")
    print(f"naive oracle: the same {games} games in {oracle:.2f} s CPU, {games / oracle:,.0f} games/s")
    print(f"games_per_second: {int(games / engine)}")
    ratio = oracle / engine
    print(f"times_the_oracle: {ratio:.2f}")
    return ratio


if __name__ == "__main__":
    raise SystemExit(main())
