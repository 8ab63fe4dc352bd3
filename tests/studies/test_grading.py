"""A stop is graded by the open-hand solver as the puzzles grade (engine.puzzles.grade): checked
here against a plain exhaustive search over the rules' own game (engine.game.GameState), written
without the solver, on the last tricks of seeded random games in every game type."""

from __future__ import annotations

import random

from skatschule.engine.cards import Card, CardSet, deal_cards
from skatschule.engine.game import GameState
from skatschule.engine.games import GameType
from skatschule.engine.puzzles import Goal, Spot, grade
from skatschule.studies.grading import grade_stops

GAMES = list(GameType)


def _after(spot: Spot, plays: list[Card]) -> GameState:
    return Spot(spot.deal, spot.declarer, spot.game, spot.discard, tuple(plays)).state()


def _final(spot: Spot, plays: list[Card]) -> int:
    """Best play from here by plain minimax over whole games: the declarer's Augen with the skat
    (suit and Grand), or in Null 1 when he takes no trick, else 0."""
    state = _after(spot, plays)
    if state.is_over():
        if spot.game.is_null:
            return 0 if any(t.winner == spot.declarer for t in state.tricks) else 1
        return state.declarer_trick_points + CardSet(state.skat).points
    values = [_final(spot, [*plays, card]) for card in state.legal_cards()]
    return max(values) if state.to_move == spot.declarer else min(values)


def _level(spot: Spot, value: int) -> int:
    if spot.game.is_null:
        return value
    return 0 if value <= 30 else 1 if value <= 60 else 2 if value <= 89 else 3


def _expected(spot: Spot, moment: int) -> tuple[set[str], Goal]:
    """The right cards found by hand: best result class for the mover's side, else most Augen."""
    plays = list(spot.plays[:moment])
    state = _after(spot, plays)
    mine = state.to_move == spot.declarer
    value = {c.code: _final(spot, [*plays, c]) for c in state.legal_cards()}
    level = {c: _level(spot, v) for c, v in value.items()}
    pick = max if mine else min
    best = pick(level.values())
    right = {c for c, lv in level.items() if lv == best}
    if len(right) < len(level) or spot.game.is_null:
        return right, Goal.RESULT
    most = pick(value.values())
    return {c for c, v in value.items() if v == most}, Goal.AUGEN


def _games(count: int) -> list[Spot]:
    """Seeded random games in every game type: random deal, random legal cards to the end."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        deal = deal_cards(rng=rng)
        game = GAMES[seed % len(GAMES)]
        start = Spot(deal, seed % 3, game, tuple(deal.skat), ())
        state = start.state()
        plays = []
        while not state.is_over():
            card = rng.choice(list(state.legal_cards()))
            plays.append(card)
            state.play(card)
        out.append(Spot(deal, seed % 3, game, tuple(deal.skat), tuple(plays)))
    return out


def _positions() -> list[tuple[Spot, int]]:
    out = []
    for spot in _games(16):
        for moment in range(21, len(spot.plays)):  # at most 3 cards a hand: small enough for minimax
            state = _after(spot, list(spot.plays[:moment]))
            if len(state.legal_cards()) >= 2:
                out.append((spot, moment))
    return out


def test_a_stop_is_graded_as_an_exhaustive_search_finds() -> None:
    positions = _positions()
    wrong_somewhere = 0
    for spot, moment in positions:
        graded = grade(_after(spot, list(spot.plays[:moment])))
        right, goal = _expected(spot, moment)
        assert ({c.code for c in graded.right}, graded.goal) == (right, goal), (spot.as_dict(), moment)
        wrong_somewhere += len(graded.values) > len(graded.right)
    assert len(positions) >= 15 and wrong_somewhere >= 5  # the check sees right and wrong cards


def test_the_job_payload_grades_each_stop_alone() -> None:
    spot = _games(1)[0]
    last = len(spot.plays)
    data = grade_stops(spot.as_dict(), [last - 4, last - 7])
    assert set(data["stops"]) == {str(last - 4), str(last - 7)}
    for moment, found in data["stops"].items():
        graded = grade(_after(spot, list(spot.plays[: int(moment)])))
        assert found["right"] == [c.code for c in graded.right]
        assert set(found["values"]) == {c.code for c in graded.values}
    assert grade_stops(spot.as_dict(), [0], max_nodes=50) == {"stops": {"0": {"too_big": True}}}
