"""Rule text to safe HTML: directives, markdown, sanitising, glossary links.

Order of work for one markdown text:

1. every directive is rendered by :mod:`.directives` and replaced by a placeholder;
2. python-markdown turns the text into HTML;
3. nh3 sanitises that HTML (it only ever sees what the authors wrote: no SVG needed);
4. the first occurrence of each glossary term becomes a link to the glossary, tied to its
   definition with ``aria-describedby``; the definitions themselves are NOT in the text:
   each page adds them once, out of the text flow (:func:`term_definitions`), so copying a
   paragraph or reading it aloud gives the rule's sentence as written;
5. the placeholders are replaced by the directives' HTML, which our own code built and
   escaped, so markdown and the sanitiser never touch the card pictures.

Rendered rules are cached per (registry, rule id, language, deck).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import markdown
import nh3
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from markdown.extensions.tables import TableExtension

from skatschule.cards.render import normalize_deck
from skatschule.content.compute import BLOCK_KINDS
from skatschule.content.directives import DIRECTIVE_RE
from skatschule.core.language import current_lang
from skatschule.engine import Text
from skatschule.engine.names import render as _names

from .content import Registry, Rule, get_registry, on_reload
from .directives import directives_as_text, render_directive

__all__ = [
    "ANNOTATION_LABELS",
    "RenderedAnnotation",
    "RenderedRule",
    "annotation_label",
    "markdown_to_html",
    "plain_text",
    "render_intro",
    "render_markdown",
    "render_rule",
    "render_term",
    "sanitize",
    "term_definitions",
    "term_linker",
    "term_slugs",
]

ANNOTATION_LABELS = {
    "erlaeuterung": Text("Erläuterung", "Explanation"),
    "beispiel": Text("Beispiel", "Example"),
    "schiedsrichter": Text("Schiedsrichter-Hinweis", "Referee note"),
    "geschichte": Text("Geschichte", "History"),
    "variante": Text("Variante", "Variant"),
}


def annotation_label(kind: str, lang: str) -> str:
    return ANNOTATION_LABELS.get(kind, Text(kind, kind)).get(lang)


# --------------------------------------------------------------------------- sanitising

_TAGS = {
    "p",
    "br",
    "hr",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "em",
    "strong",
    "b",
    "i",
    "u",
    "s",
    "del",
    "ins",
    "sub",
    "sup",
    "small",
    "code",
    "pre",
    "kbd",
    "blockquote",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "caption",
    "a",
    "abbr",
    "mark",
    "span",
    "div",
}
_ATTRIBUTES = {
    "a": {"href", "title", "class"},
    "abbr": {"title"},
    "th": {"align", "colspan", "rowspan"},
    "td": {"align", "colspan", "rowspan"},
    "ol": {"start"},
    "span": {"class", "title", "lang"},
    "div": {"class", "lang"},
    "p": {"class", "lang"},
    "table": {"class"},
    "blockquote": {"class"},
}
_CLEANER = nh3.Cleaner(
    tags=_TAGS,
    attributes=_ATTRIBUTES,
    url_schemes={"http", "https", "mailto"},
    link_rel=None,
    strip_comments=True,
)


def sanitize(html: str) -> str:
    """Keep only the tags and attributes markdown produces (no scripts, no event handlers)."""
    return _CLEANER.clean(html)


# --------------------------------------------------------------------------- plain text

_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_LINE_MARK = re.compile(r"^[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+\.[ \t]+)?", re.M)
_MD_TABLE_RULE = re.compile(r"^[ \t|:-]*-{3,}[ \t|:-]*$", re.M)
_MD_EMPHASIS = re.compile(r"\*\*|__|\*|`|(?<!\w)_|_(?!\w)")


def render_names(text: str, lang: str, deck: str = "french") -> str:
    """``text`` with its name references in ``deck``'s names (French, the ISkO's, by default)."""
    return _names(text, current_lang(lang), normalize_deck(deck))


def plain_text(source: str, *, lang: str = "de", registry: Registry | None = None, where: str = "") -> str:
    """Markdown with directives as plain text, without markup (search index, tooltips)."""
    text = render_names(directives_as_text(source, lang=lang, registry=registry, where=where), lang)
    text = _MD_LINK.sub(r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = _MD_TABLE_RULE.sub("", text)
    text = _MD_LINE_MARK.sub("", text)
    text = _MD_EMPHASIS.sub("", text).replace("|", " ")
    text = re.sub(r"[ \t]+", " ", text)
    return re.sub(r"\s*\n\s*", "\n", text).strip()


def _short(text: str, limit: int = 220) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("; "))
    return cut[: end + 1] if end > limit // 2 else cut.rsplit(" ", 1)[0] + " …"


# --------------------------------------------------------------------------- glossary links

_SKIP_TAGS = {"a", "h1", "h2", "h3", "h4", "h5", "h6", "code", "pre", "kbd", "mark", "abbr"}
_TAG = re.compile(r"(<[^>]*>)")
_TAG_NAME = re.compile(r"^<\s*(/?)\s*([a-zA-Z0-9]+)")


@dataclass(frozen=True)
class TermLinker:
    """Links the first occurrence of each glossary term in a piece of HTML.

    Matching is case-insensitive, with one exception for German: a term spelled with a
    capital (a noun: ``Unter``, ``Rot``, ``Sagen``) does not match the same word in lower
    case (the preposition ``unter``, the colour ``rot``, the verb ``sagen``).
    """

    pattern: re.Pattern[str] | None
    slug_for: dict[str, tuple[str, bool]]  # casefolded variant -> (slug, needs a capital)
    links: dict[str, tuple[str, str]]  # slug -> (href, plain definition)

    def link(self, html: str, seen: set[str], exclude: str | None = None) -> str:
        if self.pattern is None:
            return html
        out: list[str] = []
        skipping: list[str] = []
        for piece in _TAG.split(html):
            if piece.startswith("<"):
                m = _TAG_NAME.match(piece)
                if m and m.group(2).lower() in _SKIP_TAGS and not piece.endswith("/>"):
                    name = m.group(2).lower()
                    if m.group(1):
                        if name in skipping:
                            del skipping[len(skipping) - 1 - skipping[::-1].index(name)]
                    else:
                        skipping.append(name)
                out.append(piece)
            elif skipping or not piece:
                out.append(piece)
            else:
                out.append(self.pattern.sub(lambda m: self._replace(m, seen, exclude), piece))
        return "".join(out)

    def _replace(self, m: re.Match[str], seen: set[str], exclude: str | None) -> str:
        word = m.group(0)
        slug, needs_capital = self.slug_for.get(word.casefold(), ("", False))
        if not slug or slug in seen or slug == exclude or (needs_capital and not word[0].isupper()):
            return word
        seen.add(slug)
        href, definition = self.links[slug]
        # ``word`` is already HTML-escaped text from the sanitiser: keep it as it is. The
        # definition stays out of the sentence: the page adds it once (term_definitions).
        return format_html(
            '<a class="term" href="{}" aria-describedby="{}">{}</a>', href, TERM_DEF_ID.format(slug), mark_safe(word)
        )


TERM_DEF_ID = "termdef-{}"
_DESCRIBED_BY = re.compile(r'aria-describedby="termdef-([^"\s]+)"')


def term_slugs(html: str) -> list[str]:
    """The glossary slugs a piece of rendered HTML links to, in order of first use."""
    return list(dict.fromkeys(_DESCRIBED_BY.findall(html)))


def term_definitions(
    *htmls: str, lang: str, registry: Registry | None = None, done: set[str] | None = None
) -> SafeString:
    """The definitions of the glossary terms linked in ``htmls``, once each, as one hidden block.

    Every term link points here with ``aria-describedby``: screen readers announce the
    definition as the link's description (not in the middle of the sentence), ``terms.js``
    shows it as a tooltip, and without JavaScript the link leads to the glossary. Pass the
    same ``done`` set for several blocks of one page so that no definition (and no id)
    appears twice.
    """
    registry = registry or get_registry()
    lang = current_lang(lang)
    links = term_linker(registry, lang).links
    done = set() if done is None else done
    items = []
    for html in htmls:
        for slug in term_slugs(str(html)):
            if slug in done or slug not in links:
                continue
            done.add(slug)
            items.append(
                format_html('<span id="{}" class="term-def">{}</span>', TERM_DEF_ID.format(slug), links[slug][1])
            )
    if not items:
        return mark_safe("")
    return format_html('<div class="term-defs" hidden>{}</div>', mark_safe("".join(items)))


@functools.lru_cache(maxsize=16)
def term_linker(registry: Registry, lang: str) -> TermLinker:
    slug_for: dict[str, tuple[str, bool]] = {}
    links: dict[str, tuple[str, str]] = {}
    base = reverse("rules:glossary")
    for term in registry.glossary:
        # ``also:`` holds German spellings (``As``, ``Hand``, ``VH``): in English text they would
        # catch ordinary words ("as", "his hand"), so English links the English term only
        variants = [term.term(lang), *(term.also if lang != "en" else ())]
        for variant in variants:
            variant = variant.strip()
            key = variant.casefold()
            if len(key) < 2:
                continue
            needs_capital = lang == "de" and variant[0].isupper()
            slug, capital = slug_for.get(key, (term.slug, True))
            slug_for[key] = (slug, capital and needs_capital)
        definition = _short(plain_text(term.text(lang), lang=lang, registry=registry))
        links[term.slug] = (f"{base}#{term.anchor}", definition)
    if not slug_for:
        return TermLinker(None, {}, {})
    alternatives = sorted(slug_for, key=lambda v: (-len(v), v))
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(v) for v in alternatives) + r")(?![\w-])", re.IGNORECASE)
    return TermLinker(pattern, slug_for, links)


# --------------------------------------------------------------------------- markdown

_PLACEHOLDER = "\ue000{}\ue001"
_PLACEHOLDER_RE = re.compile("\ue000(\\d+)\ue001")
_BLOCK_PARAGRAPH_RE = re.compile("<p>(\ue000(\\d+)\ue001)</p>")


_RESULT_STOP_RE = re.compile(r"(\[\[\s*result\s*:[^\[\]]*\]\])\.")
"""A result directive and the full stop right after it (linear: the argument holds no brackets)."""


def markdown_to_html(  # noqa: PLR0913 - over the budget since issue 27; to be split
    source: str,
    *,
    lang: str,
    deck: str,
    registry: Registry,
    where: str = "",
    seen_terms: set[str] | None = None,
    exclude_term: str | None = None,
) -> SafeString:
    """One markdown text to safe HTML (see the module docstring for the order of work).

    Pass a ``seen_terms`` set to link glossary terms; share it between the texts of one
    rule so that each term is linked once per rule.
    """
    rendered: list[str] = []
    blocks: set[str] = set()

    def placeholder(m: re.Match[str]) -> str:
        out = render_directive(m.group(0), lang=lang, deck=deck, registry=registry, where=where)
        # computed texts (derivations) may name games and cards by reference: the reader's deck
        rendered.append(mark_safe(render_names(out, lang, deck)) if "⟦" in out else out)
        if m.group(1).lower() in BLOCK_KINDS:
            blocks.add(str(len(rendered) - 1))
        return _PLACEHOLDER.format(len(rendered) - 1)

    # a result box is a block: the full stop that ends its sentence in the source would stand
    # alone on the next line (". Ein Auge weniger …"), so the box ends the sentence itself
    text = DIRECTIVE_RE.sub(placeholder, _RESULT_STOP_RE.sub(r"\1", source))
    html = markdown.markdown(text, extensions=[TableExtension(use_align_attribute=True), "sane_lists"])
    html = sanitize(html)
    # a markdown table scrolls inside its own wrapper, never the page (375 px phones)
    html = html.replace("<table>", '<div class="table-wrap"><table>').replace("</table>", "</table></div>")
    if blocks:  # a table may not sit inside <p>: unwrap a paragraph that holds only a block directive
        html = _BLOCK_PARAGRAPH_RE.sub(lambda m: m.group(1) if m.group(2) in blocks else m.group(0), html)
    # name references (``⟦card:CJ⟧``, ``⟦suit:C⟧``: the casebook's texts) in the reader's deck,
    # before the glossary links so that no term is linked inside a reference
    html = render_names(html, lang, deck)
    if seen_terms is not None:
        html = term_linker(registry, lang).link(html, seen_terms, exclude_term)
    html = _PLACEHOLDER_RE.sub(lambda m: rendered[int(m.group(1))], html)
    return mark_safe(html)


def render_markdown(source: str, *, lang: str = "de", deck: str = "french", where: str = "") -> SafeString:
    """Render any markdown with directives (for other apps: lessons, exercises)."""
    registry = get_registry()
    return markdown_to_html(source, lang=lang, deck=deck, registry=registry, where=where, seen_terms=set())


@dataclass(frozen=True, slots=True)
class RenderedAnnotation:
    kind: str
    label: str
    html: SafeString


@dataclass(frozen=True, slots=True)
class RenderedRule:
    rule: Rule
    text: SafeString
    annotations: tuple[RenderedAnnotation, ...]


@functools.lru_cache(maxsize=4096)
def _render_rule(registry: Registry, rule_id: str, lang: str, deck: str) -> RenderedRule:
    rule = registry.rules[rule_id]
    where = f"{rule.source}:{rule.line} {rule.id}"
    seen: set[str] = set()
    text = markdown_to_html(
        rule.text(lang), lang=lang, deck=deck, registry=registry, where=f"{where} (@{lang})", seen_terms=seen
    )
    annotations = tuple(
        RenderedAnnotation(
            a.kind,
            annotation_label(a.kind, lang),
            markdown_to_html(
                a.text(lang),
                lang=lang,
                deck=deck,
                registry=registry,
                where=f"{where} (@{a.kind} {lang})",
                seen_terms=seen,
            ),
        )
        for a in rule.annotations
    )
    return RenderedRule(rule, text, annotations)


def render_rule(rule: Rule | str, lang: str, deck: str, registry: Registry | None = None) -> RenderedRule:
    registry = registry or get_registry()
    rule_id = rule if isinstance(rule, str) else rule.id
    return _render_rule(registry, rule_id, current_lang(lang), deck)


@functools.lru_cache(maxsize=256)
def _render_intro(registry: Registry, key: str, lang: str, deck: str) -> SafeString:
    target = registry.chapter(key) or registry.section(key)
    if target is None or not target.intro(lang):
        return mark_safe("")
    return markdown_to_html(target.intro(lang), lang=lang, deck=deck, registry=registry, where=f"Einleitung {key}")


def render_intro(chapter_or_section_id: str, lang: str, deck: str, registry: Registry | None = None) -> SafeString:
    """The free text before a chapter's first section or a section's first rule."""
    return _render_intro(registry or get_registry(), chapter_or_section_id, current_lang(lang), deck)


@functools.lru_cache(maxsize=2048)
def _render_term(registry: Registry, slug: str, lang: str, deck: str) -> SafeString:
    term = registry.term(slug)
    if term is None:
        return mark_safe("")
    return markdown_to_html(
        term.text(lang),
        lang=lang,
        deck=deck,
        registry=registry,
        where=f"glossar.md:{term.line} {slug}",
        seen_terms=set(),
        exclude_term=slug,
    )


def render_term(slug: str, lang: str, deck: str, registry: Registry | None = None) -> SafeString:
    """A glossary definition as HTML (other terms linked, never the term itself)."""
    return _render_term(registry or get_registry(), slug, current_lang(lang), deck)


@on_reload
def clear_caches() -> None:
    for cached in (_render_rule, _render_intro, _render_term, term_linker):
        cached.cache_clear()
