"""Reading a teacher's question file (issues 28 §2 and 34 §6): GIFT and Moodle XML, pure computation.

A question is read as Moodle reads it, so that Skatschule asks and grades it as Moodle would
(:mod:`.imported` grades it), or it is refused with its line and the reason:

- **single choice** (GIFT ``{=right ~wrong ~%50%half}``: any ``=`` makes it single; Moodle XML
  ``multichoice`` with ``<single>true</single>``): the chosen option's fraction;
- **multiple choice** (GIFT with only ``~`` answers, ``~%50%``, ``~%-100%``; Moodle XML
  ``<single>false</single>``): the sum of the chosen options' fractions, clipped to 0..1;
  the positive fractions must add up to 100 % (Moodle's own rule);
- **true/false** (GIFT ``{T}`` ``{FALSE}``; Moodle XML ``truefalse``);
- **short answer** (GIFT ``{=Null =Nullspiel =%50%Null ouvert}``; Moodle XML ``shortanswer``):
  the first answer that matches, with ``*`` as wildcard; GIFT ignores case, Moodle XML follows
  ``<usecase>``;
- **numerical** with tolerance and partial answers (GIFT ``{#48}``, ``{#61:1}``, ``{#59..61}``,
  ``{#=48:0 =%50%48:12}``; Moodle XML ``numerical`` with ``<tolerance>``): the first answer whose
  range holds the number.

Fractions are kept in percent, as the files write them. What Skatschule shows differently from
Moodle is listed as a *change* with its line (formatting dropped, feedback not shown, options
shuffled, a negative single-choice fraction counted as 0). Matching, essay, cloze, description
and everything else is refused.

Every parser here is linear in the size of the file and refuses a file over :data:`MAX_BYTES`
before reading it: GIFT is read line by line and each question once, character by character;
Moodle XML by the XML parser's events (no DOCTYPE, so no entities expand); tags are dropped by
one scan (:func:`strip_tags`), never by a backtracking pattern.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from xml.parsers import expat

from skatschule.engine import Text

MAX_BYTES = 64 * 1024
MAX_QUESTIONS = 200
MAX_TEXT = 2000
MAX_OPTIONS = 10

KINDS = ("choice", "multi", "truefalse", "shortanswer", "numerical")
"""``choice`` is single choice (the stored name since issue 28)."""


@dataclass(frozen=True)
class Imported:
    """One question read from the file, in Skatschule's own-item form (``OwnItem.situation``)."""

    line: int
    title: str
    prompt: str
    kind: str
    """One of :data:`KINDS`."""
    options: tuple[tuple[str, float], ...] = ()
    """choice, multi: (text, fraction in percent) per option, in the file's order; shortanswer:
    (pattern, fraction) per accepted answer, in the file's order (the first match counts)."""
    numbers: tuple[tuple[float | None, float, float], ...] = ()
    """numerical: (value or None for ``*``, tolerance, fraction in percent), in the file's order."""
    usecase: bool = False
    truth: bool = False
    """truefalse: the right answer."""

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"prompt": self.prompt, "type": self.kind}
        if self.kind in ("choice", "multi", "shortanswer"):
            data["options"] = [[text, fraction] for text, fraction in self.options]
        if self.kind == "shortanswer":
            data["usecase"] = self.usecase
        if self.kind == "numerical":
            data["answers"] = [[value, tolerance, fraction] for value, tolerance, fraction in self.numbers]
        if self.kind == "truefalse":
            data["answer"] = self.truth
        return data


@dataclass(frozen=True)
class Problem:
    """A refusal (or, in :attr:`Parsed.changes`, a change) with the line of its question."""

    line: int
    de: str
    en: str

    @property
    def text(self) -> Text:
        return Text(self.de, self.en)


@dataclass
class Parsed:
    questions: list[Imported] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    """Questions that cannot be imported, with the reason."""
    changes: list[Problem] = field(default_factory=list)
    """Where an imported question looks or behaves differently from Moodle."""


class FileTooLarge(ValueError):
    pass


def check_size(data: bytes | str) -> None:
    size = len(data.encode() if isinstance(data, str) else data)
    if size > MAX_BYTES:
        raise FileTooLarge(size)


# --- shared -----------------------------------------------------------------------------------

_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)?")
_FORMAT = re.compile(r"\[(?:html|moodle|plain|markdown)\]")
_WEIGHT = re.compile(r"%(-?\d+(?:[.,]\d+)?)%")
_MARKUP = re.compile(r"<(?!/?p>|br\s*/?>)[a-zA-Z/!]")


