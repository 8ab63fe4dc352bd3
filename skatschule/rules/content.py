"""The annotated Skatordnung as data: parse ``rules_content/`` into immutable records.

The format is defined in ``rules_content/README.md``; this module is the schema of the
chapters and the glossary on top of :mod:`skatschule.content` (rule ids, the block reader,
the directive grammar and what the directives compute). :func:`get_registry` loads the
content once per process (per content folder) and :func:`reload` drops every cache, for
tests and for ``manage.py load_content``. Parsing never raises on bad content: every
mistake becomes a readable line in :meth:`Registry.problems`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from django.conf import settings

from skatschule.content.blocks import BLOCK_RE as _BLOCK
from skatschule.content.blocks import META_RE as _META
from skatschule.content.blocks import join_lines as _join
from skatschule.content.blocks import read_front_matter, split_blocks, split_parts
from skatschule.content.blocks import split_list as _split_list
from skatschule.content.blocks import split_title as _split_title
from skatschule.content.compute import DirectiveError, directive_text
from skatschule.content.directives import find_directives, stray_brackets
from skatschule.content.ids import RuleId, chapter_sort_key
from skatschule.engine import Text

__all__ = [
    "ANNOTATION_KINDS",
    "Annotation",
    "Chapter",
    "GlossaryTerm",
    "Registry",
    "Rule",
    "Section",
    "alias_key",
    "get_registry",
    "load_registry",
    "reload",
]

ISKO_CHAPTERS = frozenset({"1", "2", "3", "4"})
ANNOTATION_KINDS = ("erlaeuterung", "beispiel", "schiedsrichter", "geschichte", "variante")
META_KEYS = ("aliases", "see", "tags", "origin")
GLOSSARY_META_KEYS = ("slug", "also", "rules")
WITHDRAWN = "(entfallen)"

_HEADING = re.compile(r"^(#{1,2})\s+(\S+)\s+(.*?)\s*$")
_GLOSSARY_HEADING = re.compile(r"^##\s+(.*?)\s*$")


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Annotation:
    """One annotation block of a rule: ``kind`` is ``erlaeuterung``, ``beispiel`` ..."""

    kind: str
    de: str
    en: str

    def text(self, lang: str) -> str:
        return Text(self.de, self.en).get(lang)


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    chapter_id: str
    section_id: str
    title_de: str
    title_en: str
    aliases: tuple[str, ...] = ()
    see: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    text_de: str = ""
    text_en: str = ""
    annotations: tuple[Annotation, ...] = ()
    source: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)
    origin: Text = Text("", "")
    """``origin: Deutsch | English``: where a rule in an ISkO chapter comes from when the ISkO
    does not say it (an older Skatordnung, a common rule book); empty for the ISkO's own rules."""

    def title(self, lang: str) -> str:
        return Text(self.title_de, self.title_en).get(lang)

    def text(self, lang: str) -> str:
        return Text(self.text_de, self.text_en).get(lang)

    @property
    def anchor(self) -> str:
        return f"r-{self.id}"

    @property
    def withdrawn(self) -> bool:
        return self.text_de.strip().startswith(WITHDRAWN)

    @property
    def is_isko(self) -> bool:
        return self.chapter_id in ISKO_CHAPTERS


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    title_de: str
    title_en: str
    rules: tuple[Rule, ...] = ()
    intro_de: str = ""
    intro_en: str = ""

    def title(self, lang: str) -> str:
        return Text(self.title_de, self.title_en).get(lang)

    def intro(self, lang: str) -> str:
        return Text(self.intro_de, self.intro_en).get(lang)

    @property
    def anchor(self) -> str:
        return f"s-{self.id}"


@dataclass(frozen=True, slots=True)
class Chapter:
    id: str
    title_de: str
    title_en: str
    sections: tuple[Section, ...] = ()
    intro_de: str = ""
    intro_en: str = ""
    source: str = field(default="", compare=False)

    def title(self, lang: str) -> str:
        return Text(self.title_de, self.title_en).get(lang)

    def intro(self, lang: str) -> str:
        return Text(self.intro_de, self.intro_en).get(lang)

    @property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(r for s in self.sections for r in s.rules)

    @property
    def is_isko(self) -> bool:
        return self.id in ISKO_CHAPTERS


