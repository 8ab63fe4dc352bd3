"""The content directives (``[[value: clubs mit 2 hand]]`` ...), computed by the engine.

Every number a directive shows comes from :mod:`skatschule.engine`; a directive the
engine rejects raises :class:`DirectiveError` naming the place and the directive.

From other code::

    from skatschule.rules.directives import render_directive
    render_directive("[[value: clubs mit 2 hand]]", lang="de", deck="french")
    # '<span class="directive-value" data-value="48">mit 2, Spiel 3, Hand 4 × Kreuz 12 = 48</span>'
    render_directive("value: clubs mit 2 hand", text=True)   # plain text, no HTML

``[[bids: isko]]`` renders the table of every bid value with the games worth exactly that much
("18: Karo × 2"). Each row comes from the engine's ``game_value``, and the table checks itself
against the engine's list of bid values (``RuleSet.bid_values``). Only ``isko`` (and ``pub``,
which bids the same) are accepted: for ``pre1999`` the engine's list still holds 264, which no
game reaches when Grand ouvert has its own base value 36.

Words of ``value`` and ``result`` (README of rules_content): a game (``clubs spades hearts
diamonds grand null`` or ``kreuz pik herz karo``), ``mit N``/``ohne N`` (not for null), the
flags ``hand ouvert schneider schwarz schneider_angesagt schwarz_angesagt`` and
``rules isko|pre1999|pub``. ``result`` also takes ``bid N`` (default 18), ``points N`` (the
declarer's Augen incl. the skat) and ``tricks N``, and ``kontra re bock`` (pub rules only).

Defaults of ``result``:

- Null: ``tricks`` defaults to 0 (won); ``points`` is not needed.
- Suit and grand: ``points`` is required, except that the flag ``schwarz`` alone means
  120 Augen and 10 tricks and ``schneider`` alone means 90 Augen. Without ``tricks``: 10
  tricks at 120 Augen, none at 0, 5 at 61 or more, else 3. The flags ``schneider`` and
  ``schwarz`` must agree with the Augen and tricks given (a check, not a setting).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.html import format_html
from django.utils import translation
from django.utils.safestring import mark_safe

from skatschule.cards.render import cards_html, normalize_deck
from skatschule.engine.names import names_for
from skatschule.engine.sorting import sort_hand
from skatschule.engine import (
    CardSet,
    Contract,
    GameType,
    SkatError,
    game_value,
    get_rules,
    matadors,
    matadors_text,
    parse_cards,
    parse_game,
    score_game,
)
from skatschule.engine.cards import Card
from skatschule.engine.names import names_for
from skatschule.engine.explain import Step

if TYPE_CHECKING:
    from skatschule.engine import GameValue, Outcome, RuleSet

    from .content import Registry

__all__ = [
    "DIRECTIVE_RE",
    "DirectiveError",
    "DirectiveMatch",
    "GameSpec",
    "bid_table",
    "find_directives",
    "parse_game_words",
    "render_directive",
    "replace_directives",
]

DIRECTIVE_RE = re.compile(r"\[\[\s*([A-Za-z_]+)\s*:([^\[\]]*)\]\]")
KINDS = ("cards", "value", "result", "matadors", "points", "rule", "bids", "word")
BLOCK_KINDS = frozenset({"bids"})
"""Kinds that render a block (a table): a paragraph holding only such a directive is unwrapped."""

_FLAGS = {
    "hand": "hand",
    "ouvert": "ouvert",
    "offen": "ouvert",
    "open": "ouvert",
    "schneider": "schneider",
    "schwarz": "schwarz",
    "schneider_angesagt": "schneider_announced",
    "schneider_announced": "schneider_announced",
    "schwarz_angesagt": "schwarz_announced",
    "schwarz_announced": "schwarz_announced",
}
_RESULT_FLAGS = {"kontra": "kontra", "re": "re", "bock": "bock"}
_NUMBER_WORDS = {"bid": "bid", "reizwert": "bid", "points": "points", "augen": "points", "tricks": "tricks", "stiche": "tricks"}
_MATADOR_WORDS = {"mit": 1, "with": 1, "ohne": -1, "without": -1}

_WORDS = {
    "de": {"won": "gewonnen", "lost": "verloren", "overbid": "überreizt", "value": "Spielwert", "entry": "Listeneintrag"},
    "en": {"won": "won", "lost": "lost", "overbid": "overbid", "value": "game value", "entry": "list entry"},
}


class DirectiveError(ValueError):
    """A directive that cannot be rendered; ``str()`` names the place, the directive and the reason."""

    def __init__(self, message: str, message_en: str | None = None, *, directive: str = "", where: str = "") -> None:
        self.message = message
        self.message_en = message_en or message
        self.directive = directive
        self.where = where
        super().__init__(self._text(message))

    def _text(self, message: str) -> str:
        head = ": ".join(p for p in (self.where, self.directive) if p)
        return f"{head}: {message}" if head else message

    def __str__(self) -> str:
        return self._text(self.message)


@dataclass(frozen=True, slots=True)
class DirectiveMatch:
    kind: str
    args: str
    source: str
    start: int
    end: int


def find_directives(text: str) -> list[DirectiveMatch]:
    """All ``[[kind: args]]`` in ``text`` (a directive may wrap over lines)."""
    return [_match(m) for m in DIRECTIVE_RE.finditer(text)]


def _match(m: re.Match[str]) -> DirectiveMatch:
    return DirectiveMatch(m.group(1).lower(), " ".join(m.group(2).split()), m.group(0), m.start(), m.end())


# --------------------------------------------------------------------------- value / result words


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The words of a ``value`` or ``result`` directive, checked and typed."""

    contract: Contract
    matadors: int = 0
    schneider: bool = False
    schwarz: bool = False
    rules: RuleSet | None = None
    bid: int | None = None
    points: int | None = None
    tricks: int | None = None
    kontra: bool = False
    re: bool = False
    bock: bool = False

    def value(self) -> GameValue:
        return game_value(self.contract, self.matadors, schneider=self.schneider, schwarz=self.schwarz,
                          rules=get_rules(self.rules))

    def result(self) -> Outcome:
        """Score the game with the defaults documented in the module docstring."""
        game = self.contract.game
        points, tricks = self.points, self.tricks
        if game.is_null:
            tricks = 0 if tricks is None else tricks
            points = 0 if points is None else points
        else:
            if points is None:
                if self.schwarz:
                    points = 120
                elif self.schneider:
                    points = 90
                else:
                    raise SkatError("'result' braucht 'points N' (Augen des Alleinspielers mit Skat)",
                                    "'result' needs 'points N' (the declarer's card points incl. the skat)")
            if tricks is None:
                if self.schwarz:
                    tricks = 10 if points >= 61 else 0
                else:
                    tricks = 10 if points == 120 else 0 if points == 0 else 5 if points >= 61 else 3
        outcome = score_game(
            self.contract, self.matadors, bid=18 if self.bid is None else self.bid,
            declarer_points=points, declarer_tricks=tricks, rules=get_rules(self.rules),
            kontra=self.kontra, re=self.re, bock=self.bock,
        )
        if self.schwarz and not outcome.schwarz:
            raise SkatError(f"'schwarz' passt nicht zu {tricks} Stichen",
                            f"'schwarz' does not agree with {tricks} tricks")
        if self.schneider and not outcome.schneider:
            raise SkatError(f"'schneider' passt nicht zu {points} Augen",
                            f"'schneider' does not agree with {points} card points")
        return outcome