def strip_tags(text: str) -> str:
    """``text`` with every ``<…>`` replaced by a space, in one scan (a ``<`` that no ``>``
    follows is text, and so is everything after it)."""
    parts: list[str] = []
    i = 0
    while True:
        opening = text.find("<", i)
        closing = text.find(">", opening + 1) if opening >= 0 else -1
        if closing < 0:
            parts.append(text[i:])
            return "".join(parts)
        parts.append(text[i:opening])
        parts.append(" ")
        i = closing + 1


class _Refused(NamedTuple):
    """Why a question is refused (the caller adds its line)."""

    de: str
    en: str


@dataclass
class _Reading:
    """What reading one question's texts noticed (for the list of changes)."""

    formatted: bool = False
    cut: bool = False
    feedback: bool = False


def _plain(text: str, reading: _Reading | None = None) -> str:
    """GIFT or HTML text as one plain line (tags dropped, entities read, spaces folded)."""
    text = text.strip()
    marker = _FORMAT.match(text)
    if marker:
        text = text[marker.end() :]
    stripped = strip_tags(text)
    plain = " ".join(html.unescape(stripped).split())
    if reading is not None:  # paragraphs and line breaks are no formatting worth a note
        reading.formatted |= stripped != text and _MARKUP.search(text) is not None
        reading.cut |= len(plain) > MAX_TEXT
    return plain[:MAX_TEXT]


def _number(text: str) -> float | None:
    text = text.strip()
    return float(text.replace(",", ".")) if len(text) <= 40 and _NUMBER.fullmatch(text) else None


def _changes(line: int, reading: _Reading, extra: list[tuple[str, str]]) -> list[Problem]:
    notes: list[tuple[str, str]] = []
    if reading.formatted:
        notes.append(
            (
                "Formatierungen und Bilder (HTML) werden weggelassen; der Text wird schlicht gezeigt.",
                "Formatting and images (HTML) are left out; the text is shown plain.",
            )
        )
    if reading.cut:
        notes.append((f"Text nach {MAX_TEXT} Zeichen abgeschnitten.", f"Text cut after {MAX_TEXT} characters."))
    if reading.feedback:
        notes.append(
            (
                "Rückmeldungen zu einzelnen Antworten werden nicht übernommen.",
                "Feedback on single answers is not imported.",
            )
        )
    return [Problem(line, de, en) for de, en in notes + extra]


def _check_choice(kind: str, options: list[tuple[str, float]], extra: list[tuple[str, str]]) -> tuple[str, str] | None:
    """Moodle's rules for a choice question; the refusal's words, or None. Adds changes to ``extra``."""
    if not 2 <= len(options) <= MAX_OPTIONS:
        return (
            f"Auswahlfragen brauchen 2 bis {MAX_OPTIONS} Antworten.",
            f"Choice questions need 2 to {MAX_OPTIONS} answers.",
        )
    if any(not -100 <= f <= 100 for _t, f in options):
        return ("Ein Anteil liegt nicht zwischen −100 % und 100 %.", "A fraction is not between −100 % and 100 %.")
    if len({t for t, _f in options}) != len(options):
        return ("Zwei Antworten haben denselben Text.", "Two answers have the same text.")
    if kind == "choice":
        if not any(abs(f - 100) < 0.01 for _t, f in options):
            return (
                "Bei einer Antwort zu wählen braucht eine Antwort mit 100 % (wie in Moodle).",
                "Single choice needs one answer worth 100 % (as in Moodle).",
            )
        if any(f < 0 for _t, f in options):
            extra.append(
                (
                    "Eine Antwort mit negativem Anteil zählt 0 Punkte (Moodle zöge bei dieser Frage Punkte ab).",
                    "An answer with a negative fraction earns 0 points (Moodle would take points off this question).",
                )
            )
        return None
    positive = sum(f for _t, f in options if f > 0)
    if abs(positive - 100) > 0.01:
        shown = f"{positive:.2f}".rstrip("0").rstrip(".")
        return (
            f"Die positiven Anteile ergeben zusammen {shown.replace('.', ',')} %, nicht 100 % (Moodle verlangt 100 %).",
            f"The positive fractions add up to {shown} %, not 100 % (Moodle requires 100 %).",
        )
    return None