@dataclass(frozen=True, slots=True)
class GlossaryTerm:
    slug: str
    term_de: str
    term_en: str
    also: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    de: str = ""
    en: str = ""
    line: int = field(default=0, compare=False)

    def term(self, lang: str) -> str:
        return Text(self.term_de, self.term_en).get(lang)

    def text(self, lang: str) -> str:
        return Text(self.de, self.en).get(lang)

    @property
    def anchor(self) -> str:
        return f"g-{self.slug}"


# --------------------------------------------------------------------------- helpers


def alias_key(text: str) -> str:
    """Normalise an older citation: ``SkO 4.2.9``, ``SkO 4. 2. 9``, ``SkO-4.2.9``, ``4.2.9`` -> ``4.2.9``."""
    t = text.strip().lower().replace("-", " ").replace("_", " ").replace("§", " ")
    t = re.sub(r"^(?:i?sko|skatordnung)\.?\s*", "", t)
    return re.sub(r"\s+", "", t).strip(".")


def slugify(text: str) -> str:
    t = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    return re.sub(r"[^a-z0-9]+", "-", t).strip("-")


def _bilingual(lines: list[str]) -> tuple[str, str]:
    """Free text (chapter or section intro): ``@de``/``@en`` blocks if present, else the same for both."""
    current: str | None = None
    parts: dict[str, list[str]] = {"de": [], "en": []}
    plain: list[str] = []
    for line in lines:
        m = _BLOCK.match(line)
        if m and m.group(1) in ("de", "en"):
            current = m.group(1)
            continue
        (parts[current] if current else plain).append(line)
    if current is None:
        text = _join(plain)
        return text, text
    return _join(parts["de"]), _join(parts["en"])


# --------------------------------------------------------------------------- parsing


