"""Reizen, der Ablauf: an auction played by the engine's :class:`Auction`; two questions.

- ``result``: the whole auction; who becomes declarer at which value (or passed in)?
  One choice among "Vorhand bei 20", "Mittelhand bei 20", ..., "eingepasst".
- ``turn``: the auction so far; who is to act now, and as speaker (sagt) or listener (hört)?

The moves come from the engine's ``legal_moves``/``apply``, driven by a limit per player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from skatschule.engine import BID_VALUES, SEATS, Auction, AuctionMove, Bid, Hold, Pass, Seat, Step, Text

from .base import Choice, Question
from .exercise import EngineExercise
from .grading import Solution

RULES = ("2.3.2", "2.3.3", "2.3.4", "2.3.5", "2.3.6")


@dataclass(frozen=True, slots=True)
class Scenario:
    form: str
    """"result" or "turn"."""
    moves: tuple[AuctionMove, ...]
    """The moves shown (for ``turn`` the auction is not over after them)."""


def move_text(move: AuctionMove, alone: bool) -> tuple[str, str]:
    """ "Mittelhand: 18", "Vorhand: ja", "Hinterhand: passe" (and English)."""
    name = SEATS[move.seat].text
    de, en = name.de, name.en.capitalize()
    if isinstance(move, Bid):
        if alone:
            return f"{de}: spielt ({move.value})", f"{en}: plays ({move.value})"
        return f"{de}: {move.value}", f"{en}: {move.value}"
    if isinstance(move, Hold):
        return f"{de}: ja", f"{en}: yes (holds)"
    return f"{de}: passe", f"{en}: pass"


def _limit(rng: random.Random, cap: int, none: float) -> int:
    if rng.random() < none:
        return 0
    return rng.choice([v for v in BID_VALUES if v <= cap])


def simulate(rng: random.Random, difficulty: int) -> list[AuctionMove]:
    """A whole auction; each player bids or holds up to a limit, every move applied by the engine."""
    cap = {1: 30, 2: 50, 3: 72}[difficulty]
    if difficulty == 3 and rng.random() < 0.3:
        # the edge cases: nobody bids (Vorhand alone, perhaps passed in)
        limits = [_limit(rng, cap, 0.5), 0, 0]
    elif difficulty == 1:
        limits = [_limit(rng, cap, 0.15), _limit(rng, cap, 0.15), _limit(rng, cap, 0.6)]
    else:
        limits = [_limit(rng, cap, 0.15), _limit(rng, cap, 0.2), _limit(rng, cap, 0.25)]
    jump = {1: 0.0, 2: 0.4, 3: 0.6}[difficulty]
    auction = Auction()
    moves: list[AuctionMove] = []
    while not auction.is_over:
        seat = auction.to_move
        assert seat is not None
        move: AuctionMove
        if auction.phase == "vorhand_alone":
            move = Bid(Seat.FOREHAND, 18) if limits[0] else Pass(Seat.FOREHAND)
        elif auction.pending:
            move = Hold(seat) if limits[seat] >= auction.value else Pass(seat)
        else:
            higher = [v for v in BID_VALUES if auction.value < v <= limits[seat]]
            if not higher:
                move = Pass(seat)
            elif rng.random() < jump:
                move = Bid(seat, rng.choice(higher[:6]))
            else:
                move = Bid(seat, higher[0])
        auction = auction.apply(move)  # the engine refuses any illegal move
        moves.append(move)
    return moves


def replay(moves: tuple[AuctionMove, ...]) -> Auction:
    auction = Auction()
    for move in moves:
        auction = auction.apply(move)
    return auction


def auction_steps(moves: tuple[AuctionMove, ...]) -> list[Step]:
    """The auction told move by move, with the rule behind each turn."""
    steps: list[Step] = []
    auction = Auction()
    if not moves:
        return steps
    for move in moves:
        before = auction
        auction = auction.apply(move)
        who = SEATS[move.seat].text
        who_de, who_en = who.de, who.en.capitalize()
        if before.phase == "vorhand_alone":
            if isinstance(move, Bid):
                steps.append(
                    Step(
                        f"Niemand hat geboten; Vorhand spielt selbst und wird Alleinspielerin bei {move.value}",
                        f"Nobody bid; forehand plays herself and becomes declarer at {move.value}",
                        ("2.3.6",),
                    )
                )
            else:
                steps.append(
                    Step(
                        "Auch Vorhand passt: Das Spiel ist eingepasst",
                        "Forehand passes too: the deal is passed in",
                        ("2.3.6", "2.3.7"),
                    )
                )
            continue
        if isinstance(move, Bid):
            other_de, other_en = SEATS[before.listener].text.de, SEATS[before.listener].text.en
            steps.append(
                Step(
                    f"{who_de} sagt {move.value}, {other_de} hört",
                    f"{who_en} bids {move.value}, {other_en} listens",
                    ("2.3.2",),
                )
            )
        elif isinstance(move, Hold):
            steps.append(Step(f"{who_de} hält {before.value} (ja)", f"{who_en} holds {before.value} (yes)", ("2.3.2",)))
        elif auction.phase == "hinterhand":
            survivor = auction.listener
            rule = "2.3.3" if move.seat == 0 else "2.3.4"
            steps.append(
                Step(
                    f"{who_de} passt; jetzt sagt Hinterhand, {SEATS[survivor].text.de} hört",
                    f"{who_en} passes; now rearhand bids and {SEATS[survivor].text.en} listens",
                    (rule,),
                )
            )
        elif auction.phase == "vorhand_alone":
            steps.append(
                Step(
                    f"{who_de} passt; Mittelhand und Hinterhand haben nichts geboten: Vorhand darf spielen oder passen",
                    f"{who_en} passes; middlehand and rearhand bid nothing: forehand may play or pass",
                    ("2.3.6",),
                )
            )
        else:
            assert auction.declarer is not None
            steps.append(
                Step(
                    f"{who_de} passt: {SEATS[auction.declarer].text.de} hat zuletzt {auction.value} geboten oder "
                    "gehalten "
                    f"und wird Alleinspieler",
                    f"{who_en} passes: {SEATS[auction.declarer].text.en} bid or held {auction.value} last and becomes "
                    "declarer",
                    ("2.3.5",),
                )
            )
    return steps


def result_options(auction: Auction, seed: int = 0, level: int = 2) -> list[Choice]:
    """Each seat at the last two bids, and "eingepasst".

    The two values are the final one and a neighbour (or, when nobody bid, two neighbouring
    low bids) drawn from the seed: offering the last two bids would tell that the higher is
    right, and always 18 and 20 that "eingepasst" is likely.
    """
    draw = random.Random(f"result-options:{seed}")
    ends = RESULT_VALUES[level]
    if auction.declarer is None or auction.value not in BID_VALUES:
        low = draw.randrange(len(ends) - 1)
        values = [ends[low], ends[low + 1]]
    else:
        # the final value and one neighbour, below or above as the seed says; at the ends
        # of RESULT_VALUES always the one inside, so that every pair of values offered holds
        # the right one as often as the other (the edge pairs two to one)
        i = BID_VALUES.index(auction.value)
        if auction.value == ends[0] or i == 0:
            other = i + 1
        elif auction.value == ends[-1] or i + 1 == len(BID_VALUES):
            other = i - 1
        else:
            other = i + 1 if draw.random() < 0.5 else i - 1
        values = sorted([BID_VALUES[i], BID_VALUES[other]])
    options = [
        Choice(
            f"{seat}@{value}",
            Text(f"{SEATS[seat].text.de} bei {value}", f"{SEATS[seat].text.en.capitalize()} at {value}"),
        )
        for seat in range(3)
        for value in values
    ]
    options.append(Choice("eingepasst", Text("Eingepasst: niemand spielt", "Passed in: nobody plays")))
    return options


def turn_value(moves: Sequence[AuctionMove]) -> str:
    """The answer to "whose turn, as what?" after ``moves`` (the option value; see ``solve``)."""
    auction = replay(tuple(moves))
    if auction.phase == "vorhand_alone":
        return "0:allein"
    if auction.pending:
        return f"{auction.listener}:hoert"
    return f"{auction.speaker}:sagt"


TURN_OPTIONS = (
    Choice("1:sagt", Text("Mittelhand sagt (bietet oder passt)", "Middlehand speaks (bids or passes)")),
    Choice("2:sagt", Text("Hinterhand sagt (bietet oder passt)", "Rearhand speaks (bids or passes)")),
    Choice("0:sagt", Text("Vorhand sagt (bietet oder passt)", "Forehand speaks (bids or passes)")),
    Choice("0:hoert", Text("Vorhand hört (hält oder passt)", "Forehand listens (holds or passes)")),
    Choice("1:hoert", Text("Mittelhand hört (hält oder passt)", "Middlehand listens (holds or passes)")),
    Choice("2:hoert", Text("Hinterhand hört (hält oder passt)", "Rearhand listens (holds or passes)")),
    Choice("0:allein", Text("Vorhand allein: spielt selbst oder passt", "Forehand alone: plays herself or passes")),
)

RESULT_VALUES = {1: (18, 20, 22), 2: (18, 20, 22, 23, 24), 3: (18, 20, 22, 23, 24)}
"""Per level, the final values the "who becomes declarer?" questions are drawn at, equally
often (neighbouring bid values, see :func:`result_options`; level 1's short auctions reach 22)."""

TURN_ANSWERS = ("1:sagt", "2:sagt", "0:hoert", "1:hoert", "0:allein")
"""The turn options that can be right (Vorhand never bids, Hinterhand never listens)."""


class ReizenAblauf(EngineExercise[Scenario]):
    slug = "reizen_ablauf"
    name = Text("Reizen, der Ablauf", "The course of the auction")
    description = Text(
        "Wer sagt, wer hört, wer passt und wer wird Alleinspieler?",
        "Who bids, who listens, who passes, and who becomes declarer?",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        longest = {1: 8, 2: 14, 3: 16}[difficulty]
        moves = simulate(rng, difficulty)
        while len(moves) > longest:
            moves = simulate(rng, difficulty)
        share = 0.5
        if rng.random() < share:
            # Who becomes declarer, and at which value, is drawn first: each seat twice as
            # often as "eingepasst", and the value from the same few low bids for every seat
            # (left to chance, "Vorhand at 18" would be right far too often).
            wanted = rng.choice((0, 1, 2, 0, 1, 2, None))
            value = rng.choice(RESULT_VALUES[difficulty]) if wanted is not None else None
            for _ in range(2000):
                auction = replay(tuple(moves))
                if auction.declarer == wanted and (value is None or auction.value == value):
                    break
                moves = simulate(rng, difficulty)
                while len(moves) > longest:
                    moves = simulate(rng, difficulty)
            return Scenario("result", tuple(moves))
        # "Whose turn?": the answer is drawn first, then a moment of an auction that has it
        # (left to chance, "Mittelhand sagt" would be right in almost half of the questions).
        target = rng.choice(TURN_ANSWERS)
        for _ in range(500):
            cuts = range(min(len(moves), 4)) if difficulty == 1 else range(len(moves))
            matching = [cut for cut in cuts if turn_value(moves[:cut]) == target]
            if matching:
                return Scenario("turn", tuple(moves[: rng.choice(matching)]))
            moves = simulate(rng, difficulty)
            while len(moves) > longest:
                moves = simulate(rng, difficulty)
        cut = rng.randrange(min(len(moves), 4)) if difficulty == 1 else rng.randrange(len(moves))
        return Scenario("turn", tuple(moves[:cut]))

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        facts: list[Text] = []
        auction = Auction()
        for i, move in enumerate(scenario.moves, 1):
            de, en = move_text(move, auction.phase == "vorhand_alone")
            facts.append(Text(f"{i}. {de}", f"{i}. {en}"))
            auction = auction.apply(move)
        if scenario.form == "result":
            return self.question(
                difficulty,
                seed,
                Text(
                    "So ist gereizt worden. Wer wird Alleinspieler, und bei welchem Reizwert?",
                    "This is how the auction went. Who becomes declarer, and at which bid?",
                ),
                "choice",
                options=result_options(auction, seed, difficulty),
                facts=facts,
                rule_ids=("2.3.2", "2.3.5", "2.3.6", "2.3.7"),
            )
        if not facts:
            facts.append(
                Text(
                    "Die Karten sind gegeben; noch hat niemand etwas gesagt",
                    "The cards are dealt; nobody has said anything yet",
                )
            )
        return self.question(
            difficulty,
            seed,
            Text(
                "So weit ist gereizt worden. Wer ist jetzt an der Reihe, und sagt er (bietet) oder hört er (hält)?",
                "This is the auction so far. Whose turn is it now, and does that player speak (bid) or listen (hold)?",
            ),
            "choice",
            options=TURN_OPTIONS,
            facts=facts,
            rule_ids=("2.3.2", "2.3.3", "2.3.4", "2.3.6"),
        )

    def solve(self, scenario: Scenario) -> Solution:
        auction = replay(scenario.moves)
        steps = auction_steps(scenario.moves)
        if scenario.form == "result":
            if auction.declarer is None:
                value = "eingepasst"
                answer_de, answer_en = "Eingepasst: niemand spielt", "Passed in: nobody plays"
            else:
                value = f"{auction.declarer}@{auction.value}"
                answer_de = f"{SEATS[auction.declarer].text.de} bei {auction.value}"
                answer_en = f"{SEATS[auction.declarer].text.en.capitalize()} at {auction.value}"
            steps.append(Step.of(auction.description(), ("2.3.5",) if auction.declarer is not None else ("2.3.7",)))
            return Solution((value,), Text(answer_de, answer_en), tuple(steps), ("2.3.5",))
        if not steps:
            steps.append(
                Step("Am Anfang sagt Mittelhand zu Vorhand", "At the start middlehand bids to forehand", ("2.3.2",))
            )
        if auction.phase == "vorhand_alone":
            value = "0:allein"
            steps.append(
                Step(
                    "Mittelhand und Hinterhand haben gepasst, ohne zu bieten: Vorhand darf selbst spielen "
                    "(mindestens 18) oder passen",
                    "Middlehand and rearhand passed without a bid: forehand may play herself (at least 18) or pass",
                    ("2.3.6",),
                )
            )
        elif auction.pending:
            value = f"{auction.listener}:hoert"
            speaker, listener = SEATS[auction.speaker].text, SEATS[auction.listener].text
            steps.append(
                Step(
                    f"{speaker.de} hat {auction.value} gesagt; {listener.de} hört und muss halten oder passen",
                    f"{speaker.en.capitalize()} bid {auction.value}; {listener.en} listens and must hold or pass",
                    ("2.3.2",),
                )
            )
        else:
            value = f"{auction.speaker}:sagt"
            speaker = SEATS[auction.speaker].text
            if auction.value:
                de = f"{speaker.de} ist am Sagen und muss mehr als {auction.value} bieten oder passen"
                en = f"{speaker.en.capitalize()} is the bidder and must bid more than {auction.value} or pass"
            else:
                de = f"{speaker.de} ist am Sagen und bietet (mindestens 18) oder passt"
                en = f"{speaker.en.capitalize()} is the bidder and bids (at least 18) or passes"
            steps.append(Step(de, en, ("2.3.2", "2.3.4") if auction.speaker == 2 else ("2.3.2",)))
        label = next(o for o in TURN_OPTIONS if o.value == value)
        return Solution((value,), Text(label.label.de, label.label.en), tuple(steps), ("2.3.2",))
