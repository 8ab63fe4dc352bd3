"""Benchmark: random legal complete games per second on one core.

    python -m skatschule.engine.bench [--seconds 3] [--seed 1]
    python -m skatschule.engine.bench --solver [--deals 50]

Each game: a seeded deal, a random declarer and declaration (pick-up with a random
discard, or hand), 30 random legal cards (fewer where the rules end the game early)
chosen from the legal mask that :meth:`GameState.play` returns and checked again by it,
and the scored :class:`Outcome`. The last line printed is ``games_per_second: N``.

With ``--solver`` it times the open-hand solver instead (:mod:`.solver`) on a fixed set
of seeded full deals (10 cards a hand, Vorhand to lead, the skat as dealt put away):
the games cycle through Kreuz, Pik, Herz, Karo, Grand and Null, the declarer through
the three seats. Each deal is timed in CPU time of this process (``time.process_time``),
so that other work on a shared machine does not count. It prints the mean and the 95th
percentile and last ``seconds_per_deal: N`` (the mean).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from .cards import CARDS, CardSet, Deal, deal_cards
from .game import GameState
from .games import Contract, GameType

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


def bench_solver(count: int, verbose: bool) -> float:
    from .solver import solve

    times: list[float] = []
    for k, (game, declarer, deal) in enumerate(solver_deals(count)):
        start = time.process_time()
        solution = solve(
            game,
            declarer,
            [CardSet(deal.hand(s)) for s in range(3)],
            leader=0,
            skat=CardSet(deal.skat),
            card_values=False,
        )
        elapsed = time.process_time() - start
        times.append(elapsed)
        if verbose:
            value = solution.declarer_wins if game.is_null else solution.declarer_points
            print(
                f"{k:3d} {game.value:9s} declarer {declarer}: {value!s:>5} {solution.nodes:9d} nodes {elapsed:7.3f} s"
            )
    print(f"deals: {len(times)}, total {sum(times):.1f} s of CPU time (one core, CPython)")
    return report_times(times, "seconds_per_deal")


def report_times(times: list[float], figure: str) -> float:
    """Print mean, 95th percentile and maximum of ``times``, then ``figure: <mean>`` as the
    last line (the benchmark's figure); returns the mean."""
    ordered = sorted(times)
    mean = sum(times) / len(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    print(f"mean: {mean:.3f} s, p95: {p95:.3f} s, max: {ordered[-1]:.3f} s")
    print(f"{figure}: {mean:.3f}")
    return mean


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solver", action="store_true", help="time the open-hand solver instead")
    parser.add_argument("--deals", type=int, default=50, help="with --solver: how many deals")
    parser.add_argument("--verbose", action="store_true", help="with --solver: one line per deal")
    args = parser.parse_args(argv)
    if args.solver:
        bench_solver(args.deals, args.verbose)
        return 0
    rng = random.Random(args.seed)
    for _ in range(200):  # warm up
        play_random_game(rng)
    games = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while True:
        for _ in range(100):
            play_random_game(rng)
        games += 100
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    print(f"games: {games} in {elapsed:.2f} s (one core, CPython)")
    print(f"games_per_second: {int(games / elapsed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
