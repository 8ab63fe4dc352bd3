"""The bots' card play: a rule of thumb, and perfect-information Monte Carlo on top.

Card play is *perfect-information Monte Carlo* (PIMC): the bot deals the cards it
cannot see at random, consistent with everything it has seen (:class:`.view.SeatView`:
its own hand, the cards played, the skat if it put it away, and the suits a player has
shown to be void in; the strong level also the bidding and the declared game), solves
each such deal open-handed with :mod:`..solver` and plays the card that wins in the
most deals ("wins": the declarer reaches 61 Augen, or takes no trick in Null; for a
defender the other way round). Ties are broken by the rule of thumb: take a trick your
side can keep with Augen, otherwise throw the cheapest card. The beginner plays by the
rule of thumb alone. Every choice reads only the seat's view, never the other hands.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..cards import CARDS, Card, CardSet
from ..errors import SkatError
from ..game import GameState
from ..games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, WIN_POINTS
from ..solver import SearchAborted, solve
from ..text import Text
from .levels import BotConfig, BotLevel
from .view import SeatView, sample_deal

__all__ = ["LEVEL_CAP", "CardChoice", "choose_card", "random_card", "rule_score"]


@dataclass(frozen=True)
class CardChoice:
    """A bot's card and why: ``wins[card]`` out of ``samples`` deals solved."""

    card: Card
    samples: int
    wins: dict[Card, int]
    method: str
    """"pimc" (the card won most often) or "rule" (no deal solved in time, or all tied)."""

    def reason(self, lang: str = "de") -> str:
        """Why this card, in words (card names as ``⟦card:XX⟧`` markers for names.render)."""
        return self.explanation().get(lang)

    def explanation(self) -> Text:
        """Why this card, in a player's words, German and English."""
        marker = f"⟦card:{self.card.code}⟧"
        if self.samples == 0:
            return Text(
                f"{marker}: Hier hat der Computer nicht durchgespielt, sondern nach einer Faustregel gewählt: "
                "einen sicheren Stich mit Augen nehmen, sonst die billigste Karte abwerfen.",
                f"{marker}: Here the computer did not play the deal through but followed a rule of thumb: "
                "take a safe trick with card points, else throw the cheapest card.",
            )
        won = self.wins.get(self.card, 0)
        ranked = sorted(self.wins.items(), key=lambda kv: -kv[1])
        others = ", ".join(f"⟦card:{c.code}⟧ {n}" for c, n in ranked if c != self.card)
        return Text(
            f"{marker}: In {self.samples} zufälligen Verteilungen der unbekannten Karten, die zu allem "
            f"Gesehenen passen, offen durchgerechnet, gewinnt die eigene Partei mit dieser Karte {won}-mal."
            + (f" Die anderen Karten: {others}." if others else ""),
            f"{marker}: In {self.samples} random deals of the unseen cards that fit everything seen so far, "
            f"solved with all cards open, the bot's side wins {won} times with this card."
            + (f" The other cards: {others}." if others else ""),
        )


def rule_score(view: SeatView, card: Card) -> int:
    """The rule of thumb (higher is better): lead a card nobody can beat for sure, else a
    cheap one; in a trick, take it or smear Augen to the partner, else throw cheap cards.
    "Nobody can beat it" counts every card the seat has not seen as a danger."""
    game = view.game
    trick = view.trick
    declarer = view.declarer
    mine = view.seat == declarer
    if not trick:
        if game.is_null:
            return -card.points if mine else card.points
        follow = game.follow_mask[card.index]
        higher = 0
        for other in CARDS:
            if follow & other.bit and game.beats[other.index * 32 + card.index]:
                higher |= other.bit
        return 50 + card.points if not view.unseen & higher else -card.points
    best = trick[0]
    best_pos = 0
    for k, c in enumerate(trick[1:], 1):
        if game.beats[c.index * 32 + best.index]:
            best, best_pos = c, k
    best_seat = (view.leader + best_pos) % 3
    beats = game.beats[card.index * 32 + best.index]
    if game.is_null:
        if mine:
            return 100 - card.index % 8 if not beats else -100
        return (50 if best_seat == declarer and not beats else 0) + card.index % 8
    same_side = mine == (best_seat == declarer)
    if beats or same_side:
        return 100 + card.points
    return 40 - card.points


class _LevelCap(enum.Enum):
    """The default of :func:`choose_card`'s ``time_cap``: the level's own cap."""

    LEVEL = "level"


LEVEL_CAP = _LevelCap.LEVEL
"""``choose_card(time_cap=LEVEL_CAP)`` (the default): the time cap of the level's budget."""


def _config(
    level: BotLevel, samples: int | None, time_cap: float | None | _LevelCap, max_nodes: int | None
) -> BotConfig:
    config = level.config
    if samples is not None:
        config = replace(config, samples=samples)
    if time_cap is not LEVEL_CAP:
        config = replace(config, time_cap=time_cap)
    if max_nodes is not None:
        config = replace(config, max_nodes=max_nodes)
    return config


