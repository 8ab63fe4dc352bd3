"""A casebook case asked with other numbers: for the referee exam, where memorising is not enough.

Every case that the rulings engine decides with one of the six common irregularities
(revoke, lead out of turn, skat looked at, cards exposed, a concession by either side; no
``continuation`` or ``accepted``, ISkO rules) can be asked again with new numbers. A variant
is drawn from the case by changes that keep every card of the record where the rules put it:

- the suits are relabelled (a permutation of Kreuz, Pik, Herz, Karo drawn from the seed;
  the jacks keep their suits outside Null, so their order and every trick stay the same),
  so the trump suit and with it the base value and the list entry change;
- a hand game may become one with the skat picked up and put back, and a game with a
  discard a hand game whose skat is the discard (the same cards in play; another value);
- one to three pairs of cards trade places everywhere in the record (two cards of one
  hand, two cards that are followed alike, or any two): Augen, matadors and tricks move;
- the bid is drawn anew from the bids the new game reaches at the case's level (a case
  that turns on an overbid game keeps its bid), and the auction is written for it.

The engine decides every draw (:mod:`skatschule.engine.rulings`); a draw the rules refuse
(a card played out of turn, a follow broken) is dropped. A variant is kept only when it keeps
the case's decision (who wins, at which level, overbid or not, who broke the rule, by which
rules) and differs
from the case in its answer (the list entry) and in its Augen (where the case has any taken):
what the case teaches stays, the published numbers never come back. The text is generated like
that of :mod:`skatschule.exercises.regelverstoss` (no case prose, no title), so the question
stands alone. The answer is the declarer's list entry (widget ``number``): it cannot be guessed
from options.

Not in ``REGISTRY`` (no lesson uses it): the exam asks it under the slug ``fall_variante``.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from typing import Any

from skatschule.engine import (
    BID_VALUES,
    CardSet,
    Contract,
    Deal,
    GameType,
    SkatError,
    Text,
    game_value,
    matadors,
    parse_card,
)
from skatschule.engine.rulings import Event, Irregularity, Level
from skatschule.engine.vectors import replay_from_input, ruling_from_input
from skatschule.exercises.base import AnswerError
from skatschule.exercises.regelverstoss import Regelverstoss, Scenario

from .. import cases as casebook

__all__ = ["FallVariante", "eligible", "variant_input", "differs", "pool", "shown_numbers"]

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


VARIANT_TRIES = 300
"""Draws from the seed before the variant comes from the case's fixed pool (:func:`pool`)."""
POOL_TRIES = 6000
POOL_SIZE = 24


def _verdict(ruling: Any) -> tuple[bool, Level | None, bool, Any, frozenset[str]]:
    """Who wins, at which level (None for Null), whether the game was overbid, who broke the rule,
    and the rules the decision cites: what the case teaches."""
    return bool(ruling.won), ruling.level, bool(ruling.overbid), ruling.guilty, frozenset(ruling.rule_ids)


def shown_numbers(inp: dict[str, Any]) -> tuple[object, ...]:
    """The numbers a question states about a record: the game (with Hand), matadors, Augen of
    both parties (declarer's tricks in Null) before the irregularity."""
    state = replay_from_input(inp, "isko")
    declaration = inp["declaration"]
    game = (declaration["game"], bool(declaration.get("hand")))
    if GameType(declaration["game"]).is_null:
        return (*game, state.declarer_trick_count)
    return (*game, state.matadors(), state.declarer_augen(), state.defender_augen())


def differs(case: casebook.Case, inp: dict[str, Any]) -> bool:
    """Does ``inp`` keep the case's decision and change its answer and its Augen?

    The Augen must differ wherever the case has taken any (in Null: the game must differ,
    which a new answer implies there)."""
    original = casebook.engine_ruling(case)
    try:
        ruling = ruling_from_input(inp, "isko")
        numbers = shown_numbers(inp)
    except SkatError:
        return False
    if _verdict(ruling) != _verdict(original) or ruling.score == original.score:
        return False
    before = shown_numbers(casebook.thaw(case.engine_input))
    if GameType(inp["declaration"]["game"]).is_null:
        return True
    augen, case_augen = numbers[-2:], before[-2:]
    return augen != case_augen or case_augen == (0, 0)


def variant_input(case: casebook.Case, rng: random.Random) -> dict[str, Any]:
    """The case's engine input with other numbers (see the module docstring), drawn with ``rng``.

    After :data:`VARIANT_TRIES` draws that do not :func:`differ <differs>` from the case, one of
    the case's fixed :func:`pool` of variants, picked with ``rng``; never the case itself.
    """
    for _ in range(VARIANT_TRIES):
        inp = _draw_variant(case, rng)
        if differs(case, inp):
            return inp
    found = pool(case.id)
    if not found:
        raise SkatError(f"{case.id} lässt sich nicht abwandeln", f"{case.id} cannot be varied")
    chosen: dict[str, Any] = json.loads(rng.choice(found))
    return chosen


