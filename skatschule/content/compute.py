"""What the directives compute, as plain text: pure Python on top of the engine.

Every number a directive shows comes from :mod:`skatschule.engine`. This module reads the
words of ``value``, ``result``, ``matadors``, ``points``, ``cards``, ``bids`` and ``word``
(see ``rules_content/README.md``) and gives their plain-text form; the rules app draws the
same values as HTML (:mod:`skatschule.rules.directives`). A directive the engine rejects
raises :class:`DirectiveError` naming the place and the directive.

Words of ``value`` and ``result``: a game (``clubs spades hearts diamonds grand null`` or
``kreuz pik herz karo``), ``mit N``/``ohne N`` (not for null), the flags ``hand ouvert
schneider schwarz schneider_angesagt schwarz_angesagt`` and ``rules isko|pre1999|pub``.
``result`` also takes ``bid N`` (default 18), ``points N`` (the declarer's Augen incl. the
skat) and ``tricks N``, and ``kontra re bock`` (pub rules only).

Defaults of ``result``:

- Null: ``tricks`` defaults to 0 (won); ``points`` is not needed.
- Suit and grand: ``points`` is required, except that the flag ``schwarz`` alone means
  120 Augen and 10 tricks and ``schneider`` alone means 90 Augen. Without ``tricks``: the
  engine's ``tricks_from_augen`` (10 tricks at 120 Augen, none at 0, else 5; with ``schwarz``
  10 from 61 Augen on, else none). The flags ``schneider`` and ``schwarz`` must agree with
  the Augen and tricks given (a check, not a setting).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skatschule.engine import (
    CardSet,
    Contract,
    GameType,
    GameValue,
    Outcome,
    RuleSet,
    SkatError,
    Text,
    game_value,
    get_rules,
    matadors,
    matadors_text,
    parse_cards,
    parse_game,
    score_game,
)
from skatschule.engine.cards import Card
from skatschule.engine.games import SCHNEIDER_POINTS, TOTAL_POINTS, tricks_from_augen
from skatschule.engine.names import card_name, names_for
from skatschule.engine.sorting import sort_hand

from .directives import parse_directive

__all__ = [
    "BLOCK_KINDS",
    "KINDS",
    "DirectiveError",
    "GameSpec",
    "bid_rows",
    "bid_table",
    "card_list",
    "directive_text",
    "hand_or_cards",
    "matador_count",
    "parse_game_words",
    "result_summary",
]

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
_NUMBER_WORDS = {
    "bid": "bid",
    "reizwert": "bid",
    "points": "points",
    "augen": "points",
    "tricks": "tricks",
    "stiche": "tricks",
}
_MATADOR_WORDS = {"mit": 1, "with": 1, "ohne": -1, "without": -1}

_WORDS = {
    "won": Text("gewonnen", "won"),
    "lost": Text("verloren", "lost"),
    "overbid": Text("überreizt", "overbid"),
    "value": Text("Spielwert", "game value"),
    "entry": Text("Listeneintrag", "list entry"),
}


class DirectiveError(ValueError):
    """A directive that cannot be rendered; ``str()`` names the place, the directive and the reason."""

    def __init__(self, de: str, en: str | None = None, *, directive: str = "", where: str = "") -> None:
        self.text = Text(de, en or de)
        self.directive = directive
        self.where = where
        super().__init__(self._text(de))

    def _text(self, message: str) -> str:
        head = ": ".join(p for p in (self.where, self.directive) if p)
        return f"{head}: {message}" if head else message

    def __str__(self) -> str:
        return self._text(self.text.de)


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
        return game_value(
            self.contract, self.matadors, schneider=self.schneider, schwarz=self.schwarz, rules=get_rules(self.rules)
        )

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
                    points = TOTAL_POINTS
                elif self.schneider:
                    points = SCHNEIDER_POINTS
                else:
                    raise SkatError(
                        "'result' braucht 'points N' (Augen des Alleinspielers mit Skat)",
                        "'result' needs 'points N' (the declarer's card points incl. the skat)",
                    )
            if tricks is None:
                tricks = tricks_from_augen(points, schwarz=self.schwarz)
        outcome = score_game(
            self.contract,
            self.matadors,
            bid=18 if self.bid is None else self.bid,
            declarer_points=points,
            declarer_tricks=tricks,
            rules=get_rules(self.rules),
            kontra=self.kontra,
            re=self.re,
            bock=self.bock,
        )
        if self.schwarz and not outcome.schwarz:
            raise SkatError(
                f"'schwarz' passt nicht zu {tricks} Stichen", f"'schwarz' does not agree with {tricks} tricks"
            )
        if self.schneider and not outcome.schneider:
            raise SkatError(
                f"'schneider' passt nicht zu {points} Augen", f"'schneider' does not agree with {points} card points"
            )
        return outcome


def parse_game_words(args: str, *, result: bool = False) -> GameSpec:  # noqa: C901 - over the budget since issue 27; to be split
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
                raise SkatError(
                    "nach 'rules' fehlt isko, pre1999 oder pub", "'rules' must be followed by isko, pre1999 or pub"
                )
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
        raise SkatError(
            "kein Spiel angegeben (clubs, spades, hearts, diamonds, grand, null)",
            "no game given (clubs, spades, hearts, diamonds, grand, null)",
        )
    if game.is_null and count is not None:
        raise SkatError(
            "Nullspiele haben keine Spitzen: 'mit/ohne' weglassen", "null games have no matadors: drop 'mit/ohne'"
        )
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


# --------------------------------------------------------------------------- cards


def card_list(args: str) -> list[Card]:
    cards = parse_cards(args)
    if not cards:
        raise SkatError("keine Karten angegeben", "no cards given")
    codes = [c.code for c in cards]
    dupes = sorted({c for c in codes if codes.count(c) > 1})
    if dupes:
        raise SkatError(f"Karten doppelt: {' '.join(dupes)}", f"cards given twice: {' '.join(dupes)}")
    return cards


def hand_or_cards(args: str) -> list[Card]:
    """``[[cards: CJ HA]]``: the cards in the order written (a trick, an order of rank);
    ``[[cards: hand CJ HA ...]]`` or ``[[cards: hand clubs CJ ...]]``: a hand, sorted as players
    sort it (:func:`~skatschule.engine.sorting.sort_hand`, for the game if one is named)."""
    words = args.split()
    if not words or words[0].lower() != "hand":
        return card_list(args)
    game = None
    if len(words) > 1 and not _looks_like_card(words[1]):
        game = parse_game(words[1])
        words = words[1:]
    return sort_hand(card_list(" ".join(words[1:])), game)


def _looks_like_card(word: str) -> bool:
    try:
        parse_cards(word)
    except SkatError:
        return False
    return True


def _multipliers(low: Contract, top: Contract, base: int, rules: RuleSet) -> range:
    """From the cheapest game ``low`` (with or without 1) to the dearest ``top`` (all matadors and
    every level), as multiples of ``base``: the values the engine gives this kind of game."""

    def value(contract: Contract, count: int) -> int:
        announced = contract.schwarz_announced or contract.ouvert
        return game_value(
            contract, count, schneider=announced or contract.schneider_announced, schwarz=announced, rules=rules
        ).value

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
        separate_ouvert = game is GameType.GRAND and rs.base_value(game, ouvert=True) != base
        plain = Contract(game, ouvert=not separate_ouvert, **top_level)
        for m in _multipliers(Contract(game), plain, base, rs):
            if m >= 2:
                ways.setdefault(base * m, []).append((Contract(game), m))
        if separate_ouvert:
            dearest = Contract(game, ouvert=True, **top_level)
            ouvert_base = rs.base_value(game, ouvert=True)
            for m in _multipliers(Contract(game, hand=True, ouvert=True), dearest, ouvert_base, rs):
                ways.setdefault(ouvert_base * m, []).append((Contract(game, hand=True, ouvert=True), m))
    for (hand, ouvert), value in sorted(rs.null_values.items(), key=lambda kv: kv[1]):
        ways.setdefault(value, []).append((Contract(GameType.NULL, hand=hand, ouvert=ouvert), None))
    table = sorted((v, w) for v, w in ways.items() if v >= 18)
    if [v for v, _ in table] != list(rs.bid_values()):
        raise SkatError(
            "Reiztabelle und Reizwerte der Engine stimmen nicht überein",
            "the bid table and the engine's bid values differ",
        )
    return table


def _bid_way(contract: Contract, multiplier: int | None, lang: str, deck: str) -> str:
    if multiplier is None:
        return contract.name(lang)
    name = names_for(deck).game(contract.game.value, lang)
    name = name[:1].upper() + name[1:]
    if contract.ouvert:
        name += " ouvert"
    return f"{name} × {multiplier}"


def bid_rows(args: str, lang: str, deck: str) -> list[tuple[int, str]]:
    """``[[bids: isko]]``: each bid value with the games worth exactly that much, in words."""
    words = args.lower().split()
    if len(words) > 1:
        raise SkatError(
            "'bids' nimmt höchstens einen Regelsatz (isko oder pub)", "'bids' takes at most one rule set (isko or pub)"
        )
    rules = get_rules(words[0] if words else "isko")
    if rules.name not in ("isko", "pub"):
        raise SkatError("'bids' gibt es nur für isko und pub", "'bids' exists only for isko and pub")
    table = bid_table(rules)
    return [(value, ", ".join(_bid_way(c, m, lang, deck) for c, m in ways)) for value, ways in table]


def matador_count(args: str) -> int:
    """``[[matadors: clubs CJ SJ ...]]``: the matadors of these cards for that game."""
    words = args.split()
    if not words:
        raise SkatError("Spiel und Karten fehlen", "game and cards missing")
    game = parse_game(words[0])
    if game.is_null:
        raise SkatError("Nullspiele haben keine Spitzen", "null games have no matadors")
    cards = card_list(" ".join(words[1:]))
    if len(cards) > 12:
        raise SkatError(
            "höchstens 12 Karten (10 auf der Hand und 2 im Skat)", "at most 12 cards (10 in hand and 2 in the skat)"
        )
    return matadors(game, cards)


def result_summary(outcome: Outcome, lang: str) -> str:
    """``gewonnen: Spielwert 48, Listeneintrag +48`` (with ``(überreizt)`` when overbid)."""
    w = {key: text.get(lang) for key, text in _WORDS.items()}
    summary = f"{w['won'] if outcome.won else w['lost']}"
    if outcome.overbid:
        summary += f" ({w['overbid']})"
    return summary + f": {w['value']} {outcome.value}, {w['entry']} {outcome.score:+d}"


def unknown_kind(kind: str) -> SkatError:
    return SkatError(
        f"unbekannte Direktive {kind!r} (erlaubt: {', '.join(KINDS)})",
        f"unknown directive {kind!r} (allowed: {', '.join(KINDS)})",
    )


def _text(kind: str, args: str, lang: str, deck: str, rule_exists: Callable[[str], bool] | None) -> str:  # noqa: C901 - over the budget since issue 27; to be split
    if kind == "bids":
        return "; ".join(f"{value}: {games}" for value, games in bid_rows(args, lang, deck))
    if kind == "cards":
        return ", ".join(card_name(c, lang) for c in hand_or_cards(args))
    if kind == "points":
        return str(CardSet(card_list(args)).points)
    if kind == "matadors":
        return matadors_text(matador_count(args), lang)
    if kind == "value":
        return parse_game_words(args).value().plain(lang)  # the rules text keeps the ISkO's own names
    if kind == "result":
        outcome = parse_game_words(args, result=True).result()
        return f"{result_summary(outcome, lang)}. " + "; ".join(outcome.explain(lang, plain=True))
    if kind == "rule":
        rule_id = args.strip()
        if rule_exists is not None and not rule_exists(rule_id):
            raise SkatError(f"Regel {rule_id!r} gibt es nicht", f"there is no rule {rule_id!r}")
        return rule_id
    if kind == "word":
        if not args.strip():
            raise SkatError("kein Wort angegeben", "no word given")
        return args.strip()
    raise unknown_kind(kind)


def directive_text(
    source: str,
    *,
    lang: str = "de",
    deck: str = "french",
    where: str = "",
    rule_exists: Callable[[str], bool] | None = None,
) -> str:
    """One directive (``[[value: clubs mit 2]]`` or ``value: clubs mit 2``) as plain text.

    ``rule_exists`` checks the id of ``[[rule: ...]]`` (without it every id is taken as
    written). Raises :class:`DirectiveError` with ``where`` and the directive in its message.
    """
    inner = source.strip()
    if inner.startswith("[[") and inner.endswith("]]"):
        inner = inner[2:-2]
    shown = f"[[{' '.join(inner.split())}]]"
    try:
        kind, args = parse_directive(source)
    except ValueError:
        raise DirectiveError("Direktive ohne ':'", "directive without ':'", directive=shown, where=where) from None
    try:
        return _text(kind, args, "en" if lang == "en" else "de", deck, rule_exists)
    except SkatError as exc:
        raise DirectiveError(exc.text.de, exc.text.en, directive=shown, where=where) from exc
