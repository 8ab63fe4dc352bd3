"""Puzzles: the rules of what makes one, checked against the solver itself.

Every shipped puzzle is re-proved in ``tests/puzzles/test_shipped.py``; here the pieces:
equivalent cards, the learner's-view sampler, the reasons for rejecting, themes, the
explanation and the records.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from skatschule.engine import GameType
from skatschule.engine.cards import CardSet
from skatschule.engine.puzzles import (
    AUGEN_MARGIN,
    Goal,
    Puzzle,
    Reject,
    Spot,
    Theme,
    View,
    consistent_hands,
    equivalent,
    examine,
    explain,
    result,
    retag,
)
from skatschule.engine.solver import solve

SHIPPED = Path(__file__).resolve().parents[2] / "rules_content" / "puzzles" / "puzzles.jsonl"


@functools.cache
def shipped() -> list[Puzzle]:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines() if SHIPPED.exists() else []
    return [Puzzle.from_dict(json.loads(line)) for line in lines if line.strip()]


def some(n: int = 12) -> list[Puzzle]:
    found = shipped()
    assert found, "the site ships puzzles (rules_content/puzzles/)"
    return found[:n]


def test_result_classes() -> None:
    g = GameType.HEARTS
    assert [result(g, v) for v in (0, 30, 31, 60, 61, 89, 90, 120)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert result(GameType.NULL, True) == 1 and result(GameType.NULL, False) == 0


def test_equivalent_cards_get_the_same_value_from_the_solver() -> None:
    checked = 0
    for puzzle in some(30):
        state = puzzle.spot.state()
        legal = list(state.legal_cards())
        for a in legal:
            for b in legal:
                if a < b and equivalent(state, a, b):
                    assert puzzle.values[a] == puzzle.values[b]
                    checked += 1
    assert checked or len(shipped()) < 5


def test_equivalence_needs_no_live_card_between() -> None:
    puzzle = some(1)[0]
    state = puzzle.spot.state()
    seat = state.to_move
    assert seat is not None
    other = next(c for c in CardSet(state.hands[(seat + 1) % 3]))
    mine = next(iter(CardSet(state.hands[seat])))
    assert not equivalent(state, mine, other) or mine == other


def test_the_stored_answer_is_what_examine_finds() -> None:
    for puzzle in some(5):
        verdict = examine(puzzle.spot, samples=puzzle.samples or 0, sample_seed=puzzle.sample_seed)
        assert verdict.puzzle is not None
        assert verdict.puzzle.answer == puzzle.answer
        assert verdict.puzzle.values == puzzle.values
        assert verdict.puzzle.view is puzzle.view


def test_answer_keeps_the_result_and_every_other_card_fails() -> None:
    for puzzle in some(20):
        state = puzzle.spot.state()
        assert state.contract is not None
        game = state.contract.game
        mine = state.to_move == state.declarer
        sign = 1 if mine else -1
        a = puzzle.values[puzzle.answer[0]]
        for card, v in puzzle.values.items():
            if card in puzzle.answer:
                assert v == a
            elif puzzle.goal is Goal.RESULT:
                assert sign * (result(game, a) - result(game, v)) > 0
            else:
                assert sign * (int(a) - int(v)) >= AUGEN_MARGIN


def test_a_forced_card_is_no_puzzle() -> None:
    puzzle = some(1)[0]
    spot = puzzle.spot
    state = spot.state()
    # play on to the last trick: every hand holds one card
    plays = list(spot.plays)
    while state.hands[state.to_move or 0].bit_count() > 1:
        card = next(iter(state.legal_cards()))
        state.play(card)
        plays.append(card)
    last = Spot(spot.deal, spot.declarer, spot.game, spot.discard, tuple(plays))
    assert examine(last, samples=0).reject is Reject.ONE_CARD


def test_rejections_have_a_reason() -> None:
    puzzle = some(1)[0]
    spot = puzzle.spot
    seen = set()
    state = spot.state()
    plays = list(spot.plays)
    while not state.is_over():
        verdict = examine(Spot(spot.deal, spot.declarer, spot.game, spot.discard, tuple(plays)), samples=0)
        assert (verdict.puzzle is None) == (verdict.reject is not None)
        if verdict.reject:
            seen.add(verdict.reject)
        card = next(iter(state.legal_cards()))
        state.play(card)
        plays.append(card)
    assert Reject.ONE_CARD in seen


def test_sampled_deals_fit_what_the_player_saw() -> None:
    rng = random.Random(5)
    for puzzle in some(10):
        state = puzzle.spot.state()
        seat = state.to_move
        assert seat is not None and state.contract is not None
        game = state.contract.game
        for _ in range(10):
            dealt = consistent_hands(state, rng)
            assert dealt is not None
            hands, skat = dealt
            assert hands[seat] == state.hands[seat]
            assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]
            assert (hands[0] | hands[1] | hands[2] | skat) == (
                state.hands[0] | state.hands[1] | state.hands[2] | state.skat
            )
            # a seat that did not follow a group holds none of it
            for t in state.tricks:
                follow = game.follow_mask[t.cards[0].index]
                for k in (1, 2):
                    if not follow & t.cards[k].bit:
                        assert not hands[(t.leader + k) % 3] & follow
            # the solver accepts the sampled position
            solve(
                game,
                state.declarer or 0,
                [CardSet(h) for h in hands],
                leader=state.leader,
                trick=state.trick,
                skat=CardSet(skat),
                points=state.declarer_trick_points,
                card_values=False,
                target=61 if not game.is_null else None,
            )


def test_player_view_puzzles_state_their_sample_count() -> None:
    for puzzle in some(40):
        assert (puzzle.view is View.PLAYER) == (puzzle.samples > 0)


def test_themes_fit_the_position() -> None:
    for puzzle in some(60):
        state = puzzle.spot.state()
        assert state.contract is not None
        game = state.contract.game
        mine = state.to_move == state.declarer
        answer = puzzle.answer[0]
        themes = set(puzzle.themes)
        assert (Theme.ALLEINSPIEL in themes) == mine and (Theme.GEGENSPIEL in themes) != mine
        if Theme.TRUMPF_ZIEHEN in themes:
            assert mine and not state.trick and game.trump_mask & answer.bit
        if Theme.ABWERFEN in themes:
            assert state.trick and not state.hands[state.to_move or 0] & game.follow_mask[state.trick[0].index]
        if Theme.SCHMIEREN in themes:
            assert not mine and answer.points >= 10 and state.trick
        if Theme.NULL_ALLEINSPIEL in themes or Theme.NULL_VERTEIDIGUNG in themes:
            assert game.is_null
        assert (Theme.AUGEN in themes) == (puzzle.goal is Goal.AUGEN)


def _schneider_expected(puzzle: Puzzle) -> set[Theme]:
    """The Schneider themes, told from the Augen alone (ISkO 4.2.2, 4.2.3), apart from the engine's classes.

    The mover's side is Schneider with 30 Augen or fewer; the declarer wins with 61, the
    defenders with 60. *Retten*: the answer keeps the mover's side above 30 in a lost game, and
    every other card leaves it at 30 or fewer. *Spielen*: the answer keeps the other side at 30 or
    fewer, and the mover's best other card still wins, with the other side above 30.
    """
    state = puzzle.spot.state()
    if puzzle.goal is Goal.AUGEN or puzzle.spot.game.is_null:
        return set()
    mine = state.to_move == state.declarer

    def own(value: int | bool) -> int:
        return int(value) if mine else 120 - int(value)

    wins = 61 if mine else 60
    answer = own(puzzle.values[puzzle.answer[0]])
    others = [own(v) for c, v in puzzle.values.items() if c not in puzzle.answer]
    out: set[Theme] = set()
    if 30 < answer < wins and all(o <= 30 for o in others):
        out.add(Theme.SCHNEIDER_RETTEN)
    if 120 - answer <= 30 and wins <= max(others) and 120 - max(others) > 30:
        out.add(Theme.SCHNEIDER_SPIELEN)
    return out


def test_schneider_themes_follow_the_augen() -> None:
    """A defender who keeps the declarer at 30 or fewer plays Schneider; he does not escape it."""
    schneider = {Theme.SCHNEIDER_RETTEN, Theme.SCHNEIDER_SPIELEN}
    tagged = 0
    for puzzle in shipped():
        themes = set(retag(puzzle).themes) & schneider
        assert themes == _schneider_expected(puzzle), puzzle.id
        tagged += bool(themes)
    assert tagged > 100


def test_the_shipped_themes_are_the_engines() -> None:
    """The shipped file carries the themes the engine derives today (``make_puzzles --retag``)."""
    stale = [p.id for p in shipped() if retag(p).themes != p.themes]
    assert stale == []


def test_the_explanation_names_the_answer_the_line_and_the_rules() -> None:
    for puzzle in some(5):
        steps = explain(puzzle)
        text = " ".join(s.text("de") for s in steps)
        assert f"⟦card:{puzzle.answer[0].code}⟧" in text
        rules = {r for s in steps for r in s.rules}
        assert rules & {"4.2.2", "4.2.7"}
        for card in puzzle.values:
            assert f"⟦card:{card.code}⟧" in text


def test_an_augen_puzzle_explains_the_augen_not_the_result() -> None:
    """Every card keeps the result in an "Augen sichern" puzzle: the explanation gives the Augen each card brings."""
    augen = [p for p in shipped() if p.goal is Goal.AUGEN]
    assert len(augen) > 100
    for puzzle in augen[::10]:
        state = puzzle.spot.state()
        mine = state.to_move == state.declarer
        own = {c: int(v) if mine else 120 - int(v) for c, v in puzzle.values.items()}
        best = own[puzzle.answer[0]]
        for lang, word in (("de", "Augen"), ("en", "card points")):
            text = " ".join(s.text(lang) for s in explain(puzzle))
            assert "hält das Ergebnis" not in text and "keeps the result" not in text
            assert "the most card points" in text if lang == "en" else "die meisten Augen" in text
            assert f": {best} (" in text, (puzzle.id, text)
            for card, n in own.items():
                if card not in puzzle.answer:
                    assert best - n >= AUGEN_MARGIN
                    assert f"⟦card:{card.code}⟧" in text and f" {n} {word}, {best - n} " in text, (puzzle.id, text)


def test_records_round_trip_and_ids_are_stable() -> None:
    for puzzle in some(5):
        data = puzzle.as_dict()
        again = Puzzle.from_dict(json.loads(json.dumps(data)))
        assert again == puzzle and again.id == puzzle.id
        broken = dict(data, plays=data["plays"][:-1])
        with pytest.raises(ValueError):
            Puzzle.from_dict(broken)


def test_null_games_give_null_puzzles() -> None:
    from skatschule.engine.puzzles import from_bot_game

    found, counts = from_bot_game(200002, null=True)
    assert found and sum(counts.values()) >= len(found)
    for puzzle in found:
        assert puzzle.spot.game is GameType.NULL and puzzle.goal is Goal.RESULT
        assert {Theme.NULL_ALLEINSPIEL, Theme.NULL_VERTEIDIGUNG} & set(puzzle.themes)
        state = puzzle.spot.state()
        # the declarer put away his two highest cards in the Null order
        assert state.contract is not None and not state.contract.hand


@pytest.mark.slow
def test_strong_bot_games_give_proven_puzzles() -> None:
    from skatschule.engine.puzzles import STRONG_SOURCE, check_unique, puzzles_of_game, strong_game

    total = 0
    for seed in range(3):
        state = strong_game(seed)
        assert state.is_over() and state.auction.moves  # a whole game: the auction was played too
        found, counts = puzzles_of_game(state, sample_seed=seed)
        if state.contract is None:
            assert (found, counts) == ([], {"passed": 1})
            continue
        total += len(found)
        assert sum(counts.values()) >= len(found)
        plays = [c for t in state.tricks for c in t.cards]
        for puzzle in found:
            assert puzzle.source == STRONG_SOURCE and check_unique(puzzle)
            assert list(puzzle.spot.plays) == plays[: len(puzzle.spot.plays)]  # a decision of that very game
    assert total > 0