@functools.cache
def pool(case_id: str) -> tuple[str, ...]:
    """Up to :data:`POOL_SIZE` variants of a case (JSON), drawn once from a fixed seed."""
    case = casebook.get_case(case_id)
    assert case is not None
    rng = random.Random(f"fall_variante-pool:{case_id}")
    found: dict[str, None] = {}
    for _ in range(POOL_TRIES):
        inp = _draw_variant(case, rng)
        if differs(case, inp):
            found.setdefault(json.dumps(inp, sort_keys=True), None)
            if len(found) == POOL_SIZE:
                break
    return tuple(found)


def _swap(inp: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The record with cards ``a`` and ``b`` trading places wherever they occur."""

    def f(code: str) -> str:
        return b if code == a else a if code == b else code

    out: dict[str, Any] = casebook.thaw(inp)
    out["deal"] = [[f(c) for c in part] for part in out["deal"]]
    out["plays"] = [f(c) for c in out.get("plays") or []]
    declaration = dict(out["declaration"])
    if declaration.get("discard"):
        declaration["discard"] = [f(c) for c in declaration["discard"]]
    out["declaration"] = declaration
    event = dict(out["event"])
    if event.get("card"):
        event["card"] = f(event["card"])
    out["event"] = event
    return out


def _flip_hand(inp: dict[str, Any], declarer: int) -> dict[str, Any]:
    """A hand game with the skat picked up and put back, or a game with a discard played from
    the hand with the discard as its skat: the same cards in play, another value."""
    declaration = dict(inp["declaration"])
    if declaration.get("ouvert") or declaration.get("schneider_announced") or declaration.get("schwarz_announced"):
        return inp
    out: dict[str, Any] = casebook.thaw(inp)
    if declaration.get("hand"):
        declaration["hand"], declaration["discard"] = False, list(out["deal"][3])
    else:
        put_away = list(declaration["discard"])
        twelve = out["deal"][declarer] + out["deal"][3]
        out["deal"][declarer] = [c for c in twelve if c not in put_away]
        out["deal"][3] = put_away
        declaration["hand"], declaration["discard"] = True, None
    out["declaration"] = declaration
    return out


def _draw_variant(case: casebook.Case, rng: random.Random) -> dict[str, Any]:
    inp: dict[str, Any] = casebook.thaw(case.engine_input)
    declaration = dict(inp["declaration"])
    null = declaration["game"] == "null"
    suits = dict(zip("CSHD", rng.choice(_PERMUTATIONS), strict=True))
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
    if rng.random() < 0.5:
        inp = _flip_hand(inp, declarer)
    game = GameType(declaration["game"])
    cards = [c for part in inp["deal"] for c in part]
    for _ in range(rng.randint(1, 3)):
        a = rng.choice(cards)
        group = game.follow_mask[parse_card(a).index]
        kind = rng.random()
        if kind < 0.4:  # two cards of one hand that are followed alike: the same tricks, other Augen
            holder = next(part for part in inp["deal"] if a in part)
            mates = [c for c in holder if c != a and game.follow_mask[parse_card(c).index] == group]
        elif kind < 0.7:
            mates = [c for c in cards if c != a and game.follow_mask[parse_card(c).index] == group]
        else:
            mates = [c for c in cards if c != a]
        if mates:
            inp = _swap(inp, a, rng.choice(mates))

    bid = [int(v) for _, v in inp["auction"] if isinstance(v, int)][-1]
    original = casebook.engine_ruling(case)
    if not original.overbid:
        contract = _contract(inp["declaration"])
        deal = Deal.from_codes(inp["deal"])
        twelve = CardSet(deal.hand(declarer)) | CardSet(deal.skat)
        level = original.level
        top = game_value(
            contract,
            0 if null else matadors(contract.game, twelve),
            schneider=level in (Level.SCHNEIDER, Level.SCHWARZ),
            schwarz=level is Level.SCHWARZ,
        ).value
        reachable = [b for b in BID_VALUES if b <= top]
        bid = rng.choice(reachable[-8:])
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


@functools.lru_cache(maxsize=1024)
def _variant_of(case_id: str, seed: int) -> str:
    """The variant an exam question asks (JSON; a question is drawn again for every page and answer)."""
    case = casebook.get_case(case_id)
    assert case is not None
    return json.dumps(variant_input(case, random.Random(f"{FallVariante.slug}:{case_id}:{seed}")))


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
        inp: dict[str, Any] = json.loads(_variant_of(case.id, seed))
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
