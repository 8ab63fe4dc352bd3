"""Seeger-Fabian: a short score sheet (3 to 5 games, 3 or 4 players): one player's total.

The entries come from real scored games (the engine's ``score_game``); the totals from the
engine's ``seeger_totals``. One player, chosen by the seed, is asked, to keep one input.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatschule.engine import Step, Text, seeger_totals
from skatschule.engine.lists import SEEGER_DEFENDER_BONUS, SEEGER_WIN

from .base import Question
from .exercise import EngineExercise
from .gen import random_finished_game
from .grading import Solution
from .helpers import signed

NAMES = ("Anna", "Bernd", "Carla", "Dieter")
RULES = ("A.2.1", "A.2.2", "A.2.3")
_BONUS = SEEGER_DEFENDER_BONUS
"""What every other player gets for a lost game, by the number of players (the engine's one place)."""


@dataclass(frozen=True, slots=True)
class Scenario:
    players: int
    games: tuple[tuple[int | None, int], ...]
    """(declarer or None when passed in, the declarer's list entry)."""
    asked: int


class Seeger(EngineExercise[Scenario]):
    slug = "seeger"
    generator = 3
    """Version 2 since issue 25 (commit ``3245f83``) changed the questions of level 1; version 3
    since issue 34 draws again a game that cannot happen."""
    name = Text("Seeger-Fabian", "Seeger-Fabian scoring")
    description = Text(
        f"{SEEGER_WIN} Punkte für jedes gewonnene Spiel, {_BONUS[3]} oder {_BONUS[4]} für die anderen bei einem "
        "verlorenen: die Summe eines Spielers.",
        f"{SEEGER_WIN} points for each game won, {_BONUS[3]} or {_BONUS[4]} for the others when one is lost: "
        "one player's total.",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        players = 3 if difficulty < 3 else rng.choice((3, 4, 4))
        count = {1: 3, 2: 4, 3: rng.choice((4, 5))}[difficulty]
        games: list[tuple[int | None, int]] = []
        for number in range(count):
            if difficulty >= 2 and rng.random() < 0.15:
                games.append((None, 0))
                continue
            dealer = number % players
            seats = [p for p in range(players) if players == 3 or p != dealer]
            declarer = rng.choice(seats)
            game = random_finished_game(rng, 1 if difficulty == 1 else 2)
            games.append((declarer, game.score().score))
        if all(d is None for d, _ in games):
            games[0] = (0, 48)
        # mostly someone who played: a player who only watched one lost game has the bonus, and that
        # answer alone was right in one question of eight (issue 25, item 4)
        declarers = sorted({d for d, _ in games if d is not None})
        asked = rng.choice(declarers) if difficulty == 1 and rng.random() < 0.8 else rng.randrange(players)
        return Scenario(players, tuple(games), asked)

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        names = NAMES[: scenario.players]
        facts: list[Text] = [
            Text(f"Am Tisch: {', '.join(names)}", f"At the table: {', '.join(names)}"),
        ]
        for i, (declarer, entry) in enumerate(scenario.games, 1):
            deal_de = deal_en = ""
            if scenario.players == 4:
                dealer = names[(i - 1) % 4]
                deal_de, deal_en = f" (Geber {dealer}, setzt aus)", f" (dealer {dealer}, sits out)"
            if declarer is None:
                facts.append(Text(f"Spiel {i}{deal_de}: eingepasst", f"Game {i}{deal_en}: passed in"))
            else:
                facts.append(
                    Text(
                        f"Spiel {i}{deal_de}: {names[declarer]} spielt, Listeneintrag {signed(entry)}",
                        f"Game {i}{deal_en}: {names[declarer]} plays, list entry {signed(entry)}",
                    )
                )
        hint_de = hint_en = ""
        if difficulty == 1:
            won, bonus = SEEGER_WIN, _BONUS[scenario.players]
            hint_de = f" (Gewonnen: Eintrag + {won}. Verloren: Eintrag - {won}, und jeder andere bekommt {bonus}.)"
            hint_en = f" (Won: entry + {won}. Lost: entry - {won}, and every other player gets {bonus}.)"
        who = names[scenario.asked]
        table_de = "Dreiertisch" if scenario.players == 3 else "Vierertisch"
        table_en = "table of three" if scenario.players == 3 else "table of four"
        return self.question(
            difficulty,
            seed,
            Text(
                f"{table_de}, Abrechnung nach Seeger-Fabian. Wie viele Punkte hat {who} nach diesen Spielen?{hint_de}",
                f"A {table_en}, scored by Seeger-Fabian. How many points does {who} have after these games?{hint_en}",
            ),
            "number",
            facts=facts,
        )

    def solve(self, scenario: Scenario) -> Solution:
        names = NAMES[: scenario.players]
        me = scenario.asked
        who = names[me]
        total = seeger_totals(scenario.players, scenario.games)[me]
        bonus = _BONUS[scenario.players]
        steps: list[Step] = []
        parts: list[int] = []
        for i, (declarer, entry) in enumerate(scenario.games, 1):
            share = seeger_totals(scenario.players, [(declarer, entry)])[me]
            parts.append(share)
            if declarer is None:
                steps.append(Step(f"Spiel {i}: eingepasst, 0", f"Game {i}: passed in, 0", ("A.1.3",)))
            elif declarer == me and entry > 0:
                steps.append(
                    Step(
                        f"Spiel {i}: {who} gewinnt: {entry} + {SEEGER_WIN} = {share}",
                        f"Game {i}: {who} wins: {entry} + {SEEGER_WIN} = {share}",
                        ("A.2.1",),
                    )
                )
            elif declarer == me:
                steps.append(
                    Step(
                        f"Spiel {i}: {who} verliert: {entry} - {SEEGER_WIN} = {share}",
                        f"Game {i}: {who} loses: {entry} - {SEEGER_WIN} = {share}",
                        ("A.2.1",),
                    )
                )
            elif entry > 0:
                steps.append(
                    Step(
                        f"Spiel {i}: {names[declarer]} gewinnt, {who} bekommt nichts: 0",
                        f"Game {i}: {names[declarer]} wins, {who} gets nothing: 0",
                        ("A.2.2",),
                    )
                )
            else:
                steps.append(
                    Step(
                        f"Spiel {i}: {names[declarer]} verliert, {who} bekommt {bonus}",
                        f"Game {i}: {names[declarer]} loses, {who} gets {bonus}",
                        ("A.2.2",),
                    )
                )
        shown = " + ".join(f"({p})" if p < 0 else str(p) for p in parts)
        steps.append(Step(f"Summe für {who}: {shown} = {total}", f"Total for {who}: {shown} = {total}", ("A.2.3",)))
        return Solution((str(total),), Text(str(total), str(total)), tuple(steps), RULES)
