"""The casebook content and its loader (skatschule/casebook/cases.py).

Every engine case is checked against the rulings engine: the written result line
(``expect:``), the list entry named in the written ruling and the right choice must all
agree with what :func:`skatschule.engine.vectors.ruling_from_input` decides.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from skatschule.casebook import cases as cb
from skatschule.casebook.cases import CATEGORIES, Case, CaseFormatError, load_cases, solve
from skatschule.engine.names import card_name
from skatschule.engine.rulings import Level
from skatschule.rules.content import load_registry

ROOT = Path(__file__).resolve().parents[2]
CASEBOOK = ROOT / "rules_content" / "casebook"
MIN_CASES = 40
MIN_PER_CATEGORY = 4
MIN_ENGINE_CASES = 18

CASES = load_cases()
ENGINE_CASES = [c for c in CASES if c.engine_input is not None]


def test_category_slugs_and_order_are_the_contract() -> None:
    assert [c.slug for c in CATEGORIES] == [
        "geben",
        "reizen",
        "spielansage",
        "ausspielen",
        "bedienen",
        "spielabkuerzung",
        "skat",
        "abrechnung",
    ]
    assert CATEGORIES[5].name("de") == "Spielabkürzung" and CATEGORIES[5].name("en") == "Shortening the game"


def test_enough_cases_in_every_category() -> None:
    assert len(CASES) >= MIN_CASES
    for cat in CATEGORIES:
        assert len(cb.cases_in_category(cat.slug)) >= MIN_PER_CATEGORY, cat.slug


def test_ids_are_unique_and_well_formed() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"F-\d{2}", i) for i in ids), ids


def test_every_published_id_still_exists() -> None:
    published = [
        line.strip()
        for line in (CASEBOOK / "published_ids.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(published) >= MIN_CASES
    missing = sorted(set(published) - {c.id for c in CASES})
    assert missing == [], f"published case ids must never disappear: {missing}"


def test_every_case_id_is_published() -> None:
    published = set((CASEBOOK / "published_ids.txt").read_text().split())
    assert {c.id for c in CASES} <= published, "add new case ids to published_ids.txt"


def test_rule_ids_exist_in_the_rules_text() -> None:
    registry = load_registry(ROOT / "rules_content")
    for case in CASES:
        for rule_id in case.rule_ids:
            assert registry.rule(rule_id) is not None, f"{case.id}: no rule {rule_id}"
        for text in (
            case.situation_de,
            case.situation_en,
            case.explanation_de,
            case.explanation_en,
            case.ruling_de,
            case.ruling_en,
        ):
            for rid in re.findall(r"\[\[\s*rule\s*:\s*([^\]]+?)\s*\]\]", text):
                assert registry.rule(rid) is not None, f"{case.id}: [[rule: {rid}]] does not exist"


def test_lookups() -> None:
    first = CASES[0]
    assert cb.get_case(first.id) is first
    assert cb.get_case("F-999") is None
    assert first in cb.cases_for_rule(first.rule_ids[0])
    assert cb.cases_for_rule("9.9.9") == ()
    assert cb.cases_in_category("nope") == ()
    assert first.title("en") == first.title_en and first.question("de") == first.question_de


def test_texts_are_bilingual_and_differ() -> None:
    for case in CASES:
        for name in ("title", "situation", "question", "ruling", "explanation"):
            de, en = getattr(case, f"{name}_de"), getattr(case, f"{name}_en")
            assert de and en, (case.id, name)
            if name != "title" or len(de) > 12:
                assert de != en, (case.id, name)


def test_exactly_one_choice_is_right_and_solve_works() -> None:
    for case in CASES:
        answer = solve(case)
        assert [c.value for c in case.choices].count(answer.choice) == 1, case.id
        assert 3 <= len(case.choices) <= 5
        assert (answer.score is not None) == case.score_asked, case.id
        assert set(case.rule_ids) <= set(answer.rule_ids)


def test_enough_cases_are_decided_by_the_engine() -> None:
    assert len(ENGINE_CASES) >= MIN_ENGINE_CASES


def _expect(case: Case) -> tuple[bool, int]:
    m = re.fullmatch(r"(won|lost)\s+(-?\d+)", (case.expect or "").strip())
    assert m, f"{case.id}: engine case needs 'expect: won N' or 'expect: lost -N'"
    return m.group(1) == "won", int(m.group(2))


@pytest.mark.parametrize("case", ENGINE_CASES, ids=lambda c: c.id)
def test_written_ruling_agrees_with_the_engine(case: Case) -> None:
    ruling = cb.engine_ruling(case)
    won, score = _expect(case)
    assert (ruling.won, ruling.score) == (won, score), f"{case.id}: written {case.expect}, engine {ruling.as_dict()}"
    answer = solve(case)
    # the right choice is the one describing the engine's verdict (and level, where given)
    verdict, _, detail = answer.choice.partition(":")
    assert verdict == ("won" if ruling.won else "lost")
    if detail == "ueberreizt":
        assert ruling.overbid
    elif detail:
        assert ruling.level is not None and detail == ruling.level.value
    # the list entry the learner types in is the engine's, and no choice value names it
    assert answer.score == (ruling.score if case.score_asked else None)
    assert sum(c.value in cb.outcome_keys(ruling) for c in case.choices) == 1
    # the written ruling names the list entry the engine computed
    number = str(abs(ruling.score))
    for text in (case.ruling_de, case.ruling_en):
        assert re.search(rf"(?<!\d){number}(?!\d)", text), f"{case.id}: ruling text does not mention {number}"


def test_choices_of_score_cases_state_the_decision_only() -> None:
    """Where the learner types in the list entry, no option may carry a number."""
    asked = [c for c in CASES if c.score_asked]
    assert len(asked) >= MIN_ENGINE_CASES
    for case in asked:
        for choice in case.choices:
            for text in (choice.value, choice.label.de, choice.label.en):
                assert not re.search(r"\d", text), f"{case.id}: {text!r} gives a number away"


@pytest.mark.parametrize("case", ENGINE_CASES, ids=lambda c: c.id)
def test_the_level_on_the_ruling_matches_its_derivation(case: Case) -> None:
    """Ruling.level (read by solve) against the engine's own value line."""
    ruling = cb.engine_ruling(case)
    texts = ruling.explain("de", plain=True)
    value_lines = [t for t in texts if " × " in t and " = " in t and not t.startswith("Überreizt")]
    if ruling.level is None:
        assert any("Null" in line for line in texts)
        return
    line = value_lines[-1]
    assert ("Schwarz" in line) == (ruling.level is Level.SCHWARZ), (case.id, line)
    assert ("Schneider" in line) == (ruling.level in (Level.SCHNEIDER, Level.SCHWARZ)), (case.id, line)
    assert ruling.overbid == any(t.startswith("Überreizt") for t in texts), case.id


