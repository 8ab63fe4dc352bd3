"""Nothing can be guessed: no fixed answer beats chance by more than ten points.

For every exercise type and level that asks a multiple-choice question (widgets ``choice``,
``case``, ``multi``), 1,000 seeds are generated and the right answer of each is taken from
the engine (``correct_answer``, spot-checked with ``grade``). A learner who always picks
the same thing must not be right in more than ``1/k + 10 %`` of them, ``k`` being the
number of choices:

- the same option VALUE ("Der Alleinspieler gewinnt", "mit 1", "Vorhand") over all seeds,
  and within each form of question (questions with the same set of options; a form is a
  subsample, so two of its standard errors are allowed on top);
- the same POSITION (always the first radio button), over all seeds;
- for ``multi`` (tick any subset), the same set of ticks; ``k`` is the number of different
  right answers the level has (every subset of five games would make ``k`` 31, and a
  subset that is never right is no guess anyone keeps).

- the LONGEST or the SHORTEST label (in German and in English; ties go to the first of them),
  and the LAST position (issue 25, item 4: the longest option used to be the right decision
  in 28 of 48 casebook cases);
- for a number to type (``number``), the most frequent right number; ``k`` is the number of
  different right numbers the level has, as for ticks (``ueberreizt`` level 2 used to be
  "-120" in 18 %).

Over several seeds ``k`` may vary (a Null exercise asks "won or lost?" or "which card takes
the trick?"): the chance level is then the mean of ``1/k``.

Every type and level also asks at least :data:`DISTINCT_MIN` different questions over the
1,000 seeds (the prompt, the facts, the cards and the options), or names in
:data:`FEW_QUESTIONS` why it cannot.

Plain pytest, no database. Each (type, level) is tallied once and cached; the questions come
from question_bank.py, shared with test_exercise_types.py.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from dataclasses import dataclass, field

import pytest

from skatschule.exercises import REGISTRY
from skatschule.exercises.base import CHOICE_WIDGETS, Question

from . import question_bank

SEEDS = question_bank.SEEDS
MARGIN = 0.10
FORM_MIN = 100
"""A form of question (one set of options) asked at least this often is checked on its own."""
SPOT_CHECK_EVERY = 50
DISTINCT_MIN = 200
_CASEBOOK = "one question per casebook case (48 cases, of them 15 at level 1 and 33 at level 2)"
_DECLARATIONS = "the declarations themselves are few (game x hand x ouvert x announcements)"
FEW_QUESTIONS: dict[tuple[str, int], str] = {
    ("fall", 1): _CASEBOOK,
    ("fall", 2): _CASEBOOK,
    ("fall", 3): _CASEBOOK,
    ("spielansage", 1): _DECLARATIONS,
    ("spielansage", 2): _DECLARATIONS,
    ("spielansage", 3): _DECLARATIONS,
    ("reizen_ablauf", 1): "the first auctions are short: up to three calls at 18 to 20 (about 50 in all)",
    ("spielwert", 2): "game x hand x Schneider/Schwarz x Spitzen: at most 5 x 2 x 3 x 8 named facts, some rare",
    ("spielwert", 3): "announced and open games won Schwarz: only 'mit' Spitzen (with 'ohne' the defenders take a "
    "trick), at most 244 questions in all, high Spitzen rare",
}
"""(type, level) that cannot ask ``DISTINCT_MIN`` different questions, with the reason (README)."""


@dataclass
class Tally:
    asked: int = 0
    inverse_k: float = 0.0
    by_value: Counter[str] = field(default_factory=Counter)
    by_position: Counter[int] = field(default_factory=Counter)
    forms: dict[frozenset[str], Counter[str]] = field(default_factory=dict)
    form_k: dict[frozenset[str], int] = field(default_factory=dict)
    multi: bool = False
    by_strategy: Counter[str] = field(default_factory=Counter)
    """hits of the label strategies: longest/shortest label (de, en), last position"""

    @property
    def chance(self) -> float:
        return self.inverse_k / self.asked


@functools.cache
def tally(slug: str, level: int) -> Tally:
    kind = REGISTRY[slug]
    out = Tally()
    answers: list[str] = []
    for seed, q, raw in question_bank.questions(slug, level):
        if q.widget not in CHOICE_WIDGETS:
            continue
        values = [o.value for o in q.options]
        out.asked += 1
        if seed % SPOT_CHECK_EVERY == 0:  # the key agrees with the grader, and a wrong pick is wrong
            assert kind.grade(q, raw).correct, (slug, level, seed)
            wrong = next(v for v in values if v != raw[0])
            assert not kind.grade(q, [wrong] + list(raw[1:])).correct, (slug, level, seed)
        if q.widget == "multi":
            out.multi = True
            answers.append(" ".join(sorted(raw)))
            continue
        right = raw[0]
        out.inverse_k += 1 / len(values)
        out.by_value[right] += 1
        out.by_position[values.index(right)] += 1
        out.by_strategy["last"] += values[-1] == right
        for lang in ("de", "en"):
            lengths = [len(o.label.get(lang)) for o in q.options]
            out.by_strategy[f"longest ({lang})"] += values[lengths.index(max(lengths))] == right
            out.by_strategy[f"shortest ({lang})"] += values[lengths.index(min(lengths))] == right
        form = frozenset(values)
        out.forms.setdefault(form, Counter())[right] += 1
        out.form_k[form] = len(values)
    if out.multi:
        out.by_value = Counter(answers)
        out.inverse_k = out.asked / len(out.by_value)
    return out


def _question_key(q: Question) -> tuple[object, ...]:
    """What a learner sees of a question: the text, the facts, the cards and the options (as a set)."""
    return (
        q.prompt.de,
        tuple(f.de for f in q.facts),
        tuple(q.cards),
        tuple(q.trick),
        tuple(q.skat),
        frozenset((o.value, o.label.de) for o in q.options),
    )


@functools.cache
def answers_and_questions(slug: str, level: int) -> tuple[Counter[str], int, int]:
    """Over the seeds: the right answers of ``number`` questions, how many were asked, and how
    many different questions of any widget there were."""
    numbers: Counter[str] = Counter()
    asked = 0
    seen = set()
    for _seed, q, raw in question_bank.questions(slug, level):
        seen.add(_question_key(q))
        if q.widget == "number":
            asked += 1
            numbers[" ".join(raw)] += 1
    return numbers, asked, len(seen)


ALL_LEVELS = [(slug, level) for slug, kind in REGISTRY.items() for level in range(1, kind.levels + 1)]


def _scan() -> dict[tuple[str, int], set[str]]:
    """Every (type, level) that asks multiple choice for some of the first 50 seeds, with its widgets."""
    found: dict[tuple[str, int], set[str]] = {}
    for slug, kind in REGISTRY.items():
        for level in range(1, kind.levels + 1):
            widgets = {str(kind.generate(level, seed).widget) for seed in range(50)} & CHOICE_WIDGETS
            if widgets:
                found[(slug, level)] = widgets
    return found


SCANNED = _scan()
CHOICE_LEVELS = list(SCANNED)
ONE_PICK_LEVELS = [key for key, widgets in SCANNED.items() if "multi" not in widgets]


def test_every_multiple_choice_type_is_checked() -> None:
    kinds = {slug for slug, _ in CHOICE_LEVELS}
    for slug in ("fall", "regelverstoss", "stich", "spitzen", "reizen_ablauf", "spielansage", "null", "ueberreizt"):
        assert slug in kinds
    assert ("regelverstoss", 1) in CHOICE_LEVELS and ("fall", 2) in CHOICE_LEVELS


@pytest.mark.parametrize("slug,level", question_bank.params(CHOICE_LEVELS))
def test_no_fixed_value_beats_chance(slug: str, level: int) -> None:
    t = tally(slug, level)
    assert t.asked >= 100, f"{slug} L{level} asks too few multiple-choice questions to judge"
    value, hits = t.by_value.most_common(1)[0]
    rate = hits / t.asked
    assert rate <= t.chance + MARGIN, f"{slug} L{level}: {value!r} is right in {rate:.0%} (chance {t.chance:.0%})"


def _form_params() -> list[tuple[str, int]]:
    # the casebook: each case has its own options (and one answer), so no form repeats
    return [key for key in CHOICE_LEVELS if key[0] != "fall"]


@pytest.mark.parametrize("slug,level", question_bank.params(_form_params()))
def test_no_fixed_value_beats_chance_within_a_form(slug: str, level: int) -> None:
    t = tally(slug, level)
    checked = 0
    for form, counts in t.forms.items():
        asked = sum(counts.values())
        if asked < FORM_MIN:
            continue
        checked += 1
        value, hits = counts.most_common(1)[0]
        # a form is a subsample (100 to 1,000 questions): allow two standard errors of it
        limit = 1 / t.form_k[form] + MARGIN
        bound = limit + 2 * math.sqrt(limit * (1 - limit) / asked)
        assert hits / asked <= bound, f"{slug} L{level}: {value!r} is right in {hits}/{asked} questions of its form"
    if t.multi:
        assert len(t.by_value) >= 4, f"{slug} L{level}: only {len(t.by_value)} different right answers"
    else:
        assert checked, f"{slug} L{level}: no form of question is asked {FORM_MIN} times"


@pytest.mark.parametrize("slug,level", question_bank.params(ONE_PICK_LEVELS))
def test_no_fixed_position_beats_chance(slug: str, level: int) -> None:
    t = tally(slug, level)
    position, hits = t.by_position.most_common(1)[0]
    rate = hits / t.asked
    assert rate <= t.chance + MARGIN, f"{slug} L{level}: option {position + 1} is right in {rate:.0%}"


@pytest.mark.parametrize("slug,level", question_bank.params(ONE_PICK_LEVELS))
def test_no_label_strategy_beats_chance(slug: str, level: int) -> None:
    """Always the longest label, always the shortest, always the last option."""
    t = tally(slug, level)
    for strategy, hits in t.by_strategy.items():
        rate = hits / t.asked
        assert rate <= t.chance + MARGIN, f"{slug} L{level}: {strategy} is right in {rate:.0%} (chance {t.chance:.0%})"


@pytest.mark.parametrize("slug,level", question_bank.params(ALL_LEVELS))
def test_no_fixed_number_is_right_often(slug: str, level: int) -> None:
    numbers, asked, _ = answers_and_questions(slug, level)
    if asked < 100:
        pytest.skip(f"{slug} L{level} asks few numbers")
    value, hits = numbers.most_common(1)[0]
    chance = 1 / len(numbers)  # as for ticks: k is the number of different right answers the level has
    message = f"{slug} L{level}: {value!r} is right in {hits}/{asked} (k = {len(numbers)})"
    assert hits / asked <= chance + MARGIN, message


@pytest.mark.parametrize("slug,level", question_bank.params(ALL_LEVELS))
def test_every_level_asks_enough_different_questions(slug: str, level: int) -> None:
    _, _, distinct = answers_and_questions(slug, level)
    if (slug, level) in FEW_QUESTIONS:
        assert distinct < DISTINCT_MIN, f"{slug} L{level} now asks {distinct}: drop it from FEW_QUESTIONS"
        return
    assert distinct >= DISTINCT_MIN, f"{slug} L{level}: only {distinct} different questions in {len(SEEDS)} seeds"


def test_option_order_is_stable_per_seed_and_varies_between_seeds() -> None:
    kind = REGISTRY["stich"]
    orders = set()
    for seed in range(30):
        first = [o.value for o in kind.generate(1, seed).options]
        fresh = [o.value for o in kind.fresh(1, seed)[1].options]  # type: ignore[attr-defined]
        assert first == fresh  # a reload (no cache) shows the same order
        orders.add(tuple(first))
    assert len(orders) > 1