def parse_game_words(args: str, *, result: bool = False) -> GameSpec:
    """Parse ``clubs mit 2 hand`` (and for ``result``: ``bid 50 points 70 tricks 6`` ...)."""
    words = args.lower().replace(",", " ").split()
    game: GameType | None = None
    count: int | None = None
    flags: set[str] = set()
    numbers: dict[str, int] = {}
    rules_name: str | None = None
    i = 0

    def number(word: str) -> int:
        if i + 1 >= len(words) or not words[i + 1].isdigit():
            raise SkatError(f"nach {word!r} fehlt eine Zahl", f"{word!r} must be followed by a number")
        return int(words[i + 1])

    while i < len(words):
        w = words[i]
        if w in _MATADOR_WORDS:
            if count is not None:
                raise SkatError("Spitzen doppelt angegeben", "matadors given twice")
            count = _MATADOR_WORDS[w] * number(w)
            i += 2
        elif w in _FLAGS:
            flags.add(_FLAGS[w])
            i += 1
        elif w == "rules" or w == "regeln":
            if i + 1 >= len(words):
                raise SkatError("nach 'rules' fehlt isko, pre1999 oder pub", "'rules' must be followed by isko, pre1999 or pub")
            rules_name = words[i + 1]
            get_rules(rules_name)  # raises SkatError for unknown names
            i += 2
        elif result and w in _NUMBER_WORDS:
            key = _NUMBER_WORDS[w]
            if key in numbers:
                raise SkatError(f"{w!r} doppelt angegeben", f"{w!r} given twice")
            numbers[key] = number(w)
            i += 2
        elif result and w in _RESULT_FLAGS:
            flags.add(_RESULT_FLAGS[w])
            i += 1
        elif game is None and not w.isdigit():
            game = parse_game(w)
            i += 1
        else:
            allowed = "Spiel, mit/ohne N, hand, ouvert, schneider, schwarz, schneider_angesagt, schwarz_angesagt, rules"
            if result:
                allowed += ", bid N, points N, tricks N, kontra, re, bock"
            raise SkatError(f"unbekanntes Wort {w!r} (erlaubt: {allowed})", f"unknown word {w!r} (allowed: {allowed})")
    if game is None:
        raise SkatError("kein Spiel angegeben (clubs, spades, hearts, diamonds, grand, null)",
                        "no game given (clubs, spades, hearts, diamonds, grand, null)")
    if game.is_null and count is not None:
        raise SkatError("Nullspiele haben keine Spitzen: 'mit/ohne' weglassen", "null games have no matadors: drop 'mit/ohne'")
    if not game.is_null and count is None:
        raise SkatError(f"{game.name_de} braucht 'mit N' oder 'ohne N'", f"{game.name_en} needs 'mit N' or 'ohne N'")
    contract = Contract(
        game,
        hand="hand" in flags,
        ouvert="ouvert" in flags,
        schneider_announced="schneider_announced" in flags,
        schwarz_announced="schwarz_announced" in flags,
    )
    contract.validate()
    return GameSpec(
        contract=contract,
        matadors=count or 0,
        schneider="schneider" in flags,
        schwarz="schwarz" in flags,
        rules=get_rules(rules_name) if rules_name else None,
        bid=numbers.get("bid"),
        points=numbers.get("points"),
        tricks=numbers.get("tricks"),
        kontra="kontra" in flags,
        re="re" in flags,
        bock="bock" in flags,
    )


