"""Random building blocks shared by several exercise types.

Only ``random.Random`` instances handed in by the caller are used, so every scenario
stays a pure function of ``(type, difficulty, seed)``. The answers are never computed
here; the types ask the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from skatschule.engine import (
    BID_VALUES,
    CARDS,
    ISKO,
    Card,
    CardSet,
    Contract,
    GameType,
    Outcome,
    RuleSet,
    Text,
    game_value,
    legal_cards,
    matadors,
    matadors_text,
    score_game,
    trump_order,
)
from skatschule.engine.feasible import Witness, finished_game
from skatschule.engine.games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, SPLIT_POINTS, TOTAL_POINTS, TRICKS, WIN_POINTS
from skatschule.engine.scoring import levels_reached

from .helpers import SUIT_GAMES

__all__ = [
    "weighted",
    "random_matadors",
    "cards_with_matadors",
    "SKAT_SUMS",
    "points_and_tricks",
    "FinishedGame",
    "random_finished_game",
    "finished_game_facts",
    "won_result",
    "in_category",
    "bid_up_to",
    "NULL_CONTRACTS",
    "legal_trick",
]

NULL_CONTRACTS: tuple[Contract, ...] = (
    Contract(GameType.NULL),
    Contract(GameType.NULL, hand=True),
    Contract(GameType.NULL, ouvert=True),
    Contract(GameType.NULL, hand=True, ouvert=True),
)

SKAT_SUMS: tuple[int, ...] = tuple(sorted({a.points + b.points for a, b in combinations(CARDS, 2)}))
"""Every Augen total two cards can have (what a declarer without a trick still owns: the skat)."""


def weighted(rng: random.Random, table: Sequence[tuple[int, float]]) -> int:
    """One value of ``table`` ((value, weight) pairs), drawn by weight."""
    values = [v for v, _ in table]
    weights = [w for _, w in table]
    return rng.choices(values, weights)[0]


_MATADOR_WEIGHTS: dict[int, tuple[tuple[int, float], ...]] = {
    1: ((1, 5), (2, 4), (3, 2)),
    2: ((1, 4), (2, 4), (3, 3), (4, 2)),
    3: ((1, 3), (2, 3), (3, 3), (4, 2), (5, 1), (6, 1), (7, 0.3), (8, 0.2), (9, 0.2), (10, 0.1), (11, 0.1)),
}


def random_matadors(rng: random.Random, game: GameType, level: int) -> int:
    """A plausible count of Spitzen, ``+N`` (mit) or ``-N`` (ohne); higher levels reach further."""
    table = [(n, w) for n, w in _MATADOR_WEIGHTS[min(level, 3)] if n <= game.max_matadors]
    count = weighted(rng, table)
    return count if rng.random() < 0.5 else -count


def _sample(rng: random.Random, pool: Sequence[Card], n: int, weight_of: dict[int, float]) -> list[Card]:
    """``n`` distinct cards of ``pool``, cards with a higher weight more likely (Efraimidis-Spirakis)."""
    keyed = sorted(pool, key=lambda c: rng.random() ** (1.0 / weight_of.get(c.index, 1.0)), reverse=True)
    return keyed[:n]


def cards_with_matadors(  # noqa: PLR0913 - over the budget since issue 27; to be split
    rng: random.Random,
    game: GameType,
    count: int,
    total: int,
    *,
    exclude: CardSet = CardSet(),
    trump_weight: float = 1.0,
) -> list[Card]:
    """``total`` cards whose Spitzen in ``game`` are exactly ``count`` (checked by the engine).

    mit N: the top N trumps and not the next one; ohne N: none of the top N, but the next.
    The other cards are drawn at random (trumps ``trump_weight`` times as likely).
    """
    order = trump_order(game)
    k = abs(count)
    if count > 0:
        need, forbid = list(order[:k]), list(order[k : k + 1])
    else:
        need, forbid = list(order[k : k + 1]), list(order[:k])
    blocked = CardSet(need) | CardSet(forbid) | exclude
    pool = [c for c in CARDS if c not in blocked]
    weights = {c.index: trump_weight for c in order}
    cards = need + _sample(rng, pool, total - len(need), weights)
    if matadors(game, cards) != count:  # pragma: no cover - a bug in this function
        raise AssertionError(f"cards_with_matadors built {matadors(game, cards)} instead of {count}")
    return cards


# --------------------------------------------------------------------------- finished games

Category = str
"""How a suit or grand game ended, from the declarer's view:
won / lost (einfach), schneider_won / schneider_lost (the other side has 30 or fewer),
schwarz_won / schwarz_lost (the other side took no trick), spaltarsch (60 each)."""


def points_and_tricks(rng: random.Random, category: Category) -> tuple[int, int]:
    """Augen (skat included) and tricks of the declarer that fit ``category``."""
    if category == "schwarz_won":
        return TOTAL_POINTS, TRICKS
    if category == "schwarz_lost":
        return rng.choice(SKAT_SUMS), 0
    if category == "schneider_won":
        points = rng.randint(SCHNEIDER_POINTS, TOTAL_POINTS - 1)
        return points, rng.randint(6, 9)
    if category == "schneider_lost":
        points = rng.randint(0, OUT_OF_SCHNEIDER - 1)
        return points, rng.randint(1, 3)
    if category == "spaltarsch":
        return SPLIT_POINTS, rng.randint(3, 6)
    if category == "won":
        points = rng.randint(WIN_POINTS, SCHNEIDER_POINTS - 1)
    elif category == "lost":
        points = rng.randint(OUT_OF_SCHNEIDER, SPLIT_POINTS)
    else:  # pragma: no cover
        raise ValueError(category)
    tricks = max(1, min(9, round(points / 12) + rng.randint(-1, 1)))
    return points, tricks


RESULTS: dict[Category, tuple[tuple[int, int], ...]] = {
    "schwarz_won": ((TOTAL_POINTS, TRICKS),),
    "schneider_won": (
        (100, 8),
        (95, 7),
        (105, 9),
        (92, 8),
        (110, 9),
        (98, 6),
        (SCHNEIDER_POINTS, 7),
        (TOTAL_POINTS - 1, 9),
        (115, 8),
    ),
    "won": (
        (75, 6),
        (70, 5),
        (80, 7),
        (65, 5),
        (86, 7),
        (62, 4),
        (SCHNEIDER_POINTS - 1, 8),
        (72, 3),
        (78, 9),
        (WIN_POINTS, 2),
    ),
}
"""Augen and tricks a won game of each level can end with, tried in this order by
:func:`won_result` (the question states only the level)."""


def in_category(category: Category, points: int, tricks: int) -> bool:
    """Does a game with the declarer's ``points`` (skat included) and ``tricks`` end in ``category``?"""
    if category == "schwarz_won":
        return tricks == 10
    if category == "schwarz_lost":
        return tricks == 0
    if category == "schneider_won":
        return points >= SCHNEIDER_POINTS and tricks < TRICKS
    if category == "schneider_lost":
        return points < OUT_OF_SCHNEIDER and tricks > 0
    if category == "spaltarsch":
        return points == SPLIT_POINTS
    if category == "won":
        return WIN_POINTS <= points < SCHNEIDER_POINTS
    if category == "lost":
        return OUT_OF_SCHNEIDER <= points <= SPLIT_POINTS
    raise ValueError(category)  # pragma: no cover


