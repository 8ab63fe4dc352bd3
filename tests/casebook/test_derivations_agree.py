"""Reasons agree with their verdicts (issue 13 §2), as a reader sees them.

Renders every case page, every exam review (every case at both levels and generated
irregularities at every level) and every worked result of the rules text, in German and
English, and checks each derivation:

- no step calls the game won when the verdict is lost, or lost when it is won;
- the last step states the verdict;
- "entschieden" / "decided" never appears while the game stood at 0:0 Augen;
- no "Stich(e)"-style half plurals, no unrendered name reference (``⟦...⟧``).
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.casebook import cases as casebook
from skatschule.casebook import services
from skatschule.casebook.exercise_types.fall import pool
from skatschule.casebook.models import Exam, ExamQuestion
from skatschule.engine.vectors import replay_from_input
from skatschule.exercises import REGISTRY
from skatschule.exercises.regelverstoss import Regelverstoss
from skatschule.rules.content import get_registry

pytestmark = pytest.mark.django_db

WON = {"de": re.compile(r"\bgewonnen\b"), "en": re.compile(r"\bwon\b")}
LOST = {"de": re.compile(r"\bverloren\b"), "en": re.compile(r"\blost\b")}
DECIDED = re.compile(r"\bentschieden\b|\bdecided\b", re.I)
HALF_PLURAL = re.compile(r"\w\((?:e|n|s|en)\)")
ENGINE_CASES = [c for c in casebook.load_cases() if c.engine_input is not None]
LANGS = ("de", "en")
REGELVERSTOSS_SEEDS = range(20)


def problems(texts: list[str], won: bool, lang: str, zero_zero: bool) -> list[str]:
    """What is wrong with one derivation (its step texts as shown, the verdict, the language)."""
    found = []
    wrong, right = (LOST, WON) if won else (WON, LOST)
    for text in texts:
        if wrong[lang].search(text):
            found.append(f"calls the game {'lost' if won else 'won'} against the verdict: {text!r}")
        if zero_zero and DECIDED.search(text):
            found.append(f"'decided' at 0:0 Augen: {text!r}")
        if HALF_PLURAL.search(text):
            found.append(f"half plural: {text!r}")
        if "⟦" in text or "⟧" in text:
            found.append(f"unrendered name reference: {text!r}")
    if not texts or not right[lang].search(texts[-1]):
        found.append(f"the last step does not state the verdict ({'won' if won else 'lost'}): {texts[-1:]!r}")
    return found


def test_the_checker_catches_the_reported_sentences() -> None:
    """The audit's wrong sentences would fail (so the check can fail)."""
    assert problems(
        ["89 Augen: mindestens 61, gewonnen", "Schneider angesagt, aber nicht erreicht: verloren"], False, "de", False
    )
    assert problems(
        ["Das Spiel war bereits entschieden (Alleinspieler 0, Gegenpartei 0 Augen): verloren"], False, "de", True
    )
    assert problems(["The declarer took 1 trick(s): lost"], False, "en", False)
    assert not problems(
        [
            "Augen: Alleinspieler 89, Gegenpartei 31",
            "89 Augen reichen für einfach; angesagt war Schneider, erreicht nicht: verloren",
        ],
        False,
        "de",
        False,
    )


def _items(page: str, list_class: str = "steps") -> list[list[str]]:
    """The texts of every ``<ol class="steps">`` of a page, tags stripped."""
    lists = []
    for block in re.findall(rf'<ol class="{list_class}">(.*?)</ol>', page, re.S):
        items = re.findall(r"<li>(.*?)</li>", block, re.S)
        lists.append([_plain(item) for item in items])
    return lists


def _plain(fragment: str) -> str:
    fragment = re.sub(r"<a [^>]*>.*?</a>", "", fragment, flags=re.S)  # the rule links after a step
    return htmllib.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def _zero_zero(case: casebook.Case) -> bool:
    inp = casebook.thaw(case.engine_input)
    if inp["event"]["type"] == "declarer_leads_before_declaring":
        return True
    state = replay_from_input(inp, inp.get("rules") or "isko")
    return state.declarer_augen() == 0 and state.defender_augen() == 0


def _client(lang: str) -> Client:
    client = Client()
    client.cookies["django_language"] = lang
    return client


@pytest.mark.parametrize("lang", LANGS)
def test_every_case_page(lang: str) -> None:
    client = _client(lang)
    found = []
    for case in ENGINE_CASES:
        # the ruling appears once the reader has decided (the page never shows it before)
        answer = casebook.solve(case)
        decided = [answer.choice, str(answer.score)] if case.score_asked else [answer.choice]
        page = client.post(reverse("casebook:case_answer", args=[case.id]), {"answer": decided}).content.decode()
        ruling = casebook.engine_ruling(case)
        lists = _items(page)
        assert lists, f"{case.id}: no derivation on the page"
        found += [f"{case.id}: {p}" for p in problems(lists[-1], ruling.won, lang, _zero_zero(case))]
    assert not found, "\n".join(found)


