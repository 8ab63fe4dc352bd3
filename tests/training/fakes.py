"""Tiny exercise types for testing the training app without the real ones."""

from __future__ import annotations

from collections.abc import Sequence

from skatschule.engine import Step, Text
from skatschule.exercises.base import AnswerError, Choice, ExerciseType, Feedback, Question, rng_for


class FakeAdd(ExerciseType):
    """What is a + b? (number widget)"""

    slug = "fake_add"
    name = Text("Addieren", "Adding")
    rule_ids = ("4.1.1",)
    levels = 3

    def numbers(self, difficulty: int, seed: int) -> tuple[int, int]:
        rng = rng_for(self.slug, difficulty, seed)
        top = 10**difficulty
        return rng.randrange(top), rng.randrange(top)

    def generate(self, difficulty: int, seed: int) -> Question:
        self.check_difficulty(difficulty)
        a, b = self.numbers(difficulty, seed)
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=Text(f"Wie viel ist {a} plus {b}?", f"What is {a} plus {b}?"),
            widget="number",
            facts=(Text(f"Erste Zahl: {a}", f"First number: {a}"),),
            rule_ids=self.rule_ids,
        )

    def solve(self, question: Question) -> int:
        a, b = self.numbers(question.difficulty, question.seed)
        return a + b

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        if len(answer) != 1:
            raise AnswerError("Eine Zahl bitte", "One number please")
        try:
            given = int(answer[0])
        except ValueError:
            raise AnswerError("Keine Zahl", "Not a number") from None
        right = self.solve(question)
        a, b = self.numbers(question.difficulty, question.seed)
        return Feedback(
            correct=given == right,
            answer=Text(str(right), str(right)),
            given=Text(str(given), str(given)),
            steps=(Step(f"{a} + {b} = {right}", f"{a} + {b} = {right}", ("4.1.1",)),),
            rule_ids=("4.1.1",),
            normalized=str(given),
        )

    def correct_answer(self, question: Question) -> list[str]:
        return [str(self.solve(question))]


class FakePick(ExerciseType):
    """Pick the letter the seed names (choice widget)."""

    slug = "fake_pick"
    name = Text("Wählen", "Picking")
    rule_ids = ("3.2.1", "K.1.1")
    levels = 2
    letters = ("a", "b", "c")

    def target(self, question: Question) -> str:
        return rng_for(self.slug, question.difficulty, question.seed).choice(self.letters)

    def generate(self, difficulty: int, seed: int) -> Question:
        self.check_difficulty(difficulty)
        q = Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=Text("", ""),
            widget="choice",
            options=tuple(Choice(x, Text(f"Buchstabe {x}", f"letter {x}")) for x in self.letters),
            rule_ids=self.rule_ids,
        )
        target = self.target(q)
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=Text(f"Wähle den Buchstaben {target.upper()}.", f"Pick the letter {target.upper()}."),
            widget="choice",
            options=q.options,
            rule_ids=self.rule_ids,
        )

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        target = self.target(question)
        given = answer[0]
        return Feedback(
            correct=given == target,
            answer=Text(f"Buchstabe {target}", f"letter {target}"),
            given=Text(f"Buchstabe {given}", f"letter {given}"),
            rule_ids=self.rule_ids,
            normalized=given,
        )

    def correct_answer(self, question: Question) -> list[str]:
        return [self.target(question)]


class FakeJacks(ExerciseType):
    """Click the jacks (cards widget)."""

    slug = "fake_jacks"
    name = Text("Buben finden", "Find the jacks")
    rule_ids = ("1.3.2",)
    levels = 1
    pool = ("CJ", "SJ", "HA", "DT", "C7", "HJ", "SQ", "DK")

    def hand(self, difficulty: int, seed: int) -> tuple[str, ...]:
        rng = rng_for(self.slug, difficulty, seed)
        return tuple(rng.sample(self.pool, 5))

    def generate(self, difficulty: int, seed: int) -> Question:
        self.check_difficulty(difficulty)
        hand = self.hand(difficulty, seed)
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=Text("Welche Karten sind Buben?", "Which cards are jacks?"),
            widget="cards",
            options=tuple(Choice(c, Text(c, c)) for c in hand),
            cards=hand,
            rule_ids=self.rule_ids,
        )

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        right = sorted(c for c in question.cards if c.endswith("J"))
        given = sorted(answer)
        return Feedback(
            correct=given == right,
            answer=Text(" ".join(right) or "keine", " ".join(right) or "none"),
            given=Text(" ".join(given), " ".join(given)),
            rule_ids=self.rule_ids,
            normalized=" ".join(given),
        )

    def correct_answer(self, question: Question) -> list[str]:
        return sorted(c for c in question.cards if c.endswith("J"))


