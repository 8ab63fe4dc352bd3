"""Issue 34 §6: an imported question is asked and graded as Moodle asks and grades it.

One GIFT file and one Moodle XML file hold every supported type. The expected grades below are
written by hand from Moodle's documented rules (not from our engine):

- single choice: the chosen answer's fraction; multiple choice: the sum of the chosen
  answers' fractions, clipped to 0..1 (qtype_multichoice);
- true/false: 1 for the right one; short answer: the fraction of the first answer that matches,
  ``*`` any text, case ignored unless usecase (GIFT always ignores case);
- numerical: the fraction of the first answer whose value ± tolerance holds the number.

Issue 33 H2: every parser of a teacher's file is linear (timed against plain input of the same
size in one run, as a ratio).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from skatschule.quizzes import exports, imports, own_items, questions
from skatschule.quizzes.models import Quiz, QuizItem
from skatschule.quizzes.services import attempts, importing

pytestmark = pytest.mark.django_db

GIFT = """// every type Skatschule imports
::Kurz:: Wie heißt das Spiel ohne Trümpfe? {=Null =Nullspiel =%50%Null ouvert}

::Stern:: Wer sitzt links vom Geber? {=Vorhand* =%25%*hand}

::Einfach:: Welche Karte sticht im Grand am höchsten? {=Kreuz-Bube ~%50%Pik-Bube ~Herz-Ass ~%-50%Karo-Sieben}

::Mehrfach:: Was gehört zum Grand? {~%70%Vier Buben ~%30%Hand möglich ~%-50%Herz ist Trumpf ~%-50%Zehn ist Trumpf}

::Drittel:: Welche Buben sind Trumpf im Grand? {~%33.33333%Kreuz ~%33.33333%Pik ~%33.33333%Herz ~%-100%Keiner}

::Halbe:: Welche Karten zählen 10 oder mehr? {~%0%Dame ~%0%König ~%50%Zehn ~%50%Ass}

::WF:: Der Skat zählt zum Alleinspieler. {TRUE}

