"""Kneipenregeln (pub rules, not ISkO): Kontra, Re and Bock, and the scoring of a Ramsch.

- ``kontra`` (number): a finished game under the pub rules (``rules=PUB``) with Kontra,
  Re and/or a Bock round: what is written? The engine's ``score_game`` doubles.
- ``ramsch`` (number): a finished Ramsch; what is written for the loser (or for the
  player who made a Durchmarsch)? The engine's ``pub.score_ramsch`` scores it by the
  softened rule of the pub rules (seed 004, chapter K):

  * the player with the most Augen (skat included) loses and is charged them as minus
    points, times the multiplier; ties: every player with that count is charged;
  * multiplier = 1 + number of pushes (Schieben) + 1 if a player took no trick (Jungfrau);
  * a player who took all ten tricks (Durchmarsch) gets +120, no multiplier.

  What the other players get ("the difference to 60") is read differently from table
  to table (see K.3.4), so it is not asked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from skatschule.engine import PUB, SEATS, Step, Text
from skatschule.engine.feasible import Ending, Witness, ending, finished_ramsch, played_ramsch
from skatschule.engine.games import TOTAL_POINTS, TRICKS
from skatschule.engine.pub import RamschResult, score_ramsch

from .base import Question
from .exercise import EngineExercise
from .gen import FinishedGame, finished_game_facts, random_finished_game
from .grading import Solution
from .helpers import signed

NOTE_DE = "Kneipenregel, nicht ISkO."
NOTE_EN = "Pub rule, not ISkO."
KONTRA_RULES = ("K.1.4", "K.2.2")
RAMSCH_RULES = ("K.3.4", "K.3.5", "K.3.6", "K.4.2")


def ramsch_steps(result: RamschResult, pushes: int) -> tuple[Step, ...]:
    """The engine's Ramsch verdict told step by step: loser, multiplier, minus points."""
    if result.durchmarsch is not None:
        seat = result.durchmarsch
        return (
            Step(
                f"{SEATS[seat].text.de} hat alle zehn Stiche: Durchmarsch, +120 ohne Multiplikator",
                f"{SEATS[seat].text.en.capitalize()} took all ten tricks: Durchmarsch, +120 without any multiplier",
                ("K.3.6",),
            ),
        )
    losers = result.losers
    most = result.augen[losers[0]]
    multiplier = result.multiplier
    steps: list[Step] = []
    if len(losers) == 1:
        steps.append(
            Step(
                f"Die meisten Augen hat {SEATS[losers[0]].text.de} mit {most}: verliert den Ramsch",
                f"{SEATS[losers[0]].text.en.capitalize()} has the most card points, {most}: loses the Ramsch",
                ("K.3.4",),
            )
        )
    else:
        names_de = " und ".join(SEATS[s].text.de for s in losers)
        names_en = " and ".join(SEATS[s].text.en for s in losers)
        steps.append(
            Step(
                f"{names_de} haben gleich viele, die meisten Augen ({most}): Beide verlieren",
                f"{names_en.capitalize()} tie with the most card points ({most}): both lose",
                ("K.3.4",),
            )
        )
    virgins = [s for s in range(3) if result.tricks[s] == 0]
    if not pushes and not virgins:
        parts_de = ["1 (kein Schieben, keine Jungfrau)"]
        parts_en = ["1 (no pushes, no Jungfrau)"]
    else:
        parts_de = ["1"]
        parts_en = ["1"]
    if pushes:
        parts_de.append(f"{pushes} (Schieben)")
        parts_en.append(f"{pushes} (pushes)")
    if virgins:
        parts_de.append(f"1 (Jungfrau: {SEATS[virgins[0]].text.de} ohne Stich)")
        parts_en.append(f"1 (Jungfrau: {SEATS[virgins[0]].text.en} took no trick)")
    rules = ("K.4.2", "K.3.5") if virgins else ("K.4.2",)
    total = f" = {multiplier}" if len(parts_de) > 1 else ""
    steps.append(
        Step(f"Multiplikator: {' + '.join(parts_de)}{total}", f"Multiplier: {' + '.join(parts_en)}{total}", rules)
    )
    entry = result.scores[losers[0]]
    steps.append(
        Step(
            f"{most} × {multiplier} = {most * multiplier} Minuspunkte: {entry}",
            f"{most} × {multiplier} = {most * multiplier} minus points: {entry}",
            ("K.3.4",),
        )
    )
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class Scenario:
    form: str
    """"kontra" or "ramsch"."""
    game: FinishedGame | None = None
    kontra: bool = False
    re: bool = False
    bock: bool = False
    points: tuple[int, int, int] = (0, 0, 0)
    tricks: tuple[int, int, int] = (0, 0, 0)
    pushes: int = 0
    played: Witness | None = field(default=None, compare=False)
    """Ramsch: the game as dealt and played; its Augen and tricks are the ones stated."""

    def witness(self) -> Witness | None:
        """The stated game or Ramsch dealt and played by the engine (None for Null, which states no Augen)."""
        if self.game is not None:
            return self.game.witness()
        return self.played

    def ramsch(self) -> RamschResult:
        """The engine's verdict on this Ramsch."""
        return score_ramsch(self.points, self.tricks, self.pushes)

    @property
    def asked(self) -> int:
        """The seat whose entry is asked: the Durchmarsch player or the (first) loser."""
        result = self.ramsch()
        if result.durchmarsch is not None:
            return result.durchmarsch
        return result.losers[0]


