"""A casebook case asked with other numbers: for the referee exam, where memorising is not enough.

Every case that the rulings engine decides with one of the six common irregularities
(revoke, lead out of turn, skat looked at, cards exposed, a concession by either side; no
``continuation`` or ``accepted``, ISkO rules) can be asked again with new numbers:

- the suits are relabelled (a permutation of Kreuz, Pik, Herz, Karo drawn from the seed;
  the jacks keep their suits outside Null, so their order and every trick stay the same),
  so the trump suit and with it the base value and the list entry change;
- the bid is drawn anew from the bid values the relabelled game reaches (a case that
  turns on an overbid game keeps its bid), and the auction is written for it.

Matadors, card points and the course of play are those of the case, relabelled; the engine
decides the relabelled game (:mod:`skatschule.engine.rulings`) and its derivation is the
feedback. The text is generated like that of :mod:`skatschule.exercises.regelverstoss` (no case prose, no
title), so the question stands alone. The answer is the declarer's list entry (widget
``number``): it cannot be guessed from options.

Not in ``REGISTRY`` (no lesson uses it): the exam asks it under the slug ``fall_variante``.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from skatschule.engine import BID_VALUES, CardSet, Contract, Deal, GameType, Text, game_value, matadors, parse_card
from skatschule.engine.rulings import Event, Irregularity, Level
from skatschule.engine.vectors import ruling_from_input
from skatschule.exercises.base import AnswerError
from skatschule.exercises.regelverstoss import Regelverstoss, Scenario

from .. import cases as casebook

__all__ = ["FallVariante", "eligible", "variant_input"]

_SIMPLE = frozenset(
    {"revoke", "lead_out_of_turn", "skat_viewed", "cards_exposed", "declarer_concedes", "defender_concedes"}
)
_SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_SUIT_OF_GAME = {name: letter for letter, name in _SUIT_NAMES.items()}
_PERMUTATIONS = tuple(p for p in itertools.permutations("CSHD") if p != tuple("CSHD"))


def _is_simple(case: casebook.Case) -> bool:
    inp = case.engine_input
    if not inp:
        return False
    event = inp["event"]
    declaration = inp.get("declaration") or {}
    return (
        event["type"] in _SIMPLE
        and set(event) <= {"type", "seat", "card"}
        and (inp.get("rules") or "isko") == "isko"
        and bool(declaration.get("game"))
    )


def eligible() -> tuple[casebook.Case, ...]:
    """The engine cases that can be asked with other numbers, in casebook order."""
    return tuple(case for case in casebook.load_cases() if _is_simple(case))


def _auction(declarer: int, bid: int) -> list[list[object]]:
    """A short auction that makes ``declarer`` the declarer at ``bid``."""
    if declarer == 0:
        return [[1, bid], [0, "y"], [1, "p"], [2, "p"]]
    if declarer == 1:
        return [[1, bid], [0, "p"], [2, "p"]]
    return [[1, "p"], [2, bid], [0, "p"]]


def _relabel(code: str, suits: dict[str, str], null: bool) -> str:
    suit, rank = code[0], code[1:]
    if rank == "J" and not null:
        return code
    return suits[suit] + rank


VARIANT_TRIES = 20


def _verdict(ruling: Any) -> tuple[bool, Level | None, bool]:
    """Who wins, at which level (None for Null), and whether the game was overbid."""
    return bool(ruling.won), ruling.level, bool(ruling.overbid)


def variant_input(case: casebook.Case, rng: random.Random) -> dict[str, Any]:
    """The case's engine input with relabelled suits and a new bid (see the module docstring).

    A variant must keep the case's decision (who wins, at which level, overbid or not):
    what the case teaches stays, only the numbers change. After :data:`VARIANT_TRIES` draws
    without such a variant the case is asked with its own numbers.
    """
    wanted = _verdict(casebook.engine_ruling(case))
    for _ in range(VARIANT_TRIES):
        inp = _draw_variant(case, rng)
        if _verdict(ruling_from_input(inp, "isko")) == wanted:
            return inp
    original: dict[str, Any] = casebook.thaw(case.engine_input)
    return original


def _draw_variant(case: casebook.Case, rng: random.Random) -> dict[str, Any]:
    inp: dict[str, Any] = casebook.thaw(case.engine_input)
    declaration = dict(inp["declaration"])
    null = declaration["game"] == "null"
    suits = dict(zip("CSHD", rng.choice(_PERMUTATIONS)))
    inp["deal"] = [[_relabel(c, suits, null) for c in part] for part in inp["deal"]]
    inp["plays"] = [_relabel(c, suits, null) for c in inp.get("plays") or []]
    if declaration.get("discard"):
        declaration["discard"] = [_relabel(c, suits, null) for c in declaration["discard"]]
    if declaration["game"] in _SUIT_OF_GAME:
        declaration["game"] = _SUIT_NAMES[suits[_SUIT_OF_GAME[declaration["game"]]]]
    inp["declaration"] = declaration
    event = dict(inp["event"])
    if event.get("card"):
        event["card"] = _relabel(event["card"], suits, null)
    inp["event"] = event

    declarer = case.declarer
    assert declarer is not None
    bid = [int(v) for _, v in inp["auction"] if isinstance(v, int)][-1]
    original = casebook.engine_ruling(case)
    if not null and not original.overbid:
        contract = _contract(declaration)
        deal = Deal.from_codes(inp["deal"])
        twelve = CardSet(deal.hand(declarer)) | CardSet(deal.skat)
        plain = game_value(contract, matadors(contract.game, twelve)).value
        reachable = [b for b in BID_VALUES if b <= plain]
        bid = rng.choice(reachable[-6:])
    inp["auction"] = _auction(declarer, bid)
    return inp


def _contract(declaration: dict[str, Any]) -> Contract:
    return Contract(
        GameType(declaration["game"]),
        hand=bool(declaration.get("hand")),
        ouvert=bool(declaration.get("ouvert")),
        schneider_announced=bool(declaration.get("schneider_announced")),
        schwarz_announced=bool(declaration.get("schwarz_announced")),
    )


class FallVariante(Regelverstoss):
    """A casebook case with other numbers, asked like a generated irregularity.

    Level 2 (the exam's) asks for the list entry (widget ``number``); level 1 asks who wins.
    """

    slug = "fall_variante"
    name = Text("Entscheide den Fall", "Decide the case")
    description = Text(
        "Ein Fall aus der Fallsammlung, mit anderen Karten und Zahlen: Was kommt in die Liste?",
        "A case from the casebook with other cards and numbers: what goes on the score sheet?",
    )
    levels = 2

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        raise NotImplementedError  # the seed picks the case (see scenario)

    def case_for(self, seed: int) -> casebook.Case:
        cases = eligible()
        if not cases:
            raise AnswerError("Kein Fall lässt sich abwandeln", "No case can be varied")
        return cases[seed % len(cases)]

    def scenario(self, difficulty: int, seed: int) -> Scenario:
        self.check_difficulty(difficulty)
        case = self.case_for(seed)
        inp = variant_input(case, random.Random(f"{self.slug}:{case.id}:{seed}"))
        declarer = case.declarer
        assert declarer is not None
        bid = [int(value) for _, value in inp["auction"] if isinstance(value, int)][-1]  # the last bid wins
        raw = inp["event"]
        event = Event(Irregularity(raw["type"]), raw["seat"], parse_card(raw["card"]) if raw.get("card") else None)
        declaration = inp["declaration"]
        discard = tuple(parse_card(c) for c in declaration["discard"]) if declaration.get("discard") else None
        plays = tuple(parse_card(c) for c in inp["plays"])
        contract = _contract(declaration)
        return Scenario(Deal.from_codes(inp["deal"]), declarer, bid, contract, discard, plays, event, difficulty)
