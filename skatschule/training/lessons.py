"""The curriculum: lessons as content files in ``rules_content/lessons/NN-slug.md``.

File format (simple front matter, parsed here without a YAML library)::

    ---
    slug: die-karten
    order: 1
    title: Die Karten | The cards
    rules: 1.3.2, 4.2.2
    exercises: augen:1, augen:2, augen:3
    mastery: 8/10
    variant: false
    ---
    @de
    German text (markdown) ...
    @en
    English text (markdown) ...

- ``exercises`` are the lesson's steps in order, each ``type-slug:level``.
- ``mastery: 8/10``: the lesson is mastered when 8 of the last 10 answers were right.
- ``variant: true`` marks a lesson about pub rules that are not part of the ISkO.
- The text may use ``[[rule: 3.2.1]]`` (a link to the rule), ``[[cards: CA CT]]`` (card
  pictures) and ``[[points: CA CT]]`` (the Augen of these cards, computed by the engine).

The file is read with :mod:`skatschule.content` (block reader, directive grammar, rule ids);
this module is the lesson schema on top.

:func:`get_lessons` parses the folder once (re-read when a file changes);
:func:`validate_lessons` lists problems (unknown exercise types or levels, malformed rule
ids, duplicate slugs ...); ``manage.py check_lessons`` runs it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import markdown
import nh3
from django.conf import settings
from django.urls import NoReverseMatch, get_urlconf, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from skatschule import exercises
from skatschule.cards.render import cards_html
from skatschule.content.blocks import number_lines, read_front_matter, split_blocks
from skatschule.content.directives import Directive, find_directives, replace_directives
from skatschule.content.ids import RULE_ID_RE
from skatschule.engine import Card, Text, parse_cards, parse_game
from skatschule.engine.names import render as render_names
from skatschule.engine.sorting import sort_hand
from skatschule.rules.content import get_registry

__all__ = [
    "Lesson",
    "LessonStep",
    "LessonError",
    "lessons_dir",
    "get_lessons",
    "get_lesson",
    "lesson_for_exercise",
    "validate_lessons",
    "parse_lesson",
    "render_text",
    "rule_url",
    "RULE_ID",
    "Activity",
    "register_activity",
    "get_activity",
]

RULE_ID = RULE_ID_RE
"""A rule id (``3.2.1``, ``K.1.2``) or a section id (``3.2``): :mod:`skatschule.content.ids`."""

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
FILENAME = re.compile(r"^(\d{2})-([a-z0-9-]+)\.md$")
KNOWN_DIRECTIVES = ("rule", "cards", "points")


class LessonError(ValueError):
    """A lesson file that cannot be read."""


@dataclass(frozen=True)
class LessonStep:
    kind: str
    level: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.level}"


@dataclass(frozen=True)
class Lesson:
    slug: str
    order: int
    title_de: str
    title_en: str
    rule_ids: tuple[str, ...]
    steps: tuple[LessonStep, ...]
    mastery_needed: int
    mastery_window: int
    body_de: str
    body_en: str
    variant: bool = False
    filename: str = ""

    def title(self, lang: str = "de") -> str:
        return Text(self.title_de, self.title_en).get(lang)

    def body(self, lang: str = "de") -> str:
        return Text(self.body_de, self.body_en).get(lang)

    @property
    def url(self) -> str:
        return reverse("training:lesson", kwargs={"slug": self.slug})

    @property
    def kinds(self) -> tuple[str, ...]:
        """The exercise types of the lesson, in order, without repeats."""
        return tuple(dict.fromkeys(step.kind for step in self.steps))

    def contains(self, kind: str, level: int) -> bool:
        return LessonStep(kind, level) in self.steps

    @property
    def has_activity(self) -> bool:
        """A step of the lesson is an :class:`Activity` (a whole game at the table): its
        progress counts finished games, won or lost, beside right answers."""
        return any(get_activity(step.kind) is not None for step in self.steps)


# --- activities --------------------------------------------------------------


@dataclass(frozen=True)
class Activity:
    """A lesson step that is not a generated exercise but something done on another page of
    the site (a whole game at the table), registered by the app that runs it.

    That app records each finished activity as an attempt of the step
    (:func:`skatschule.training.services.activities.record_activity`), so a lesson's progress
    stays one derivation over attempts. The level is a place in the lesson, nothing more.
    """

    slug: str
    title_de: str
    title_en: str
    url_name: str
    """Where the activity is done (a URL name)."""
    levels: int = 3

    def title(self, lang: str = "de") -> str:
        return Text(self.title_de, self.title_en).get(lang)

    @property
    def url(self) -> str:
        return reverse(self.url_name)


ACTIVITIES: dict[str, Activity] = {}


def register_activity(activity: Activity) -> Activity:
    """Make ``activity`` known as a lesson step (again: replace it); from an app's ``ready()``."""
    ACTIVITIES[activity.slug] = activity
    return activity


