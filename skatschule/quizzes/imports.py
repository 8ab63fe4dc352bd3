"""Reading a teacher's question file (issue 28 §2): GIFT and Moodle XML, pure computation.

Only what Skatschule can grade is read:

- **numerical** answers with a tolerance (``{#48}``, ``{#61:1}``, ``{#59..61}``; Moodle XML
  ``type="numerical"`` with ``<tolerance>``), for Spielwert, Augen and other counts;
- **multiple choice** (``{=right ~wrong}``; several right options with positive percentages
  make a multi-select item; Moodle XML ``type="multichoice"``).

Anything else (true/false, short answer, matching, essay, cloze, a question without answers ...)
is reported with the line it starts on; the caller imports nothing when anything is reported.
Both parsers read the text once, line by line or by the XML parser's events (linear time), and
refuse a file over :data:`MAX_BYTES` before reading it. An XML file with a DOCTYPE (entities) is
refused, so nothing can expand.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

from skatschule.engine import Text

MAX_BYTES = 64 * 1024
MAX_QUESTIONS = 200
MAX_TEXT = 2000
MAX_OPTIONS = 10


@dataclass(frozen=True)
class Imported:
    """One question read from the file, in Skatschule's own-item form (``OwnItem.situation``)."""

    line: int
    title: str
    prompt: str
    kind: str
    """``numerical`` or ``choice`` (one right option) or ``multi`` (several)."""
    answer: float = 0.0
    tolerance: float = 0.0
    options: tuple[tuple[str, float], ...] = ()
    """(text, fraction in percent) per option, in the file's order."""

    def as_json(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "type": self.kind,
            "answer": self.answer,
            "tolerance": self.tolerance,
            "options": [[text, fraction] for text, fraction in self.options],
        }


@dataclass(frozen=True)
class Problem:
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


class FileTooLarge(ValueError):
    pass


def check_size(data: bytes | str) -> None:
    size = len(data.encode() if isinstance(data, str) else data)
    if size > MAX_BYTES:
        raise FileTooLarge(size)


# --- GIFT -------------------------------------------------------------------------------------

_ESCAPES = {"\\:": ":", "\\~": "~", "\\=": "=", "\\#": "#", "\\{": "{", "\\}": "}", "\\n": "\n", "\\\\": "\\"}
_ESCAPE_RE = re.compile(r"\\[:~=#{}n\\]")
_NUMBER = r"[-+]?\d+(?:[.,]\d+)?"


def _unescape(text: str) -> str:
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], text)


def _plain(text: str) -> str:
    """GIFT or HTML text as one plain line (tags dropped, entities read, spaces folded)."""
    text = re.sub(r"^\[(?:html|moodle|plain|markdown)\]", "", text.strip())
    text = re.sub(r"<[^>]*>", " ", text)
    return " ".join(html.unescape(text).split())[:MAX_TEXT]


def _split_unescaped(text: str, marks: str) -> list[tuple[str, str]]:
    """Split the answer part at unescaped ``marks``: (mark, text) pairs, one pass."""
    parts: list[tuple[str, str]] = []
    mark, current, i = "", [], 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            current.append(text[i : i + 2])
            i += 2
            continue
        if char in marks:
            if mark or "".join(current).strip():
                parts.append((mark, "".join(current)))
            mark, current = char, []
        else:
            current.append(char)
        i += 1
    if mark or "".join(current).strip():
        parts.append((mark, "".join(current)))
    return parts


def _find_unescaped(text: str, char: str, start: int = 0) -> int:
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == char:
            return i
        i += 1
    return -1


def _number(text: str) -> float | None:
    text = text.strip()
    return float(text.replace(",", ".")) if re.fullmatch(_NUMBER, text) else None


def _gift_numerical(body: str) -> tuple[float, float] | None:
    body = body.strip()
    if body.startswith("="):  # a single "=48:0" answer is fine; several answers are not
        body = body[1:]
    body = re.sub(r"#[^#]*$", "", body) if body.count("#") else body  # feedback after '#'
    if ".." in body:
        low, _sep, high = body.partition("..")
        lo, hi = _number(low), _number(high)
        if lo is None or hi is None or hi < lo:
            return None
        return (lo + hi) / 2, (hi - lo) / 2
    value, _sep, tolerance = body.partition(":")
    answer, tol = _number(value), _number(tolerance) if tolerance else 0.0
    if answer is None or tol is None or tol < 0:
        return None
    return answer, tol


def _gift_choice(body: str) -> tuple[str, tuple[tuple[str, float], ...]] | Problem:
    options: list[tuple[str, float]] = []
    for mark, text in _split_unescaped(body, "=~"):
        if not mark:
            return Problem(0, "Text vor der ersten Antwort", "text before the first answer")
        text = text.split("#", 1)[0] if _find_unescaped(text, "#") >= 0 else text  # drop feedback
        fraction = 100.0 if mark == "=" else 0.0
        weight = re.match(r"\s*%(-?\d+(?:[.,]\d+)?)%", text)
        if weight:
            fraction = float(weight.group(1).replace(",", "."))
            text = text[weight.end() :]
        if "->" in text:
            return Problem(0, "Zuordnungsfragen werden nicht unterstützt", "matching questions are not supported")
        label = _plain(_unescape(text))
        if not label:
            return Problem(0, "eine Antwort ohne Text", "an answer without text")
        options.append((label, fraction))
    right = [f for _t, f in options if f > 0]
    if len(options) < 2 or not right:
        return Problem(
            0,
            "Kurzantworten ohne falsche Möglichkeiten werden nicht unterstützt; Multiple Choice braucht "
            "mindestens eine richtige und eine falsche Antwort",
            "short answers without wrong options are not supported; multiple choice needs at least one "
            "right and one wrong answer",
        )
    if len(options) > MAX_OPTIONS:
        return Problem(0, f"mehr als {MAX_OPTIONS} Antworten", f"more than {MAX_OPTIONS} answers")
    kind = "choice" if right == [100.0] and sum(1 for _t, f in options if f == 100.0) == 1 else "multi"
    return kind, tuple(options)


