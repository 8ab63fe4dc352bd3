"""The rules pages: table of contents, chapters, permalinks, glossary, search.

Views stay thin: loading is in :mod:`.content`, HTML in :mod:`.render`, ranking in
:mod:`.search`. Everything works without JavaScript; with htmx, the search form
swaps in the result list only.
"""

from __future__ import annotations

import secrets
import threading
import uuid
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString

from skatschule.cards.context_processors import current_deck
from skatschule.core.language import current_lang
from skatschule.core.limits import TooLarge, bounded

from . import practice, wire
from .content import Registry, Rule, get_registry, on_reload
from .render import RenderedRule, render_intro, render_rule, render_term, term_definitions
from .search import MAX_QUERY_LENGTH, fold
from .search import search as run_search

_tokens: weakref.WeakKeyDictionary[Registry, str] = weakref.WeakKeyDictionary()


def content_token(registry: Registry) -> str:
    """A token per loaded registry: fragment cache keys change whenever the content is reloaded."""
    token = _tokens.get(registry)
    if token is None:
        token = _tokens.setdefault(registry, uuid.uuid4().hex)
    return token


def practice_for(rule_id: str) -> list[Any]:
    """What the training app offers for this rule (objects with ``.title`` and ``.url``)."""
    return practice.practice_for(rule_id)


def rule_url(rule: Rule) -> str:
    """The chapter page, scrolled to the rule; the fragment highlights it (CSS ``.rule:target``).

    No query string: every permalink of a chapter is served from the one cached body.
    """
    chapter = reverse("rules:chapter", args=[rule.chapter_id])
    return f"{chapter}#{rule.anchor}"


@dataclass(frozen=True)
class RuleView:
    rule: Rule
    rendered: RenderedRule
    see: list[Rule]
    practice: list[Any]
    highlight: bool


def _rule_view(registry: Registry, rule: Rule, lang: str, deck: str, hl: str) -> RuleView:
    return RuleView(
        rule=rule,
        rendered=render_rule(rule, lang, deck, registry),
        see=[r for ref in rule.see if (r := registry.rule(ref)) is not None],
        practice=practice_for(rule.id),
        highlight=rule.id == hl,
    )


def _not_found(request: HttpRequest, ref: str, what: str = "rule") -> HttpResponse:
    return render(request, "rules/not_found.html", {"ref": ref, "what": what}, status=404)


def index(request: HttpRequest) -> HttpResponse:
    registry = get_registry()
    return render(request, "rules/index.html", {"chapters": registry.chapters, "lang": current_lang()})


# The rendered body of a chapter (everything between the heading and the pager) depends only
# on the loaded content, the language, the deck and the highlighted rule, never on the visitor:
# it is rendered once per process and kept here. A per-process dictionary, not the shared cache:
# the body is ~250 kB, and fetching and unpickling it from Redis on every request cost more
# than the rest of the page. Keys start with the content token, and reloading the content
# empties the dictionary; at most BODY_CACHE_SIZE bodies are kept (the least recently used go).
BODY_CACHE_SIZE = 64
_bodies: OrderedDict[tuple[str, str, str, str, str], SafeString] = OrderedDict()
_bodies_lock = threading.Lock()


@on_reload
def clear_body_cache() -> None:
    with _bodies_lock:
        _bodies.clear()
    wire.clear()


def chapter_body(registry: Registry, chapter_id: str, lang: str, deck: str, hl: str) -> SafeString:
    """The chapter's rendered sections (``rules/partials/chapter_body.html``), cached per process."""
    key = (content_token(registry), chapter_id, lang, deck, hl)
    with _bodies_lock:
        body = _bodies.get(key)
        if body is not None:
            _bodies.move_to_end(key)
            return body
    chap = registry.chapter(chapter_id)
    assert chap is not None
    sections = [
        (
            section,
            render_intro(section.id, lang, deck, registry),
            [_rule_view(registry, rule, lang, deck, hl) for rule in section.rules],
        )
        for section in chap.sections
    ]
    # no request: nothing per visitor (CSRF token, user) can end up in the shared body
    body = render_to_string(
        "rules/partials/chapter_body.html",
        {
            "intro": render_intro(chap.id, lang, deck, registry),
            "sections": sections,
            "lang": lang,
            "deck": deck,
        },
    )
    # the glossary definitions of the linked terms, once per page and out of the text flow
    body = SafeString(body + term_definitions(body, lang=lang, registry=registry))
    with _bodies_lock:
        _bodies[key] = body
        _bodies.move_to_end(key)
        while len(_bodies) > BODY_CACHE_SIZE:
            _bodies.popitem(last=False)
    return body