def get_activity(kind: str) -> Activity | None:
    return ACTIVITIES.get(kind)


# --- parsing ---------------------------------------------------------------


def _split_list(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def parse_lesson(text: str, filename: str = "<lesson>") -> Lesson:  # noqa: C901 - over the budget since issue 27; to be split
    """Parse one lesson file; raises :class:`LessonError` with the file name."""

    def fail(message: str) -> LessonError:
        return LessonError(f"{filename}: {message}")

    lines = text.replace("\r\n", "\n").split("\n")
    front = read_front_matter(lines)
    if not front.present:
        raise fail("must start with a '---' front matter line")
    if not front.closed:
        raise fail("front matter is not closed by '---'")
    meta: dict[str, str] = {}
    for _n, line in front.lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise fail(f"front matter line without ':': {line!r}")
        key = key.strip().lower()
        if key in meta:
            raise fail(f"front matter key {key!r} given twice")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1].strip()
        meta[key] = value
    for key in ("slug", "order", "title", "exercises"):
        if not meta.get(key):
            raise fail(f"front matter needs {key!r}")
    unknown = set(meta) - {"slug", "order", "title", "rules", "exercises", "mastery", "variant"}
    if unknown:
        raise fail(f"unknown front matter keys: {', '.join(sorted(unknown))}")

    slug = meta["slug"]
    if not SLUG.match(slug):
        raise fail(f"slug {slug!r} must be lowercase words joined by '-'")
    try:
        order = int(meta["order"])
    except ValueError:
        raise fail(f"order {meta['order']!r} is not a number") from None
    title_de, sep, title_en = meta["title"].partition("|")
    if not sep or not title_de.strip() or not title_en.strip():
        raise fail("title must be 'Deutsch | English'")

    steps = []
    for item in _split_list(meta["exercises"]):
        kind, sep, level = item.partition(":")
        if not sep or not level.strip().isdigit():
            raise fail(f"exercise {item!r} must be 'type:level'")
        steps.append(LessonStep(kind.strip(), int(level)))
    if not steps:
        raise fail("a lesson needs at least one exercise")

    needed, window = 8, 10
    if meta.get("mastery"):
        a, sep, b = meta["mastery"].partition("/")
        if not sep or not a.strip().isdigit() or not b.strip().isdigit():
            raise fail(f"mastery {meta['mastery']!r} must be 'right/window', e.g. 8/10")
        needed, window = int(a), int(b)
        if not 1 <= needed <= window <= 50:
            raise fail("mastery needs 1 <= right <= window <= 50")

    variant_text = meta.get("variant", "false").lower()
    if variant_text not in {"true", "false", "yes", "no"}:
        raise fail("variant must be true or false")

    lead, blocks = split_blocks(number_lines(lines, front.end))
    if any(line.strip() for _n, line in lead):
        raise fail("text before '@de'")
    bodies: dict[str, list[str]] = {}
    for block in blocks:
        if block.name not in ("de", "en"):
            raise fail(f"unknown block @{block.name} (only @de and @en)")
        if block.name in bodies:
            raise fail(f"@{block.name} given twice")
        bodies[block.name] = [line for _n, line in block.lines]
    for lang in ("de", "en"):
        if not "\n".join(bodies.get(lang, [])).strip():
            raise fail(f"the @{lang} text is missing")

    return Lesson(
        slug=slug,
        order=order,
        title_de=title_de.strip(),
        title_en=title_en.strip(),
        rule_ids=tuple(_split_list(meta.get("rules", ""))),
        steps=tuple(steps),
        mastery_needed=needed,
        mastery_window=window,
        body_de="\n".join(bodies["de"]).strip(),
        body_en="\n".join(bodies["en"]).strip(),
        variant=variant_text in {"true", "yes"},
        filename=filename,
    )


