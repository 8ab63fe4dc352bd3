"""In-memory full-text search over rules and glossary, in both languages.

Text and query are folded the same way (:func:`fold`): lower case, accents and umlauts
dropped, ``ß`` -> ``ss``, and ``ae``/``oe``/``ue`` -> ``a``/``o``/``u``; so ``überreizt``,
``ueberreizt`` and ``uberreizt`` are the same key. Every query word is required (AND;
a few stop words are optional); a word matches a token exactly, as a prefix or (from
four letters) inside a compound. Scores add up field weight x match quality x damped term
frequency, plus bonuses for the whole phrase and for a title the query covers.
A hit in the reader's language counts fully, one in the other language half. The index is built once per registry.

Speed (issue 17): the index is built once per process and registry; it keeps an inverted
index (token -> documents), so a query scores only the documents that contain a match of
every required word; the matches of a query word are computed once and kept; whole results
are cached by normalised query (folded, single spaces), language and limit.

Typos: a query word that matches nothing (exactly, as a prefix or inside a compound) matches
the tokens one edit away (from four letters; two edits from eight letters), with a lower
weight: "schneidr" finds Schneider, "uberrreizt" finds überreizt. Two swapped neighbours are
one edit too: "kontar" finds Kontra, "grnad" Grand, "skta" Skat. Words longer than
:data:`MAX_FUZZY_WORD` get no typo matching, so a query costs at most linear time in its length
times the vocabulary. The matched tokens are
highlighted.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
import threading
import unicodedata
from collections import Counter, OrderedDict
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from skatschule.core.language import current_lang

from .content import Registry, get_registry, on_reload
from .render import plain_text

__all__ = ["MAX_QUERY_LENGTH", "SearchIndex", "SearchResult", "SearchResults", "fold", "search"]

MAX_QUERY_LENGTH = 200
WEIGHTS = {"title": 10.0, "aliases": 4.0, "tags": 2.0, "section": 2.0, "text": 3.0, "annotation": 1.0}
OTHER_LANGUAGE_FACTOR = 0.5
STOP_WORDS = frozenset(
    "der die das des dem den ein eine einer eines einem einen im in am an auf und oder zu zum zur "
    "ist von the a an of in on at to and or is".split()
)
_COMBINING = re.compile(r"[\u0300-\u036f]")
_DIPHTHONG = re.compile(r"([aou])e")
_WORD = re.compile(r"\w+")


def fold(text: str) -> str:
    """The search key of a text: ``Überreizt`` -> ``uberreizt``, ``Straße`` -> ``strasse``."""
    text = text.lower().replace("ß", "ss")
    text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    return _DIPHTHONG.sub(r"\1", text)


def _fold_with_spans(text: str) -> tuple[str, list[tuple[int, int]]]:
    """:func:`fold`, plus for each folded character the span of original text it came from."""
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        low = ch.lower().replace("ß", "ss")
        for c in _COMBINING.sub("", unicodedata.normalize("NFKD", low)):
            chars.append(c)
            spans.append((i, i + 1))
    out: list[str] = []
    out_spans: list[tuple[int, int]] = []
    j = 0
    while j < len(chars):
        if chars[j] in "aou" and j + 1 < len(chars) and chars[j + 1] == "e":
            out.append(chars[j])
            out_spans.append((spans[j][0], spans[j + 1][1]))
            j += 2
        else:
            out.append(chars[j])
            out_spans.append(spans[j])
            j += 1
    return "".join(out), out_spans


FUZZY_ONE = 0.4
"""Match quality of a token one edit away from a query word that matches nothing else."""
FUZZY_TWO = 0.25
MAX_FUZZY_WORD = 30
"""Longer query words are matched exactly, as a prefix or inside a compound only (no word of the rules is longer)."""
RESULT_CACHE_SIZE = 512
MATCH_CACHE_SIZE = 4096


def within_edits(a: str, b: str, limit: int) -> bool:
    """Is the edit distance of ``a`` and ``b`` at most ``limit``? An edit is a letter added, dropped or
    changed, or two neighbouring letters swapped ("kontar" -> "kontra": optimal string alignment).
    Banded to ``limit`` cells either side of the diagonal and stopped early: O(len(a) * limit)."""
    if abs(len(a) - len(b)) > limit:
        return False
    far = limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [far] * len(b)
        low = max(1, i - limit)
        high = min(len(b), i + limit)
        for j in range(low, high + 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != b[j - 1]))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == b[j - 1] and ca != b[j - 1]:
                cost = min(cost, before[j - 2] + 1)  # the two letters swapped
            current[j] = cost
        if min(current[max(0, low - 1) : high + 1]) > limit:
            return False
        before, previous = previous, current
    return previous[len(b)] <= limit


def _quality(query_word: str, token: str) -> float:
    if token == query_word:
        return 1.0
    if len(query_word) >= 3 and token.startswith(query_word):
        return 0.6
    if len(query_word) >= 4 and query_word in token:
        return 0.3
    return 0.0


# --------------------------------------------------------------------------- index


@dataclass
class _Field:
    name: str
    weight: float
    text: str
    tokens: Counter[str]
    joined: str  # folded tokens separated by single spaces, for phrase matching

    @classmethod
    def make(cls, name: str, text: str, weight: float | None = None) -> _Field:
        tokens = _WORD.findall(fold(text))
        return cls(name, WEIGHTS[name] if weight is None else weight, text, Counter(tokens), f" {' '.join(tokens)} ")


@dataclass
class _Doc:
    kind: str  # "rule" or "term"
    key: str
    lang: str
    title: str
    label: str
    url: str
    fields: list[_Field]


@dataclass(frozen=True)
class SearchResult:
    kind: str
    key: str
    lang: str
    label: str
    url: str
    title_html: SafeString
    snippet_html: SafeString
    score: float


@dataclass
class SearchResults:
    query: str
    rules: list[SearchResult] = field(default_factory=list)
    terms: list[SearchResult] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rules) + len(self.terms)


@dataclass(frozen=True)
class _Query:
    words: tuple[str, ...]
    required: tuple[str, ...]
    phrase: str


def _parse_query(query: str) -> _Query:
    words = tuple(_WORD.findall(fold(query)))
    required = tuple(w for w in words if w not in STOP_WORDS) or words
    return _Query(words, required, f" {' '.join(words)} " if len(words) > 1 else "")


class SearchIndex:
    def __init__(self, registry: Registry) -> None:  # noqa: C901 - over the budget since issue 27; to be split
        self.registry = registry
        self.docs: list[_Doc] = []
        glossary_url = reverse("rules:glossary")
        for rule in registry.rule_order:
            section = registry.section(rule.section_id)
            for lang in ("de", "en"):
                where = f"{rule.source}:{rule.line} {rule.id}"
                fields = [
                    _Field.make("title", rule.title(lang)),
                    _Field.make("text", plain_text(rule.text(lang), lang=lang, registry=registry, where=where)),
                ]
                if section is not None:
                    fields.append(_Field.make("section", section.title(lang)))
                if rule.tags:
                    fields.append(_Field.make("tags", " ".join(rule.tags)))
                if rule.aliases:
                    fields.append(_Field.make("aliases", " ".join(rule.aliases)))
                fields.extend(
                    _Field.make("annotation", plain_text(a.text(lang), lang=lang, registry=registry, where=where))
                    for a in rule.annotations
                )
                self.docs.append(
                    _Doc(
                        "rule", rule.id, lang, rule.title(lang), rule.id, reverse("rules:rule", args=[rule.id]), fields
                    )
                )
        for term in registry.glossary:
            for lang in ("de", "en"):
                title = ", ".join([term.term(lang), *term.also])
                fields = [
                    _Field.make("title", title),
                    _Field.make("text", plain_text(term.text(lang), lang=lang, registry=registry)),
                ]
                self.docs.append(
                    _Doc(
                        "term",
                        term.slug,
                        lang,
                        term.term(lang),
                        term.term_en if lang != "en" else term.term_de,
                        f"{glossary_url}#{term.anchor}",
                        fields,
                    )
                )
        self.vocabulary = frozenset(t for d in self.docs for f in d.fields for t in f.tokens)
        # the inverted index: token -> numbers of the documents that contain it
        self.postings: dict[str, set[int]] = {}
        for number, doc in enumerate(self.docs):
            for f in doc.fields:
                for token in f.tokens:
                    self.postings.setdefault(token, set()).add(number)
        self._sorted = sorted(self.vocabulary)
        self._match_cache: dict[str, dict[str, float]] = {}
        self._results: OrderedDict[tuple[str, str, int], SearchResults] = OrderedDict()
        self._lock = threading.Lock()

    # -- scoring

    def _matches(self, word: str) -> dict[str, float]:
        """The tokens ``word`` matches, with their quality (computed once per word)."""
        found = self._match_cache.get(word)
        if found is not None:
            return found
        if len(word) >= 4:
            found = {t: q for t in self._sorted if (q := _quality(word, t)) > 0}
        else:  # exact or prefix only: a range of the sorted vocabulary
            found = {}
            for t in self._sorted[bisect.bisect_left(self._sorted, word) :]:
                if not t.startswith(word):
                    break
                if (q := _quality(word, t)) > 0:
                    found[t] = q
        if not found and 4 <= len(word) <= MAX_FUZZY_WORD:
            found = self._near(word)
        if len(self._match_cache) >= MATCH_CACHE_SIZE:
            self._match_cache.clear()
        self._match_cache[word] = found
        return found

    def _near(self, word: str) -> dict[str, float]:
        """Typo tolerance: tokens one edit (two from eight letters) away from ``word``."""
        one = {t: FUZZY_ONE for t in self._sorted if within_edits(word, t, 1)}
        if one or len(word) < 8:
            return one
        return {t: FUZZY_TWO for t in self._sorted if within_edits(word, t, 2)}

    def _candidates(self, query: _Query, matches: dict[str, dict[str, float]]) -> list[int]:
        """Documents that contain a match of every required word (from the inverted index)."""
        found: set[int] | None = None
        for word in query.required:
            having: set[int] = set()
            for token in matches[word]:
                having |= self.postings.get(token, set())
            found = having if found is None else found & having
            if not found:
                return []
        return sorted(found or ())

    def _score(self, doc: _Doc, query: _Query, matches: dict[str, dict[str, float]]) -> float:
        total = 0.0
        for word in query.required:
            word_score = 0.0
            found = matches[word]
            for f in doc.fields:
                for token, tf in f.tokens.items():
                    quality = found.get(token)
                    if quality:
                        word_score += f.weight * quality * (1 + math.log(tf))
            if word_score == 0:
                return 0.0
            total += word_score
        title = doc.fields[0]
        if query.phrase:
            for f in doc.fields:
                if query.phrase in f.joined:
                    total += f.weight * 4
        covered = [
            t
            for t in title.tokens
            if any(_quality(w, t) for w in query.words) or any(t in matches[w] for w in query.required)
        ]
        if covered and all(any(t in matches[w] for t in title.tokens) for w in query.required):
            total += WEIGHTS["title"] * (0.5 + len(covered) / max(1, len(title.tokens)))
        return total

    def search(self, query: str, lang: str = "de", limit: int = 50) -> SearchResults:
        """Cached by normalised query (see the module docstring)."""
        key = (" ".join(fold(query).split()), lang, limit)
        with self._lock:
            cached = self._results.get(key)
            if cached is not None:
                self._results.move_to_end(key)
        if cached is not None:
            return SearchResults(query, list(cached.rules), list(cached.terms))
        results = self._search(query, lang, limit)
        with self._lock:
            self._results[key] = results
            while len(self._results) > RESULT_CACHE_SIZE:
                self._results.popitem(last=False)
        return SearchResults(query, list(results.rules), list(results.terms))

    def _search(self, query: str, lang: str, limit: int) -> SearchResults:
        results = SearchResults(query)
        q = _parse_query(query)
        if not q.required:
            return results
        exact = self.registry.resolve(query)
        if exact:  # a rule number or an older citation: straight to that rule
            doc = next(d for d in self.docs if d.kind == "rule" and d.key == exact and d.lang == lang)
            results.rules.append(self._result(doc, q, math.inf, {}))
            return results
        matches = {w: self._matches(w) for w in q.required}
        best: dict[tuple[str, str], tuple[float, _Doc]] = {}
        for number in self._candidates(q, matches):
            doc = self.docs[number]
            score = self._score(doc, q, matches)
            if score <= 0:
                continue
            # the reader's language first: a hit in the other language counts half
            effective = score if doc.lang == lang else score * OTHER_LANGUAGE_FACTOR
            key = (doc.kind, doc.key)
            if key not in best or effective > best[key][0]:
                best[key] = (effective, doc)
        ordered = sorted(best.values(), key=lambda item: (-item[0], item[1].key))
        for score, doc in ordered:
            target = results.rules if doc.kind == "rule" else results.terms
            if len(target) < limit:
                target.append(self._result(doc, q, score, matches))
        return results

    # -- presentation

    def _result(self, doc: _Doc, q: _Query, score: float, matches: dict[str, dict[str, float]]) -> SearchResult:
        body = [f for f in doc.fields[1:] if f.name in ("text", "annotation")]
        # tokens matched only through typo tolerance are highlighted as they are
        near = tuple(
            t
            for w in q.required
            for t, quality in matches.get(w, {}).items()
            if quality <= FUZZY_ONE and not _quality(w, t)
        )
        marks = q.words + near
        best = max(
            body,
            key=lambda f: (
                bool(q.phrase and q.phrase in f.joined),
                sum(1 for w in q.required if any(t in matches.get(w, {}) or _quality(w, t) for t in f.tokens)),
                f.weight,
            ),
        )
        return SearchResult(
            kind=doc.kind,
            key=doc.key,
            lang=doc.lang,
            label=doc.label,
            url=doc.url,
            title_html=highlight(doc.title, marks),
            snippet_html=snippet(best.text, marks, q.phrase),
            score=score,
        )


def _marked_spans(text: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    folded, spans = _fold_with_spans(text)
    out = []
    for m in _WORD.finditer(folded):
        if any(_quality(w, m.group(0)) for w in words if w not in STOP_WORDS or len(words) == 1):
            out.append((spans[m.start()][0], spans[m.end() - 1][1]))
    return out


def highlight(text: str, words: tuple[str, ...]) -> SafeString:
    """``text`` escaped, with every token that matches a query word in ``<mark>``."""
    out: list[str] = []
    pos = 0
    for start, end in _marked_spans(text, words):
        out.append(escape(text[pos:start]))
        out.append(f"<mark>{escape(text[start:end])}</mark>")
        pos = end
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))


def _anchor(text: str, words: tuple[str, ...], phrase: str) -> int:
    """Where a snippet should start from: the phrase, else the first exact hit, else the first hit."""
    folded, spans = _fold_with_spans(text)
    tokens = list(_WORD.finditer(folded))
    if phrase:
        wanted = phrase.split()
        for i in range(len(tokens) - len(wanted) + 1):
            if all(tokens[i + k].group(0) == w for k, w in enumerate(wanted)):
                return spans[tokens[i].start()][0]
    hits = [t for t in tokens if any(_quality(w, t.group(0)) for w in words if w not in STOP_WORDS)]
    exact = [t for t in hits if t.group(0) in words]
    first = (exact or hits)[:1]
    return spans[first[0].start()][0] if first else 0


def snippet(text: str, words: tuple[str, ...], phrase: str = "", before: int = 80, width: int = 240) -> SafeString:
    """A passage of ``text`` around the phrase or the first match, highlighted."""
    text = " ".join(text.split())
    at = _anchor(text, words, phrase)
    start = max(0, at - before)
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    piece = highlight(text[start:end], words)
    return mark_safe(("… " if start else "") + piece + (" …" if end < len(text) else ""))


@functools.lru_cache(maxsize=8)
def search_index(registry: Registry) -> SearchIndex:
    return SearchIndex(registry)


def search(query: str, lang: str = "de", limit: int = 50, registry: Registry | None = None) -> SearchResults:
    """Search rules and glossary; ``lang`` is the reader's language (its hits come first)."""
    return search_index(registry or get_registry()).search(query, current_lang(lang), limit)


on_reload(search_index.cache_clear)
