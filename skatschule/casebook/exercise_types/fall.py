"""Entscheide den Fall: a case of the referee casebook as an exercise.

It lives with the casebook (it reads the cases) and joins ``skatschule.exercises.REGISTRY``
from ``CasebookConfig.ready()``; the exercises package does not import it.

The case comes from :mod:`skatschule.casebook.cases`; the seed picks it from the pool of the
level (``pool[seed % len(pool)]``, cases in casebook order):

- level 1: the cases that ask only for the decision (multiple choice, widget ``choice``);
- level 2: the cases that also ask for the list entry (widget ``case``: the choice and a number);
- level 3: every case.

An empty pool (a casebook without such cases) falls back to every case. Adding cases to
the casebook changes which case an old seed shows; old attempts keep their grade.

At level 2 the options state the decision only (who wins or loses, at which level, or
what happens instead); the list entry is typed in as a number and never shown before the
answer. Such an answer is right only when both parts are right.

Grading asks :func:`skatschule.casebook.cases.solve`, which uses the rulings engine where
the case carries an engine input. The feedback first says which part was right or wrong,
then shows the ruling, the explanation and the engine's derivation, with the rule ids.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from skatschule.content.plain import paragraphs as _paragraphs
from skatschule.content.plain import plain
from skatschule.engine import Step, Text, parse_card
from skatschule.engine.names import cards_ref
from skatschule.engine.sorting import sort_hand
from skatschule.exercises.answers import parse_choice, parse_number
from skatschule.exercises.base import AnswerError, Feedback, Question
from skatschule.exercises.exercise import EngineExercise
from skatschule.exercises.grading import Solution
from skatschule.exercises.helpers import signed

from .. import cases as casebook

__all__ = ["Fall", "pool", "seed_for_case", "plain", "read_case_answer", "verdict_step"]


def pool(level: int) -> tuple[casebook.Case, ...]:
    """The cases of one level (see the module docstring)."""
    every = casebook.load_cases()
    if level == 1:
        chosen = tuple(c for c in every if not c.score_asked)
    elif level == 2:
        chosen = tuple(c for c in every if c.score_asked)
    else:
        chosen = every
    return chosen or every


def seed_for_case(level: int, case_id: str) -> int | None:
    """A seed that shows ``case_id`` at ``level`` (None if the case is not in that pool)."""
    for i, case in enumerate(pool(level)):
        if case.id == case_id:
            return i
    return None


def read_case_answer(question: Question, answer: Sequence[str]) -> tuple[str, int | None]:
    """Read the ``case`` widget: one option value, then one integer (the list entry).

    For a ``choice`` question only the option is read. Raises AnswerError when unreadable.
    """
    if question.widget == "choice":
        return parse_choice(question, answer), None
    fields = [str(v).strip() for v in answer if str(v).strip()] if not isinstance(answer, str) else [answer]
    if len(fields) != 2:
        raise AnswerError(
            "Bitte eine Entscheidung wählen und den Listeneintrag als Zahl eingeben",
            "Please choose a decision and enter the list entry as a number",
        )
    return parse_choice(question, [fields[0]]), parse_number([fields[1]])


class Fall(EngineExercise[casebook.Case]):
    slug = "fall"
    name = Text("Entscheide den Fall", "Decide the case")
    description = Text(
        "Ein Fall aus der Schiedsrichter-Praxis: Wie wird entschieden, und was kommt in die Liste?",
        "A case from refereeing practice: what is the ruling, and what goes on the score sheet?",
    )
    rule_ids = ("3.1.3", "3.1.4", "3.1.5", "3.2.3", "3.3.1", "4.4.1")

    def build(self, rng: random.Random, difficulty: int) -> casebook.Case:
        raise NotImplementedError  # the seed picks the case directly (see scenario)

    def scenario(self, difficulty: int, seed: int) -> casebook.Case:
        self.check_difficulty(difficulty)
        cases = pool(difficulty)
        if not cases:
            raise AnswerError("Die Fallsammlung ist leer", "The casebook is empty")
        return cases[seed % len(cases)]

    def ask(self, case: casebook.Case, difficulty: int, seed: int) -> Question:
        facts = [Text(f"Fall {case.id}: {case.title_de}", f"Case {case.id}: {case.title_en}")]
        facts += [
            Text(de, en) for de, en in zip(_paragraphs(case.situation_de, "de"), _paragraphs(case.situation_en, "en"))
        ]
        for label, cards in case.hands:
            names = cards_ref(sort_hand(parse_card(c) for c in cards))
            facts.append(Text(f"{label.de}: {names}", f"{label.en}: {names}"))
        prompt_de = " ".join(_paragraphs(case.question_de, "de"))
        prompt_en = " ".join(_paragraphs(case.question_en, "en"))
        if case.score_asked:
            prompt_de += " Gib außerdem den Listeneintrag für den Alleinspieler an (verloren mit Minus)."
            prompt_en += " Also enter the declarer's list entry (a loss with a minus sign)."
        options = case.choices
        return self.question(
            difficulty,
            seed,
            Text(prompt_de, prompt_en),
            "case" if case.score_asked else "choice",
            options=options,
            facts=facts,
            rule_ids=case.rule_ids,
        )

    def solve(self, case: casebook.Case) -> Solution:
        answer = casebook.solve(case)
        chosen = case.choice(answer.choice)
        label_de = chosen.label.de if chosen else answer.choice
        label_en = chosen.label.en if chosen else answer.choice
        raw: tuple[str, ...] = (answer.choice,)
        if case.score_asked and answer.score is not None:
            raw += (str(answer.score),)
            label_de += f"; Listeneintrag {signed(answer.score)}"
            label_en += f"; list entry {signed(answer.score)}"
        steps = [
            Step(plain(case.ruling_de, "de"), plain(case.ruling_en, "en"), case.rule_ids),
            Step(plain(case.explanation_de, "de"), plain(case.explanation_en, "en"), ()),
        ]
        steps += [Step.of(line) for line in answer.steps]
        return Solution(raw, Text(label_de, label_en), tuple(steps), answer.rule_ids or case.rule_ids)

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        case, rebuilt = self._restore(question)
        choice, score = read_case_answer(rebuilt, answer)
        solution = self.solve(case)
        choice_ok = choice == solution.raw[0]
        chosen = case.choice(choice)
        given_de = chosen.label.de if chosen else choice
        given_en = chosen.label.en if chosen else choice
        normalized = choice
        correct = choice_ok
        steps = solution.steps
        if rebuilt.widget == "case":
            right_score = int(solution.raw[1]) if len(solution.raw) > 1 else None
            score_ok = right_score is not None and score == right_score
            correct = choice_ok and score_ok
            given_de += f"; Listeneintrag {signed(score or 0)}"
            given_en += f"; list entry {signed(score or 0)}"
            normalized += f" {score}"
            steps = (verdict_step(choice_ok, score_ok, score or 0, right_score),) + steps
        return Feedback(
            correct=correct,
            answer=solution.answer,
            given=Text(given_de, given_en),
            steps=steps,
            rule_ids=solution.rule_ids,
            normalized=normalized,
        )


def verdict_step(choice_ok: bool, score_ok: bool, given: int, right: int | None) -> Step:
    """The first feedback line of a ``case`` answer: which of the two parts was right."""
    entry_de = f"du hast {signed(given)} eingetragen, richtig ist {signed(right)}" if right is not None else ""
    entry_en = f"you entered {signed(given)}, the right entry is {signed(right)}" if right is not None else ""
    if choice_ok and score_ok:
        return Step(
            "Entscheidung und Listeneintrag sind beide richtig.", "Both the decision and the list entry are right.", ()
        )
    if choice_ok:
        return Step(
            f"Die Entscheidung ist richtig, der Listeneintrag nicht: {entry_de}.",
            f"The decision is right, the list entry is not: {entry_en}.",
            (),
        )
    if score_ok:
        return Step(
            "Der Listeneintrag stimmt, aber die Entscheidung nicht.",
            "The list entry is right, but the decision is not.",
            (),
        )
    return Step(
        f"Weder die Entscheidung noch der Listeneintrag stimmt: {entry_de}.",
        f"Neither the decision nor the list entry is right: {entry_en}.",
        (),
    )