def _gift_question(block: str, line: int) -> Imported | Problem:
    title = ""
    text = block.strip()
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
    prompt = _plain(
        _unescape(text[:opening] + " … " + text[closing + 1 :] if text[closing + 1 :].strip() else text[:opening])
    )
    body = text[opening + 1 : closing]
    if _find_unescaped(text, "{", closing + 1) >= 0:
        return Problem(
            line,
            "Lückentexte mit mehreren { } werden nicht unterstützt.",
            "Cloze questions with several { } are not supported.",
        )
    if not prompt:
        return Problem(line, "Die Frage hat keinen Text.", "The question has no text.")
    stripped = body.strip()
    if stripped.upper() in ("T", "F", "TRUE", "FALSE"):
        return Problem(line, "Wahr/Falsch-Fragen werden nicht unterstützt.", "True/false questions are not supported.")
    if not stripped:
        return Problem(line, "Freitextfragen werden nicht unterstützt.", "Essay questions are not supported.")
    if stripped.startswith("#"):
        numeric = _gift_numerical(stripped[1:])
        if numeric is None:
            return Problem(
                line,
                "Die Zahl der Antwort ist nicht lesbar (etwa {#48}, {#61:1} oder {#59..61}).",
                "The number of the answer cannot be read (e.g. {#48}, {#61:1} or {#59..61}).",
            )
        return Imported(line, title or prompt[:120], prompt, "numerical", numeric[0], numeric[1])
    choice = _gift_choice(stripped)
    if isinstance(choice, Problem):
        return Problem(line, choice.de[:1].upper() + choice.de[1:] + ".", choice.en[:1].upper() + choice.en[1:] + ".")
    kind, options = choice
    return Imported(line, title or prompt[:120], prompt, kind, options=options)


def parse_gift(text: str) -> Parsed:
    """Questions are separated by blank lines; ``//`` lines are comments; ``$CATEGORY`` is skipped."""
    check_size(text)
    parsed = Parsed()
    block: list[str] = []
    start = 0

    def flush() -> None:
        if not block:
            return
        result = _gift_question("\n".join(block), start)
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
    text: str = ""

    def child(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def text_of(self, tag: str) -> str:
        found = self.child(tag)
        if found is None:
            return ""
        inner = found.child("text")
        return (inner.text if inner is not None else found.text).strip()


def _xml_tree(data: bytes) -> _Node:
    parser = expat.ParserCreate()
    root = _Node("#root", {}, 0)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if len(stack[-1].text) < MAX_BYTES:
            stack[-1].text += data

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
        result = _moodle_question(node, kind)
        if isinstance(result, Problem):
            parsed.problems.append(result)
        else:
            parsed.questions.append(result)
    _limit(parsed)
    return parsed


def _moodle_question(node: _Node, kind: str) -> Imported | Problem:
    line = node.line
    title = _plain(node.text_of("name"))
    prompt = _plain(node.text_of("questiontext"))
    if kind not in ("numerical", "multichoice"):
        return Problem(
            line,
            f"Fragen vom Typ „{kind[:30]}“ werden nicht unterstützt (nur numerical und multichoice).",
            f"Questions of type “{kind[:30]}” are not supported (only numerical and multichoice).",
        )
    if not prompt:
        return Problem(line, "Die Frage hat keinen Text.", "The question has no text.")
    answers = [c for c in node.children if c.tag == "answer"]
    if kind == "numerical":
        right = [a for a in answers if _number(a.attrs.get("fraction", "0")) == 100.0]
        if len(right) != 1:
            return Problem(
                line,
                "Eine Zahlenfrage braucht genau eine Antwort mit 100 %.",
                "A numerical question needs exactly one answer at 100 %.",
            )
        value = _number(right[0].text_of("text") if right[0].child("text") is not None else right[0].text)
        tolerance = _number(right[0].text_of("tolerance") or "0")
        if value is None or tolerance is None or tolerance < 0:
            return Problem(line, "Die Zahl der Antwort ist nicht lesbar.", "The number of the answer cannot be read.")
        return Imported(line, title or prompt[:120], prompt, "numerical", value, tolerance)
    options: list[tuple[str, float]] = []
    for answer in answers:
        fraction = _number(answer.attrs.get("fraction", "0"))
        label = _plain(answer.text_of("text") if answer.child("text") is not None else answer.text)
        if fraction is None or not label:
            return Problem(answer.line, "Eine Antwort ist nicht lesbar.", "An answer cannot be read.")
        options.append((label, fraction))
    right_fractions = [f for _t, f in options if f > 0]
    if len(options) < 2 or not right_fractions or len(options) > MAX_OPTIONS:
        return Problem(
            line,
            f"Multiple Choice braucht 2 bis {MAX_OPTIONS} Antworten, mindestens eine richtige.",
            f"Multiple choice needs 2 to {MAX_OPTIONS} answers, at least one right.",
        )
    single = node.text_of("single").lower() != "false" and right_fractions == [100.0]
    return Imported(line, title or prompt[:120], prompt, "choice" if single else "multi", options=tuple(options))