def chapter(request: HttpRequest, chapter_id: str) -> HttpResponse:
    registry = get_registry()
    chap = registry.chapter(chapter_id)
    if chap is None:
        return _not_found(request, chapter_id, "chapter")
    if chap.id != chapter_id:
        return HttpResponseRedirect(reverse("rules:chapter", args=[chap.id]))
    lang, deck = current_lang(), current_deck(request)
    # The rule a permalink points to is highlighted by its fragment (``#r-3.2.4``, CSS
    # ``.rule:target``), not by the query: an old ``?hl=`` link gets the same cached body as
    # every other visitor of the chapter (and still scrolls and highlights by its fragment).
    hl = ""
    body = chapter_body(registry, chap.id, lang, deck, hl)
    response = render(
        request,
        "rules/chapter.html",
        {
            "chapter": chap,
            "body": _BODY_MARK,
            "hl": hl,
            "prev_chapter": registry.prev_chapter(chap.id),
            "next_chapter": registry.next_chapter(chap.id),
            "lang": lang,
        },
    )
    # the page around the body is per request; the body's compression is done once (wire.py)
    prefix, suffix = response.content.decode().split(_BODY_MARK, 1)
    if wire.accepts_gzip(request):
        response.content = wire.gzip_page(prefix, body, suffix)
        response["Content-Encoding"] = "gzip"
    else:
        response.content = (prefix + body + suffix).encode()
    patch_vary_headers(response, ("Accept-Encoding",))
    response["Content-Length"] = str(len(response.content))
    return response


_BODY_MARK = SafeString(f"<!--chapter-body-{secrets.token_hex(8)}-->")


def rule(request: HttpRequest, ref: str) -> HttpResponse:
    """Permalink ``/regeln/3.2.4`` (or an old citation ``/regeln/SkO-4.2.9``): redirect to the chapter."""
    registry = get_registry()
    rule_id = registry.resolve(ref)
    if rule_id is None:
        section = registry.section(ref)
        if section is not None:
            chapter_id = ref.split(".", 1)[0]
            return HttpResponseRedirect(f"{reverse('rules:chapter', args=[chapter_id])}#{section.anchor}")
        return _not_found(request, ref)
    return HttpResponseRedirect(rule_url(registry.rules[rule_id]))


def alias(request: HttpRequest, alias: str) -> HttpResponse:
    """``/regeln/alias/SkO 4.2.9``: an older citation to today's rule."""
    return rule(request, alias)


def rule_detail(request: HttpRequest, rule_id: str) -> HttpResponse:
    """One rule on its own page, with the previous and next rule."""
    registry = get_registry()
    resolved = registry.resolve(rule_id)
    if resolved is None:
        return _not_found(request, rule_id)
    if resolved != rule_id:
        return HttpResponseRedirect(reverse("rules:rule_detail", args=[resolved]))
    the_rule = registry.rules[resolved]
    lang, deck = current_lang(), current_deck(request)
    chap = registry.chapter_of(the_rule)
    item = _rule_view(registry, the_rule, lang, deck, "")
    return render(
        request,
        "rules/rule_detail.html",
        {
            "item": item,
            "term_defs": term_definitions(
                item.rendered.text, *(a.html for a in item.rendered.annotations), lang=lang, registry=registry
            ),
            "chapter": chap,
            "section": registry.section(the_rule.section_id),
            "prev_rule": registry.prev_rule(the_rule.id),
            "next_rule": registry.next_rule(the_rule.id),
            "lang": lang,
        },
    )


def glossary(request: HttpRequest) -> HttpResponse:
    registry = get_registry()
    lang, deck = current_lang(), current_deck(request)
    terms = sorted(registry.glossary, key=lambda t: fold(t.term(lang)))
    groups: dict[str, list[dict[str, Any]]] = {}
    for term in terms:
        letter = (fold(term.term(lang))[:1] or "#").upper()
        groups.setdefault(letter, []).append(
            {
                "term": term,
                "html": render_term(term.slug, lang, deck, registry),
                "rules": [r for ref in term.rules if (r := registry.rule(ref)) is not None],
            }
        )
    term_defs = term_definitions(
        *(entry["html"] for entries in groups.values() for entry in entries), lang=lang, registry=registry
    )
    return render(
        request, "rules/glossary.html", {"groups": list(groups.items()), "lang": lang, "term_defs": term_defs}
    )


def search(request: HttpRequest) -> HttpResponse:
    raw = request.GET.get("q", "")
    lang = current_lang()
    context: dict[str, Any] = {"max_length": MAX_QUERY_LENGTH, "lang": lang}
    status = 200
    try:  # the one size check (core.limits), before the search reads a word
        query = " ".join(bounded(raw, limit=MAX_QUERY_LENGTH, chars=True).split())
    except TooLarge:
        query, context["too_long"], status = " ".join(raw[:MAX_QUERY_LENGTH].split()), True, 400
    context["query"] = query
    if query and status == 200:
        context["results"] = run_search(query, lang)
    template = "rules/partials/search_results.html" if getattr(request, "htmx", False) else "rules/search.html"
    return render(request, template, context, status=status)