class _ChapterParser:
    """Line-based parser for one chapter file; problems are collected, never raised."""

    def __init__(self, path: Path, name: str) -> None:
        self.name = name
        self.lines = path.read_text(encoding="utf-8").splitlines()
        self.problems: list[str] = []

    def problem(self, lineno: int, message: str) -> None:
        self.problems.append(f"{self.name}:{lineno}: {message}")

    def parse(self) -> Chapter | None:  # noqa: C901 - over the budget since issue 27; to be split
        meta, start = self._front_matter()
        chapter_id = meta.get("chapter", "").strip()
        if not chapter_id:
            self.problem(1, "Kopf ohne 'chapter:' (Front Matter zwischen --- Zeilen fehlt?)")
            return None
        title_de, title_en = _split_title(meta.get("title", ""))
        if not title_de or not title_en:
            self.problem(1, "Kapiteltitel braucht 'title: Deutsch | English'")
        stem_id = Path(self.name).name.split("-", 1)[0]
        if stem_id != chapter_id:
            self.problem(1, f"Dateiname beginnt mit {stem_id!r}, das Kapitel heißt aber {chapter_id!r}")

        intro: list[str] = []
        sections: list[
            tuple[int, str, str, str, list[str], list[tuple[int, str, str, str, list[tuple[int, str]]]]]
        ] = []
        rule_lines: list[tuple[int, str]] | None = None
        for lineno, line in enumerate(self.lines[start:], start=start + 1):
            m = _HEADING.match(line)
            if m:
                level, ident, rest = m.groups()
                tde, ten = _split_title(rest)
                if not tde or not ten:
                    self.problem(lineno, f"Überschrift {ident} braucht 'Deutsch | English'")
                if level == "#":
                    sections.append((lineno, ident, tde, ten, [], []))
                    rule_lines = None
                else:
                    if not sections:
                        self.problem(lineno, f"Regel {ident} steht vor dem ersten Abschnitt")
                        sections.append((lineno, "?", "", "", [], []))
                    rule_lines = []
                    sections[-1][5].append((lineno, ident, tde, ten, rule_lines))
                continue
            if rule_lines is not None:
                rule_lines.append((lineno, line))
            elif sections:
                sections[-1][4].append(line)
            else:
                intro.append(line)

        built: list[Section] = []
        for s_line, s_id, s_de, s_en, s_intro, s_rules in sections:
            rules = tuple(
                self._rule(r_line, r_id, r_de, r_en, body, chapter_id, s_id)
                for r_line, r_id, r_de, r_en, body in s_rules
            )
            if not rules:
                self.problem(s_line, f"Abschnitt {s_id} enthält keine Regel")
            ide, ien = _bilingual(s_intro)
            built.append(Section(s_id, s_de, s_en, rules, ide, ien))
        ide, ien = _bilingual(intro)
        return Chapter(chapter_id, title_de, title_en, tuple(built), ide, ien, source=self.name)

    def _front_matter(self) -> tuple[dict[str, str], int]:
        front = read_front_matter(self.lines)
        meta: dict[str, str] = {}
        for n, line in front.lines:
            m = _META.match(line)
            if m:
                meta[m.group(1)] = m.group(2)
            elif line.strip():
                self.problem(n, f"unverständliche Kopfzeile {line!r}")
        if front.present and not front.closed:
            self.problem(1, "Front Matter wird nicht mit --- geschlossen")
        return meta, front.end

    def _rule(  # noqa: C901, PLR0913 - over the budget since issue 27; to be split
        self,
        lineno: int,
        rule_id: str,
        title_de: str,
        title_en: str,
        body: list[tuple[int, str]],
        chapter_id: str,
        section_id: str,
    ) -> Rule:
        meta: dict[str, str] = {}
        i = 0
        # meta lines directly under the heading (blank lines allowed in between)
        while i < len(body):
            n, line = body[i]
            if not line.strip():
                i += 1
                continue
            m = _META.match(line)
            if m and m.group(1) in META_KEYS:
                if m.group(1) in meta:
                    self.problem(n, f"{rule_id}: '{m.group(1)}:' doppelt")
                meta[m.group(1)] = m.group(2)
                i += 1
                continue
            break
        lead, blocks = split_blocks(body[i:])
        for n, line in lead:
            if line.strip():
                self.problem(n, f"{rule_id}: Text außerhalb eines @de/@en-Blocks: {line.strip()[:60]!r}")
        texts: dict[str, str] = {}
        annotations: list[Annotation] = []
        for block in blocks:
            n, kind, lines = block.line, block.name, block.lines
            if kind in ("de", "en"):
                if kind in texts:
                    self.problem(n, f"{rule_id}: @{kind} doppelt")
                texts[kind] = _join([text for _, text in lines])
            elif kind in ANNOTATION_KINDS:
                annotations.append(self._annotation(rule_id, n, kind, lines))
            else:
                self.problem(
                    n, f"{rule_id}: unbekannter Block @{kind} (erlaubt: @de, @en, @{', @'.join(ANNOTATION_KINDS)})"
                )
        for lang in ("de", "en"):
            if not texts.get(lang, "").strip():
                self.problem(lineno, f"{rule_id}: Regeltext @{lang} fehlt")
        origin_de, _, origin_en = (part.strip() for part in meta.get("origin", "").partition("|"))
        if meta.get("origin") and not (origin_de and origin_en):
            self.problem(lineno, f"{rule_id}: 'origin:' braucht Deutsch | English")
        return Rule(
            id=rule_id,
            chapter_id=chapter_id,
            section_id=section_id,
            title_de=title_de,
            title_en=title_en,
            aliases=_split_list(meta.get("aliases", "")),
            see=_split_list(meta.get("see", "")),
            tags=_split_list(meta.get("tags", "")),
            origin=Text(origin_de, origin_en),
            text_de=texts.get("de", ""),
            text_en=texts.get("en", ""),
            annotations=tuple(annotations),
            source=self.name,
            line=lineno,
        )

    def _annotation(self, rule_id: str, lineno: int, kind: str, lines: list[tuple[int, str]]) -> Annotation:
        split = split_parts(lines)
        found = [(n, f"{rule_id}: @{kind} hat zwei '{lang}:'-Teile") for n, lang in split.twice]
        found += [(n, f"{rule_id}: @{kind}: Text vor 'de:': {line.strip()[:60]!r}") for n, line in split.stray]
        for n, message in sorted(found, key=lambda f: f[0]):
            self.problem(n, message)
        parts = split.texts
        de, en = _join(parts.get("de", [])), _join(parts.get("en", []))
        for lang, text in (("de", de), ("en", en)):
            if not text.strip():
                self.problem(lineno, f"{rule_id}: @{kind} ohne '{lang}:'-Teil")
        return Annotation(kind, de, en)


