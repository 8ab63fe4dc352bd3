"""A played game for the studies' tests, and the same game as the typed-in form's fields."""

from __future__ import annotations

import random

from skatschule.engine.cards import CardSet, deal_cards
from skatschule.engine.games import GameType
from skatschule.engine.puzzles import Spot


def random_game(seed: int = 7, game: GameType = GameType.GRAND) -> Spot:
    """A seeded deal, Vorhand declares ``game`` and puts the skat away, random legal cards to the end."""
    rng = random.Random(seed)
    deal = deal_cards(rng=rng)
    state = Spot(deal, 0, game, tuple(deal.skat), ()).state()
    plays = []
    while not state.is_over():
        card = rng.choice(list(state.legal_cards()))
        plays.append(card)
        state.play(card)
    return Spot(deal, 0, game, tuple(deal.skat), tuple(plays))


def typed_fields(spot: Spot, cards: int | None = None) -> dict[str, str]:
    """The typed-in form for ``spot``: the hands after the skat, the skat put away, the cards played."""
    state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, ()).state()
    plays = spot.plays if cards is None else spot.plays[:cards]
    return {
        "hand0": " ".join(CardSet(state.hands[0]).codes()),
        "hand1": " ".join(CardSet(state.hands[1]).codes()),
        "hand2": " ".join(CardSet(state.hands[2]).codes()),
        "skat": " ".join(CardSet(state.skat).codes()),
        "spiel": spot.game.value,
        "allein": str(spot.declarer),
        "karten": " ".join(c.code for c in plays),
    }


def stop_with_a_wrong_card(spot: Spot) -> int:
    """A late moment (cheap to solve) where some legal card is wrong."""
    from skatschule.engine.puzzles import grade

    for moment in range(len(spot.plays) - 1, 17, -1):
        state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, spot.plays[:moment]).state()
        if len(state.legal_cards()) >= 2 and len(grade(state).right) < len(state.legal_cards()):
            return moment
    raise AssertionError("no such stop in this game")
