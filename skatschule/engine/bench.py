"""Benchmark: random legal complete games per second on one core.

    python -m skatschule.engine.bench [--seconds 3] [--seed 1]

Each game: a seeded deal, a random declarer and declaration (pick-up with a random
discard, or hand), 30 random legal cards (fewer where the rules end the game early)
chosen from the legal mask that :meth:`GameState.play` returns and checked again by it,
and the scored :class:`Outcome`. The last line printed is ``games_per_second: N``.
"""

from __future__ import annotations

import argparse
import random
import time

from .cards import CARDS, deal_cards
from .games import Contract, GameType
from .game import GameState

__all__ = ["play_random_game", "main"]

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