def _exam_with(client: Client, questions: list[tuple[str, int, int]]) -> Exam:
    response = client.post(reverse("casebook:exam_start"), {"fragen": "5"})
    assert response.status_code == 302
    exam = Exam.objects.latest("started_at", "pk")
    exam.questions.all().delete()
    ExamQuestion.objects.bulk_create(
        ExamQuestion(exam=exam, position=i, kind=kind, difficulty=level, seed=seed)
        for i, (kind, level, seed) in enumerate(questions, start=1)
    )
    Exam.objects.filter(pk=exam.pk).update(size=len(questions))
    assert client.post(reverse("casebook:exam_finish", args=[exam.public_id])).status_code == 302
    return exam


def _verdict(item: ExamQuestion) -> tuple[bool, bool, int]:
    """(won, 0:0 Augen, how many of the review's last steps the engine wrote)."""
    if item.kind == "fall":
        case = services.case_of(item)
        assert case is not None
        if case.engine_input is None:
            return False, False, 0
        ruling = casebook.engine_ruling(case)
        return ruling.won, _zero_zero(case), len(ruling.steps)
    kind = REGISTRY[item.kind]
    assert isinstance(kind, Regelverstoss)
    scenario = kind.scenario(item.difficulty, item.seed)
    ruling = scenario.ruling()
    state = scenario.state()
    return ruling.won, state.declarer_augen() == 0 and state.defender_augen() == 0, len(ruling.steps)


@pytest.mark.parametrize("lang", LANGS)
def test_every_exam_review(lang: str) -> None:
    questions = [("fall", level, seed) for level in (1, 2) for seed in range(len(pool(level)))]
    questions += [("regelverstoss", level, seed) for level in (1, 2, 3) for seed in REGELVERSTOSS_SEEDS]
    client = _client(lang)
    exam = _exam_with(client, questions)
    page = client.get(reverse("casebook:exam_review", args=[exam.public_id])).content.decode()
    lists = _items(page)
    items = list(exam.questions.order_by("position"))
    # every question shows its derivation (a case without the engine shows the written key)
    assert len(lists) == len(items)
    found = []
    checked = 0
    for item, texts in zip(items, lists):
        won, zero_zero, engine_steps = _verdict(item)
        if engine_steps == 0:
            continue
        checked += 1
        engine_texts = texts[-engine_steps:]
        found += [
            f"{item.kind} {item.difficulty}/{item.seed}: {p}" for p in problems(engine_texts, won, lang, zero_zero)
        ]
    assert checked >= len(ENGINE_CASES)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_every_worked_result_in_the_rules_text(lang: str) -> None:
    client = _client(lang)
    found = []
    results = 0
    for chapter in get_registry().chapters:
        page = client.get(reverse("rules:chapter", args=[chapter.id])).content.decode()
        for verdict, body in re.findall(
            r'<span class="directive-result (won|lost)"[^>]*>(.*?)</span></span></span>', page, re.S
        ):
            results += 1
            body = re.sub(r'<span class="result-refs">.*?</span>', "", body, flags=re.S)
            lines = [_plain(line) for line in re.split(r'<span class="result-line">', body)[1:]]
            found += [f"{chapter.id}: {p}" for p in problems(lines, verdict == "won", lang, False)]
    assert results >= 40, f"only {results} worked results found"
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_generated_irregularities_and_scored_games_agree(lang: str) -> None:
    """Beyond the pages: 150 generated irregularities per level and a sweep of scored games
    (every game type, announced levels, Augen, tricks, overbid or not)."""
    from skatschule.engine import PUB, Contract, GameType, score_game

    found = []
    kind = REGISTRY["regelverstoss"]
    assert isinstance(kind, Regelverstoss)
    for level in (1, 2, 3):
        for seed in range(150):
            scenario = kind.scenario(level, seed)
            ruling = scenario.ruling()
            state = scenario.state()
            zero = state.declarer_augen() == 0 and state.defender_augen() == 0
            found += [
                f"regelverstoss {level}/{seed}: {p}"
                for p in problems(ruling.explain(lang, plain=True), ruling.won, lang, zero)
            ]
    contracts = [
        Contract(GameType.HEARTS),
        Contract(GameType.GRAND, hand=True),
        Contract(GameType.CLUBS, hand=True, schneider_announced=True),
        Contract(GameType.SPADES, hand=True, schwarz_announced=True),
        Contract(GameType.DIAMONDS, hand=True, ouvert=True),
        Contract(GameType.NULL),
    ]
    for contract in contracts:
        for points, tricks in ((0, 0), (30, 2), (60, 4), (61, 5), (89, 7), (90, 8), (120, 10)):
            for bid in (18, 48, 96):
                count = 0 if contract.game.is_null else -2
                if contract.game.is_null:
                    tricks = 0 if points < 61 else 1
                outcome = score_game(
                    contract,
                    count,
                    bid=bid,
                    declarer_points=points,
                    declarer_tricks=tricks,
                    rules=PUB,
                    kontra=points == 61,
                )
                found += [
                    f"{contract} {points}/{tricks} bid {bid}: {p}"
                    for p in problems(outcome.explain(lang, plain=True), outcome.won, lang, False)
                ]
    assert not found, "\n".join(found[:20])