# --------------------------------------------------------------------------- rendering


def _cards(args: str) -> list[Card]:
    cards = parse_cards(args)
    if not cards:
        raise SkatError("keine Karten angegeben", "no cards given")
    codes = [c.code for c in cards]
    dupes = sorted({c for c in codes if codes.count(c) > 1})
    if dupes:
        raise SkatError(f"Karten doppelt: {' '.join(dupes)}", f"cards given twice: {' '.join(dupes)}")
    return cards


def _hand_or_cards(args: str) -> list[Card]:
    """``[[cards: CJ HA]]``: the cards in the order written (a trick, an order of rank);
    ``[[cards: hand CJ HA ...]]`` or ``[[cards: hand clubs CJ ...]]``: a hand, sorted as players
    sort it (:func:`~skatschule.engine.sorting.sort_hand`, for the game if one is named)."""
    words = args.split()
    if not words or words[0].lower() != "hand":
        return _cards(args)
    game = None
    if len(words) > 1 and not _looks_like_card(words[1]):
        game = parse_game(words[1])
        words = words[1:]
    return sort_hand(_cards(" ".join(words[1:])), game)


def _looks_like_card(word: str) -> bool:
    try:
        parse_cards(word)
    except SkatError:
        return False
    return True


def _card_name(card: Card, lang: str) -> str:
    return card.name_en if lang == "en" else card.name_de


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