def _parse_glossary(path: Path) -> tuple[list[GlossaryTerm], list[str]]:  # noqa: C901 - over the budget since issue 27; to be split
    name = path.name
    problems: list[str] = []
    entries: list[tuple[int, str, list[tuple[int, str]]]] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        m = _GLOSSARY_HEADING.match(line)
        if m:
            entries.append((lineno, m.group(1), []))
        elif line.startswith("# "):
            continue  # a title for the file
        elif entries:
            entries[-1][2].append((lineno, line))
    terms: list[GlossaryTerm] = []
    for lineno, heading, body in entries:
        term_de, term_en = _split_title(heading)
        if not term_en:
            problems.append(f"{name}:{lineno}: Begriff {term_de!r} braucht 'Deutsch | English'")
        meta: dict[str, str] = {}
        blocks: dict[str, list[str]] = {}
        current: str | None = None
        for n, line in body:
            b = _BLOCK.match(line)
            if b:
                current = b.group(1)
                if current not in ("de", "en"):
                    problems.append(f"{name}:{n}: {term_de}: unbekannter Block @{current}")
                blocks[current] = []
                continue
            if current is not None:
                blocks[current].append(line)
                continue
            m = _META.match(line)
            if m and m.group(1) in GLOSSARY_META_KEYS:
                meta[m.group(1)] = m.group(2)
            elif line.strip():
                problems.append(f"{name}:{n}: {term_de}: unverständliche Zeile {line.strip()[:60]!r}")
        de, en = _join(blocks.get("de", [])), _join(blocks.get("en", []))
        for lang, text in (("de", de), ("en", en)):
            if not text.strip():
                problems.append(f"{name}:{lineno}: {term_de}: Definition @{lang} fehlt")
        terms.append(
            GlossaryTerm(
                slug=meta.get("slug", "").strip() or slugify(term_de),
                term_de=term_de,
                term_en=term_en,
                also=_split_list(meta.get("also", "")),
                rules=_split_list(meta.get("rules", "")),
                de=de,
                en=en,
                line=lineno,
            )
        )
    return terms, problems


def read_published_ids(content_dir: Path) -> list[str]:
    path = content_dir / "published_ids.txt"
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


# --------------------------------------------------------------------------- registry


