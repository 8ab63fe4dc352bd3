"""Issue 28 §2: importing questions from GIFT and Moodle XML into a teacher's own items."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from skatschule.quizzes import imports, own_items, questions
from skatschule.quizzes.models import OwnItem, Quiz, QuizAnswer
from skatschule.quizzes.services import attempts, importing
from tests.people import client_for
from tests.present import present

pytestmark = pytest.mark.django_db

GIFT = """// Skat questions
::Spielwert:: Kreuz mit Zweien, einfach gewonnen: Wie viel ist das Spiel wert? {#36}

::Augen:: Wie viele Augen zählen die Karten zusammen? {#120:0}

::Knapp:: Ab wie vielen Augen gewinnt der Alleinspieler? {#59..63}

::Trumpf:: Welche Karte ist im Grand der höchste Trumpf? {
  =Kreuz-Bube
  ~Herz-Ass
  ~Pik-Zehn
}

::Buben:: Welche Karten sind im Grand Trumpf? {
  ~%50%Kreuz-Bube
  ~%50%Pik-Bube
  ~%-100%Herz-Ass
}
"""


def test_gift_reads_numbers_with_tolerance_and_choices() -> None:
    parsed = imports.parse_gift(GIFT)
    assert parsed.problems == []
    value, points, close, trump, jacks = parsed.questions
    assert (value.kind, value.numbers, value.line) == ("numerical", ((36, 0, 100),), 2)
    assert close.numbers == ((61, 2, 100),)
    assert trump.kind == "choice" and [f for _t, f in trump.options] == [100, 0, 0]
    assert jacks.kind == "multi" and [t for t, _f in jacks.options] == ["Kreuz-Bube", "Pik-Bube", "Herz-Ass"]
    assert points.title == "Augen"


def test_gift_reports_every_unsupported_question_with_its_line() -> None:
    text = (
        GIFT
        + "\n::Frei:: Erkläre den Schneider. {}\n\nNur ein Text ohne Antworten.\n\n"
        + "::Paar:: Zuordnen {=a -> b =c -> d}\n"
    )
    parsed = imports.parse_gift(text)
    lines = text.splitlines()
    starts = [lines.index(line) + 1 for line in lines if line.startswith(("::Frei", "Nur ein", "::Paar"))]
    assert [p.line for p in parsed.problems] == starts and len(starts) == 3
    assert "Freitext" in parsed.problems[0].de and "Essay" in parsed.problems[0].en


def test_moodle_xml_numerical_and_multichoice_and_refusals() -> None:
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/Skat</text></category></question>
  <question type="numerical">
    <name><text>Spielwert</text></name>
    <questiontext format="html"><text><![CDATA[<p>Grand mit einem, Hand: wie viel?</p>]]></text></questiontext>
    <answer fraction="100"><text>72</text><tolerance>0</tolerance></answer>
  </question>
  <question type="multichoice">
    <name><text>Trumpf</text></name>
    <questiontext><text>Welche Karte sticht?</text></questiontext>
    <single>true</single>
    <answer fraction="100"><text>Kreuz-Bube</text></answer>
    <answer fraction="0"><text>Herz-Ass</text></answer>
  </question>
  <question type="essay">
    <name><text>Frei</text></name>
    <questiontext><text>Erkläre den Schneider.</text></questiontext>
  </question>
</quiz>""".encode()
    parsed = imports.parse_moodle_xml(xml)
    essay = next(n for n, line in enumerate(xml.decode().splitlines(), start=1) if 'type="essay"' in line)
    assert [p.line for p in parsed.problems] == [essay]
    value, trump = parsed.questions
    assert value.prompt == "Grand mit einem, Hand: wie viel?" and value.numbers == ((72, 0, 100),)
    assert trump.kind == "choice"
    bomb = b'<?xml version="1.0"?><!DOCTYPE q [<!ENTITY a "aaaa">]><quiz>&a;</quiz>'
    assert imports.parse_moodle_xml(bomb).problems and not imports.parse_moodle_xml(bomb).questions


def test_size_limit() -> None:
    with pytest.raises(imports.FileTooLarge):
        imports.parse_gift("x" * (imports.MAX_BYTES + 1))
    with pytest.raises(imports.FileTooLarge):
        imports.parse_moodle_xml(b"x" * (imports.MAX_BYTES + 1))
    many = ("::Q:: Wie viel? {#1}\n\n" * 2000)[: imports.MAX_BYTES - 100]
    assert any("200" in p.de for p in imports.parse_gift(many).problems)  # more than 200 questions


def test_import_saves_the_accepted_and_names_the_refused(teacher: User) -> None:
    bad = GIFT + "\n::Frei:: Erkläre den Schneider. {}\n"
    preview = importing.read_file(owner=teacher, data=bad.encode(), fmt="gift")
    assert len(preview.questions) == 5 and not OwnItem.objects.exists()  # the preview saves nothing
    result = importing.import_questions(owner=teacher, data=bad.encode(), fmt="gift")
    assert [p.line for p in result.problems] == [bad.splitlines().index("::Frei:: Erkläre den Schneider. {}") + 1]
    assert len(result.items) == 5 and OwnItem.objects.filter(owner=teacher, kind="import").count() == 5
    whole = importing.import_questions(owner=teacher, data=b"nur Text ohne Frage", fmt="gift")
    assert whole.problems and not whole.items and OwnItem.objects.count() == 5


def test_imported_questions_are_graded_in_a_quiz(make_quiz: Callable[..., Quiz], teacher: User, student: User) -> None:
    items = importing.import_questions(owner=teacher, data=GIFT.encode(), fmt="gift").items
    quiz = make_quiz(count=1, kinds=("augen",), partial_credit=Quiz.PartialCredit.RIGHT_MINUS_WRONG)
    quiz.items.all().delete()
    for item in items:
        own_items.add_to_quiz(owner=teacher, item=item, quiz=quiz)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    quiz_items = list(quiz.items.order_by("position"))

    def save(position: int, values: list[str]) -> QuizAnswer:
        return attempts.save_answer(attempt=attempt, item=quiz_items[position - 1], values=values).answer

    assert save(1, ["36"]).correct and not save(2, ["119"]).correct
    assert save(3, ["62,5"]).correct  # within 61 ± 2, decimal comma
    question = questions.question_for(quiz, quiz_items[3], student.pk)
    assert "Kreuz-Bube" not in str(question.prompt)  # the options carry the words, the prompt does not
    kreuz = next(o.value for o in question.options if o.label.de == "Kreuz-Bube")
    assert save(4, [kreuz]).correct
    jacks = questions.question_for(quiz, quiz_items[4], student.pk)
    one = next(o.value for o in jacks.options if o.label.de == "Pik-Bube")
    answer = save(5, [one])
    assert not answer.correct and answer.credit == 0.5  # one of two right picks
    with pytest.raises(Exception) as caught:
        save(1, ["sechsunddreißig"])
    assert getattr(caught.value, "status", 400) == 400


def test_import_page(teacher: User, student: User) -> None:
    client = client_for(teacher)
    page = client.get("/quiz/eigene/import/")
    assert page.status_code == 200
    text = GIFT + "\n::Frei:: X {}\n"
    response = client.post("/quiz/eigene/import/", {"format": "gift", "text": text})
    line = text.splitlines().index("::Frei:: X {}") + 1
    preview = response.content.decode()
    assert response.status_code == 200 and f"Zeile {line}:" in preview and not OwnItem.objects.exists()
    assert preview.count('class="exercise"') == 5 and "Kreuz-Bube" in preview and 'name="confirm"' in preview
    assert client.post("/quiz/eigene/import/", {"format": "gift", "text": "nur Text"}).status_code == 400
    upload = SimpleUploadedFile("fragen.gift", GIFT.encode())
    response = client.post("/quiz/eigene/import/", {"format": "gift", "file": upload})
    assert response.status_code == 200 and not OwnItem.objects.exists()  # a preview first
    response = client.post("/quiz/eigene/import/", {"format": "gift", "text": response.context["text"], "confirm": "1"})
    assert response.status_code == 302 and OwnItem.objects.count() == 5
    big = SimpleUploadedFile("gross.gift", b"x" * (imports.MAX_BYTES + 1))
    assert client.post("/quiz/eigene/import/", {"format": "gift", "file": big}).status_code == 413
    assert client.post("/quiz/eigene/import/", {"format": "pdf", "text": GIFT}).status_code == 400
    latin = SimpleUploadedFile("f.gift", "Frage {#1} ä".encode("latin-1"))
    assert client.post("/quiz/eigene/import/", {"format": "gift", "file": latin}).status_code == 400
    assert client_for(student).get("/quiz/eigene/import/").status_code == 404
    item = present(OwnItem.objects.first())
    assert client.get(f"/quiz/eigene/{item.pk}/").status_code == 200
    assert client.get("/quiz/eigene/").status_code == 200


def test_imported_text_is_never_markup(make_quiz: Callable[..., Quiz], teacher: User, student: User) -> None:
    gift = "::X:: &lt;script&gt;alert(1)&lt;/script&gt; Wie viel? {=&lt;b&gt;eins ~zwei}\n"
    (item,) = importing.import_questions(owner=teacher, data=gift.encode(), fmt="gift").items
    quiz = make_quiz(count=1, kinds=("augen",))
    quiz.items.all().delete()
    own_items.add_to_quiz(owner=teacher, item=item, quiz=quiz)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    page = client_for(student).get(f"/quiz/versuch/{attempt.public_id}/").content.decode()
    assert "Wie viel?" in page and "<script>alert" not in page and "<b>eins" not in page