def won_result(game: GameType, matadors: int, category: Category) -> Witness | None:
    """A game won at ``category``'s level with these matadors, dealt and played by the engine
    (:func:`~skatschule.engine.feasible.finished_game`, the Augen and tricks of :data:`RESULTS`
    tried in order), or None if there is none ("ohne 1" never wins Schwarz)."""
    for points, tricks in RESULTS[category]:
        witness = finished_game(game, matadors=matadors, points=points, tricks=tricks)
        if witness is not None:
            return witness
    return None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as the score sheet sees it."""

    contract: Contract
    matadors: int
    bid: int
    points: int
    """Declarer's Augen, skat included (0 for Null: Augen do not count there)."""
    tricks: int

    def witness(self) -> Witness | None:
        """A deal and its play that end so (None for Null, which states no Augen; or if
        none can): :func:`~skatschule.engine.feasible.finished_game`."""
        if self.contract.game.is_null:
            return None
        return finished_game(self.contract.game, matadors=self.matadors, points=self.points, tricks=self.tricks)

    def score(self, rules: RuleSet = ISKO, *, kontra: bool = False, re: bool = False, bock: bool = False) -> Outcome:
        """The engine's verdict (list entry and derivation)."""
        return score_game(
            self.contract,
            self.matadors,
            bid=self.bid,
            declarer_points=self.points,
            declarer_tricks=self.tricks,
            rules=rules,
            kontra=kontra,
            re=re,
            bock=bock,
        )


def bid_up_to(rng: random.Random, top: int) -> int:
    """A bid the declarer could make for a game worth ``top``: one of the highest bid values up to it.

    The game's value itself is drawn only now and then, so the bid does not simply give
    the list entry away.
    """
    candidates = [b for b in BID_VALUES if b <= top]
    if len(candidates) == 1 or rng.random() < 0.2:
        return candidates[-1]
    return rng.choice(candidates[-5:-1])


def _bid_above(rng: random.Random, reached: int, base: int) -> int | None:
    candidates = [b for b in BID_VALUES if reached < b <= reached + max(2 * base, 20)]
    return rng.choice(candidates) if candidates else None


def _null_game(rng: random.Random, contracts: Sequence[Contract]) -> FinishedGame:
    contract = rng.choice(contracts)
    tricks = 0 if rng.random() < 0.55 else 1  # a Null game ends with the declarer's first trick
    bid = bid_up_to(rng, game_value(contract).value)
    return FinishedGame(contract, 0, bid, 0, tricks)