def _multipliers(low: Contract, top: Contract, base: int, rules: RuleSet) -> range:
    """From the cheapest game ``low`` (with or without 1) to the dearest ``top`` (all matadors and
    every level), as multiples of ``base``: the values the engine gives this kind of game."""
    def value(contract: Contract, count: int) -> int:
        announced = contract.schwarz_announced or contract.ouvert
        return game_value(contract, count, schneider=announced or contract.schneider_announced,
                          schwarz=announced, rules=rules).value
    return range(value(low, 1) // base, value(top, top.game.max_matadors) // base + 1)


def bid_table(rules: RuleSet | None = None) -> list[tuple[int, list[tuple[Contract, int | None]]]]:
    """Every bid value of ``rules`` with the games that are worth exactly that much.

    Each game is ``(contract, multiplier)``; the multiplier is None for the Null games
    (fixed values). Raises :class:`SkatError` if the table and ``rules.bid_values()`` differ.
    """
    rs = get_rules(rules)
    ways: dict[int, list[tuple[Contract, int | None]]] = {}
    top_level = {"hand": True, "schneider_announced": True, "schwarz_announced": True}
    for game in sorted(rs.base_values, key=lambda g: rs.base_value(g)):
        base = rs.base_value(game)
        separate_ouvert = game is GameType.GRAND and rs.grand_ouvert_base != base
        plain = Contract(game, ouvert=not separate_ouvert, **top_level)
        for m in _multipliers(Contract(game), plain, base, rs):
            if m >= 2:
                ways.setdefault(base * m, []).append((Contract(game), m))
        if separate_ouvert:
            ouvert = Contract(game, ouvert=True, **top_level)
            ouvert_base = rs.base_value(game, ouvert=True)
            for m in _multipliers(Contract(game, hand=True, ouvert=True), ouvert, ouvert_base, rs):
                ways.setdefault(ouvert_base * m, []).append((Contract(game, hand=True, ouvert=True), m))
    for (hand, ouvert), value in sorted(rs.null_values.items(), key=lambda kv: kv[1]):
        ways.setdefault(value, []).append((Contract(GameType.NULL, hand=hand, ouvert=ouvert), None))
    table = sorted((v, w) for v, w in ways.items() if v >= 18)
    if [v for v, _ in table] != list(rs.bid_values()):
        raise SkatError("Reiztabelle und Reizwerte der Engine stimmen nicht überein",
                        "the bid table and the engine's bid values differ")
    return table


def _bid_way(contract: Contract, multiplier: int | None, lang: str, deck: str) -> str:
    if multiplier is None:
        return contract.name(lang)
    name = names_for(deck).game(contract.game.value, lang)
    name = name[:1].upper() + name[1:]
    if contract.ouvert:
        name += " ouvert"
    return f"{name} × {multiplier}"


def _bids(args: str, lang: str, deck: str, text: bool) -> str:
    words = args.lower().split()
    if len(words) > 1:
        raise SkatError("'bids' nimmt höchstens einen Regelsatz (isko oder pub)",
                        "'bids' takes at most one rule set (isko or pub)")
    rules = get_rules(words[0] if words else "isko")
    if rules.name not in ("isko", "pub"):
        raise SkatError("'bids' gibt es nur für isko und pub", "'bids' exists only for isko and pub")
    table = bid_table(rules)
    rows = [(value, ", ".join(_bid_way(c, m, lang, deck) for c, m in ways)) for value, ways in table]
    if text:
        return "; ".join(f"{value}: {games}" for value, games in rows)
    head = ("Reizwert", "Spiele mit genau diesem Wert") if lang == "de" else ("Bid", "Games worth exactly this")
    caption = (f"Alle {len(rows)} Reizwerte" if lang == "de" else f"All {len(rows)} bid values")
    body = "".join(format_html("<tr><th scope=\"row\">{}</th><td>{}</td></tr>", v, g) for v, g in rows)
    return format_html(
        '<div class="table-wrap directive-bids"><table class="bid-table" data-count="{}"><caption>{}</caption>'
        '<thead><tr><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>{}</tbody></table></div>',
        len(rows), caption, head[0], head[1], mark_safe(body),
    )


def _render(kind: str, args: str, lang: str, deck: str, registry: Registry | None, text: bool) -> str:
    if kind == "bids":
        return _bids(args, lang, deck, text)
    if kind == "cards":
        cards = _hand_or_cards(args)
        if text:
            return ", ".join(_card_name(c, lang) for c in cards)
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
        total = CardSet(_cards(args)).points
        return str(total) if text else format_html('<span class="directive-points">{}</span>', total)
    if kind == "matadors":
        words = args.split()
        if not words:
            raise SkatError("Spiel und Karten fehlen", "game and cards missing")
        game = parse_game(words[0])
        if game.is_null:
            raise SkatError("Nullspiele haben keine Spitzen", "null games have no matadors")
        cards = _cards(" ".join(words[1:]))
        if len(cards) > 12:
            raise SkatError("höchstens 12 Karten (10 auf der Hand und 2 im Skat)",
                            "at most 12 cards (10 in hand and 2 in the skat)")
        count = matadors(game, cards)
        label = matadors_text(count, lang)
        return label if text else format_html('<span class="directive-matadors" data-matadors="{}">{}</span>', count, label)
    if kind == "value":
        gv = parse_game_words(args).value()
        derivation = gv.plain(lang)  # the rules text keeps the ISkO's own names
        return derivation if text else format_html('<span class="directive-value" data-value="{}">{}</span>',
                                                   gv.value, derivation)
    if kind == "result":
        outcome = parse_game_words(args, result=True).result()
        w = _WORDS["en" if lang == "en" else "de"]
        summary = f"{w['won'] if outcome.won else w['lost']}"
        if outcome.overbid:
            summary += f" ({w['overbid']})"
        summary += f": {w['value']} {outcome.value}, {w['entry']} {outcome.score:+d}"
        if text:
            return f"{summary}. " + "; ".join(outcome.explain(lang, plain=True))
        reg = registry or _default_registry()
        lines = "".join(_step_html(step, lang, reg) for step in outcome.steps)
        return format_html(
            '<span class="directive-result {}" data-score="{}"><span class="result-summary">{}</span>'
            '<span class="result-lines">{}</span></span>',
            "won" if outcome.won else "lost", outcome.score, summary, mark_safe(lines),
        )
    if kind == "rule":
        rule_id = args.strip()
        reg = registry or _default_registry()
        if text:
            if reg.rule(rule_id) is None:
                raise SkatError(f"Regel {rule_id!r} gibt es nicht", f"there is no rule {rule_id!r}")
            return rule_id
        return _rule_link(rule_id, lang, reg)
    if kind == "word":
        # ``[[word: holding]]``: the word as written, never linked to the glossary. The marker
        # for a word used in another sense than its glossary term ("holding" cards is not
        # the bidding term "holding"); directives are filled in after the glossary links.
        if not args.strip():
            raise SkatError("kein Wort angegeben", "no word given")
        return args.strip() if text else format_html("{}", args.strip())
    raise SkatError(f"unbekannte Direktive {kind!r} (erlaubt: {', '.join(KINDS)})",
                    f"unknown directive {kind!r} (allowed: {', '.join(KINDS)})")


def _default_registry() -> Registry:
    from .content import get_registry

    return get_registry()


def render_directive(
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
    raw = source.strip()
    inner = raw[2:-2] if raw.startswith("[[") and raw.endswith("]]") else raw
    kind, sep, args = inner.partition(":")
    shown = f"[[{' '.join(inner.split())}]]"
    if not sep:
        raise DirectiveError("Direktive ohne ':'", "directive without ':'", directive=shown, where=where)
    kind = kind.strip().lower()
    args = " ".join(args.split())
    try:
        out = _render(kind, args, "en" if lang == "en" else "de", deck, registry, text)
    except SkatError as exc:
        raise DirectiveError(str(exc), exc.message_en, directive=shown, where=where) from exc
    return out if text else mark_safe(out)


def replace_directives(
    text: str,
    replace: Callable[[DirectiveMatch], str],
) -> str:
    """``text`` with every directive replaced by ``replace(match)``."""
    return DIRECTIVE_RE.sub(lambda m: replace(_match(m)), text)


def directives_as_text(text: str, *, lang: str, registry: Registry | None = None, where: str = "") -> str:
    """``text`` with every directive rendered as plain text (for search and tooltips)."""
    return replace_directives(
        text, lambda d: render_directive(d.source, lang=lang, registry=registry, where=where, text=True)
    )