class Registry:
    """All chapters, rules and glossary terms of one content folder (immutable after load).

    Hashes by identity, so render and search caches can key on it; :func:`reload` makes
    a new one.
    """

    def __init__(
        self,
        content_dir: Path,
        chapters: Iterable[Chapter],
        glossary: Iterable[GlossaryTerm],
        parse_problems: Iterable[str] = (),
    ) -> None:
        self.content_dir = content_dir
        self.chapters: tuple[Chapter, ...] = tuple(sorted(chapters, key=lambda c: chapter_sort_key(c.id)))
        self.glossary: tuple[GlossaryTerm, ...] = tuple(glossary)
        self._parse_problems = list(parse_problems)
        self._problems: list[str] | None = None
        self._lock = threading.Lock()

        rules: dict[str, Rule] = {}
        order: list[Rule] = []
        sections: dict[str, Section] = {}
        for chapter in self.chapters:
            for section in chapter.sections:
                sections.setdefault(section.id, section)
                for rule in section.rules:
                    rules.setdefault(rule.id, rule)
                    order.append(rule)
        self.rules: Mapping[str, Rule] = MappingProxyType(rules)
        self.rule_order: tuple[Rule, ...] = tuple(order)
        self._position = {r.id: i for i, r in enumerate(order) if rules[r.id] is r}
        self._sections: Mapping[str, Section] = MappingProxyType(sections)
        self._chapters = {c.id: c for c in self.chapters}
        aliases: dict[str, str] = {}
        for rule in order:
            for alias in rule.aliases:
                aliases.setdefault(alias_key(alias), rule.id)
        self.aliases: Mapping[str, str] = MappingProxyType(aliases)
        self._terms = {t.slug: t for t in self.glossary}

    # -- lookups

    def chapter(self, chapter_id: str) -> Chapter | None:
        return self._chapters.get(chapter_id) or self._chapters.get(chapter_id.upper())

    def section(self, section_id: str) -> Section | None:
        return self._sections.get(section_id)

    def rule(self, rule_id: str) -> Rule | None:
        return self.rules.get(rule_id)

    def term(self, slug: str) -> GlossaryTerm | None:
        return self._terms.get(slug)

    def chapter_of(self, rule: Rule) -> Chapter:
        return self._chapters[rule.chapter_id]

    def resolve(self, ref: str) -> str | None:
        """A rule id for ``ref``: the id itself, or an older citation from ``aliases:``."""
        ref = ref.strip()
        if ref in self.rules:
            return ref
        upper = ref.upper() if re.match(r"^[a-z]\.", ref) else ref
        if upper in self.rules:
            return upper
        return self.aliases.get(alias_key(ref))

    def prev_rule(self, rule_id: str) -> Rule | None:
        i = self._position.get(rule_id)
        return self.rule_order[i - 1] if i else None

    def next_rule(self, rule_id: str) -> Rule | None:
        i = self._position.get(rule_id)
        return self.rule_order[i + 1] if i is not None and i + 1 < len(self.rule_order) else None

    def prev_chapter(self, chapter_id: str) -> Chapter | None:
        ids = [c.id for c in self.chapters]
        i = ids.index(chapter_id) if chapter_id in ids else None
        return self.chapters[i - 1] if i else None

    def next_chapter(self, chapter_id: str) -> Chapter | None:
        ids = [c.id for c in self.chapters]
        i = ids.index(chapter_id) if chapter_id in ids else None
        return self.chapters[i + 1] if i is not None and i + 1 < len(self.chapters) else None

    def sources(self) -> Iterator[tuple[str, str, str]]:  # noqa: C901 - over the budget since issue 27; to be split
        """Every markdown text with a label for messages: (where, lang, text)."""
        for chapter in self.chapters:
            for lang in ("de", "en"):
                if chapter.intro(lang):
                    yield f"{chapter.source} (Einleitung, {lang})", lang, chapter.intro(lang)
            for section in chapter.sections:
                for lang in ("de", "en"):
                    if section.intro(lang):
                        yield f"{chapter.source} {section.id} (Einleitung, {lang})", lang, section.intro(lang)
        for rule in self.rule_order:
            for lang in ("de", "en"):
                yield f"{rule.source}:{rule.line} {rule.id} (@{lang})", lang, rule.text(lang)
                for a in rule.annotations:
                    yield f"{rule.source}:{rule.line} {rule.id} (@{a.kind} {lang})", lang, a.text(lang)
        for term in self.glossary:
            for lang in ("de", "en"):
                yield f"glossar.md:{term.line} {term.slug} (@{lang})", lang, term.text(lang)

    # -- validation

    def problems(self) -> list[str]:
        """Everything wrong with the content, as readable lines (empty when all is well)."""
        with self._lock:
            if self._problems is None:
                self._problems = self._validate()
            return list(self._problems)

    def _validate(self) -> list[str]:  # noqa: C901 - over the budget since issue 27; to be split
        out = list(self._parse_problems)
        seen_chapters: set[str] = set()
        for chapter in self.chapters:
            if chapter.id in seen_chapters:
                out.append(f"{chapter.source}: Kapitel {chapter.id} gibt es zweimal")
            seen_chapters.add(chapter.id)
            seen_sections: set[str] = set()
            for section in chapter.sections:
                sid = RuleId.try_parse(section.id)
                if sid is None or not sid.is_section or str(sid) != section.id or sid.chapter != chapter.id:
                    out.append(
                        f"{chapter.source}: Abschnitt {section.id!r} passt nicht zu Kapitel {chapter.id} "
                        f"(erwartet {chapter.id}.N)"
                    )
                if section.id in seen_sections:
                    out.append(f"{chapter.source}: Abschnitt {section.id} gibt es zweimal")
                seen_sections.add(section.id)
        seen: dict[str, Rule] = {}
        for rule in self.rule_order:
            where = f"{rule.source}:{rule.line}"
            if rule.id in seen:
                first = seen[rule.id]
                out.append(f"{where}: Regel-Id {rule.id} doppelt (zuerst in {first.source}:{first.line})")
            seen.setdefault(rule.id, rule)
            rid = RuleId.try_parse(rule.id)
            if rid is None or rid.is_section or str(rid) != rule.id:
                out.append(f"{where}: Regel-Id {rule.id!r} hat nicht die Form Kapitel.Abschnitt.Nummer")
            elif str(rid.section_id) != rule.section_id:
                out.append(f"{where}: Regel {rule.id} steht im Abschnitt {rule.section_id}")
            elif rid.chapter != rule.chapter_id:
                out.append(f"{where}: Regel {rule.id} steht in Kapitel {rule.chapter_id}")
            for ref in rule.see:
                if ref not in self.rules:
                    out.append(f"{where}: {rule.id}: see: {ref} gibt es nicht")
        alias_owner: dict[str, str] = {}
        for rule in self.rule_order:
            for alias in rule.aliases:
                key = alias_key(alias)
                other = alias_owner.setdefault(key, rule.id)
                if other != rule.id:
                    out.append(f"{rule.source}:{rule.line}: {rule.id}: alias {alias!r} gehört schon zu {other}")
        slugs: set[str] = set()
        for term in self.glossary:
            where = f"glossar.md:{term.line}"
            if term.slug in slugs:
                out.append(f"{where}: slug {term.slug!r} doppelt")
            slugs.add(term.slug)
            for ref in term.rules:
                if ref not in self.rules:
                    out.append(f"{where}: {term.slug}: rules: {ref} gibt es nicht")
        for where, _lang, text in self.sources():
            for ref in (d.args for d in find_directives(text) if d.kind == "rule"):
                if ref not in self.rules:
                    out.append(f"{where}: [[rule: {ref}]] gibt es nicht")
        for published in read_published_ids(self.content_dir):
            if published not in self.rules:
                out.append(
                    f"published_ids.txt: die veröffentlichte Regel {published} fehlt (Ids dürfen nie entfernt "
                    f"werden; eine zurückgezogene Regel bleibt mit dem Text '{WITHDRAWN}')"
                )
        out.extend(self._directive_problems())
        return out

    def _directive_problems(self) -> list[str]:
        out = []
        for where, lang, text in self.sources():
            for match in find_directives(text):
                if match.kind == "rule":
                    continue  # reported above as a dangling reference
                try:
                    directive_text(match.source, lang=lang, where=where)
                except DirectiveError as exc:
                    out.append(str(exc))
            for line in text.splitlines():
                if stray_brackets(line):
                    out.append(f"{where}: unvollständige Direktive in {line.strip()[:80]!r}")
        return out

    def counts(self) -> dict[str, int]:
        return {
            "chapters": len(self.chapters),
            "sections": sum(len(c.sections) for c in self.chapters),
            "rules": len(self.rule_order),
            "annotations": sum(len(r.annotations) for r in self.rule_order),
            "glossary": len(self.glossary),
            "directives": sum(len(find_directives(text)) for _, _, text in self.sources()),
        }

    def __repr__(self) -> str:
        return f"<Registry {self.content_dir} {len(self.chapters)} chapters, {len(self.rule_order)} rules>"


