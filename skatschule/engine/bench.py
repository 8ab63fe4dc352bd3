"""Benchmark: random legal complete games per second on one core.

    python -m skatschule.engine.bench [--seconds 3] [--seed 1]

Each game: a seeded deal, a random declarer and declaration (pick-up with a random
discard, or hand), 30 random legal cards through :meth:`GameState.play`, and the
scored :class:`Outcome`. The last line printed is ``games_per_second: N``.
"""

from __future__ import annotations

import argparse
import random
import time

from .cards import CARDS, deal_cards
from .games import Contract, GameType
from .game import GameState

__all__ = ["play_random_game", "main"]

_GAMES = tuple(GameType)


def play_random_game(rng: random.Random) -> GameState:
    """One random legal game from the deal to the result."""
    deal = deal_cards(rng=rng)
    game = _GAMES[rng.randrange(6)]
    hand = rng.random() < 0.25
    declarer = rng.randrange(3)
    discard = None
    if not hand:
        twelve = deal.hand(declarer) + deal.skat
        i, j = rng.sample(range(12), 2)
        discard = (twelve[i], twelve[j])
    state = GameState.start(deal, declarer=declarer, bid=18, contract=Contract(game, hand=hand), discard=discard)
    random_ = rng.random
    play = state.play
    legal = state.legal_mask
    while not state.is_over():
        mask = legal()
        k = int(random_() * mask.bit_count())
        while k:
            mask &= mask - 1
            k -= 1
        play(CARDS[(mask & -mask).bit_length() - 1])
    state.score()
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
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