def test_solve_refuses_ambiguous_or_missing_engine_choices() -> None:
    from dataclasses import replace

    from skatschule.engine import Text
    from skatschule.exercises.base import Choice

    case = next(c for c in ENGINE_CASES if solve(c).choice.startswith("lost:einfach"))
    both = replace(case, choices=case.choices + (Choice("lost", Text("Verloren", "Lost")),))
    with pytest.raises(CaseFormatError, match="several choices"):
        solve(both)
    none = replace(
        case, choices=tuple(c for c in case.choices if c.value != "lost:einfach") + (Choice("x", Text("X", "X")),)
    )
    with pytest.raises(CaseFormatError, match="no choice"):
        solve(none)


@pytest.mark.django_db
def test_directives_in_the_case_texts_render() -> None:
    """Every directive of the case texts renders: no ``[[`` is left over, and a ``[[cards: ...]]``
    directive names each of its cards (by the engine's card names) in the language of the text."""
    from skatschule.engine.cards import parse_card
    from skatschule.rules.directives import directives_as_text

    card_directive = re.compile(r"\[\[cards:\s*([^\]]*)\]\]")
    rendered = 0
    for case in CASES:
        for name in ("situation", "question", "ruling", "explanation"):
            for lang in ("de", "en"):
                source = getattr(case, f"{name}_{lang}")
                where = f"{case.id} {name}_{lang}"
                out = directives_as_text(source, lang=lang, where=where)
                assert "[[" not in out and "]]" not in out, where
                for match in card_directive.finditer(source):
                    rendered += 1
                    codes = [w for w in match.group(1).split() if w.lower() != "hand"]
                    for code in codes:
                        try:
                            card = parse_card(code)
                        except Exception:  # the game of ``hand clubs ...``
                            continue
                        assert card_name(card, "en" if lang == "en" else "de") in out, (where, code)
    assert rendered > 0  # the case texts do show cards


def test_hands_of_engine_cases() -> None:
    for case in ENGINE_CASES:
        hands = case.hands
        assert [len(h[1]) for h in hands] == [10, 10, 10, 2], case.id
        assert case.declarer in (0, 1, 2)


# --------------------------------------------------------------------------- loader errors

GOOD = """---
category: geben
---

## F-90 Titel | Title
rules: 2.2.4
answer: a
choices:
- a | Eins | One
- b | Zwei | Two
- c | Drei | Three

@situation
de: Lage
en: Situation
@question
de: Frage?
en: Question?
@ruling
de: Entscheid
en: Decision
@explanation
de: Weil
en: Because
"""


def _load(tmp_path: Path, text: str) -> tuple[Case, ...]:
    (tmp_path / "x.md").write_text(text, encoding="utf-8")
    cb.reload()
    try:
        return load_cases(tmp_path)
    finally:
        cb.reload()


def test_loader_reads_a_minimal_case(tmp_path: Path) -> None:
    (case,) = _load(tmp_path, GOOD)
    assert case.id == "F-90" and case.answer == "a" and solve(case).choice == "a" and case.engine_input is None


@pytest.mark.parametrize(
    "broken, message",
    [
        (GOOD.replace("category: geben", "category: quatsch"), "unknown category"),
        (GOOD.replace("answer: a\n", ""), "answer"),
        (GOOD.replace("- c | Drei | Three\n", "").replace("- b | Zwei | Two\n", ""), "3-5 choices"),
        (GOOD.replace("en: Because\n", ""), "lacks the en text"),
        (GOOD.replace("rules: 2.2.4\n", ""), "names no rules"),
        (GOOD + GOOD.split("---\n", 2)[2], "twice"),
        (GOOD.replace("- b | Zwei", "- won:36 | Zwei"), "list entry is typed in"),
    ],
)
def test_loader_reports_broken_content(tmp_path: Path, broken: str, message: str) -> None:
    with pytest.raises(CaseFormatError, match=message):
        _load(tmp_path, broken)


def test_a_cases_answer_is_kept_per_case_and_a_changed_case_is_solved_again() -> None:
    """``solve`` keeps the engine's answer of a case (grading a ``fall`` answer solves it): the same
    case gives the same answer, an edited copy with the same id its own."""
    engine_case = next(c for c in load_cases() if c.engine_input is not None)
    assert solve(engine_case) is solve(engine_case)
    assert solve(engine_case) == cb._solve(engine_case)
    written = next(c for c in load_cases() if c.engine_input is None and len(c.choices) > 1)
    other = next(c.value for c in written.choices if c.value != written.answer)
    edited = dataclasses.replace(written, answer=other)
    assert edited.id == written.id
    assert (solve(written).choice, solve(edited).choice) == (written.answer, other)