def choose_card(  # noqa: PLR0913 - over the budget since issue 27; to be split
    state: GameState,
    *,
    level: BotLevel = BotLevel.CLUB,
    rng: random.Random | None = None,
    samples: int | None = None,
    time_cap: float | None | _LevelCap = LEVEL_CAP,
    max_nodes: int | None = None,
    config: BotConfig | None = None,
) -> CardChoice:
    """The card of ``level`` for the player to move (see the module text). ``samples``,
    ``time_cap`` and ``max_nodes`` override the level's budget (``time_cap=None``: no wall
    clock limit, so the choice depends only on the position and ``rng``; left out: the
    level's own cap); ``config`` replaces the whole budget."""
    seat = state.to_move
    legal = list(state.legal_cards())
    if seat is None or not legal or state.contract is None:
        raise SkatError("Jetzt ist keine Karte zu spielen", "No card is to be played now")
    view = SeatView.of(state, seat)
    chosen = config if config is not None else _config(level, samples, time_cap, max_nodes)
    return _decide(view, legal, chosen, rng if rng is not None else random.Random())


def _decide(view: SeatView, legal: list[Card], config: BotConfig, rng: random.Random) -> CardChoice:
    """The choice from the seat's view alone (the state is not passed on, on purpose)."""
    rules = {c: rule_score(view, c) for c in legal}
    by_rule = max(legal, key=lambda c: (rules[c], -c.index))
    if len(legal) == 1 or config.samples <= 0 or view.hand.bit_count() > config.max_hand:
        return CardChoice(by_rule, 0, {}, "rule")
    game = view.game
    declarer = view.declarer
    wins = {c: 0 for c in legal}
    solved: list[tuple[list[int], int]] = []
    deadline = None if config.time_cap is None else time.perf_counter() + config.time_cap
    for _ in range(config.samples):
        if deadline is not None and time.perf_counter() > deadline:
            break
        sample = sample_deal(view, rng, inference=config.inference, reach_bid=config.inference)
        if sample is None:
            break
        values = _values(view, sample, None if game.is_null else WIN_POINTS, config.max_nodes)
        if values is None:
            continue
        solved.append(sample)
        for card, value in values.items():
            if bool(value) == (view.seat == declarer):
                wins[card] += 1
    done = len(solved)
    if done == 0:
        return CardChoice(by_rule, 0, {}, "rule")
    schneider = _schneider(view, wins, solved, config, deadline) if config.schneider else {}
    card = max(legal, key=lambda c: (wins[c], schneider.get(c, 0), rules[c], -c.index))
    return CardChoice(card, done, wins, "pimc")


def _schneider(
    view: SeatView,
    wins: dict[Card, int],
    solved: list[tuple[list[int], int]],
    config: BotConfig,
    deadline: float | None,
) -> dict[Card, int]:
    """When every deal ends alike with each of the best cards (all won, or all lost), over the
    same deals how often each gets the seat's side Schneider (the declarer reaching 90 Augen
    when he wins) or out of it (31 when he loses); the other way round for a defender. Empty
    when there is nothing to compare (one best card, a Null game, too many cards in hand)."""
    top = max(wins.values())
    tied = [c for c, n in wins.items() if n == top]
    if len(tied) < 2 or view.game.is_null or top not in (0, len(solved)):
        return {}
    if view.hand.bit_count() > config.schneider_hand:
        return {}
    declarer_wins = (top == len(solved)) == (view.seat == view.declarer)
    target = SCHNEIDER_POINTS if declarer_wins else OUT_OF_SCHNEIDER
    counts = dict.fromkeys(tied, 0)
    for sample in solved:
        if deadline is not None and time.perf_counter() > deadline:
            break
        values = _values(view, sample, target, config.max_nodes)
        if values is None:
            continue
        for card in tied:
            if bool(values[card]) == (view.seat == view.declarer):
                counts[card] += 1
    return counts


def _values(
    view: SeatView, sample: tuple[list[int], int], target: int | None, max_nodes: int
) -> Mapping[Card, int | bool] | None:
    """The solver's value of every legal card in one deal (None: past the node budget)."""
    hands, skat = sample
    try:
        solution = solve(
            view.game,
            view.declarer,
            [CardSet(h) for h in hands],
            leader=view.leader,
            trick=view.trick,
            skat=CardSet(skat),
            points=view.declarer_points,
            target=target,
            max_nodes=max_nodes,
        )
    except SearchAborted:
        return None
    return solution.card_values


def random_card(state: GameState, rng: random.Random) -> Card:
    """A random legal card (the yardstick the bots are measured against)."""
    return rng.choice(list(state.legal_cards()))
