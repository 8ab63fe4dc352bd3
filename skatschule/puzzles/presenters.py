"""What a puzzle page shows: the position as the mover sees it (or all cards open), never the answer."""

from __future__ import annotations

from typing import Any

from skatschule.engine.cards import CardSet
from skatschule.engine.games import is_trump
from skatschule.engine.names import game_ref, suit_ref
from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.engine.puzzles import View, augen_so_far, describe, explain
from skatschule.engine.seats import SEATS
from skatschule.engine.sorting import sort_hand
from skatschule.engine.text import Text


def _seat(seat: int, lang: str) -> str:
    return SEATS[seat].text.get(lang)


def present_position(puzzle: EnginePuzzle, lang: str) -> dict[str, Any]:
    state = puzzle.spot.state()
    assert state.contract is not None and state.declarer is not None and state.to_move is not None
    game = state.contract.game
    mover = state.to_move
    declarer_augen, defender_augen = augen_so_far(state)
    others = []
    if puzzle.view is View.OPEN:
        for seat in (1, 2):
            s = (mover + seat) % 3
            others.append(
                {
                    "seat": _seat(s, lang),
                    "declarer": s == state.declarer,
                    "cards": [c.code for c in sort_hand(CardSet(state.hands[s]), game)],
                }
            )
    skat: list[str] = []
    if puzzle.view is View.OPEN or (mover == state.declarer and state.picked_up):
        skat = [c.code for c in sort_hand(CardSet(state.skat), game)]
    trick = [{"seat": _seat((state.leader + k) % 3, lang), "card": c.code} for k, c in enumerate(state.trick)]
    tricks = [
        {
            "number": n,
            "cards": [c.code for c in t.cards],
            "leader": _seat(t.leader, lang),
            "winner": _seat(t.winner, lang),
        }
        for n, t in enumerate(state.tricks, 1)
    ]
    return {
        "id": puzzle.id,
        "task": describe(puzzle, lang),
        "game": game_ref(game),
        "open": puzzle.view is View.OPEN,
        "samples": puzzle.samples,
        "mover": _seat(mover, lang),
        "is_declarer": mover == state.declarer,
        "declarer": _seat(state.declarer, lang),
        "hand": [c.code for c in sort_hand(CardSet(state.hands[mover]), game)],
        "legal": [c.code for c in state.legal_cards()],
        "others": others,
        "skat": skat,
        "put_away": state.picked_up,
        "trick": trick,
        "tricks": tricks,
        "declarer_augen": declarer_augen,
        "defender_augen": defender_augen,
        "themes": [{"slug": t.value, "title": t.title.get(lang)} for t in puzzle.themes],
    }


def present_solution(puzzle: EnginePuzzle, lang: str) -> dict[str, Any]:
    """Shown only after an answer: the answer and the engine's derivation."""
    steps = explain(puzzle)
    rules: dict[str, None] = {}
    for step in steps:
        for rule in step.rules:
            rules.setdefault(rule, None)
    return {
        "answer": [c.code for c in puzzle.answer],
        "steps": [{"text": step.text(lang), "rules": list(step.rules)} for step in steps],
        "rule_ids": list(rules),
    }


def present_hints(puzzle: EnginePuzzle, level: int) -> list[Text]:
    """The hints taken so far, never the card: 1 the puzzle's themes, 2 also where the solution
    lies (trump, or the suits of the right cards)."""
    hints: list[Text] = []
    if level >= 1:
        titles_de = ", ".join(t.title.get("de") for t in puzzle.themes)
        titles_en = ", ".join(t.title.get("en") for t in puzzle.themes)
        hints.append(Text(f"Worum es geht: {titles_de}.", f"What it is about: {titles_en}."))
    if level >= 2:
        state = puzzle.spot.state()
        assert state.contract is not None
        game = state.contract.game
        trumps = any(is_trump(game, c) for c in puzzle.answer)
        suits = sorted({c.suit for c in puzzle.answer if not is_trump(game, c)})
        where_de = [*(["ein Trumpf"] if trumps else []), *(f"eine Karte der Farbe {suit_ref(s)}" for s in suits)]
        where_en = [*(["a trump"] if trumps else []), *(f"a card in {suit_ref(s)}" for s in suits)]
        hints.append(Text(f"Gesucht ist {' oder '.join(where_de)}.", f"The answer is {' or '.join(where_en)}."))
    return hints