def _split(rng: random.Random, total: int, parts: int, low: int) -> list[int]:
    cuts = sorted(rng.randint(0, total - parts * low) for _ in range(parts - 1))
    bounds = [0, *cuts, total - parts * low]
    return [bounds[i + 1] - bounds[i] + low for i in range(parts)]


Ramsch = tuple[tuple[int, int, int], tuple[int, int, int], int, Witness]


def _ramsch(rng: random.Random, difficulty: int) -> Ramsch:
    """A finished Ramsch that happened: each seat's Augen and tricks, the pushes, and the game
    as dealt and played (the engine's :func:`~skatschule.engine.feasible.played_ramsch`, or a
    Durchmarsch or a tie found by :func:`~skatschule.engine.feasible.finished_ramsch`)."""
    pushes = 0 if difficulty == 1 else rng.randint(0, 3)
    if difficulty == 3 and rng.random() < 0.15:
        seat = rng.randrange(3)
        pts, trk = [0, 0, 0], [0, 0, 0]
        pts[seat], trk[seat] = TOTAL_POINTS, TRICKS
        durchmarsch = finished_ramsch((pts[0], pts[1], pts[2]), (trk[0], trk[1], trk[2]))
        if durchmarsch is not None:  # always: one player takes every trick
            end = ending(durchmarsch)
            return end.augen, end.trick_counts, pushes, durchmarsch
    jungfrau = difficulty >= 2 and rng.random() < (0.3 if difficulty == 2 else 0.4)
    tie = difficulty == 3 and not jungfrau and rng.random() < 0.2
    for _ in range(50 if tie else 0):
        tricks = _split(rng, 10, 3, 1)
        most = rng.randint(41, 59)
        points = [most, most, TOTAL_POINTS - 2 * most]
        rng.shuffle(points)
        tied = finished_ramsch((points[0], points[1], points[2]), (tricks[0], tricks[1], tricks[2]))
        if tied is not None:
            end = ending(tied)
            return end.augen, end.trick_counts, pushes, tied
    virgin = rng.randrange(3) if jungfrau else None

    def fits(end: Ending) -> bool:
        takers = [s for s in range(3) if s != virgin]
        if virgin is not None and end.trick_counts[virgin]:
            return False
        if any(end.trick_counts[s] == 0 for s in takers):
            return False
        return max(end.augen) != sorted(end.augen)[1]  # one loser (ties are drawn above)

    while True:
        played = played_ramsch(rng, accept=fits, virgin=virgin)
        if played is not None:
            end = ending(played)
            return end.augen, end.trick_counts, pushes, played


