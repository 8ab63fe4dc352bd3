"""The exercise types ``fall`` (casebook cases) and ``regelverstoss`` (generated irregularities).

Every answer is checked against the engine: ``regelverstoss`` against
``skatschule.engine.rulings.rule`` on the rebuilt game, ``fall`` against ``cases.solve``.
"""

from __future__ import annotations

import pytest

from skatschule.casebook import cases as casebook
from skatschule.casebook.exercise_types.fall import Fall, pool, seed_for_case
from skatschule.engine import Contract, Deal, GameState, GameType, parse_card
from skatschule.engine.rulings import Event, Irregularity, rule
from skatschule.exercises import REGISTRY, AnswerError
from skatschule.exercises.regelverstoss import Regelverstoss, Scenario
from tests.present import present

SEEDS = range(300)
_rv, _fall = REGISTRY["regelverstoss"], REGISTRY["fall"]
assert isinstance(_rv, Regelverstoss) and isinstance(_fall, Fall)
RV, FALL = _rv, _fall


# --------------------------------------------------------------------------- regelverstoss


@pytest.mark.parametrize("level", [1, 2, 3])
def test_regelverstoss_every_seed(level: int) -> None:
    kinds = set()
    for seed in SEEDS:
        q = RV.generate(level, seed)
        assert q == RV.fresh(level, seed)[1], "deterministic from (difficulty, seed)"
        assert q.widget == ("choice" if level == 1 else "number")
        scenario = RV.scenario(level, seed)
        kinds.add(scenario.event.kind)
        ruling = rule(scenario.state(), scenario.event)  # the engine, asked independently
        right = RV.correct_answer(q)
        expected = ("alleinspieler" if ruling.won else "gegenpartei") if level == 1 else str(ruling.score)
        assert right == [expected], (level, seed)
        fb = RV.grade(q, right)
        assert fb.correct and fb.steps and fb.rule_ids
        assert [s.de for s in fb.steps] == ruling.explain("de")
        if level == 1:
            wrong = ["gegenpartei" if expected == "alleinspieler" else "alleinspieler"]
        else:
            wrong = [str(-ruling.score or 1)]
        assert not RV.grade(q, wrong).correct, (level, seed)
        if level > 1:
            assert expected not in q.prompt.de, "the prompt does not give the entry away"
    expected_kinds = 4 if level == 1 else 6
    assert len(kinds) == expected_kinds, kinds


def test_regelverstoss_unreadable_answers() -> None:
    q1, q2 = RV.generate(1, 7), RV.generate(2, 7)
    for bad in (["vielleicht"], [], ["alleinspieler", "gegenpartei"]):
        with pytest.raises(AnswerError):
            RV.grade(q1, bad)
    for bad in (["abc"], [], ["1", "2"]):
        with pytest.raises(AnswerError):
            RV.grade(q2, bad)


def test_regelverstoss_levels_differ() -> None:
    def contracts(level: int) -> set[tuple[bool, bool, bool]]:
        out = set()
        for seed in range(100):
            c = RV.scenario(level, seed).contract
            out.add((c.hand, c.game.is_null, c.schneider_announced))
        return out

    assert contracts(1) == {(False, False, False)}
    assert (True, False, False) in contracts(2)
    assert any(announced for _, _, announced in contracts(3))


def test_regelverstoss_known_position() -> None:
    """A hand-made scenario: Mittelhand (declarer, Karo) revokes in the first trick -> -72."""
    deal = Deal.from_codes(
        [
            "HA C8 D8 SK SQ S9 CJ DQ CK HQ".split(),
            "DJ DA DT DK D9 CA CT SA H7 H8".split(),
            "ST C7 CQ HT C9 HK SJ D7 H9 HJ".split(),
            ["S7", "S8"],
        ]
    )
    scenario = Scenario(
        deal,
        1,
        18,
        Contract(GameType.DIAMONDS),
        (parse_card("S7"), parse_card("S8")),
        (parse_card("HQ"),),
        Event(Irregularity.REVOKE, 1, parse_card("DA")),
        2,
    )
    ruling = scenario.ruling()
    assert (ruling.won, ruling.score) == (False, -72)
    state = scenario.state()
    assert isinstance(state, GameState) and len(state.trick) == 1