def random_finished_game(rng: random.Random, level: int, *, null: bool = True) -> FinishedGame:
    """A plausible finished game that can happen. Level 1: pick-up suit/grand games, won or lost
    simply; 2: hand games, Schneider and Schwarz either way, Null; 3: also overbid games,
    announced levels, ouvert games and Null ouvert.

    A suit or Grand game is drawn again until the engine deals and plays it
    (:func:`~skatschule.engine.feasible.finished_game`): "ohne 3" and Schwarz, or 87 Augen in
    8 tricks with three jacks lost, are never asked.
    """
    while True:
        game = _draw_finished_game(rng, level, null=null)
        if game.contract.game.is_null or game.witness() is not None:
            return game


def _draw_finished_game(rng: random.Random, level: int, *, null: bool) -> FinishedGame:
    games = SUIT_GAMES + (GameType.GRAND,)
    if level <= 1:
        game = rng.choice(games)
        contract = Contract(game)
        category = rng.choice(("won", "won", "won", "lost", "lost"))
        overbid = False
    elif level == 2:
        if null and rng.random() < 0.15:
            return _null_game(rng, NULL_CONTRACTS[:3])
        game = rng.choice(games)
        contract = Contract(game, hand=rng.random() < 0.4)
        category = rng.choice(
            ("won", "lost", "schneider_won", "schneider_won", "schneider_lost", "schwarz_won", "schwarz_lost")
        )
        overbid = False
    else:
        kind = rng.choice(("overbid", "overbid", "announced", "ouvert", "null", "plain"))
        if kind == "null" and null:
            return _null_game(rng, NULL_CONTRACTS)
        game = rng.choice(games)
        overbid = kind == "overbid"
        if kind == "announced":
            if rng.random() < 0.6:
                contract = Contract(game, hand=True, schneider_announced=True)
                category = rng.choice(("schneider_won", "schwarz_won", "won", "lost"))
            else:
                contract = Contract(game, hand=True, schwarz_announced=True)
                category = rng.choice(("schwarz_won", "schneider_won"))
        elif kind == "ouvert":
            contract = Contract(game, hand=True, ouvert=True)
            category = rng.choice(("schwarz_won", "schwarz_won", "schneider_won"))
        else:
            contract = Contract(game, hand=rng.random() < 0.35)
            category = rng.choice(("won", "won", "lost", "schneider_won", "schneider_lost", "spaltarsch"))
    count = random_matadors(rng, game, level)
    points, tricks = points_and_tricks(rng, category)
    bid = 0
    if overbid:
        schneider, schwarz = levels_reached(points, tricks)
        reached = game_value(contract, count, schneider=schneider, schwarz=schwarz)
        bid = _bid_above(rng, reached.value, reached.base) or 0
    if not bid:
        bid = bid_up_to(rng, game_value(contract, count).value)
    return FinishedGame(contract, count, bid, points, tricks)


def finished_game_facts(game: FinishedGame) -> list[Text]:
    """The lines a score keeper needs: game, Spitzen, bid, Augen, tricks."""
    facts = [Text(f"Spiel: {game.contract.ref('de', capital=True)}", f"Game: {game.contract.ref('en', capital=True)}")]
    if not game.contract.game.is_null:
        facts.append(
            Text(
                f"Spitzen (mit Skat): {matadors_text(game.matadors, 'de')}",
                f"Matadors (skat included): {matadors_text(game.matadors, 'en')}",
            )
        )
    facts.append(Text(f"Gereizt bis: {game.bid}", f"Bid: {game.bid}"))
    if game.contract.game.is_null:
        if game.tricks == 0:
            facts.append(Text("Der Alleinspieler hat keinen Stich bekommen", "The declarer took no trick"))
        else:
            facts.append(
                Text(
                    "Der Alleinspieler hat einen Stich bekommen (damit endet das Spiel)",
                    "The declarer took a trick (which ends the game)",
                )
            )
    else:
        facts.append(
            Text(
                f"Augen des Alleinspielers (mit Skat): {game.points}",
                f"Declarer's card points (skat included): {game.points}",
            )
        )
        facts.append(Text(f"Stiche des Alleinspielers: {game.tricks}", f"Declarer's tricks: {game.tricks}"))
    return facts


# --------------------------------------------------------------------------- tricks


def legal_trick(
    rng: random.Random, hands: Sequence[Sequence[Card]], game: GameType, leader: int, length: int = 3
) -> list[Card]:
    """``length`` cards played legally (the engine's ``legal_cards``) from ``hands``, ``leader`` first."""
    trick: list[Card] = []
    for i in range(length):
        seat = (leader + i) % 3
        allowed = list(legal_cards(game, CardSet(hands[seat]), trick))
        trick.append(rng.choice(allowed))
    return trick