class Kneipe(EngineExercise[Scenario]):
    slug = "kneipe"
    generator = 2
    """Version 2 since issue 34: a game or Ramsch that cannot happen is drawn again."""
    name = Text("Kneipenregeln", "Pub rules")
    description = Text(
        "Kontra, Re, Bock und Ramsch: wie am Stammtisch gerechnet wird. Kneipenregeln, nicht ISkO.",
        "Kontra, Re, Bock and Ramsch: how pub tables score them. Pub rules, not the ISkO.",
    )
    rule_ids = ("K.1.4", "K.2.2", "K.3.4", "K.4.2")
    variant = True

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        if rng.random() < 0.5:
            game = random_finished_game(rng, difficulty)
            if difficulty == 1:
                kontra, re, bock = True, False, False
            else:
                kontra = rng.random() < 0.8
                re = kontra and rng.random() < 0.5
                bock = rng.random() < (0.4 if difficulty == 2 else 0.5) or not kontra
            contract = game.contract
            if contract.game.is_null and not contract.ouvert:
                re = False  # no Re in Null and Null Hand (K.1.3)
            return Scenario("kontra", game, kontra, re, bock)
        points, tricks, pushes, played = _ramsch(rng, difficulty)
        return Scenario("ramsch", points=points, tricks=tricks, pushes=pushes, played=played)

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        if scenario.form == "kontra":
            assert scenario.game is not None
            facts = finished_game_facts(scenario.game)
            said_de: list[str] = []
            said_en: list[str] = []
            if scenario.kontra:
                said_de.append("Kontra")
                said_en.append("Kontra")
            if scenario.re:
                said_de.append("Re")
                said_en.append("Re")
            if said_de:
                facts.append(Text(f"Gesagt: {' und '.join(said_de)}", f"Said: {' and '.join(said_en)}"))
            if scenario.bock:
                facts.append(Text("Das Spiel ist ein Bockspiel", "The game is played in a Bock round"))
            return self.question(
                difficulty,
                seed,
                Text(
                    f"{NOTE_DE} Das Spiel ist zu Ende. Was wird für den Alleinspieler in die Liste geschrieben "
                    "(Kontra, Re und Bock eingerechnet)? Verlorene Spiele mit Minus.",
                    f"{NOTE_EN} The game is over. What is written on the score sheet for the declarer "
                    "(Kontra, Re and Bock included)? Lost games with a minus.",
                ),
                "number",
                facts=facts,
                rule_ids=KONTRA_RULES,
            )
        facts = []
        for s in range(3):
            n = scenario.tricks[s]
            name = SEATS[s].text
            facts.append(
                Text(
                    f"{name.de}: {scenario.points[s]} Augen, {n} {'Stich' if n == 1 else 'Stiche'}",
                    f"{name.en.capitalize()}: {scenario.points[s]} card points, {n} {'trick' if n == 1 else 'tricks'}",
                )
            )
        if scenario.pushes:
            times_de = ("einmal", "zweimal", "dreimal")[scenario.pushes - 1]
            times_en = ("once", "twice", "three times")[scenario.pushes - 1]
            facts.append(Text(f"Der Skat wurde {times_de} geschoben", f"The skat was pushed {times_en}"))
        else:
            facts.append(Text("Niemand hat geschoben", "Nobody pushed"))
        asked = scenario.asked
        return self.question(
            difficulty,
            seed,
            Text(
                f"{NOTE_DE} Ein Ramsch ist zu Ende (Augen mit Skat). Welche Zahl wird für {SEATS[asked].text.de} in "
                "die Liste geschrieben? "
                "Minuspunkte mit Minus.",
                f"{NOTE_EN} A Ramsch is over (card points incl. the skat). What number is written on the sheet for "
                f"{SEATS[asked].text.en}? Minus points with a minus.",
            ),
            "number",
            facts=facts,
            rule_ids=RAMSCH_RULES,
        )

    def solve(self, scenario: Scenario) -> Solution:
        if scenario.form == "kontra":
            assert scenario.game is not None
            outcome = scenario.game.score(PUB, kontra=scenario.kontra, re=scenario.re, bock=scenario.bock)
            steps: tuple[Step, ...] = (Step(NOTE_DE, NOTE_EN, ("K.1.4",)), *outcome.steps)
            return Solution(
                (str(outcome.score),), Text(signed(outcome.score), signed(outcome.score)), steps, KONTRA_RULES
            )
        result = scenario.ramsch()
        entry = result.scores[scenario.asked]
        steps = (Step(NOTE_DE, NOTE_EN, ("K.3.4",)), *ramsch_steps(result, scenario.pushes))
        return Solution((str(entry),), Text(signed(entry), signed(entry)), steps, RAMSCH_RULES)