::FW:: Im Null gibt es Trümpfe. {F#Doch nicht.#Richtig.}

::Zahl:: Was ist Kreuz mit 2, Spiel 3, wert? {#=36:0 =%50%36:12}

::Bereich:: Ab wie vielen Augen gewinnt man? {#59..63}
"""

XML = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/Skat</text></category></question>
  <question type="shortanswer">
    <name><text>Kurz</text></name>
    <questiontext format="html"><text><![CDATA[<p>Wie heißt das <b>kleinste</b> Spiel?</p>]]></text></questiontext>
    <usecase>1</usecase>
    <answer fraction="100"><text>Null</text></answer>
    <answer fraction="50"><text>Null*</text><feedback><text>Fast.</text></feedback></answer>
  </question>
  <question type="multichoice">
    <name><text>Einfach</text></name>
    <questiontext><text>Welche Karte ist die höchste Trumpfkarte im Grand?</text></questiontext>
    <single>true</single>
    <shuffleanswers>0</shuffleanswers>
    <answer fraction="100"><text>Kreuz-Bube</text></answer>
    <answer fraction="33.33333"><text>Pik-Bube</text></answer>
    <answer fraction="0"><text>Herz-Ass</text></answer>
  </question>
  <question type="multichoice">
    <name><text>Mehrfach</text></name>
    <questiontext><text>Was gehört zum Grand?</text></questiontext>
    <single>false</single>
    <answer fraction="70"><text>Vier Buben</text></answer>
    <answer fraction="30"><text>Hand möglich</text></answer>
    <answer fraction="-50"><text>Herz ist Trumpf</text></answer>
    <answer fraction="-50"><text>Zehn ist Trumpf</text></answer>
  </question>
  <question type="truefalse">
    <name><text>WF</text></name>
    <questiontext><text>Im Grand sind nur die Buben Trumpf.</text></questiontext>
    <answer fraction="100"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>
  <question type="numerical">
    <name><text>Zahl</text></name>
    <questiontext><text>Wie viele Augen hat das Blatt?</text></questiontext>
    <answer fraction="100"><text>120</text><tolerance>0</tolerance></answer>
    <answer fraction="50"><text>120</text><tolerance>12</tolerance></answer>
  </question>
</quiz>
"""


def _quiz(make_quiz: Callable[..., Quiz], teacher: User, data: bytes, fmt: str) -> tuple[Quiz, list[QuizItem]]:
    result = importing.import_questions(owner=teacher, data=data, fmt=fmt)
    assert result.problems == [] and result.items
    # all or nothing for generated items: the file's fractions must count all the same
    quiz = make_quiz(count=1, kinds=("augen",), partial_credit=Quiz.PartialCredit.ALL_OR_NOTHING)
    quiz.items.all().delete()
    for item in result.items:
        own_items.add_to_quiz(owner=teacher, item=item, quiz=quiz)
    return quiz, list(quiz.items.order_by("position"))


def _grader(quiz: Quiz, items: list[QuizItem], student: User) -> Callable[[int, list[str]], float]:
    """credit(position, answer): the stored credit of that answer; options are named by their labels."""
    attempt = attempts.start_attempt(quiz=quiz, student=student)

    def grade(position: int, answer: list[str]) -> float:
        item = items[position - 1]
        question = questions.question_for(quiz, item, student.pk, attempt.number)
        by_label = {o.label.de: o.value for o in question.options}
        values = [by_label.get(a, a) for a in answer]
        saved = attempts.save_answer(attempt=attempt, item=item, values=values).answer
        assert saved.correct == (saved.credit == 1)
        return saved.credit

    return grade


def test_gift_file_graded_as_moodle(make_quiz: Callable[..., Quiz], teacher: User, student: User) -> None:
    quiz, items = _quiz(make_quiz, teacher, GIFT.encode(), "gift")
    grade = _grader(quiz, items, student)
    widgets = [questions.question_for(quiz, item, student.pk).widget for item in items]
    assert widgets == ["text", "text", "choice", "multi", "multi", "multi", "choice", "choice", "decimal", "decimal"]
    # short answer: alternatives, GIFT ignores case, first match counts
    assert grade(1, ["nullspiel"]) == 1 and grade(1, ["Null ouvert"]) == 0.5 and grade(1, ["Grand"]) == 0
    assert grade(2, ["Vorhand links"]) == 1 and grade(2, ["Mittelhand"]) == 0.25 and grade(2, ["Geber"]) == 0
    # single choice: the chosen option's fraction (a negative one earns 0 here)
    assert grade(3, ["Kreuz-Bube"]) == 1 and grade(3, ["Pik-Bube"]) == 0.5 and grade(3, ["Karo-Sieben"]) == 0
    # multiple choice: Moodle's sum, clipped to 0..1
    assert grade(4, ["Vier Buben"]) == 0.7
    assert grade(4, ["Vier Buben", "Hand möglich"]) == 1
    assert grade(4, ["Vier Buben", "Herz ist Trumpf"]) == 0.2
    assert grade(4, ["Herz ist Trumpf"]) == 0 and grade(4, []) == 0
    assert grade(5, ["Kreuz", "Pik", "Herz", "Keiner"]) == 0
    assert grade(5, ["Kreuz", "Pik", "Herz"]) == 1 and grade(5, ["Kreuz"]) == 0.3333
    assert grade(6, ["Dame", "König", "Zehn", "Ass"]) == 1 and grade(6, ["Zehn"]) == 0.5
    # true/false
    assert grade(7, ["Wahr"]) == 1 and grade(7, ["Falsch"]) == 0
    assert grade(8, ["Falsch"]) == 1 and grade(8, ["Wahr"]) == 0
    # numerical: the first range that holds the number
    assert grade(9, ["36"]) == 1 and grade(9, ["40,5"]) == 0.5 and grade(9, ["48"]) == 0.5 and grade(9, ["49"]) == 0
    assert grade(10, ["59"]) == 1 and grade(10, ["63.0"]) == 1 and grade(10, ["58,9"]) == 0


def test_moodle_xml_file_graded_as_moodle(make_quiz: Callable[..., Quiz], teacher: User, student: User) -> None:
    quiz, items = _quiz(make_quiz, teacher, XML.encode(), "moodle_xml")
    grade = _grader(quiz, items, student)
    # usecase 1: case counts; "Null*" catches what starts with Null
    assert grade(1, ["Null"]) == 1 and grade(1, ["null"]) == 0 and grade(1, ["Nullspiel"]) == 0.5
    assert grade(2, ["Kreuz-Bube"]) == 1 and grade(2, ["Pik-Bube"]) == 0.3333 and grade(2, ["Herz-Ass"]) == 0
    assert grade(3, ["Vier Buben"]) == 0.7 and grade(3, ["Vier Buben", "Hand möglich", "Zehn ist Trumpf"]) == 0.5
    assert grade(4, ["Wahr"]) == 1 and grade(4, ["Falsch"]) == 0
    assert grade(5, ["120"]) == 1 and grade(5, ["110"]) == 0.5 and grade(5, ["132"]) == 0.5 and grade(5, ["133"]) == 0


def test_every_change_and_refusal_is_listed_by_line() -> None:
    parsed = imports.parse_moodle_xml(XML.encode())
    lines = XML.splitlines()

    def line_of(name: str) -> int:
        return next(n for n, text in enumerate(lines, start=1) if f"<text>{name}</text>" in text) - 1

    changes = {(c.line, c.de.split()[0]) for c in parsed.changes}
    assert (line_of("Kurz"), "Formatierungen") in changes  # <b> dropped
    assert (line_of("Kurz"), "Rückmeldungen") in changes
    assert (line_of("Einfach"), "Die") in changes  # shuffled although the file says not to
    refused = (
        GIFT
        + "\n::Summe:: Welche? {~%50%A ~%30%B ~C}\n\n::Ohne:: Welche? {=%50%A ~B}\n\n::Wer:: Wer? {=a -> b =c -> d}\n"
    )
    parsed = imports.parse_gift(refused)
    starts = [
        n for n, text in enumerate(refused.splitlines(), start=1) if text.startswith(("::Summe", "::Ohne", "::Wer"))
    ]
    assert [p.line for p in parsed.problems] == starts
    assert "80 %" in parsed.problems[0].de and "Zuordnung" in parsed.problems[2].de
    (negative,) = [c for c in imports.parse_gift(GIFT).changes if "negativ" in c.de]
    assert negative.line == GIFT.splitlines().index(next(t for t in GIFT.splitlines() if t.startswith("::Einfach"))) + 1


@pytest.mark.parametrize(("data", "fmt"), [(GIFT, "gift"), (XML, "moodle_xml")])
def test_moodle_export_gives_back_the_same_questions(
    make_quiz: Callable[..., Quiz], teacher: User, data: str, fmt: str
) -> None:
    quiz, _items = _quiz(make_quiz, teacher, data.encode(), fmt)
    before = [q.as_json() for q in importing.read_file(owner=teacher, data=data.encode(), fmt=fmt).questions]
    again = imports.parse_moodle_xml(exports.moodle_xml(quiz).encode())
    assert again.problems == [] and [q.as_json() for q in again.questions] == before
    assert not [c for c in again.changes if "Formatierung" in c.de]  # only paragraphs: nothing to note


def _ratio(parse: Callable[[], object], plain: Callable[[], object]) -> float:
    """CPU time of the crafted input over that of plain input of the same size (best of 5 each):
    the process's own time, which other work on a loaded machine does not stretch."""

    def best(run: Callable[[], object]) -> float:
        times = []
        for _ in range(5):
            start = time.process_time()
            run()
            times.append(time.process_time() - start)
        return min(times)

    return best(parse) / best(plain)


@pytest.mark.parametrize(
    "crafted",
    [
        "Frage " + "<" * 60000 + " {#1}",
        "Frage " + "<a" * 30000 + " {#1}",
        "Frage " + "\\{" * 30000 + " {#1}",
        "Frage " + "\\\\" * 30000 + " {#1}",
        "Frage {" + "~%5%" * 15000 + "}",
        "Frage {#" + "=%5%1:1" * 8000 + "}",
        "Frage {" + "=a" * 30000 + "}",
        "::" + ":" * 60000 + " {#1}",
    ],
)
def test_gift_parser_is_linear(crafted: str) -> None:
    plain = "Frage " + "x" * (len(crafted) - 11) + " {#1}"
    assert len(plain) == len(crafted)
    ratio = _ratio(lambda: imports.parse_gift(crafted), lambda: imports.parse_gift(plain))
    assert ratio < 10, ratio  # the quadratic tag stripping gave more than 100


@pytest.mark.parametrize(("crafted", "cdata"), [("<" * 60000, True), ("<a" * 30000, True), ("&amp;" * 12000, False)])
def test_moodle_xml_parser_is_linear(crafted: str, cdata: bool) -> None:
    def xml(text: str) -> bytes:
        text = f"<![CDATA[{text}]]>" if cdata else text
        return (
            '<?xml version="1.0"?><quiz><question type="shortanswer"><questiontext><text>'
            + text
            + '</text></questiontext><answer fraction="100"><text>x</text></answer></question></quiz>'
        ).encode()

    crafted_xml, plain_xml = xml(crafted), xml("x" * len(crafted))
    assert len(crafted_xml) == len(plain_xml)
    ratio = _ratio(lambda: imports.parse_moodle_xml(crafted_xml), lambda: imports.parse_moodle_xml(plain_xml))
    assert ratio < 10, ratio
