"""Lesson 15's ``hausregel`` exercise builds only games that can happen (issue 26 §1.3)."""

from __future__ import annotations

import pytest

from skatschule.engine.feasible import game_possible
from skatschule.engine.houserules import spitze_cards
from skatschule.exercises import get
from skatschule.exercises.hausregel import Hausregel

SEEDS = 2_000
"""Each game is also dealt and played by the engine (tests/training/test_finished_games.py)."""


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_generated_game_is_possible(level: int) -> None:
    kind = get("hausregel")
    assert isinstance(kind, Hausregel)
    spitze_games = 0
    for seed in range(SEEDS):
        g = kind.scenario(level, seed).game
        assert g.game is not None
        where = (level, seed, g)
        # a trick holds at most 33 Augen, the skat at most 22: what the other side took must fit its tricks
        assert 120 - g.declarer_points <= 33 * (10 - g.declarer_tricks), where
        assert g.declarer_points <= 33 * g.declarer_tricks + 22, where
        if g.spitze:
            spitze_games += 1
            assert len(spitze_cards(g.game, g.spitze)) == g.spitze
            if g.spitze_made:
                assert g.declarer_tricks >= g.spitze, where  # made Spitzen take the last tricks
        assert game_possible(
            g.game,
            matadors=g.matadors,
            points=g.declarer_points,
            tricks=g.declarer_tricks,
            spitze=g.spitze,
            spitze_made=g.spitze_made,
        ), where
    if level == 3:
        assert spitze_games > SEEDS // 3  # the level still asks for Spitzen
