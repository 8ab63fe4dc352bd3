"""Quiz results and items in the formats schools open them with (issue 18).

- **CSV**: German spreadsheet programs split at semicolons, so the German default is
  ``;`` with a UTF-8 byte-order mark (Excel then reads umlauts right); English gets commas.
- **XLSX** through openpyxl: one sheet "Ergebnisse", every score a number cell.
- Scores are numbers in both: the German CSV writes them with a decimal comma (``4,5``).
- Both go through the same formula-injection guard (:func:`csv_rows` prefixes a cell
  that starts with ``= + - @``, tab or CR with an apostrophe; numbers stay numbers), and the
  XLSX writer additionally stores every text cell as a string, never as a formula.
- **Moodle XML**: each item of the quiz in its fixed variant (``QuizItem.seed``, what
  everyone gets in a "für alle gleich" quiz and what the paper sheet shows), with the
  engine's answer and derivation. A teacher's own item (kind ``eigen-<id>``) has one fixed
  situation and is exported the same way: its question and answer come from
  ``own_items`` (the engine solves the situation; no answer is stored). Moodle then grades
  by the stored answer: the engine's grading, its explanations of wrong answers and random
  variants per student stay on Skatschule. Item types Moodle has no plain equivalent for
  (card order, casebook case with list entry) and own items whose situation was deleted
  are left out and named in a comment and on the page. An imported question (GIFT, Moodle XML)
  goes back with its own type, answers and fractions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import override, pgettext

from skatschule.core.people import shown_name
from skatschule.core.spreadsheets import default_delimiter, guard, local_datetime, table_csv_bytes, table_xlsx_bytes
from skatschule.engine.names import DEFAULT_DECK, cards_ref, render
from skatschule.exercises.base import Question
from skatschule.training.registry import get_type

from .imported import ImportedType
from .levels import level_name
from .models import Quiz
from .own_items import type_for
from .questions import grade_values
from .selectors.analysis import item_stats
from .selectors.results import result_lines

__all__ = [
    "csv_bytes",
    "xlsx_bytes",
    "table_csv_bytes",
    "table_xlsx_bytes",
    "moodle_xml",
    "MOODLE_TYPES",
    "default_delimiter",
]

MOODLE_TYPES = {"number": "numerical", "choice": "multichoice", "multi": "multichoice", "cards": "multichoice"}
# The fractions Moodle accepts for a share of the mark (100 / k for k = 1 .. 10).
_FRACTIONS = {
    1: "100",
    2: "50",
    3: "33.33333",
    4: "25",
    5: "20",
    6: "16.66667",
    7: "14.28571",
    8: "12.5",
    9: "11.11111",
    10: "10",
}


def csv_rows(quiz: Quiz, lang: str = "de") -> list[list[Any]]:
    """The results as a table: a header row, then one row per attempt."""
    return list(csv_lines(quiz, lang))


def csv_lines(quiz: Quiz, lang: str = "de") -> Iterator[list[Any]]:
    """The rows of :func:`csv_rows` one by one, reading the attempts in chunks (for streaming).

    Answers are in words in ``lang`` (``answers.answer_text``: "Vorhand", "Pik-König", never the
    stored "vorhand", "SK"); start and submission are date cells in the site's time zone
    (``core.spreadsheets.local_datetime``)."""
    from .answers import answer_text, shared_question

    items = list(quiz.items.order_by("position"))
    readers = [(*shared_question(quiz, item), item.kind) for item in items]
    said: dict[tuple[int, str], str] = {}
    with override(lang):  # left before the first row is yielded: a generator must not hold the language
        header = [
            pgettext("Tabellenkopf", "Benutzername"),
            pgettext("Tabellenkopf", "Versuch"),
            pgettext("Tabellenkopf", "Beginn"),
            pgettext("Tabellenkopf", "Abgabe"),
            pgettext("Tabellenkopf", "Dauer (Sekunden)"),
            pgettext("Tabellenkopf", "Punkte"),
            pgettext("Tabellenkopf", "Aufgaben"),
        ]
        per_item = (
            pgettext("Tabellenkopf", "Aufgabe %(n)d Antwort"),
            pgettext("Tabellenkopf", "Aufgabe %(n)d Punkte"),
        )
    for item in items:
        header.extend(label % {"n": item.position} for label in per_item)
    yield header
    for row in result_lines(quiz):
        line: list[Any] = [
            shown_name(row.username, lang),
            row.number,
            local_datetime(row.started_at),
            local_datetime(row.submitted_at) or "",
            "" if row.seconds is None else row.seconds,
            "" if row.submitted_at is None or row.points is None else round(row.points, 2),
            row.total,
        ]
        for position, ((question, widget, kind), earned, given) in enumerate(zip(readers, row.cells, row.given)):
            words = said.get((position, given))
            if words is None:  # students give the same answers: each is read once per export
                words = said[(position, given)] = answer_text(given, lang, question, widget, kind)
            line.extend(["", ""] if earned is None else [words, round(earned, 2)])
        yield [guard(cell) if isinstance(cell, str) else cell for cell in line]


def csv_bytes(quiz: Quiz, lang: str = "de", delimiter: str | None = None) -> bytes:
    """The results as CSV: UTF-8 with BOM, ``;`` under German and ``,`` under English by default."""
    return table_csv_bytes(csv_rows(quiz, lang), lang, delimiter)


def xlsx_bytes(quiz: Quiz, lang: str = "de") -> bytes:
    with override(lang):
        return table_xlsx_bytes(csv_rows(quiz, lang), _("Ergebnisse"))


def item_analysis_table(quiz: Quiz, lang: str = "de") -> list[list[Any]]:
    """The item analysis as a table: per item the facility and discrimination indices and the
    most common wrong answers in words (card names of the French deck, as in the Moodle export)."""
    from .presenters import shown_item_stats

    with override(lang):
        header: list[Any] = [
            pgettext("Tabellenkopf", "Aufgabe"),
            pgettext("Tabellenkopf", "Art"),
            pgettext("Tabellenkopf", "Beantwortet"),
            pgettext("Tabellenkopf", "Leichtigkeit (%)"),
            pgettext("Tabellenkopf", "Trennschärfe"),
            pgettext("Tabellenkopf", "Häufigste falsche Antworten"),
        ]
    rows = [header]
    for stat in shown_item_stats(quiz, item_stats(quiz, lang=lang), lang):
        wrong = "; ".join(f"{_text(words, lang)} ({n}×)" for words, n in stat.wrong)
        facility = stat.facility_percent
        rows.append(
            [
                stat.item.position,
                stat.title,
                stat.answered,
                "" if facility is None else facility,
                "" if stat.discrimination is None else round(stat.discrimination, 2),
                wrong,
            ]
        )
    return [[guard(cell) if isinstance(cell, str) else cell for cell in row] for row in rows]


def item_analysis_csv(quiz: Quiz, lang: str = "de") -> bytes:
    return table_csv_bytes(item_analysis_table(quiz, lang), lang, None)


def item_analysis_xlsx(quiz: Quiz, lang: str = "de") -> bytes:
    with override(lang):
        return table_xlsx_bytes(item_analysis_table(quiz, lang), _("Aufgabenanalyse"))


# --- Moodle XML -------------------------------------------------------------------------------


def _text(value: str, lang: str) -> str:
    return render(value, lang, DEFAULT_DECK)


def _question_html(question: Question, lang: str) -> str:
    parts = [f"<p>{escape(_text(question.prompt.get(lang), lang))}</p>"]
    facts = [fact.get(lang) for fact in question.facts]
    if facts:
        parts.append("<ul>" + "".join(f"<li>{escape(_text(f, lang))}</li>" for f in facts) + "</ul>")
    labels = (
        (pgettext("Moodle-Export", "Karten"), question.cards, True),
        (pgettext("Moodle-Export", "Auf dem Tisch"), question.trick, False),
        (pgettext("Moodle-Export", "Skat"), question.skat, False),
    )
    clickable = sorted(o.value for o in question.options) or sorted(question.cards)
    for label, cards, is_hand in labels:
        if not cards or (question.widget == "cards" and is_hand and sorted(cards) == clickable):
            continue  # the hand is the list of choices below
        parts.append(f"<p>{escape(label)}: {escape(_text(cards_ref(cards), lang))}</p>")
    return "".join(parts)


def _cdata(html: str) -> str:
    return "<![CDATA[" + html.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _options(question: Question, lang: str) -> list[tuple[str, str]]:
    """(value, label) of the choices; for a card pick without options, the cards themselves."""
    if question.options:
        return [(o.value, _text(o.label.get(lang), lang)) for o in question.options]
    return [(code, _text(cards_ref([code]), lang)) for code in question.cards]


def moodle_items(quiz: Quiz, lang: str = "de") -> tuple[list[str], list[int]]:
    """The ``<question>`` elements and the positions that have no Moodle equivalent; the
    export's own words (labels, levels) in ``lang``, whatever the request's language."""
    with override(lang):
        return _moodle_items(quiz, lang)


def _moodle_items(quiz: Quiz, lang: str) -> tuple[list[str], list[int]]:
    blocks: list[str] = []
    skipped: list[int] = []
    for item in quiz.items.all():
        registered = get_type(item.kind)
        kind = registered or type_for(item.kind)  # else the teacher's own item ("eigen-<id>")
        if kind is None:
            skipped.append(item.position)
            continue
        question = kind.generate(item.difficulty, item.seed)  # the fixed variant (an own item has only one)
        if isinstance(kind, ImportedType):  # back as it came: its own type and fractions
            blocks.append(_imported_block(kind, f"{item.position}. {kind.item.title}", question, lang))
            continue
        qtype = MOODLE_TYPES.get(question.widget)
        if qtype is None:
            skipped.append(item.position)
            continue
        right = kind.correct_answer(question)
        feedback = grade_values(question, right)  # the engine's derivation, also for own items
        steps = "".join(f"<li>{escape(_text(step.text(lang), lang))}</li>" for step in feedback.steps)
        general = f"<p>{escape(_text(feedback.answer.get(lang), lang))}</p>" + (f"<ol>{steps}</ol>" if steps else "")
        level = level_name(item.difficulty) if registered else str(_("eigene Aufgabe"))
        name = f"{item.position}. {kind.title(lang)} ({level})"
        lines = [
            f'<question type="{qtype}">',
            f"<name><text>{escape(name)}</text></name>",
            f'<questiontext format="html"><text>{_cdata(_question_html(question, lang))}</text></questiontext>',
            f'<generalfeedback format="html"><text>{_cdata(general)}</text></generalfeedback>',
            "<defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden>",
        ]
        if qtype == "numerical":
            lines.append(f'<answer fraction="100"><text>{escape(right[0])}</text><tolerance>0</tolerance></answer>')
        else:
            single = question.widget == "choice"
            good = set(right)
            share = _FRACTIONS.get(len(good), "100")
            lines.append(
                f"<single>{'true' if single else 'false'}</single><shuffleanswers>0</shuffleanswers>"
                "<answernumbering>abc</answernumbering>"
            )
            for value, label in _options(question, lang):
                fraction = ("100" if single else share) if value in good else ("0" if single else "-" + share)
                lines.append(
                    f'<answer fraction="{fraction}" format="html"><text>{_cdata(escape(label))}</text></answer>'
                )
        lines.append("</question>")
        blocks.append("\n".join(lines))
    return blocks, skipped


def _fraction_text(percent: float) -> str:
    return f"{percent:.5f}".rstrip("0").rstrip(".")


def _imported_block(kind: ImportedType, name: str, question: Question, lang: str) -> str:
    """An imported question as Moodle XML with its own type, answers and fractions (what
    :mod:`.imports` reads back to the same question)."""
    data = kind.data
    qtype = {"choice": "multichoice", "multi": "multichoice"}.get(kind.kind, kind.kind)
    lines = [
        f'<question type="{qtype}">',
        f"<name><text>{escape(name)}</text></name>",
        f'<questiontext format="html"><text>{_cdata(_question_html(question, lang))}</text></questiontext>',
        "<defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden>",
    ]
    if kind.kind in ("choice", "multi"):
        lines.append(
            f"<single>{'true' if kind.kind == 'choice' else 'false'}</single><shuffleanswers>1</shuffleanswers>"
        )
    if kind.kind == "shortanswer":
        lines.append(f"<usecase>{1 if data.get('usecase') else 0}</usecase>")
    if kind.kind == "truefalse":
        right = bool(data.get("answer"))
        answers = [("true", 100.0 if right else 0.0, ""), ("false", 0.0 if right else 100.0, "")]
    elif kind.kind == "numerical":
        answers = [
            (
                "*" if value is None else _fraction_text(value),
                fraction,
                f"<tolerance>{_fraction_text(tolerance)}</tolerance>",
            )
            for value, tolerance, fraction in kind.numbers()
        ]
    else:
        answers = [(text, fraction, "") for text, fraction in kind.fractions()]
    for text, fraction, extra in answers:
        lines.append(f'<answer fraction="{_fraction_text(fraction)}"><text>{escape(text)}</text>{extra}</answer>')
    lines.append("</question>")
    return "\n".join(lines)


def moodle_note(lang: str) -> str:
    with override(lang):
        return _(
            "Aus der Skatschule exportiert: jede Aufgabe in ihrer festen Variante mit der Antwort der Engine. "
            "Moodle bewertet nach dieser gespeicherten Antwort; die Bewertung durch die Engine mit "
            "Erklärungen falscher Antworten und zufällige Varianten je Person gibt es nur in der Skatschule."
        )


def moodle_xml(quiz: Quiz, lang: str = "de") -> str:
    with override(lang):  # the export's own words in its language, whatever the request's
        blocks, skipped = moodle_items(quiz, lang)
        category = re.sub(r"[/\s]+", " ", quiz.title).strip() or "Quiz"
        head = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f"<!-- {escape(moodle_note(lang)).replace('--', '–')} -->",
        ]
        if skipped:
            not_exported = _("Nicht exportiert (in Moodle ohne Gegenstück), Aufgaben")
            head.append(f"<!-- {not_exported}: {', '.join(map(str, skipped))} -->")
        head.append("<quiz>")
        path = f"$course$/Skatschule/{escape(category)}"
        head.append(f'<question type="category"><category><text>{path}</text></category></question>')
        return "\n".join(head + blocks + ["</quiz>", ""])


def skipped_positions(quiz: Quiz) -> Sequence[int]:
    return moodle_items(quiz)[1]