def lessons_dir() -> Path:
    configured = getattr(settings, "TRAINING_LESSONS_DIR", None)
    if configured:
        return Path(configured)
    return Path(settings.RULES_CONTENT_DIR) / "lessons"


_lock = threading.Lock()


@lru_cache(maxsize=8)
def _load(directory: str, stamp: tuple[tuple[str, int], ...]) -> tuple[Lesson, ...]:
    lessons = []
    for name, _mtime in stamp:
        path = Path(directory) / name
        match = FILENAME.match(name)
        if not match:
            raise LessonError(f"{name}: lesson files are named NN-slug.md")
        lesson = parse_lesson(path.read_text(encoding="utf-8"), name)
        if int(match.group(1)) != lesson.order:
            raise LessonError(f"{name}: the file number does not match 'order: {lesson.order}'")
        lessons.append(lesson)
    lessons.sort(key=lambda lesson: (lesson.order, lesson.slug))
    slugs = [lesson.slug for lesson in lessons]
    duplicates = {slug for slug in slugs if slugs.count(slug) > 1}
    if duplicates:
        raise LessonError(f"duplicate lesson slugs: {', '.join(sorted(duplicates))}")
    return tuple(lessons)


def get_lessons() -> tuple[Lesson, ...]:
    """All lessons in order (cached; re-read when a file in the folder changes)."""
    directory = lessons_dir()
    if not directory.is_dir():
        return ()
    stamp = tuple(sorted((p.name, p.stat().st_mtime_ns) for p in directory.glob("*.md")))
    with _lock:
        return _load(str(directory), stamp)


def get_lesson(slug: str) -> Lesson | None:
    return next((lesson for lesson in get_lessons() if lesson.slug == slug), None)


def lesson_for_exercise(kind: str, level: int) -> Lesson | None:
    """The first lesson that has this exercise type and level as a step."""
    return next((lesson for lesson in get_lessons() if lesson.contains(kind, level)), None)


# --- validation ------------------------------------------------------------


def validate_lessons(  # noqa: C901 - over the budget since issue 27; to be split
    lessons: tuple[Lesson, ...] | None = None, types: dict[str, exercises.ExerciseType] | None = None
) -> list[str]:
    """Problems in the lessons, as readable lines (empty list: all good).

    Checks: exercise types exist in the registry and levels are within ``1..levels``,
    rule ids look like ids, orders are unique, directives are known and well formed.
    """
    problems: list[str] = []
    try:
        lessons = get_lessons() if lessons is None else lessons
    except LessonError as exc:
        return [str(exc)]
    types = dict(getattr(exercises, "REGISTRY", {})) if types is None else types
    if not lessons:
        problems.append(f"no lessons found in {lessons_dir()}")
    orders: dict[int, str] = {}
    for lesson in lessons:
        where = lesson.filename or lesson.slug
        if lesson.order in orders:
            problems.append(f"{where}: order {lesson.order} is also used by {orders[lesson.order]}")
        orders[lesson.order] = where
        for step in lesson.steps:
            kind = types.get(step.kind) or ACTIVITIES.get(step.kind)
            if kind is None:
                problems.append(f"{where}: unknown exercise type {step.kind!r}")
            elif not 1 <= step.level <= kind.levels:
                problems.append(f"{where}: {step.kind} has levels 1 to {kind.levels}, not {step.level}")
        if len(set(lesson.steps)) != len(lesson.steps):
            problems.append(f"{where}: an exercise step is listed twice")
        for rule_id in lesson.rule_ids:
            if not RULE_ID.match(rule_id):
                problems.append(f"{where}: {rule_id!r} does not look like a rule id")
        for lang in ("de", "en"):
            for match in find_directives(lesson.body(lang)):
                name, arg = match.kind, match.args
                if name not in KNOWN_DIRECTIVES:
                    problems.append(f"{where} @{lang}: unknown directive [[{name}: ...]]")
                elif name == "rule" and not RULE_ID.match(arg):
                    problems.append(f"{where} @{lang}: {arg!r} does not look like a rule id")
                elif name in ("cards", "points"):
                    try:
                        _cards(arg)
                    except ValueError as exc:
                        problems.append(f"{where} @{lang}: bad cards in [[{name}: {arg}]]: {exc}")
    return problems


# --- rendering -------------------------------------------------------------