def _check_answers(answers: list[Any]) -> tuple[str, str] | None:
    """Short and numerical answers: at most :data:`MAX_OPTIONS`, fractions 0..100, one at 100 %."""
    if not answers:
        return ("Die Frage hat keine Antwort.", "The question has no answer.")
    if len(answers) > MAX_OPTIONS:
        return (f"Mehr als {MAX_OPTIONS} Antworten.", f"More than {MAX_OPTIONS} answers.")
    fractions = [a[-1] for a in answers]
    if any(not 0 <= f <= 100 for f in fractions):
        return ("Ein Anteil liegt nicht zwischen 0 % und 100 %.", "A fraction is not between 0 % and 100 %.")
    if not any(abs(f - 100) < 0.01 for f in fractions):
        return (
            "Eine Antwort muss 100 % geben (wie in Moodle).",
            "One answer must be worth 100 % (as in Moodle).",
        )
    return None


# --- GIFT -------------------------------------------------------------------------------------

_ESCAPES = (("\\:", ":"), ("\\~", "~"), ("\\=", "="), ("\\#", "#"), ("\\{", "{"), ("\\}", "}"), ("\\n", "\n"))


def _unescape(text: str) -> str:
    """GIFT's escapes read by a few passes of ``str.replace`` (no callback per escape): escaped
    backslashes are set aside first (as NUL, which a text never keeps), then the others read."""
    text = text.replace("\0", "").replace("\\\\", "\0")
    for escaped, char in _ESCAPES:
        text = text.replace(escaped, char)
    return text.replace("\0", "\\")


@functools.lru_cache(maxsize=16)
def _up_to(marks: str) -> re.Pattern[str]:
    """Text up to and with the first unescaped one of ``marks``: runs of other characters and
    escapes (a backslash and the next character), possessive, so the engine never backtracks."""
    other = "[^\\\\" + re.escape(marks) + "]++"
    return re.compile(f"(?:{other}|\\\\.)*+[{re.escape(marks)}]", re.S)


def _split_unescaped(text: str, marks: str) -> list[tuple[str, str]]:
    """Split at unescaped ``marks``: (mark, text) pairs, the first with mark "". Stops after more
    parts than any question may have (the caller refuses the question then)."""
    parts: list[tuple[str, str]] = []
    mark, start = "", 0
    pattern = _up_to(marks)
    while len(parts) <= MAX_OPTIONS + 1 and (found := pattern.match(text, start)):
        parts.append((mark, text[start : found.end() - 1]))
        mark, start = text[found.end() - 1], found.end()
    parts.append((mark, text[start:]))
    return parts


def _find_unescaped(text: str, char: str, start: int = 0) -> int:
    """The first ``char`` at or after ``start`` that no backslash escapes, or -1 (``start`` is 0
    or just after an unescaped character, so escapes pair up as from the beginning)."""
    found = _up_to(char).match(text, start)
    return found.end() - 1 if found else -1


def _feedback_cut(text: str, reading: _Reading) -> str:
    """The answer without its ``#feedback``."""
    hash_at = _find_unescaped(text, "#")
    if hash_at < 0:
        return text
    reading.feedback |= bool(text[hash_at + 1 :].strip())
    return text[:hash_at]


def _weight(text: str, default: float) -> tuple[float, str]:
    """A leading ``%50%`` weight (Moodle's ``answerweightparser``) and the rest of the answer."""
    text = text.strip()
    found = _WEIGHT.match(text)
    if not found:
        return default, text
    return float(found.group(1).replace(",", ".")), text[found.end() :]


def _gift_kind(body: str) -> str:
    """The question type as Moodle's GIFT reader decides it from the answer part."""
    stripped = body.strip()
    if not stripped:
        return "essay"
    if stripped.startswith("#"):
        return "numerical"
    if _find_unescaped(stripped, "~") >= 0:
        return "choice" if _find_unescaped(stripped, "=") >= 0 else "multi"
    if _find_unescaped(stripped, "=") >= 0 and "->" in stripped:
        return "match"
    hash_at = _find_unescaped(stripped, "#")
    truth = (stripped[:hash_at] if hash_at > 0 else stripped).strip()
    if truth in ("T", "TRUE", "F", "FALSE"):
        return "truefalse"
    return "shortanswer"