# --------------------------------------------------------------------------- fall


def test_fall_pools_and_seed_mapping() -> None:
    every = casebook.load_cases()
    assert every, "the casebook has cases"
    assert [c.id for c in pool(3)] == [c.id for c in every]
    assert all(not c.score_asked for c in pool(1)) or pool(1) == every
    assert all(c.score_asked for c in pool(2)) or pool(2) == every
    for case in every:
        seed = seed_for_case(3, case.id)
        assert seed is not None and FALL.scenario(3, seed).id == case.id


@pytest.mark.parametrize("level", [1, 2, 3])
def test_fall_every_case(level: int) -> None:
    cases = pool(level)
    for seed in range(len(cases) * 2):
        q = FALL.generate(level, seed)
        case = cases[seed % len(cases)]
        answer = casebook.solve(case)
        assert q.widget == ("case" if case.score_asked else "choice")
        assert sorted(o.value for o in q.options) == sorted(c.value for c in case.choices)  # order: shuffled
        right = FALL.correct_answer(q)
        assert right[0] == answer.choice
        if case.score_asked:
            assert right[1] == str(answer.score)
        fb = FALL.grade(q, right)
        assert fb.correct and fb.steps and fb.rule_ids
        assert set(case.rule_ids) <= set(fb.rule_ids)
        for other in (c.value for c in case.choices if c.value != answer.choice):
            assert not FALL.grade(q, [other, *right[1:]]).correct
        if case.score_asked:
            assert not FALL.grade(q, [right[0], str(int(right[1]) + 10)]).correct
            with pytest.raises(AnswerError):
                FALL.grade(q, [right[0]])
            with pytest.raises(AnswerError):
                FALL.grade(q, [right[0], "viel"])
        with pytest.raises(AnswerError):
            FALL.grade(q, ["gibt-es-nicht", *right[1:]])


def test_fall_engine_cases_agree_with_the_engine() -> None:
    from skatschule.casebook.cases import engine_ruling

    for case in casebook.load_cases():
        if case.engine_input is None:
            continue
        seed = seed_for_case(3, case.id)
        assert seed is not None
        q = FALL.generate(3, seed)
        ruling = engine_ruling(case)
        right = FALL.correct_answer(q)
        assert right[0].split(":")[0] == ("won" if ruling.won else "lost")
        if case.score_asked:
            assert int(right[1]) == ruling.score


def test_fall_question_hides_the_ruling() -> None:
    for seed, case in enumerate(pool(3)):
        q = FALL.generate(3, seed)
        shown = " ".join([q.prompt.de, *(fact.de for fact in q.facts)])
        ruling_first_line = case.ruling_de.split("\n")[0].strip()
        assert ruling_first_line not in shown


@pytest.mark.parametrize("seed", range(len(pool(2))))
def test_fall_feedback_names_the_wrong_part(seed: int) -> None:
    """Decision and list entry are graded separately, and the first line says which failed."""
    case = pool(2)[seed]
    assert case.score_asked
    q = FALL.generate(2, seed)
    assert q.widget == "case"
    right = FALL.correct_answer(q)
    solved = casebook.solve(case)
    assert right == [solved.choice, str(solved.score)]
    other_choice = next(c.value for c in case.choices if c.value != right[0])
    other_score = str(int(right[1]) + 12)

    fb = FALL.grade(q, right)
    assert fb.correct and "beide richtig" in fb.steps[0].de and "both" in fb.steps[0].en.lower()

    fb = FALL.grade(q, [right[0], other_score])
    assert not fb.correct
    assert fb.steps[0].de.startswith("Die Entscheidung ist richtig, der Listeneintrag nicht")
    assert other_score.lstrip("+") in fb.steps[0].de and str(abs(present(solved.score))) in fb.steps[0].de

    fb = FALL.grade(q, [other_choice, right[1]])
    assert not fb.correct and fb.steps[0].de.startswith("Der Listeneintrag stimmt, aber die Entscheidung nicht")

    fb = FALL.grade(q, [other_choice, other_score])
    assert not fb.correct and fb.steps[0].de.startswith("Weder")
