"""The content directives as HTML (``[[value: clubs mit 2 hand]]`` ...), computed by the engine.

The grammar is :mod:`skatschule.content.directives`; what each directive computes, and its
plain-text form, is :mod:`skatschule.content.compute` (pure Python). This module draws the
same values as HTML for the rules pages: card pictures, rule links, the bid table.
A directive the engine rejects raises :class:`DirectiveError` naming the place and the
directive.

From other code::

    from skatschule.rules.directives import render_directive

    render_directive("[[value: clubs mit 2 hand]]", lang="de", deck="french")
    # '<span class="directive-value" data-value="48">mit 2, Spiel 3, Hand 4 × Kreuz 12 = 48</span>'
    render_directive("value: clubs mit 2 hand", text=True)  # plain text, no HTML

``[[bids: isko]]`` renders the table of every bid value with the games worth exactly that much
("18: Karo × 2"). Each row comes from the engine's ``game_value``, and the table checks itself
against the engine's list of bid values (``RuleSet.bid_values``). Only ``isko`` (and ``pub``,
which bids the same) are accepted: for ``pre1999`` the engine's list still holds 264, which no
game reaches when Grand ouvert has its own base value 36.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from skatschule.cards.render import cards_html, normalize_deck
from skatschule.content.compute import (
    DirectiveError,
    bid_rows,
    card_list,
    directive_text,
    hand_or_cards,
    matador_count,
    parse_game_words,
    result_summary,
    unknown_kind,
)
from skatschule.content.directives import parse_directive, replace_directives
from skatschule.core.language import current_lang
from skatschule.engine import CardSet, SkatError, Text, matadors_text
from skatschule.engine.explain import Step
from skatschule.engine.names import names_for

from .content import Registry, get_registry

__all__ = ["directives_as_text", "render_directive"]


# --------------------------------------------------------------------------- rendering


def _rule_link(rule_id: str, lang: str, registry: Registry) -> str:
    rule = registry.rule(rule_id)
    if rule is None:
        raise SkatError(f"Regel {rule_id!r} gibt es nicht", f"there is no rule {rule_id!r}")
    return format_html(
        '<a class="rule-ref" href="{}" title="{}">{}</a>',
        reverse("rules:rule", args=[rule.id]),
        f"{rule.id} {rule.title(lang)}",
        rule.id,
    )


def _step_html(step: Step, lang: str, registry: Registry) -> str:
    links = [_rule_link(r, lang, registry) for r in step.rules if registry.rule(r) is not None]
    refs = format_html(' <span class="result-refs">({})</span>', mark_safe(", ".join(links))) if links else ""
    return format_html('<span class="result-line">{}{}</span>', step.plain(lang), refs)


BIDS_HEAD = (Text("Reizwert", "Bid"), Text("Spiele mit genau diesem Wert", "Games worth exactly this"))
"""The column heads of the ``[[bids: ...]]`` table."""


def _bids(args: str, lang: str, deck: str) -> str:
    rows = bid_rows(args, lang, deck)
    head = (BIDS_HEAD[0].get(lang), BIDS_HEAD[1].get(lang))
    caption = Text(f"Alle {len(rows)} Reizwerte", f"All {len(rows)} bid values").get(lang)
    body = "".join(format_html('<tr><th scope="row">{}</th><td>{}</td></tr>', v, g) for v, g in rows)
    return format_html(
        '<div class="table-wrap directive-bids"><table class="bid-table" data-count="{}"><caption>{}</caption>'
        '<thead><tr><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>{}</tbody></table></div>',
        len(rows),
        caption,
        head[0],
        head[1],
        mark_safe(body),
    )


def _render(kind: str, args: str, lang: str, deck: str, registry: Registry | None) -> str:  # noqa: C901 - over the budget since issue 27; to be split
    if kind == "bids":
        return _bids(args, lang, deck)
    if kind == "cards":
        cards = hand_or_cards(args)
        deck = normalize_deck(deck)
        with translation.override(lang):  # the cards' names for screen readers
            pictures = cards_html([c.code for c in cards], deck)
        if deck != "german":
            return format_html('<span class="directive-cards">{}</span>', pictures)
        # The rules keep the ISkO's (French) names; the German deck's pictures get its names.
        names = names_for(deck)
        caption = ", ".join(names.card(c, lang) for c in cards)
        return format_html(
            '<span class="directive-cards">{}<span class="deck-caption">({})</span></span>', pictures, caption
        )
    if kind == "points":
        return format_html('<span class="directive-points">{}</span>', CardSet(card_list(args)).points)
    if kind == "matadors":
        count = matador_count(args)
        return format_html(
            '<span class="directive-matadors" data-matadors="{}">{}</span>', count, matadors_text(count, lang)
        )
    if kind == "value":
        gv = parse_game_words(args).value()
        derivation = gv.plain(lang)  # the rules text keeps the ISkO's own names
        return format_html('<span class="directive-value" data-value="{}">{}</span>', gv.value, derivation)
    if kind == "result":
        outcome = parse_game_words(args, result=True).result()
        reg = registry or get_registry()
        lines = "".join(_step_html(step, lang, reg) for step in outcome.steps)
        return format_html(
            '<span class="directive-result {}" data-score="{}"><span class="result-summary">{}</span>'
            '<span class="result-lines">{}</span></span>',
            "won" if outcome.won else "lost",
            outcome.score,
            result_summary(outcome, lang),
            mark_safe(lines),
        )
    if kind == "rule":
        return _rule_link(args.strip(), lang, registry or get_registry())
    if kind == "word":
        # ``[[word: holding]]``: the word as written, never linked to the glossary. The marker
        # for a word used in another sense than its glossary term ("holding" cards is not
        # the bidding term "holding"); directives are filled in after the glossary links.
        if not args.strip():
            raise SkatError("kein Wort angegeben", "no word given")
        return format_html("{}", args.strip())
    raise unknown_kind(kind)


def render_directive(  # noqa: PLR0913 - over the budget since issue 27; to be split
    source: str,
    *,
    lang: str = "de",
    deck: str = "french",
    registry: Registry | None = None,
    where: str = "",
    text: bool = False,
) -> str:
    """Render one directive, given as ``[[value: clubs mit 2]]`` or ``value: clubs mit 2``.

    Returns safe HTML (a :class:`SafeString`), or plain text with ``text=True``.
    Raises :class:`DirectiveError` with ``where`` and the directive in its message.
    """
    if text:
        reg = registry
        return directive_text(
            source,
            lang=lang,
            deck=deck,
            where=where,
            rule_exists=lambda rid: (reg or get_registry()).rule(rid) is not None,
        )
    raw = source.strip()
    inner = raw[2:-2] if raw.startswith("[[") and raw.endswith("]]") else raw
    shown = f"[[{' '.join(inner.split())}]]"
    try:
        kind, args = parse_directive(source)
    except ValueError:
        raise DirectiveError("Direktive ohne ':'", "directive without ':'", directive=shown, where=where) from None
    try:
        out = _render(kind, args, current_lang(lang), deck, registry)
    except SkatError as exc:
        raise DirectiveError(exc.text.de, exc.text.en, directive=shown, where=where) from exc
    return mark_safe(out)


def directives_as_text(text: str, *, lang: str, registry: Registry | None = None, where: str = "") -> str:
    """``text`` with every directive rendered as plain text (for search and tooltips)."""
    return replace_directives(
        text, lambda d: render_directive(d.source, lang=lang, registry=registry, where=where, text=True)
    )