def _gift_choice(body: str, kind: str, reading: _Reading) -> list[tuple[str, float]] | _Refused:
    options: list[tuple[str, float]] = []
    for mark, text in _split_unescaped(body, "=~"):
        if not mark:
            if text.strip():
                return _Refused("Text vor der ersten Antwort.", "Text before the first answer.")
            continue
        text = _feedback_cut(text, reading)
        if mark == "=":
            fraction = 100.0
            if _WEIGHT.match(text.strip()):
                return _Refused(
                    "„=“ mit Prozentangabe: Moodle läse die Prozentangabe als Text der Antwort.",
                    "“=” with a percentage: Moodle would read the percentage as the answer's text.",
                )
        else:
            fraction, text = _weight(text, 0.0)
        label = _plain(_unescape(text), reading)
        if not label:
            return _Refused("Eine Antwort hat keinen Text.", "An answer has no text.")
        options.append((label, fraction))
    return options


def _gift_answers(body: str, reading: _Reading) -> list[tuple[str, float]]:
    """Short and numerical answers: ``=`` separated, each with an optional weight (default 100 %)."""
    answers: list[tuple[str, float]] = []
    for n, (_mark, text) in enumerate(_split_unescaped(body, "=")):
        if n == 0 and not text.strip():
            continue
        text = _feedback_cut(text, reading)
        fraction, text = _weight(text, 100.0)
        answers.append((text, fraction))
    return answers


def _gift_range(text: str) -> tuple[float | None, float] | None:
    """``48``, ``61:2``, ``59..63`` or ``*`` as (value, tolerance); None if unreadable."""
    text = text.strip()
    if text == "*":
        return None, 0.0
    if text.find("..") > 0:
        low, _sep, high = text.partition("..")
        lo, hi = _number(low), _number(high)
        if lo is None or hi is None or hi < lo:
            return None
        return (lo + hi) / 2, (hi - lo) / 2
    if text.find(":") > 0:
        value, _sep, tolerance = text.partition(":")
        answer, tol = _number(value), _number(tolerance)
        if answer is None or tol is None or tol < 0:
            return None
        return answer, tol
    answer = _number(text)
    return None if answer is None else (answer, 0.0)


_GIFT_REFUSED = {
    "essay": ("Freitextfragen werden nicht unterstützt.", "Essay questions are not supported."),
    "match": ("Zuordnungsfragen werden nicht unterstützt.", "Matching questions are not supported."),
}


def _gift_question(block: str, line: int, changes: list[Problem]) -> Imported | Problem:  # noqa: C901 - over the budget since issue 27; to be split
    title = ""
    text = block.strip()
    reading = _Reading()
    if text.startswith("::"):
        end = text.find("::", 2)
        if end < 0:
            return Problem(line, "Der Titel endet nicht mit „::“.", "The title does not end with “::”.")
        title, text = _plain(_unescape(text[2:end])), text[end + 2 :]
    opening = _find_unescaped(text, "{")
    closing = _find_unescaped(text, "}", opening + 1) if opening >= 0 else -1
    if opening < 0 or closing < 0:
        return Problem(
            line,
            "Keine Antworten in { }: Beschreibungen werden nicht eingelesen.",
            "No answers in { }: descriptions are not imported.",
        )
    if _find_unescaped(text, "{", closing + 1) >= 0:
        return Problem(
            line,
            "Lückentexte mit mehreren { } werden nicht unterstützt.",
            "Cloze questions with several { } are not supported.",
        )
    after = text[closing + 1 :]
    prompt = _plain(_unescape(text[:opening] + " … " + after if after.strip() else text[:opening]), reading)
    if not prompt:
        return Problem(line, "Die Frage hat keinen Text.", "The question has no text.")
    title = title or prompt[:120]
    body = text[opening + 1 : closing]
    kind = _gift_kind(body)
    extra: list[tuple[str, str]] = []
    result: Imported | tuple[str, str]
    if kind in _GIFT_REFUSED:
        result = _GIFT_REFUSED[kind]
    elif kind == "truefalse":
        truth = _feedback_cut(body, reading).strip()
        result = Imported(line, title, prompt, kind, truth=truth in ("T", "TRUE"))
    elif kind in ("choice", "multi"):
        options = _gift_choice(body, kind, reading)
        if isinstance(options, _Refused):
            result = (options.de, options.en)
        else:
            result = _check_choice(kind, options, extra) or Imported(line, title, prompt, kind, options=tuple(options))
    else:
        answer_part = body.strip()
        if kind == "numerical":
            answer_part = answer_part[1:]
            wrong = _find_unescaped(answer_part, "~")  # feedback for any other number
            if wrong >= 0:
                reading.feedback |= bool(answer_part[wrong + 1 :].strip())
                answer_part = answer_part[:wrong]
        answers = _gift_answers(answer_part, reading)
        refused = _check_answers(answers)
        if refused:
            result = refused
        elif kind == "numerical":
            numbers = [(_gift_range(_unescape(a)), f) for a, f in answers]
            if any(r is None for r, _f in numbers):
                result = (
                    "Eine Zahl der Antwort ist nicht lesbar (etwa {#48}, {#61:1}, {#59..61} oder {#=48 =%50%48:12}).",
                    "A number of the answer cannot be read (e.g. {#48}, {#61:1}, {#59..61} or {#=48 =%50%48:12}).",
                )
            else:
                ranges = tuple((r[0], r[1], f) for r, f in numbers if r is not None)
                result = Imported(line, title, prompt, kind, numbers=ranges)
        else:
            patterns = [(" ".join(_unescape(a).split())[:MAX_TEXT], f) for a, f in answers]
            if any(not p for p, _f in patterns):
                result = ("Eine Antwort hat keinen Text.", "An answer has no text.")
            else:
                result = Imported(line, title, prompt, kind, options=tuple(patterns), usecase=False)
    if isinstance(result, tuple):
        return Problem(line, *result)
    changes.extend(_changes(line, reading, extra))
    return result


