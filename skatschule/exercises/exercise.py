"""The base class of every exercise type: :class:`EngineExercise`.

Every type subclasses it and writes three methods:

- ``build(rng, difficulty)``: draw the scenario (deal, contract, auction ...) from the one
  random generator of the exercise;
- ``ask(scenario, difficulty, seed)``: the :class:`~.base.Question` the learner sees (no answer);
- ``solve(scenario)``: the right answer, computed with the engine, with its derivation.

``grade`` rebuilds the scenario from the question's seed, so a question can always be
graded again (and nothing the browser sends is trusted but the raw answer).
"""

from __future__ import annotations

import functools
import random
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar

from skatschule.engine import Text

from .base import (
    CHOICE_WIDGETS,
    AnswerError,
    Choice,
    ExerciseType,
    Feedback,
    Question,
    Widget,
    rng_for,
    shuffled_options,
)
from .grading import Solution, mark, read_answer

__all__ = ["EngineExercise", "Solution"]

S = TypeVar("S")


class EngineExercise(ExerciseType, Generic[S]):
    """An exercise type whose scenario is drawn from ``rng_for`` and solved by the engine."""

    @abstractmethod
    def build(self, rng: random.Random, difficulty: int) -> S:
        """Draw the scenario for this difficulty (only from ``rng``: deterministic)."""

    @abstractmethod
    def ask(self, scenario: S, difficulty: int, seed: int) -> Question:
        """The question for the scenario (never containing the answer)."""

    @abstractmethod
    def solve(self, scenario: S) -> Solution:
        """The right answer with the engine's derivation."""

    def aliases(self, scenario: S) -> Mapping[str, str]:
        """Extra spellings accepted for choice/multi answers (``"mit 2"`` for ``"+2"`` ...)."""
        return {}

    # ------------------------------------------------------------------ plumbing
    def __init__(self) -> None:
        # The question just shown is usually graded right after: keep the last few
        # (scenarios and questions are immutable, so sharing them is safe).
        self._recent = functools.lru_cache(maxsize=512)(self.fresh)

    def scenario(self, difficulty: int, seed: int) -> S:
        self.check_difficulty(difficulty)
        return self.build(rng_for(self.slug, difficulty, seed), difficulty)

    def fresh(self, difficulty: int, seed: int) -> tuple[S, Question]:
        """Scenario and question built from scratch (no cache)."""
        scenario = self.scenario(difficulty, seed)
        return scenario, self.ask(scenario, difficulty, seed)

    def generate(self, difficulty: int, seed: int) -> Question:
        return self._recent(difficulty, seed)[1]

    def _restore(self, question: Question) -> tuple[S, Question]:
        if question.kind != self.slug:
            raise AnswerError(
                f"Diese Frage gehört nicht zur Übung {self.slug!r}, sondern zu {question.kind!r}",
                f"This question belongs to {question.kind!r}, not to the exercise {self.slug!r}",
            )
        if not isinstance(question.difficulty, int) or not isinstance(question.seed, int):
            raise AnswerError("Ungültige Frage", "Invalid question")
        return self._recent(question.difficulty, question.seed)

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        scenario, rebuilt = self._restore(question)
        given = read_answer(rebuilt, answer, self.aliases(scenario))  # unreadable: AnswerError before any work
        return mark(rebuilt, given, self.solve(scenario))

    def correct_answer(self, question: Question) -> list[str]:
        scenario, _ = self._restore(question)
        return list(self.solve(scenario).raw)

    def question(  # noqa: PLR0913 - the fields of a Question, all but four keyword-only
        self,
        difficulty: int,
        seed: int,
        prompt: Text,
        widget: Widget,
        *,
        options: Sequence[Choice] = (),
        cards: Sequence[str] = (),
        trick: Sequence[str] = (),
        skat: Sequence[str] = (),
        facts: Sequence[Text] = (),
        rule_ids: Sequence[str] = (),
    ) -> Question:
        """A :class:`Question` of this type (kind, variant and rule ids filled in).

        The options of a choice-like widget (``choice``, ``multi``, ``case``) are shuffled
        here, for every type alike, from the seed (:func:`.base.shuffled_options`).
        """
        if widget in CHOICE_WIDGETS:
            options = shuffled_options(self.slug, difficulty, seed, options)
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=prompt,
            widget=widget,
            options=tuple(options),
            cards=tuple(cards),
            trick=tuple(trick),
            skat=tuple(skat),
            facts=tuple(facts),
            rule_ids=tuple(rule_ids) or self.rule_ids,
            variant=self.variant,
        )