def load_registry(content_dir: Path | str) -> Registry:
    """Parse a content folder (``regeln/*.md``, ``glossar.md``) into a fresh :class:`Registry`."""
    content_dir = Path(content_dir)
    chapters: list[Chapter] = []
    problems: list[str] = []
    chapter_dir = content_dir / "regeln"
    paths = sorted(chapter_dir.glob("*.md")) if chapter_dir.is_dir() else []
    if not paths:
        problems.append(f"{chapter_dir}: keine Kapiteldateien gefunden")
    for path in paths:
        parser = _ChapterParser(path, f"regeln/{path.name}")
        chapter = parser.parse()
        problems.extend(parser.problems)
        if chapter is not None:
            chapters.append(chapter)
    glossary: list[GlossaryTerm] = []
    gpath = content_dir / "glossar.md"
    if gpath.exists():
        glossary, gproblems = _parse_glossary(gpath)
        problems.extend(gproblems)
    else:
        problems.append("glossar.md fehlt")
    return Registry(content_dir, chapters, glossary, problems)


# --------------------------------------------------------------------------- process cache

_lock = threading.Lock()
_cache: dict[Path, tuple[tuple[tuple[str, float], ...], Registry]] = {}


def _signature(content_dir: Path) -> tuple[tuple[str, float], ...]:
    files = [content_dir / "glossar.md", content_dir / "published_ids.txt"]
    chapter_dir = content_dir / "regeln"
    if chapter_dir.is_dir():
        files.extend(sorted(chapter_dir.glob("*.md")))
    return tuple((str(p), p.stat().st_mtime) for p in files if p.exists())


def get_registry() -> Registry:
    """The registry of ``settings.RULES_CONTENT_DIR``, loaded once per process.

    With ``DEBUG`` on, edited content files are picked up on the next request.
    """
    content_dir = Path(settings.RULES_CONTENT_DIR)
    with _lock:
        cached = _cache.get(content_dir)
        if cached is not None and not settings.DEBUG:
            return cached[1]
        signature = _signature(content_dir) if settings.DEBUG or cached is None else cached[0]
        if cached is not None and cached[0] == signature:
            return cached[1]
        registry = load_registry(content_dir)
        _cache[content_dir] = (signature, registry)
        return registry


def reload() -> Registry:
    """Forget every loaded registry and everything rendered from it; load afresh."""
    with _lock:
        _cache.clear()
    for clear in _cache_clearers:
        clear()
    return get_registry()


_cache_clearers: list[Callable[[], None]] = []


def on_reload(func: Callable[[], None]) -> Callable[[], None]:
    """Register a cache-clearing function (render and search caches) to run on :func:`reload`."""
    _cache_clearers.append(func)
    return func
