"""Hätte ich gewinnen können?": the learner's cards of a finished game, valued with every card open.

Pure engine code (no Django), so that the table's service and the benchmark share it:

    python -m skatschule.table.analysis [--games 24] [--nodes 1500000]

times the analysis of whole games (each seat's ten cards, a fixed set of seeded games of random
legal play in every game type) in CPU time of one core and prints the mean, the 95th percentile
and last ``seconds_per_analysis: N`` (the mean). ``make bench`` runs it after the engine benches.

For every card of the learner in a suit or Grand game the open-hand solver
(:func:`skatschule.engine.solver.solve_state`) gives the most Augen the declarer can make sure
of before the card and after each legal card; the learner's side gets the declarer's Augen or,
as a defender, 120 minus them. A search that passes its node budget is asked only "can the
declarer still reach 61 (90) Augen?" (``target``), and when that too is too big, the card is
marked as such. Null games are judged win or lose.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from skatschule.engine import Card, CardSet, Contract, GameState, GameType
from skatschule.engine.bench import report_times
from skatschule.engine.bots import SeatView, bid_reachable, sample_deal
from skatschule.engine.cards import CARDS, deal_cards
from skatschule.engine.games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, TOTAL_POINTS, augen_needed, augen_to_stop
from skatschule.engine.solver import SearchAborted, solve, solve_state

__all__ = [
    "MARKS",
    "SCHNEIDER_LINES",
    "CLASSES",
    "GOOD_AUGEN",
    "INACCURATE_AUGEN",
    "Step",
    "Insight",
    "FEW_SAMPLES",
    "wilson",
    "Analysis",
    "analyse_plays",
    "add_insights",
    "bench",
    "main",
]


@dataclass(frozen=True)
class Insight:
    """ "Hätte ich es wissen können?" for one decision: over deals of the cards the learner
    could not see, each consistent with what he had seen (his own cards, the cards played,
    the suits a player did not follow, the skat if he put it away himself, and the bid: the
    declarer's cards reach it), how often each legal card would have won for his side.
    ``samples``: the deals solved; ``tried``: the deals drawn (a deal whose search grew too
    big, or that no draw could fit, is not among ``samples``)."""

    samples: int
    tried: int
    wins: tuple[tuple[str, int], ...]
    overbid: bool = False
    """No deal fitting what the learner saw lets the declarer's game reach his bid
    (:func:`~skatschule.engine.bots.bid_reachable`): the game was overbid, the bid tells
    nothing about his cards, and the deals were drawn without it."""
    others: tuple[int, ...] = ()
    """The two other seats, in seat order: the columns of :attr:`places`."""
    places: tuple[tuple[str, int, int, int], ...] = ()
    """ "Was weiß ich?": each card the learner could not see, with the number of drawn deals
    (of :attr:`tried`) in which it lies with the first of :attr:`others`, with the second,
    and in the skat."""

    def wins_with(self, card: str) -> int:
        return dict(self.wins).get(card, 0)

    def share(self, card: str) -> int | None:
        """Percent of the solved deals in which ``card`` wins (None without one)."""
        return None if not self.samples else round(100 * self.wins_with(card) / self.samples)

    def interval(self, card: str) -> tuple[int, int] | None:
        """The 95 % interval (Wilson's) of :meth:`share` in percent, None without a deal."""
        return wilson(self.wins_with(card), self.samples)

    @property
    def few(self) -> bool:
        """Fewer than :data:`FEW_SAMPLES` deals were solved: the shares are rough."""
        return self.samples < FEW_SAMPLES


FEW_SAMPLES = 30
"""Below this many solved deals the board warns that the shares are rough."""


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[int, int] | None:
    """The Wilson score interval of ``hits`` in ``n`` trials at ``z`` (1.96: 95 %), in whole
    percent (rounded outward); None for ``n == 0``.

    >>> wilson(50, 100)
    (40, 60)
    >>> wilson(0, 10)
    (0, 28)
    """
    if n <= 0:
        return None
    p = hits / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0, math.floor(100 * (centre - half))), min(100, math.ceil(100 * (centre + half)))


@dataclass(frozen=True)
class Step:
    """One of the learner's cards, valued with every card open (see :func:`analyse_plays`).

    Augen are always the learner's side's: the declarer's Augen when he declares, else
    120 minus the declarer's (the skat counts for the declarer). ``before``: the most
    Augen his side could make sure of before the card; ``after``: with the card he
    played; ``best``: the card(s) that keep ``before``. In Null, and in a suit or Grand
    game whose exact search was too big, the Augen are None and ``best`` are the cards
    that keep a winnable game winnable. ``wins_before`` / ``wins_after``: could his side
    still win (None: not worked out in time, or not a question of Augen). ``values``:
    every legal card with its Augen (exact search) or whether his side still wins with it
    (yes/no search); empty when the search was too big. ``index``: the card's number in
    the game (0 for the first card played).
    """

    trick: int
    card: str
    before: int | None
    after: int | None
    best: tuple[str, ...]
    wins_before: bool | None
    wins_after: bool | None
    index: int = 0
    values: tuple[tuple[str, int | bool], ...] = ()
    insight: Insight | None = None

    @property
    def exact(self) -> bool:
        return self.before is not None and self.after is not None

    @property
    def cost(self) -> int | None:
        """The Augen the card cost his side (0 for a best card); None without exact Augen."""
        return None if self.before is None or self.after is None else self.before - self.after

    @property
    def gave_away(self) -> bool:
        """A winnable game was no longer winnable after the card."""
        return self.wins_before is True and self.wins_after is False

    @property
    def too_big(self) -> bool:
        return self.wins_before is None and self.before is None

    def value_of(self, card: str) -> int | bool | None:
        return dict(self.values).get(card)


MARKS = ("result", "level", "augen")
"""The marks of a learner's card, gravest first (:meth:`Analysis.mark`)."""
SCHNEIDER_LINES = (OUT_OF_SCHNEIDER, SCHNEIDER_POINTS)
"""A side's Augen that decide a level: 31 escapes Schneider, 90 makes the other side Schneider."""


CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
"""What a decision cost, best first (:meth:`Analysis.quality`)."""
GOOD_AUGEN = 3
"""A card that loses at most this many Augen (and no level, no result) is still ``good``."""
INACCURATE_AUGEN = 10
"""Up to this many Augen lost (no level, no result) is an ``inaccuracy``; more is a ``mistake``."""


@dataclass(frozen=True)
class Analysis:
    """ "Hätte ich gewinnen können?" for one finished game (see :func:`analyse_plays`)."""

    learner_declares: bool
    null: bool
    need: int | None
    """The Augen the learner's side needs to win: 61 as declarer (90 with Schneider announced),
    60 (or 31) as defenders; None in Null and with Schwarz announced."""
    steps: tuple[Step, ...] = ()

    @property
    def first_cost(self) -> Step | None:
        """The first card that cost Augen."""
        return next((s for s in self.steps if s.cost), None)

    @property
    def first_given_away(self) -> Step | None:
        """The first card after which a winnable game was lost."""
        return next((s for s in self.steps if s.gave_away), None)

    @property
    def augen_lost(self) -> int:
        """The Augen the learner's cards cost in all (exact steps only)."""
        return sum(s.cost or 0 for s in self.steps)

    @property
    def complete(self) -> bool:
        """Every card valued in Augen (or, in Null, every card judged)."""
        return all((s.wins_before is not None) if self.null else s.exact for s in self.steps)

    def mark(self, step: Step) -> str | None:
        """The one mark of a decision (:data:`MARKS`), the gravest that fits; None for a best
        card (or one not valued). With best play of both sides, every card open:

        - ``result``: before the card the learner's side could make sure of its win, after it
          no longer (:attr:`Step.gave_away`); whether it won at the table also depends on
          the cards played later;
        - ``level``: the result stays, but a level is lost: his side's Augen fall below 90
          (Schneider for it no longer sure) or below 31 (no longer sure to escape Schneider);
        - ``augen``: result and level stay; the card costs Augen his side could have made sure of.
        """
        if step.gave_away:
            return "result"
        if step.before is None or step.after is None or not step.cost:
            return None
        lines = [line for line in SCHNEIDER_LINES if line != self.need] if self.need is not None else []
        if any(step.after < line <= step.before for line in lines):
            return "level"
        return "augen"

    def card_wins(self, step: Step, card: str) -> bool | None:
        """Does ``card`` at ``step`` keep the game won for the learner's side (None: not known)?"""
        value = step.value_of(card)
        if isinstance(value, bool) or value is None:
            return value
        return None if self.need is None else value >= self.need

    def winners(self, step: Step) -> tuple[str, ...]:
        """Every card at ``step`` that keeps the game won for the learner's side (the board's ✓),
        not only the best ones."""
        return tuple(card for card, _value in step.values if self.card_wins(step, card))

    def quality(self, step: Step) -> str | None:
        """What a decision cost, one of :data:`CLASSES` (None: not valued, or a card in a game
        whose result no card could change and whose Augen are unknown). With best play of both
        sides, every card open, the learner's side's Augen:

        - ``blunder``: the result given away (:attr:`Step.gave_away`);
        - ``mistake``: a level given away (:meth:`mark` ``level``) or more than
          :data:`INACCURATE_AUGEN` Augen lost;
        - ``inaccuracy``: more than :data:`GOOD_AUGEN`, at most :data:`INACCURATE_AUGEN` Augen lost;
        - ``good``: 1 to :data:`GOOD_AUGEN` Augen lost;
        - ``best``: no Augen lost (or, without exact Augen, a card that keeps a won game won).
        """
        if step.gave_away:
            return "blunder"
        cost = step.cost
        if cost is None:
            return "best" if step.best and step.card in step.best else None
        if cost == 0:
            return "best"
        if self.mark(step) == "level" or cost > INACCURATE_AUGEN:
            return "mistake"
        return "good" if cost <= GOOD_AUGEN else "inaccuracy"

    def qualities(self) -> dict[str, int]:
        """How many of the learner's decisions fall in each class (:data:`CLASSES`, all keys)."""
        counts = dict.fromkeys(CLASSES, 0)
        for step in self.steps:
            found = self.quality(step)
            if found is not None:
                counts[found] += 1
        return counts

    @property
    def accuracy(self) -> int | None:
        """The learner's accuracy in percent: the share of his valued decisions that were
        ``best`` or ``good`` (:meth:`quality`), rounded; None when none was valued."""
        counts = self.qualities()
        valued = sum(counts.values())
        return None if not valued else round(100 * (counts["best"] + counts["good"]) / valued)

    @property
    def mistakes(self) -> int:
        """The learner's mistakes and blunders (:meth:`quality`)."""
        counts = self.qualities()
        return counts["mistake"] + counts["blunder"]

    def step_at(self, index: int) -> Step | None:
        """The learner's decision before card ``index`` of the game, if it was his."""
        return next((s for s in self.steps if s.index == index), None)

    def as_json(self) -> dict[str, Any]:
        """A JSON value (a job's result) that :meth:`from_json` reads back."""
        return {
            "learner_declares": self.learner_declares,
            "null": self.null,
            "need": self.need,
            "steps": [
                {
                    "trick": s.trick,
                    "card": s.card,
                    "before": s.before,
                    "after": s.after,
                    "best": list(s.best),
                    "wins_before": s.wins_before,
                    "wins_after": s.wins_after,
                    "index": s.index,
                    "values": [[c, v] for c, v in s.values],
                    "insight": None
                    if s.insight is None
                    else {
                        "samples": s.insight.samples,
                        "tried": s.insight.tried,
                        "wins": [list(w) for w in s.insight.wins],
                        "overbid": s.insight.overbid,
                        "others": list(s.insight.others),
                        "places": [list(p) for p in s.insight.places],
                    },
                }
                for s in self.steps
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        steps = []
        for s in data["steps"]:
            found = s.get("insight")
            insight = (
                None
                if found is None
                else Insight(
                    int(found["samples"]),
                    int(found["tried"]),
                    tuple((str(c), int(n)) for c, n in found["wins"]),
                    bool(found.get("overbid", False)),
                    tuple(int(x) for x in found.get("others", ())),
                    tuple((str(c), int(a), int(b), int(k)) for c, a, b, k in found.get("places", ())),
                )
            )
            steps.append(
                Step(
                    int(s["trick"]),
                    str(s["card"]),
                    s["before"],
                    s["after"],
                    tuple(s["best"]),
                    s["wins_before"],
                    s["wins_after"],
                    int(s["index"]),
                    tuple((str(c), v) for c, v in s["values"]),
                    insight,
                )
            )
        return cls(bool(data["learner_declares"]), bool(data["null"]), data["need"], tuple(steps))


def _valued_step(  # noqa: PLR0913 - over the budget since issue 27; to be split
    probe: GameState, card: Card, index: int, learner_declares: bool, need: int | None, max_nodes: int
) -> Step:
    """One card: exact Augen first, then only "winnable?" (``target``), then "too big"."""
    trick = len(probe.tricks) + 1
    game = probe.contract.game if probe.contract else None

    def mine(declarer_points: int) -> int:
        return declarer_points if learner_declares else TOTAL_POINTS - declarer_points

    def wins(own: int) -> bool | None:
        if need is None:
            return None
        return own >= need if learner_declares else own >= augen_to_stop(need)

    if game is not GameType.NULL:
        try:
            exact = solve_state(probe, max_nodes=max_nodes)
            assert exact.declarer_points is not None
            values = {c: mine(int(v)) for c, v in exact.card_values.items()}
            before = mine(exact.declarer_points)
            best = tuple(c.code for c in sorted(c for c, v in values.items() if v == before))
            after = values[card]
            shown: tuple[tuple[str, int | bool], ...] = tuple((c.code, v) for c, v in sorted(values.items()))
            return Step(trick, card.code, before, after, best, wins(before), wins(after), index, shown)
        except SearchAborted:
            pass
        if need is None:
            return Step(trick, card.code, None, None, (), None, None, index)
    try:
        solution = solve_state(probe, target=need, max_nodes=max_nodes)
    except SearchAborted:
        return Step(trick, card.code, None, None, (), None, None, index)
    # card values: does the declarer still reach the target (or, in Null, take no trick)?
    ours = {c: bool(v) == learner_declares for c, v in solution.card_values.items()}
    good = tuple(c.code for c in sorted(c for c, v in ours.items() if v))
    before_wins = solution.declarer_wins == learner_declares
    shown = tuple((c.code, v) for c, v in sorted(ours.items()))
    return Step(trick, card.code, None, None, good if before_wins else (), before_wins, card.code in good, index, shown)


Progress = Callable[[int], None]
"""Told after each of the learner's decisions is valued, with the deals drawn for it (0 for the
exact search): a job's progress (:func:`skatschule.jobs.progress.report`)."""


def decisions(start: GameState, plays: Sequence[Card], seat: int) -> int:
    """How many of ``plays`` (from ``start``, the first lead) are ``seat``'s: every third card."""
    leader = start.to_move
    return 0 if leader is None else sum(1 for i in range(len(plays)) if (leader + i) % 3 == seat)


def analyse_plays(
    start: GameState, plays: Sequence[Card], seat: int, *, max_nodes: int, progress: Progress | None = None
) -> Analysis:
    """Value the cards ``seat`` plays among ``plays`` (every card of the game, in order) from
    ``start``, the game at its first lead (it is played on, so pass a state of your own).
    ``max_nodes``: the budget of each search (:class:`~skatschule.engine.solver.SearchAborted`)."""
    contract = start.contract
    if contract is None or start.declarer is None:
        raise ValueError("the game has no declaration")
    learner_declares = start.declarer == seat
    need = augen_needed(contract)
    steps: list[Step] = []
    for index, card in enumerate(plays):
        if start.to_move == seat:
            steps.append(_valued_step(start, card, index, learner_declares, need, max_nodes))
            if progress is not None:
                progress(0)
        start.play(card)
    own_need = None if need is None else need if learner_declares else 121 - need
    return Analysis(learner_declares, contract.game is GameType.NULL, own_need, tuple(steps))


# -- "Hätte ich es wissen können?" ----------------------------------------------------------


def _draw(view: SeatView, rng: random.Random, *, reach_bid: bool) -> tuple[list[int], int] | None:
    """One deal of the cards the seat of ``view`` cannot see, fitting what it has seen and the
    bidding, in which (``reach_bid``) the declarer's twelve cards reach his bid: the bots'
    sampler (:func:`skatschule.engine.bots.sample_deal` with inference)."""
    return sample_deal(view, rng, inference=True, reach_bid=reach_bid)


def insight_at(  # noqa: PLR0913 - over the budget since issue 27; to be split
    state: GameState, seat: int, need: int | None, *, samples: int, max_nodes: int, seed: int
) -> Insight | None:
    """:class:`Insight` for ``seat`` to move in ``state`` (its hand and the position as he saw
    them); None where the win is not a question of Augen or tricks (Schwarz announced)."""
    contract = state.contract
    if contract is None or state.declarer is None or (need is None and contract.game is not GameType.NULL):
        return None
    learner_declares = state.declarer == seat
    view = SeatView.of(state, seat)
    overbid = not bid_reachable(view)
    rng = random.Random(seed)
    legal = sorted(state.legal_cards())
    wins = dict.fromkeys(legal, 0)
    solved = tried = 0
    target = None if contract.game is GameType.NULL else need
    others = tuple(s for s in range(3) if s != seat)
    unseen = [i for i in range(32) if view.unseen >> i & 1]
    lies = {i: [0, 0, 0] for i in unseen}
    for _ in range(samples):
        drawn = _draw(view, rng, reach_bid=not overbid)
        if drawn is None:
            break
        hands, skat = drawn
        tried += 1
        first, second = hands[others[0]], hands[others[1]]
        for i, where in lies.items():
            where[0 if first >> i & 1 else 1 if second >> i & 1 else 2] += 1
        try:
            solution = solve(
                contract.game,
                state.declarer,
                [CardSet(m) for m in hands],
                leader=state.leader,
                trick=state.trick,
                skat=CardSet(skat),
                points=state.declarer_trick_points,
                target=target,
                max_nodes=max_nodes,
            )
        except SearchAborted:
            continue
        solved += 1
        for card, value in solution.card_values.items():
            if bool(value) == learner_declares:
                wins[card] += 1
    places = tuple((CARDS[i].code, a, b, c) for i, (a, b, c) in sorted(lies.items()))
    return Insight(solved, tried, tuple((c.code, n) for c, n in wins.items()), overbid, others, places)


def add_insights(  # noqa: PLR0913 - over the budget since issue 27; to be split
    start: GameState,
    plays: Sequence[Card],
    seat: int,
    analysis: Analysis,
    *,
    samples: int,
    max_nodes: int,
    progress: Progress | None = None,
) -> Analysis:
    """``analysis`` with an :class:`Insight` at each of its steps (``start`` is played on)."""
    by_index = {s.index: s for s in analysis.steps}
    need = augen_needed(start.contract) if start.contract else None
    steps = []
    for index, card in enumerate(plays):
        step = by_index.get(index)
        if step is not None:
            insight = insight_at(start, seat, need, samples=samples, max_nodes=max_nodes, seed=index)
            steps.append(replace(step, insight=insight))
            if progress is not None:
                progress(0 if insight is None else insight.tried)
        start.play(card)
    return replace(analysis, steps=tuple(steps))


# -- the benchmark --------------------------------------------------------------------

_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)


def _bench_game(k: int, rng: random.Random) -> tuple[GameState, list[Card], int]:
    """Game ``k`` of the benchmark: a seeded deal, game type and declarer by ``k``, the skat
    kept (a hand game), random legal cards; and the seat whose cards are analysed."""
    deal = deal_cards(rng=rng)
    contract = Contract(_GAMES[k % 6], hand=True)
    declarer = k % 3

    def start() -> GameState:
        return GameState.start(deal, declarer=declarer, bid=18, contract=contract)

    played = start()
    plays: list[Card] = []
    while not played.is_over():
        card = rng.choice(sorted(played.legal_cards()))
        played.play(card)
        plays.append(card)
    return start(), plays, (k // 3) % 3


def bench(  # noqa: PLR0913 - over the budget since issue 27; to be split
    games: int,
    max_nodes: int,
    *,
    seed: int = 2026,
    verbose: bool = False,
    insights: int = 0,
    insight_nodes: int = 60_000,
) -> float:
    """Time :func:`analyse_plays` over ``games`` seeded games, with ``insights`` deals per
    decision also :func:`add_insights` (as the table's job does); returns the mean in seconds."""
    rng = random.Random(seed)
    times: list[float] = []
    for k in range(games):
        before = rng.getstate()
        start, plays, seat = _bench_game(k, rng)
        after = rng.getstate()
        rng.setstate(before)
        again = _bench_game(k, rng)[0]  # the same game once more, at its first lead
        rng.setstate(after)
        began = time.process_time()
        analysis = analyse_plays(start, plays, seat, max_nodes=max_nodes)
        if insights:
            analysis = add_insights(again, plays, seat, analysis, samples=insights, max_nodes=insight_nodes)
        elapsed = time.process_time() - began
        times.append(elapsed)
        if verbose:
            exact = sum(1 for s in analysis.steps if s.exact)
            judged = sum(1 for s in analysis.steps if s.wins_before is not None)
            side = "declarer" if analysis.learner_declares else "defender"
            print(
                f"{k:3d} {_GAMES[k % 6].value:9s} seat {seat} ({side}): {len(analysis.steps)} cards,"
                f" {exact} in Augen, {judged} judged, {elapsed:6.2f} s"
            )
    with_insights = f", {insights} deals a decision for the insight" if insights else ""
    print(f"games: {len(times)}, node budget {max_nodes} per search{with_insights}, CPU time of one core")
    return report_times(times, "seconds_per_analysis")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=1_500_000, help="node budget of each search")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    parser.add_argument(
        "--insights", type=int, default=0, help='"Hätte ich es wissen können?" too, with this many deals a decision'
    )
    args = parser.parse_args(argv)
    bench(args.games, args.nodes, seed=args.seed, verbose=args.verbose, insights=args.insights)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