def rule_url(rule_id: str) -> str:
    """The permalink of a rule (``rules:rule``, e.g. ``/regeln/3.2.4``)."""
    return _rule_url(rule_id, get_urlconf() or settings.ROOT_URLCONF)


@lru_cache(maxsize=2048)
def _rule_url(rule_id: str, urlconf: object) -> str:
    # memoised per URLconf: a feedback shows dozens of rule links, and reverse() with a
    # failing first try is the most expensive part of rendering it
    for kwargs in ({"rule_id": rule_id}, {"ref": rule_id}):
        try:
            return reverse("rules:rule", kwargs=kwargs)
        except NoReverseMatch:
            continue
    return f"/regeln/{rule_id}/"


def rule_title(rule_id: str, lang: str = "de") -> str:
    """The rule's title from the rules app, or '' if it is not known (yet)."""
    try:
        rule = get_registry().rule(rule_id)
    except Exception:  # noqa: BLE001 - the title is a nicety; the link works without it
        return ""
    return rule.title(lang) if rule is not None else ""


RULE_WORD = Text("Regel", "rule")
"""What a rule reference is called for a screen reader and in its tooltip ("Regel 3.2.1: ...")."""


def rule_link(rule_id: str, lang: str = "de", show_title: bool = False) -> str:
    """``<a href="/regeln/3.2.1">3.2.1</a>`` (with the rule's title as tooltip, or as text)."""
    word = RULE_WORD.get(lang)
    title = rule_title(rule_id, lang)
    tooltip = f' title="{escape(word)} {escape(rule_id)}: {escape(title)}"' if title and not show_title else ""
    text = f"{escape(rule_id)} {escape(title)}" if show_title and title else escape(rule_id)
    kind = "rule-ref rule-ref-titled" if show_title and title else "rule-ref"  # a title may wrap on a phone
    return (
        f'<a class="{kind}" href="{escape(rule_url(rule_id))}"{tooltip}>'
        f'<span class="visually-hidden">{word} </span>{text}</a>'
    )


def _cards(arg: str) -> list[Card]:
    """``CJ HA``: the cards in the order written; ``hand [game] CJ HA ...``: a hand, sorted as
    players sort it (for the game, if one is named), as in the rules' ``[[cards: ...]]``."""
    words = arg.replace(",", " ").split()
    if not words or words[0].lower() != "hand":
        return parse_cards(" ".join(words))
    game = None
    if len(words) > 1:
        try:
            parse_cards(words[1])
        except ValueError:  # not a card: the game (hearts, grand, pik ...)
            game = parse_game(words[1])
            words = words[1:]
    return sort_hand(parse_cards(" ".join(words[1:])), game)


def _directive_html(name: str, arg: str, lang: str, deck: str) -> str:
    if name == "rule" and RULE_ID.match(arg):
        return rule_link(arg, lang)
    if name == "cards":
        return str(cards_html([c.code for c in _cards(arg)], deck))
    if name == "points":
        total = sum(card.points for card in _cards(arg))
        return f'<span class="points">{total}</span>'
    return escape(f"[[{name}: {arg}]]")


def render_text(text: str, lang: str = "de", deck: str = "french") -> SafeString:
    """Markdown with our directives to safe HTML (sanitised with nh3). Cards, suits and games
    named by reference (``⟦card:CJ⟧``, ``⟦suit:C⟧``, ``⟦game:hearts⟧``) get the names of ``deck``."""
    text = render_names(text, lang, deck)
    pieces: dict[str, str] = {}

    def stash(match: Directive) -> str:
        token = f"SKDIRECTIVE{len(pieces)}X"
        pieces[token] = _directive_html(match.kind, match.args, lang, deck)
        return token

    source = replace_directives(text, stash)
    html = nh3.clean(markdown.markdown(source, extensions=["sane_lists", "tables"]))
    for token, piece in pieces.items():
        html = html.replace(token, piece)
    return mark_safe(html)  # noqa: S308 - sanitised markdown plus our own escaped pieces


@lru_cache(maxsize=256)
def _render_cached(slug: str, body: str, lang: str, deck: str) -> str:
    return str(render_text(body, lang, deck))


def render_lesson(lesson: Lesson, lang: str = "de", deck: str = "french") -> SafeString:
    return mark_safe(_render_cached(lesson.slug, lesson.body(lang), lang, deck))  # noqa: S308