class FakeOrder(ExerciseType):
    """Sort three cards by points, highest first (order widget)."""

    slug = "fake_order"
    name = Text("Sortieren", "Sorting")
    rule_ids = ("1.3.2",)
    levels = 1
    points = {"CA": 11, "CT": 10, "CK": 4, "CQ": 3}

    def generate(self, difficulty: int, seed: int) -> Question:
        self.check_difficulty(difficulty)
        rng = rng_for(self.slug, difficulty, seed)
        cards = rng.sample(sorted(self.points), 3)
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=Text("Sortiere nach Augen.", "Sort by points."),
            widget="order",
            options=tuple(Choice(c, Text(f"Karte {c}", f"card {c}")) for c in cards),
            cards=tuple(cards),
            rule_ids=self.rule_ids,
        )

    def correct_answer(self, question: Question) -> list[str]:
        return sorted(question.cards, key=lambda c: -self.points[c])

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        right = self.correct_answer(question)
        return Feedback(
            correct=list(answer) == right,
            answer=Text(" ".join(right), " ".join(right)),
            given=Text(" ".join(answer), " ".join(answer)),
            normalized=" ".join(answer),
        )


class FakeMulti(ExerciseType):
    """Tick the even numbers (multi widget)."""

    slug = "fake_multi"
    name = Text("Gerade Zahlen", "Even numbers")
    rule_ids = ("2.3.1",)
    levels = 1

    def generate(self, difficulty: int, seed: int) -> Question:
        self.check_difficulty(difficulty)
        rng = rng_for(self.slug, difficulty, seed)
        values = rng.sample(range(1, 40), 4)
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=Text("Welche sind gerade?", "Which are even?"),
            widget="multi",
            options=tuple(Choice(str(v), Text(str(v), str(v))) for v in values),
            rule_ids=self.rule_ids,
        )

    def correct_answer(self, question: Question) -> list[str]:
        return [c.value for c in question.options if int(c.value) % 2 == 0]

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        right = self.correct_answer(question)
        return Feedback(
            correct=sorted(answer) == sorted(right),
            answer=Text(", ".join(right) or "keine", ", ".join(right) or "none"),
            given=Text(", ".join(answer), ", ".join(answer)),
        )


FAKE_TYPES = {t.slug: t for t in (FakeAdd(), FakePick(), FakeJacks(), FakeOrder(), FakeMulti())}

LESSONS = {
    "01-addieren.md": """---
slug: addieren
order: 1
title: Addieren | Adding
rules: 4.1.1, 1.3.2
exercises: fake_add:1, fake_add:2
mastery: 8/10
---
@de
Zwei Karten: [[cards: CA CT]] haben zusammen [[points: CA CT]] Augen. Siehe [[rule: 4.1.1]].

Ein *kurzer* Text.
@en
Two cards: [[cards: CA CT]] are worth [[points: CA CT]] points together. See [[rule: 4.1.1]].

A *short* text.
""",
    "02-waehlen.md": """---
slug: waehlen
order: 2
title: Wählen | Picking
rules: 3.2.1
exercises: fake_pick:1, fake_jacks:1, fake_order:1, fake_multi:1
mastery: 3/5
---
@de
Wähle gut.
@en
Choose well.
""",
    "03-kneipe.md": """---
slug: kneipe
order: 3
title: Kneipe | Pub
rules: K.1.1
exercises: fake_pick:2
mastery: 2/3
variant: true
---
@de
Nur in der Kneipe.
@en
Only in the pub.
""",
}