def parse_gift(text: str) -> Parsed:
    """Questions are separated by blank lines; ``//`` lines are comments; ``$CATEGORY`` is skipped."""
    check_size(text)
    parsed = Parsed()
    block: list[str] = []
    start = 0

    def flush() -> None:
        if not block:
            return
        result = _gift_question("\n".join(block), start, parsed.changes)
        if isinstance(result, Problem):
            parsed.problems.append(result)
        else:
            parsed.questions.append(result)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("//") or line.startswith("$CATEGORY"):
            continue
        if not line:
            flush()
            block = []
            continue
        if not block:
            start = number
        block.append(raw)
    flush()
    _limit(parsed)
    return parsed


def _limit(parsed: Parsed) -> None:
    if len(parsed.questions) + len(parsed.problems) > MAX_QUESTIONS:
        parsed.problems.append(
            Problem(
                0,
                f"Mehr als {MAX_QUESTIONS} Fragen in einer Datei.",
                f"More than {MAX_QUESTIONS} questions in one file.",
            )
        )
    if not parsed.questions and not parsed.problems:
        parsed.problems.append(Problem(0, "Die Datei enthält keine Frage.", "The file holds no question."))


# --- Moodle XML -------------------------------------------------------------------------------


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    size: int = 0

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def child(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def text_of(self, tag: str) -> str:
        found = self.child(tag)
        if found is None:
            return ""
        inner = found.child("text")
        return (inner.text if inner is not None else found.text).strip()

    def own_text(self) -> str:
        """The text of an ``<answer>``: its ``<text>`` child, or (old files) its own text."""
        inner = self.child("text")
        return (inner.text if inner is not None else self.text).strip()


def _xml_tree(data: bytes) -> _Node:
    """The element tree, built from the parser's events; each text is gathered in parts and
    joined once (never by repeated concatenation), up to :data:`MAX_BYTES` per element."""
    parser = expat.ParserCreate()
    parser.buffer_text = True  # a text with many entities comes in one piece
    root = _Node("#root", {}, 0)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        node = stack[-1]
        if node.size < MAX_BYTES:
            node.parts.append(data)
            node.size += len(data)

    def doctype(*_args: Any) -> None:
        raise ValueError("doctype")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = doctype
    parser.Parse(data, True)
    return root


def parse_moodle_xml(data: bytes) -> Parsed:
    check_size(data)
    parsed = Parsed()
    try:
        root = _xml_tree(data)
    except (expat.ExpatError, ValueError) as exc:
        line = getattr(exc, "lineno", 0)
        parsed.problems.append(
            Problem(
                line,
                "Die Datei ist kein lesbares Moodle-XML (ohne DOCTYPE).",
                "The file is not readable Moodle XML (without a DOCTYPE).",
            )
        )
        return parsed
    quiz = root.child("quiz")
    if quiz is None:
        parsed.problems.append(Problem(1, "Kein <quiz>-Element.", "No <quiz> element."))
        return parsed
    for node in quiz.children:
        if node.tag != "question":
            continue
        kind = node.attrs.get("type", "")
        if kind == "category":
            continue
        result = _moodle_question(node, kind, parsed.changes)
        if isinstance(result, Problem):
            parsed.problems.append(result)
        else:
            parsed.questions.append(result)
    _limit(parsed)
    return parsed


_MOODLE_TYPES = ("multichoice", "truefalse", "shortanswer", "numerical")


def _fraction(node: _Node) -> float | None:
    return _number(node.attrs.get("fraction", "0"))


def _moodle_question(node: _Node, kind: str, changes: list[Problem]) -> Imported | Problem:  # noqa: C901 - over the budget since issue 27; to be split
    line = node.line
    reading = _Reading()
    title = _plain(node.text_of("name"))
    prompt = _plain(node.text_of("questiontext"), reading)
    if kind not in _MOODLE_TYPES:
        return Problem(
            line,
            f"Fragen vom Typ „{kind[:30]}“ werden nicht unterstützt (nur {', '.join(_MOODLE_TYPES)}).",
            f"Questions of type “{kind[:30]}” are not supported (only {', '.join(_MOODLE_TYPES)}).",
        )
    if not prompt:
        return Problem(line, "Die Frage hat keinen Text.", "The question has no text.")
    title = title or prompt[:120]
    answers = [c for c in node.children if c.tag == "answer"]
    for answer in answers:
        feedback = answer.child("feedback")
        reading.feedback |= feedback is not None and bool(_plain(feedback.text_of("text") or feedback.text))
    fractions = [_fraction(a) for a in answers]
    if any(f is None for f in fractions):
        return Problem(line, "Ein Anteil (fraction) ist nicht lesbar.", "A fraction cannot be read.")
    shares = [f for f in fractions if f is not None]
    extra: list[tuple[str, str]] = []
    result: Imported | tuple[str, str]
    if kind == "truefalse":
        texts = [a.own_text().lower() for a in answers]
        if sorted(texts) != ["false", "true"]:
            result = (
                "Wahr/Falsch braucht die Antworten true und false.",
                "True/false needs the answers true and false.",
            )
        else:
            result = Imported(line, title, prompt, kind, truth=shares[texts.index("true")] == 100)
    elif kind == "multichoice":
        single = node.text_of("single").lower() not in ("false", "0") if node.child("single") else True
        choice = "choice" if single else "multi"
        options = [(_plain(a.own_text(), reading), f) for a, f in zip(answers, shares)]
        if any(not text for text, _f in options):
            result = ("Eine Antwort hat keinen Text.", "An answer has no text.")
        else:
            result = _check_choice(choice, options, extra) or Imported(
                line, title, prompt, choice, options=tuple(options)
            )
        if node.text_of("shuffleanswers").lower() in ("0", "false"):
            extra.append(
                (
                    "Die Antworten werden gemischt (die Datei sagt: nicht mischen); so verrät ihre Reihenfolge nichts.",
                    "The answers are shuffled (the file says: do not shuffle), so their order gives nothing away.",
                )
            )
    elif kind == "shortanswer":
        patterns = [(" ".join(a.own_text().split())[:MAX_TEXT], f) for a, f in zip(answers, shares)]
        refused = _check_answers(patterns)
        if refused is None and any(not p for p, _f in patterns):
            refused = ("Eine Antwort hat keinen Text.", "An answer has no text.")
        usecase = node.text_of("usecase").strip() not in ("", "0", "false")
        result = refused or Imported(line, title, prompt, kind, options=tuple(patterns), usecase=usecase)
    else:
        units = node.child("units")
        if units is not None and units.children:
            return Problem(
                line,
                "Zahlenfragen mit Einheiten werden nicht unterstützt.",
                "Numerical questions with units are not supported.",
            )
        numbers: list[tuple[float | None, float, float]] = []
        unreadable = False
        for answer, share in zip(answers, shares):
            text = answer.own_text()
            value = None if text == "*" else _number(text)
            tolerance = _number(answer.text_of("tolerance") or "0")
            if (value is None and text != "*") or tolerance is None or tolerance < 0:
                unreadable = True
                break
            numbers.append((value, tolerance, share))
        refused = (
            ("Eine Zahl der Antwort ist nicht lesbar.", "A number of the answer cannot be read.")
            if unreadable
            else None
        )
        refused = refused or _check_answers(numbers)
        result = refused or Imported(line, title, prompt, kind, numbers=tuple(numbers))
    if isinstance(result, tuple):
        return Problem(line, *result)
    changes.extend(_changes(line, reading, extra))
    return result
