"""Matadors, game values and results (ISkO chapter 4).

``game_value`` answers "what is this game worth?"; ``score_game`` turns a
finished game (Augen, tricks, bid) into an :class:`Outcome` with the list
entry and a derivation a beginner can follow. An outcome of a game played on a
:class:`~.game.GameState` carries its :class:`Termination` (how the game ended).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from .cards import Card, CardSet
from .errors import SkatError
from .explain import Derivation, Step, Text, plural, rule_ids_of
from .games import OUT_OF_SCHNEIDER, TOTAL_POINTS, WIN_POINTS, Contract, GameType
from .names import game_ref
from .rules import ISKO, REVOLUTION_VALUE, SAXON_BASE, HandOverbid, RuleSet, Special, house_rule

__all__ = [
    "matadors",
    "matadors_in_mask",
    "matadors_text",
    "GameValue",
    "game_value",
    "Outcome",
    "Termination",
    "score_game",
    "side_won",
    "lowest_multiple",
    "levels_reached",
    "schneider_made",
    "Settlement",
    "settle",
    "concede",
    "cheapest_lost_game",
    "counted_matadors",
    "announcements",
    "HouseCalls",
    "NO_CALLS",
]


def matadors(game: GameType, cards: Iterable[Card] | CardSet) -> int:
    """Spitzen over all the declarer's cards, skat included: ``+N`` mit N, ``-N`` ohne N (ISkO 1.4).

    Null games have no Spitzen and give 0.
    """
    return matadors_in_mask(game, cards.mask if isinstance(cards, CardSet) else CardSet(cards).mask)


def matadors_in_mask(game: GameType, mask: int) -> int:
    """:func:`matadors` of the cards in a 32-bit mask (see :mod:`.cards`)."""
    # Only the trumps count, so the answer is cached by the trump bits of the mask
    # (at most 2**11 of them per game): one dictionary look-up per scored game.
    table = _MATADORS[game]
    bits = mask & game.trump_mask
    count = table.get(bits)
    if count is None:
        count = table[bits] = _count_matadors(game, bits)
    return count


def _count_matadors(game: GameType, mask: int) -> int:
    if game.is_null:
        return 0
    order = game.trumps_in_order
    having = bool(mask & order[0].bit)
    count = 0
    for trump in order:
        if bool(mask & trump.bit) != having:
            break
        count += 1
    return count if having else -count


_MATADORS: dict[GameType, dict[int, int]] = {game: {} for game in GameType}


def matadors_text(count: int, lang: str = "de") -> str:
    """``mit 2`` / ``ohne 3`` (``with 2`` / ``without 3``)."""
    n = abs(count)
    return (Text(f"mit {n}", f"with {n}") if count > 0 else Text(f"ohne {n}", f"without {n}")).get(lang)


def schneider_made(declarer_points: int, out_of_schneider: int = OUT_OF_SCHNEIDER) -> bool:
    """Has the declarer made the defenders Schneider (4.2.3)? They are out of it with
    ``out_of_schneider`` Augen (31; the house rule K.7.4 lets them out with 30)."""
    return TOTAL_POINTS - declarer_points < out_of_schneider


def levels_reached(
    declarer_points: int, declarer_tricks: int, out_of_schneider: int = OUT_OF_SCHNEIDER
) -> tuple[bool, bool]:
    """(Schneider, Schwarz) reached by either party (4.2.3, 4.2.4): the one place that decides
    them for every rule set. Schwarz goes by tricks, not Augen; the declarer is Schneider with
    30 Augen or fewer (a house rule helps only the defenders)."""
    schwarz = declarer_tricks == 10 or declarer_tricks == 0
    schneider = schwarz or declarer_points < OUT_OF_SCHNEIDER or schneider_made(declarer_points, out_of_schneider)
    return schneider, schwarz


def lowest_multiple(base: int, at_least: int) -> int:
    """The smallest multiple of ``base`` that is at least ``at_least``."""
    return -(-at_least // base) * base


@dataclass(frozen=True, slots=True)
class GameValue:
    """A game's value and how it is made up (the Fälle)."""

    contract: Contract
    matadors: int
    levels: tuple[tuple[str, str], ...]
    """The counted levels in order, as (German, English) names."""
    base: int
    value: int
    steps: Derivation

    @property
    def multiplier(self) -> int:
        return abs(self.matadors) + len(self.levels)

    def text(self, lang: str = "de") -> str:
        """The derivation with a name reference for the game (render it per deck)."""
        return self.steps[0].text(lang)

    def plain(self, lang: str = "de") -> str:
        """The derivation with the ISkO's (French) names: ``... × Kreuz 12 = 48``."""
        return self.steps[0].plain(lang)


@dataclass(frozen=True, slots=True)
class HouseCalls:
    """What a game adds to its contract under house switches (K.5, K.7), and how a score sheet
    records its end. All off (:data:`NO_CALLS`) is a game of the ISkO; :func:`score_game` values
    every game, with or without them."""

    special: Special | None = None
    """The Revolution (on a Null contract) or the Saxon Spitze (on a Grand contract)."""
    spitze: int = 0
    """Spitzen announced (K.5.5): the lowest trumps that must take the last tricks."""
    spitze_made: bool = True
    rum: bool = False
    more: int = 0
    """Doublings after Re (K.7.10), named by the rule set's ``doubling_levels``."""
    conceded: bool = False
    """The declarer gave up (ISkO 2.4.3, 3.3.1)."""
    matadors_without_skat: int | None = None
    """For a hand game that the skat made overbid under "kein Überreizen beim Handspiel" (K.7.5)."""
    announced: tuple[bool, bool] | None = None
    """(Schneider, Schwarz) as announced, where "freie Ansagen" (K.7.6) lets them count so;
    otherwise the contract's announcements (normalised as the ISkO does) count."""


NO_CALLS = HouseCalls()


def _check_matadors(game: GameType, count: int) -> None:
    if game.is_null:
        return
    if count == 0 or abs(count) > game.max_matadors:
        raise SkatError(
            f"{game.name_de}: Spitzen gehen von 1 bis {game.max_matadors}, nicht {count}",
            f"{game.name_en}: matadors range from 1 to {game.max_matadors}, not {count}",
        )


def counted_matadors(game: GameType, count: int, rules: RuleSet = ISKO) -> int:
    """The matadors that count under ``rules``: ``count`` cut to :meth:`RuleSet.max_matadors`
    (at most the four jacks under "Spitzen nur mit Buben", K.7.2)."""
    top = rules.max_matadors(game)
    return count if abs(count) <= top else (1 if count > 0 else -1) * top


_VALUE_CACHE: dict[tuple[GameType, bool, bool, bool, bool, int, bool, bool, int], GameValue] = {}


def game_value(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    matadors: int = 0,
    *,
    schneider: bool = False,
    schwarz: bool = False,
    rules: RuleSet = ISKO,
    calls: HouseCalls = NO_CALLS,
) -> GameValue:
    """The value of ``contract`` with ``matadors`` and the levels reached.

    Announced levels always count (a Schwarz announcement also counts Schneider and
    Schwarz); Schwarz reached includes Schneider. Null games have fixed values. The rule
    set's switches and the house ``calls`` (Spitze, Rum, the special games) apply; the
    matadors are counted as given (see :func:`counted_matadors`).
    Results are cached: there are only a few thousand different games.
    """
    if calls is not NO_CALLS:
        return _game_value(contract, matadors, schneider, schwarz, rules, calls)
    # Keyed by the contract's fields rather than the contract: a tuple of enums, bools and
    # ints hashes in C, the dataclass's generated __hash__ does not.
    key = (
        contract.game,
        contract.hand,
        contract.ouvert,
        contract.schneider_announced,
        contract.schwarz_announced,
        matadors,
        schneider,
        schwarz,
        rules.key,
    )
    cached = _VALUE_CACHE.get(key)
    if cached is None:
        cached = _VALUE_CACHE[key] = _game_value(contract, matadors, schneider, schwarz, rules, NO_CALLS)
    return cached


def announcements(contract: Contract, rules: RuleSet = ISKO, calls: HouseCalls = NO_CALLS) -> tuple[bool, bool]:
    """(Schneider, Schwarz) announced as they count: as the contract normalises them (ISkO
    4.2.5, 4.2.6), or as they were made under "freie Ansagen" (K.7.6)."""
    if rules.free_announcements and calls.announced is not None:
        return calls.announced
    return contract.schneider_announced, contract.schwarz_announced


def _game_value(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract, matadors: int, schneider: bool, schwarz: bool, rules: RuleSet, calls: HouseCalls
) -> GameValue:
    game = contract.game
    if calls.special is Special.REVOLUTION or game.is_null:
        return _null_value(contract, rules, calls)
    _check_matadors(game, matadors)
    levels, ladder, rule_ids = _levels(contract, schneider, schwarz, rules, calls)
    if calls.special is Special.SAXON:
        base = SAXON_BASE
        rule_ids += ["K.5.5", "K.7.9"]
    else:
        base = rules.base_value(game, contract.ouvert)
        rule_ids.append("4.1.1")
    if calls.spitze:
        rule_ids += ["K.5.5", "K.7.8"]
    value = (abs(matadors) + len(levels) + calls.spitze) * base
    steps = [_value_step(contract, matadors, levels, base, value, rules, calls, tuple(dict.fromkeys(rule_ids)))]
    if rules.schneider_doubles:
        de_rule, en_rule = house_rule("schneider_doubles")
        for de, en in ladder:
            value *= 2
            steps.append(
                Step(f"{de} verdoppelt ({de_rule}): {value}", f"{en} doubles ({en_rule}): {value}", ("K.5.6", "K.7.4"))
            )
    return GameValue(contract, matadors, tuple(levels), base, value, tuple(steps))


def _null_value(contract: Contract, rules: RuleSet, calls: HouseCalls) -> GameValue:
    """A Null's fixed value (4.1.2), or the Revolution's (K.5.1)."""
    if calls.special is Special.REVOLUTION:
        value = REVOLUTION_VALUE
        step = Step(
            f"Revolution (Spielweise {rules.revolution}) = {value}",
            f"Revolution (variant {rules.revolution}) = {value}",
            ("K.5.1", "K.7.7"),
        )
    else:
        value = rules.null_value(contract.hand, contract.ouvert)
        step = Step(f"{contract.ref('de')} = {value}", f"{contract.ref('en')} = {value}", ("4.1.2",))
    return GameValue(contract, 0, (), value, value, (step,))


_Level = tuple[str, str]


def _levels(
    contract: Contract, schneider: bool, schwarz: bool, rules: RuleSet, calls: HouseCalls
) -> tuple[list[_Level], list[_Level], list[str]]:
    """The levels that count as Fälle, the Schneider-Schwarz ladder among them (or doubling the
    value instead, K.7.4), and their rules."""
    announced_schneider, announced_schwarz = announcements(contract, rules, calls)
    count_schwarz = schwarz or announced_schwarz
    count_schneider = schneider or announced_schneider or (count_schwarz and not rules.free_announcements)
    levels: list[_Level] = [("Spiel", "game")]
    rule_ids = ["1.4.2", "4.3.2"]
    if contract.hand:
        levels.append(("Hand", "hand"))
    ladder: list[_Level] = []
    for counts, level, rule in (
        (count_schneider, ("Schneider", "Schneider"), "4.2.3"),
        (announced_schneider, ("Schneider angesagt", "Schneider announced"), "4.2.5"),
        (count_schwarz, ("Schwarz", "Schwarz"), "4.2.4"),
        (announced_schwarz, ("Schwarz angesagt", "Schwarz announced"), ""),
    ):
        if counts:
            ladder.append(level)
            if rule and not rules.schneider_doubles:
                rule_ids.append(rule)
    if not rules.schneider_doubles:
        levels.extend(ladder)
    if contract.ouvert and (contract.game is not GameType.GRAND or rules.grand_ouvert_level):
        levels.append(("offen", "open"))
        rule_ids.append("4.2.6")
    if calls.rum:
        levels.append(("Rum", "rum"))
        rule_ids += ["K.5.4", "K.7.8"]
    return levels, ladder, rule_ids


def _value_step(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    matadors: int,
    levels: list[_Level],
    base: int,
    value: int,
    rules: RuleSet,
    calls: HouseCalls,
    rule_ids: tuple[str, ...],
) -> Step:
    """``mit 2, Spiel 3, Hand 4 × ⟦game:clubs⟧ 12 = 48``: the Fälle counted one by one."""
    game = contract.game
    parts_de = [matadors_text(matadors, "de")]
    parts_en = [matadors_text(matadors, "en")]
    running = abs(matadors)
    for de, en in levels:
        running += 1
        parts_de.append(f"{de} {running}")
        parts_en.append(f"{en} {running}")
    if calls.spitze:
        # each announced Spitze is one more multiplier: "mit 2, Spiel 3, 2 Spitzen 5"
        running += calls.spitze
        label = f"{calls.spitze} Spitze{'n' if calls.spitze > 1 else ''}"
        parts_de.append(f"{label} {running}")
        parts_en.append(f"{label} {running}")
    if calls.special is Special.SAXON:
        name_de, name_en = "Sächsische Spitze", "Saxon Spitze"
    elif game is GameType.GRAND and contract.ouvert and base != rules.base_value(game):
        name_de = name_en = f"{game_ref(game)} ouvert"
    else:
        name_de = name_en = game_ref(game)
    return Step(
        f"{', '.join(parts_de)} × {name_de} {base} = {value}",
        f"{', '.join(parts_en)} × {name_en} {base} = {value}",
        rule_ids,
    )


class Termination(enum.Enum):
    """How a game ended, as :attr:`~.game.GameState.termination` and
    :attr:`Outcome.termination` tell it (like python-chess's ``Termination``)."""

    PLAYED_OUT = "played_out"
    """All ten tricks were played."""
    PASSED_IN = "passed_in"
    """Nobody bid: the deal was passed in (eingepasst); there is no game to score."""
    NULL_TRICK = "null_trick"
    """A Null game ended with the first trick the declarer took."""
    SCHWARZ_TRICK = "schwarz_trick"
    """An announced Schwarz ended with the first trick the defenders took."""
    OUVERT_TRICK = "ouvert_trick"
    """An open (ouvert) suit or Grand game ended with the first trick the defenders took."""
    SCHNEIDER_MISSED = "schneider_missed"
    """An announced Schneider ended once the defenders had 31 card points."""

    @property
    def is_early(self) -> bool:
        """Did the rules end the game before the tenth trick (passing in aside)?"""
        return self not in (Termination.PLAYED_OUT, Termination.PASSED_IN)

    @property
    def text(self) -> Text:
        """A short description in German and English."""
        return _TERMINATION_TEXTS[self]


_TERMINATION_TEXTS = {
    Termination.PLAYED_OUT: Text("alle zehn Stiche gespielt", "all ten tricks played"),
    Termination.PASSED_IN: Text("eingepasst: niemand hat gereizt", "passed in: nobody bid"),
    Termination.NULL_TRICK: Text(
        "Nullspiel beendet: der Alleinspieler hat einen Stich", "null game over: the declarer took a trick"
    ),
    Termination.SCHWARZ_TRICK: Text(
        "Schwarz angesagt, aber die Gegenpartei hat einen Stich", "Schwarz announced, but the defenders took a trick"
    ),
    Termination.OUVERT_TRICK: Text(
        "offenes Spiel beendet: die Gegenpartei hat einen Stich", "open game over: the defenders took a trick"
    ),
    Termination.SCHNEIDER_MISSED: Text(
        "Schneider angesagt, aber die Gegenpartei hat 31 Augen",
        "Schneider announced, but the defenders have 31 card points",
    ),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game, as the list records it."""

    contract: Contract
    won: bool
    value: int
    """The value that is counted (for an overbid game the multiple that reaches the bid)."""
    score: int
    """The list entry for the declarer: +value, or -2 x value for a lost game (and doublings)."""
    overbid: bool
    bid: int
    matadors: int
    """The declarer's matadors in the game that is counted (0 for Null)."""
    declarer_points: int
    declarer_tricks: int
    schneider: bool
    """Schneider reached by either party (or announced)."""
    schwarz: bool
    kontra: bool = False
    re: bool = False
    bock: bool = False
    rules: RuleSet = ISKO
    counted_game: GameType | None = None
    """For a Null announced above the bid (ISkO 2.4.4): the suit or Grand game that is
    written down as lost instead; None otherwise."""
    declarer_mask: int | None = None
    """The declarer's twelve cards as a mask, when known (they decide an overbid Null)."""
    termination: Termination | None = None
    """How the game ended, for a game played on a :class:`~.game.GameState`; None for a
    game scored from its figures (:func:`score_game`). Not part of ``as_dict``."""
    calls: HouseCalls = NO_CALLS
    """What the game added under house switches (:class:`HouseCalls`)."""

    @property
    def steps(self) -> Derivation:
        """The derivation, step by step (built on demand: scoring itself needs no text)."""
        return _evaluate(
            self.contract,
            matadors=self.matadors,
            bid=self.bid,
            declarer_points=self.declarer_points,
            declarer_tricks=self.declarer_tricks,
            rules=self.rules,
            kontra=self.kontra,
            re=self.re,
            bock=self.bock,
            explain=True,
            declarer_mask=self.declarer_mask,
            termination=self.termination,
            null_matadors=self.matadors if self.counted_game and self.declarer_mask is None else None,
            calls=self.calls,
        )[1]

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The rules of the derivation, the decisive one (first of the verdict) first."""
        steps = self.steps
        return rule_ids_of(steps[-1:] + steps[:-1])

    @property
    def defender_points(self) -> int:
        return TOTAL_POINTS - self.declarer_points

    def explain(self, lang: str = "de", *, plain: bool = False) -> list[str]:
        """The steps' texts with name references (see :meth:`Step.text`); with ``plain``
        in the ISkO's (French) names."""
        return [s.plain(lang) if plain else s.text(lang) for s in self.steps]

    def as_dict(self) -> dict[str, object]:
        return {"won": self.won, "value": self.value, "score": self.score, "overbid": self.overbid}


def side_won(declarer_won: bool, *, declares: bool) -> bool:
    """Did a player's side win? The declarer's result for the declarer, its opposite for the
    two defenders, who win together when he loses. The one answer to "gewonnen?" wherever a
    game is shown from a player's side (:meth:`~.game.GameState.side_won`)."""
    return declarer_won == declares


def score_game(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    matadors: int,
    *,
    bid: int,
    declarer_points: int,
    declarer_tricks: int,
    rules: RuleSet = ISKO,
    kontra: bool = False,
    re: bool = False,
    bock: bool = False,
    declarer_cards: Iterable[Card] | CardSet | None = None,
    termination: Termination | None = None,
    null_matadors: int | None = None,
    calls: HouseCalls = NO_CALLS,
) -> Outcome:
    """Score a finished (or ended) game: won or lost, at which value, with which list entry.

    - Farb- and Grandspiele are won with the 61st Auge incl. the skat (ISkO 4.2.2) and
      any announced level reached (4.2.5, 4.2.6); Schneider at 30 Augen or fewer for
      either party (4.2.3), Schwarz by tricks, not Augen (4.2.4).
    - Null is won when the declarer takes no trick (4.2.7).
    - A game whose value does not reach the bid is overbid and lost with the lowest
      multiple of its base value that reaches the bid (4.4.1, 4.4.2).
    - A Null announced although the bid is above its value cannot be won (2.4.4): with
      ``declarer_cards`` (his twelve cards) it is written down as the lost suit or Grand
      game of :func:`cheapest_lost_game` (the last bid and his matadors); with only the
      number of his matadors (``null_matadors``, a score sheet) the same from that number;
      with neither, as the vectors contract reads it, as the lowest multiple of the Null value that
      reaches the bid.
    - Lost games count double (4.3.4), or single for hand games under ``pre1999``.

    - Under house switches (``rules``) and with house ``calls`` (Spitze, Rum, the special
      games, further doublings, a concession, K.5 and K.7) the same steps apply with the
      switches' numbers, each deviation named in the derivation.

    ``termination`` (how a game played on a :class:`~.game.GameState` ended) is only
    carried onto the outcome; it does not change the result.
    """
    if not 0 <= declarer_points <= TOTAL_POINTS or not 0 <= declarer_tricks <= 10:
        raise SkatError(
            "Augen liegen zwischen 0 und 120, Stiche zwischen 0 und 10",
            "Card points lie between 0 and 120, tricks between 0 and 10",
        )
    if calls is not NO_CALLS:
        _check_calls(contract, matadors, bid, calls, rules)
    if rules.free_announcements:
        replace(contract, hand=True).validate()  # K.7.6: announcements also after picking up the skat
    else:
        contract.validate()
    if (kontra or re or bock or calls.more) and not rules.doublings:
        raise SkatError(
            "Kontra, Re und Bock gibt es nur mit den Kneipenregeln (rules=pub)",
            "Kontra, Re and Bock exist only under the pub rules (rules=pub)",
        )
    if re and not kontra:
        raise SkatError("Re gibt es nur nach einem Kontra", "Re is only possible after a Kontra")
    if calls.more and not re:
        raise SkatError("Weitere Stufen erst nach Re (K.7.10)", "Further levels only after Re (K.7.10)")
    if re and contract.game.is_null and not contract.ouvert and calls.special is None:
        raise SkatError(
            "Auf Null und Null Hand gibt es kein Re (ein Null mit Re müsste ouvert sein)",
            "There is no Re on Null or Null Hand (a Null with Re would have to be ouvert)",
        )
    mask = None
    if declarer_cards is not None:
        mask = declarer_cards.mask if isinstance(declarer_cards, CardSet) else CardSet(declarer_cards).mask
    return _evaluate(
        contract,
        matadors=matadors,
        bid=bid,
        declarer_points=declarer_points,
        declarer_tricks=declarer_tricks,
        rules=rules,
        kontra=kontra,
        re=re,
        bock=bock,
        explain=False,
        declarer_mask=mask,
        termination=termination,
        null_matadors=null_matadors if contract.game.is_null else None,
        calls=calls,
    )[0]


def _check_calls(contract: Contract, matadors: int, bid: int, calls: HouseCalls, rules: RuleSet) -> None:
    """Are the house ``calls`` possible under ``rules`` (each needs its switch, K.5, K.7)?"""
    special = calls.special
    if bid < 18:
        raise SkatError("Gereizt wird ab 18", "Bidding starts at 18")
    if special is Special.REVOLUTION and (rules.revolution is None or not contract.game.is_null):
        raise SkatError("Die Revolution gibt es nur mit dem Schalter Revolution", "Revolution needs its switch")
    if special is Special.SAXON and (not rules.saxon_spitze or contract.game is not GameType.GRAND):
        raise SkatError("Die Sächsische Spitze gibt es nur mit ihrem Schalter", "Saxon Spitze needs its switch")
    if calls.spitze and not rules.spitze:
        raise SkatError("Spitzen ansagen gibt es nur mit dem Schalter Spitze", "Announcing Spitzen needs its switch")
    if calls.rum and not rules.rum:
        raise SkatError("Rum gibt es nur mit dem Schalter Rum", "Rum needs its switch")
    if calls.rum and contract.hand:
        raise SkatError(
            "Rum sagt, wer den Skat aufnimmt: kein Handspiel", "Rum is said before picking up the skat: no hand game"
        )
    levels = rules.doubling_levels
    if not 0 <= calls.more <= len(levels) - 2:
        raise SkatError(
            f"Höchstens {len(levels)} Verdopplungen ({', '.join(levels)})",
            f"At most {len(levels)} doublings ({', '.join(levels)})",
        )
    _check_announced_calls(contract, matadors, calls, rules)


def _check_announced_calls(contract: Contract, matadors: int, calls: HouseCalls, rules: RuleSet) -> None:
    """The announcements and Spitzen of a game with house calls: none in a Null, and only from
    the hand unless announcements are free (K.7.6)."""
    announced = calls.announced or (contract.schneider_announced, contract.schwarz_announced)
    if contract.game.is_null:
        if calls.spitze or calls.rum or any(announced):
            raise SkatError(
                "Nullspiele haben keine Spitzen und keine Gewinnstufen", "Null games have no matadors and no levels"
            )
        return
    top = 4 if contract.game is GameType.GRAND else 11
    if matadors == 0 or abs(matadors) > top:
        raise SkatError(f"Spitzen gehen von 1 bis {top}", f"Matadors range from 1 to {top}")
    if not 0 <= calls.spitze <= 4:
        raise SkatError("Angesagt werden 0 bis 4 Spitzen", "0 to 4 Spitzen may be announced")
    if not rules.free_announcements and not contract.hand and (any(announced) or contract.ouvert):
        raise SkatError(
            "Ansagen und offene Spiele nur aus der Hand (ISkO 2.4.4); frei nur mit dem Schalter freie Ansagen",
            "Announcements and open games only as hand games (ISkO 2.4.4); free only with its switch",
        )


_CHEAPEST_ORDER = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)


def cheapest_lost_game(
    bid: int, declarer_mask: int | None, rules: RuleSet = ISKO, *, matadors: int | None = None
) -> tuple[Contract, int, GameValue]:
    """The lost game "by the last bid and the matadors" (ISkO 2.4.4, 3.1.1): the suit or
    Grand game with pick-up (no announced level) whose counted value, an overbid multiple
    if need be, is the lowest that reaches ``bid``, with the declarer's matadors in it.
    On a tie the game with the lower base value is taken. Returns (contract, matadors,
    game value before any overbid multiple).

    The matadors come from the declarer's twelve cards (``declarer_mask``) or, where only
    their number is known (a score sheet), from ``matadors`` (``+N`` mit, ``-N`` ohne),
    cut to what each game can count. The rule set's base values and switches apply."""
    if declarer_mask is None and not matadors:
        raise SkatError(
            "Für das billigste verlorene Spiel fehlen die Spitzen",
            "The matadors for the cheapest lost game are missing",
        )
    best: tuple[int, Contract, int, GameValue] | None = None
    for game in _CHEAPEST_ORDER:
        contract = Contract(game)
        count = matadors_in_mask(game, declarer_mask) if declarer_mask is not None else int(matadors or 0)
        count = counted_matadors(game, count, rules)
        gv = game_value(contract, count, rules=rules)
        counted = gv.value if gv.value >= bid else lowest_multiple(gv.base, bid)
        if best is None or counted < best[0]:
            best = (counted, contract, count, gv)
    assert best is not None
    return best[1], best[2], best[3]


def _verdict_step(  # noqa: PLR0913 - over the budget since issue 27; to be split
    reasons: list[tuple[str, str]],
    rules_cited: list[str],
    won: bool,
    value: int,
    score: int,
    loss_factor: int,
    doublings: list[str],
) -> Step:
    """The last step: the reasons that decided, then the verdict and the list entry, doubled
    by each of ``doublings`` (Kontra, Re, the further levels, Bock) in turn."""
    if won:
        de, en = f"gewonnen; Eintrag +{value}", f"won; entry +{value}"
        rules_cited = rules_cited + ["4.3.1"]
    elif loss_factor == 2:
        de = f"verloren; ein verlorenes Spiel zählt doppelt, Eintrag {-2 * value}"
        en = f"lost; a lost game counts double, entry {-2 * value}"
        rules_cited = rules_cited + ["4.3.4"]
    else:
        de = f"verloren; als Handspiel einfach gezählt, Eintrag {-value}"
        en = f"lost; counted single as a hand game, entry {-value}"
        rules_cited = rules_cited + ["4.3.4"]
    running = value if won else -loss_factor * value
    for name in doublings:
        running *= 2
        de += f"; {name} verdoppelt: {running}"
        en += f"; {name} doubles it: {running}"
    if doublings:
        rules_cited = rules_cited + ["K.1.4"]

    assert running == score
    reason_de = "; ".join(r[0] for r in reasons)
    reason_en = "; ".join(r[1] for r in reasons)
    text_de, text_en = (f"{reason_de}: {de}", f"{reason_en}: {en}") if reason_de else (de, en)
    return Step(_capital(text_de), _capital(text_en), tuple(dict.fromkeys(rules_cited)))


def _capital(text: str) -> str:
    """The sentence with a capital first letter (a name reference stays as it is)."""
    return text[:1].upper() + text[1:] if text[:1].islower() else text


@dataclass(slots=True)
class _Notes:
    """The derivation of a result being written: the facts (steps), the reasons that
    decided, as (German, English) phrases, and their rules, the decisive one first."""

    steps: list[Step] = field(default_factory=list)
    reasons: list[tuple[str, str]] = field(default_factory=list)
    cited: list[str] = field(default_factory=list)

    def fact(self, de: str, en: str, rules: tuple[str, ...] = ()) -> None:
        self.steps.append(Step(de, en, rules))

    def reason(self, de: str, en: str, rule: str, *, decisive: bool = False) -> None:
        self.reasons.append((de, en))
        if decisive:
            self.cited.insert(0, rule)
        else:
            self.cited.append(rule)


_Played = tuple[GameValue, bool, bool, bool, int, GameType | None]
"""What the play decided, before the bid and the list entry are applied: the game value,
won, Schneider, Schwarz, the matadors the outcome keeps, and the game counted instead
(an overbid Null). A plain tuple: it is built for every game scored."""


def _evaluate(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    *,
    matadors: int,
    bid: int,
    declarer_points: int,
    declarer_tricks: int,
    rules: RuleSet,
    kontra: bool = False,
    re: bool = False,
    bock: bool = False,
    explain: bool,
    declarer_mask: int | None = None,
    termination: Termination | None = None,
    null_matadors: int | None = None,
    calls: HouseCalls = NO_CALLS,
) -> tuple[Outcome, Derivation]:
    """The one place that decides a result; with ``explain`` it also writes the steps.

    The callers have checked the figures (:func:`score_game` does, a
    :class:`~.game.GameState` holds them by construction); ``termination`` is only
    carried on to the outcome.

    Every step but the last states a fact; the last gives the reasons that decided, the
    verdict and the list entry, citing the decisive rule first. The steps: the house rules
    that apply (:func:`_note_house`), what the play decided (:func:`_conceded`,
    :func:`_null_played`, :func:`_suit_played`), then the game value, then the bid and the
    list entry (:func:`_settle`)."""
    notes = _Notes() if explain else None
    if notes is not None and rules.house:
        _note_house(notes, contract, rules, calls)
    if calls.conceded:
        played = _conceded(contract, matadors, rules, calls, notes)
    elif contract.game.is_null:
        played = _null_played(contract, bid, declarer_tricks, rules, notes, declarer_mask, null_matadors, calls)
    else:
        played = _suit_played(contract, matadors, declarer_points, declarer_tricks, rules, notes, calls)
    gv, won_by_play, schneider, schwarz, kept_matadors, counted_game = played
    if notes is not None:
        notes.steps.extend(gv.steps)
    allowed = None
    if gv.value < bid and contract.hand and rules.hand_overbid is not None and not contract.game.is_null:
        allowed = _hand_not_overbid(gv, bid, rules, calls, schneider, schwarz, notes)
    won, value, score, overbid = _settle(
        gv,
        bid,
        won_by_play,
        rules,
        (kontra, re, bock),
        notes.steps if notes is not None else None,
        notes.reasons if notes is not None else None,
        notes.cited if notes is not None else None,
        more=calls.more,
        allowed=allowed,
    )
    outcome = _new_outcome(
        contract,
        won,
        value,
        score,
        overbid,
        bid,
        kept_matadors,
        declarer_points,
        declarer_tricks,
        schneider,
        schwarz,
        kontra,
        re,
        bock,
        rules,
        counted_game,
        declarer_mask,
        termination,
        calls,
    )
    return outcome, tuple(notes.steps) if notes is not None else ()


def _note_house(notes: _Notes, contract: Contract, rules: RuleSet, calls: HouseCalls) -> None:
    """The house rules that change how this game is valued before it is counted: a Grand base
    value (K.7.3) and announcements that count as they were made (K.7.6)."""
    if contract.game is GameType.GRAND and calls.special is None:
        if contract.ouvert and rules.grand_ouvert_base is not None:
            de, en = house_rule("grand_ouvert_base", start=True)
            notes.fact(
                f"{de}: Grand ouvert hat den Grundwert {rules.grand_ouvert_base}, ohne die Stufe „offen“",
                f"{en}: Grand ouvert has the base value {rules.grand_ouvert_base}, without the level “open”",
                ("K.5.3", "K.7.3"),
            )
        elif rules.grand_base != ISKO.grand_base:
            de, en = house_rule("grand_base", start=True)
            notes.fact(
                f"{de}: der Grand hat den Grundwert {rules.grand_base}",
                f"{en}: Grand has the base value {rules.grand_base}",
                ("K.5.3", "K.7.3"),
            )
    for flag, name in ((calls.rum, "rum"), (bool(calls.spitze), "spitze")):
        if flag:
            de, en = house_rule(name, start=True)
            notes.fact(f"{de}: ein Fall mehr je Ansage", f"{en}: one more multiplier per call", ("K.7.8",))
    if rules.free_announcements and calls.announced is not None and not contract.game.is_null:
        schneider, schwarz = calls.announced
        if (not contract.hand and (schneider or schwarz or contract.ouvert)) or (
            (contract.ouvert and not schwarz) or (schwarz and not schneider)
        ):
            de, en = house_rule("free_announcements", start=True)
            notes.fact(
                f"{de}: die Ansagen gelten, wie sie gemacht wurden",
                f"{en}: the announcements count as they were made",
                ("K.5.10", "K.7.6"),
            )


_CONCEDED = (
    "Der Alleinspieler hat aufgegeben; gewertet wird die Stufe einfach mit seinen Spitzen, mindestens zum Reizwert",
    "The declarer conceded; the simple level counts, with his matadors and at least at the bid",
    ("3.3.1", "2.4.3"),
)


def _conceded(contract: Contract, matadors: int, rules: RuleSet, calls: HouseCalls, notes: _Notes | None) -> _Played:
    """A game the declarer gave up (ISkO 2.4.3, 3.3.1): lost at level einfach (announced levels
    still count), with his matadors and at least the bid."""
    counted = 0 if contract.game.is_null else _counted_matadors_noted(contract.game, matadors, rules, calls, notes)
    gv = game_value(contract, counted, rules=rules, calls=calls)
    if notes is not None:
        notes.reasons.append((_CONCEDED[0], _CONCEDED[1]))
        notes.cited.extend(_CONCEDED[2])
    return gv, False, False, False, matadors, None


def _counted_matadors_noted(
    game: GameType, matadors: int, rules: RuleSet, calls: HouseCalls, notes: _Notes | None
) -> int:
    """:func:`counted_matadors`, with a step when a house rule cuts them (K.7.2)."""
    counted = counted_matadors(game, matadors, rules)
    if counted != matadors and notes is not None:
        de, en = house_rule("jacks_only_matadors" if calls.special is None else "saxon_spitze", start=True)
        notes.fact(
            f"{de}: {matadors_text(matadors)} zählt als {matadors_text(counted)}",
            f"{en}: {matadors_text(matadors, 'en')} counts as {matadors_text(counted, 'en')}",
            ("K.5.2", "K.7.2"),
        )
    return counted


def _hand_not_overbid(  # noqa: PLR0913 - over the budget since issue 27; to be split
    gv: GameValue,
    bid: int,
    rules: RuleSet,
    calls: HouseCalls,
    schneider: bool,
    schwarz: bool,
    notes: _Notes | None,
) -> int | None:
    """Under "kein Überreizen beim Handspiel" (K.7.5) a hand game that the skat made overbid
    counts at the value with the skat, or at the value without it if that reaches the bid:
    the value that counts, or None when the game stays overbid. Not for a Null (whose
    overbid is 2.4.4's) or the Revolution."""
    de_rule, en_rule = house_rule("hand_overbid")
    if rules.hand_overbid is HandOverbid.SKAT:
        if notes is not None:
            notes.fact(
                f"Handspiel, nicht überreizt ({de_rule}): es zählt der Wert mit Skat, {gv.value}",
                f"Hand game, not overbid ({en_rule}): the value with the skat counts, {gv.value}",
                ("K.5.8", "K.7.5"),
            )
        return gv.value
    if calls.matadors_without_skat is None:
        raise SkatError(
            "Für den Wert ohne Skat fehlen die Spitzen ohne Skat", "The matadors without the skat are missing"
        )
    counted = counted_matadors(gv.contract.game, calls.matadors_without_skat, rules)
    without = game_value(gv.contract, counted, schneider=schneider, schwarz=schwarz, rules=rules, calls=calls).value
    if without < bid:
        return None
    if notes is not None:
        notes.fact(
            f"Handspiel, nicht überreizt ({de_rule}): es zählt der Wert ohne Skat, {without}",
            f"Hand game, not overbid ({en_rule}): the value without the skat counts, {without}",
            ("K.5.8", "K.7.5"),
        )
    return without


def _null_played(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    bid: int,
    declarer_tricks: int,
    rules: RuleSet,
    notes: _Notes | None,
    declarer_mask: int | None,
    null_matadors: int | None,
    calls: HouseCalls = NO_CALLS,
) -> _Played:
    """A Null (or the Revolution, K.5.1): won without a trick (4.2.7); below the bid and with
    the declarer's matadors known, a suit or Grand game lost instead (2.4.4)."""
    gv = game_value(contract, rules=rules, calls=calls)
    if gv.value < bid and (declarer_mask is not None or null_matadors) and calls.special is None:
        # ISkO 2.4.4: this Null cannot be made; a suit or Grand game is lost instead.
        lost, count, lost_gv = cheapest_lost_game(bid, declarer_mask, rules, matadors=null_matadors)
        if notes is not None:
            _note_null_below_bid(notes, contract, gv.value, bid, lost.game)
        # with only a number of matadors the outcome keeps that number (the steps rebuild from it)
        kept = count if declarer_mask is not None else int(null_matadors or 0)
        return lost_gv, False, False, False, kept, lost.game
    won = declarer_tricks == 0
    if notes is not None:
        if won:
            notes.reason("Der Alleinspieler hat keinen Stich", "The declarer took no trick", "4.2.7")
        else:
            notes.reason(
                f"Der Alleinspieler hat {plural(declarer_tricks, 'Stich')}",
                f"The declarer took {plural(declarer_tricks, 'trick', 'en')}",
                "4.2.7",
            )
    return gv, won, False, False, gv.matadors, None


def _note_null_below_bid(notes: _Notes, contract: Contract, null_value: int, bid: int, lost: GameType) -> None:
    notes.fact(
        f"{contract.ref('de')} ist {null_value} wert, der Reizwert ist {bid}",
        f"{contract.ref('en')} is worth {null_value}, the bid is {bid}",
        ("4.1.2",),
    )
    notes.fact(
        f"Angeschrieben wird das billigste Farb- oder Grandspiel, das mit den Spitzen des "
        f"Alleinspielers den Reizwert {bid} erreicht: {game_ref(lost)}",
        f"The entry is the cheapest suit or Grand game that reaches the bid of {bid} with the "
        f"declarer's matadors: {game_ref(lost)}",
        ("2.4.4",),
    )
    notes.reason(
        "ein Nullspiel unter dem Reizwert ist nicht durchführbar", "a Null below the bid cannot be played", "2.4.4"
    )


def _suit_played(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    matadors: int,
    declarer_points: int,
    declarer_tricks: int,
    rules: RuleSet,
    notes: _Notes | None,
    calls: HouseCalls = NO_CALLS,
) -> _Played:
    """A suit or Grand game: won with the 61st Auge (4.2.2) and any announced level
    reached (4.2.5, 4.2.6); Schneider and Schwarz reached by either party count (4.2.3, 4.2.4).
    House switches: the defenders out of Schneider with 30 (K.7.4), the matadors cut (K.7.2),
    an announced Spitze that must take its trick (K.5.5)."""
    out_with = rules.out_of_schneider
    schneider, schwarz = levels_reached(declarer_points, declarer_tricks, out_with)
    counted = matadors
    if calls is not NO_CALLS or rules.jacks_only_matadors:
        counted = _counted_matadors_noted(contract.game, matadors, rules, calls, notes)
    gv = game_value(contract, counted, schneider=schneider, schwarz=schwarz, rules=rules, calls=calls)
    by_points = declarer_points >= WIN_POINTS
    if notes is not None:
        _note_levels(notes, declarer_points, declarer_tricks, schneider, schwarz, out_with)
    announced = announcements(contract, rules, calls)
    if notes is None and not (announced[0] or announced[1] or calls.spitze):
        return gv, by_points, schneider, schwarz, matadors, None  # no announced level: the points decide
    won = _announced_levels(contract, announced, out_with, declarer_points, declarer_tricks == 10, by_points, notes)
    if calls.spitze and not calls.spitze_made:
        if notes is not None and won:
            notes.reason(
                "die angesagte Spitze hat ihren Stich nicht gemacht",
                "the announced Spitze did not take its trick",
                "K.5.5",
                decisive=True,
            )
        won = False
    return gv, won, schneider, schwarz, matadors, None


def _note_levels(  # noqa: PLR0913 - over the budget since issue 27; to be split
    notes: _Notes,
    declarer_points: int,
    declarer_tricks: int,
    schneider: bool,
    schwarz: bool,
    out_with: int = OUT_OF_SCHNEIDER,
) -> None:
    """The Augen, the level reached, and whether the Augen are enough."""
    notes.fact(
        f"Augen: Alleinspieler {declarer_points}, Gegenpartei {TOTAL_POINTS - declarer_points}",
        f"Card points: declarer {declarer_points}, defenders {TOTAL_POINTS - declarer_points}",
    )
    if schwarz:
        who = ("die Gegenpartei", "the defenders") if declarer_tricks == 10 else ("der Alleinspieler", "the declarer")
        notes.fact(f"Schwarz: {who[0]} hat keinen Stich", f"Schwarz: {who[1]} took no trick", ("4.2.4",))
    elif schneider and schneider_made(declarer_points, out_with):
        notes.fact(
            f"Schneider: die Gegenpartei hat {out_with - 1} Augen oder weniger",
            f"Schneider: the defenders have {out_with - 1} card points or fewer",
            ("4.2.3",) if out_with == OUT_OF_SCHNEIDER else ("4.2.3", "K.7.4"),
        )
    elif schneider:
        notes.fact(
            "Schneider: der Alleinspieler hat 30 Augen oder weniger",
            "Schneider: the declarer has 30 card points or fewer",
            ("4.2.3",),
        )
    elif out_with != OUT_OF_SCHNEIDER and TOTAL_POINTS - declarer_points == out_with:
        de, en = house_rule("schneider_at_30")
        notes.fact(
            f"Die Gegenpartei hat {out_with} Augen: aus dem Schneider ({de})",
            f"The defenders have {out_with} card points: out of Schneider ({en})",
            ("K.5.9", "K.7.4"),
        )
    if declarer_points >= WIN_POINTS:
        notes.reason(
            f"{declarer_points} Augen reichen für einfach",
            f"{declarer_points} card points are enough for the simple level",
            "4.2.2",
        )
    else:
        notes.reason(
            f"{declarer_points} Augen reichen nicht, nötig sind {WIN_POINTS}",
            f"{declarer_points} card points are not enough, {WIN_POINTS} are needed",
            "4.2.2",
        )


def _announced_levels(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    announced: tuple[bool, bool],
    out_with: int,
    declarer_points: int,
    defenders_schwarz: bool,
    by_points: bool,
    notes: _Notes | None,
) -> bool:
    """Is a game won on points (``by_points``) still won with its ``announced`` (Schneider,
    Schwarz)? The decision is the one the ISkO makes (4.2.5, 4.2.6); the notes only describe it."""
    schneider_announced, schwarz_announced = announced
    if schwarz_announced and not defenders_schwarz:
        if notes is not None and by_points:
            if contract.ouvert:
                notes.reason(
                    "offen gespielt muss der Alleinspieler alle Stiche machen, das hat er nicht",
                    "playing open, the declarer must take every trick, and he did not",
                    "4.2.6",
                    decisive=True,
                )
            else:
                notes.reason(
                    "angesagt war Schwarz, erreicht nicht",
                    "Schwarz was announced and not reached",
                    "4.2.5",
                    decisive=True,
                )
        return False
    if schneider_announced and not schneider_made(declarer_points, out_with):
        if notes is not None and by_points:
            notes.reason(
                "angesagt war Schneider, erreicht nicht",
                "Schneider was announced and not reached",
                "4.2.5",
                decisive=True,
            )
        return False
    if notes is not None and by_points:
        _note_announced_reached(notes, contract, announced)
    return by_points


def _note_announced_reached(notes: _Notes, contract: Contract, announced: tuple[bool, bool]) -> None:
    schneider_announced, schwarz_announced = announced
    if schwarz_announced and contract.ouvert:
        notes.reason(
            "offen gespielt hat der Alleinspieler alle Stiche gemacht",
            "playing open, the declarer took every trick",
            "4.2.6",
        )
    elif schwarz_announced:
        notes.reason("angesagt war Schwarz, erreicht", "Schwarz was announced and reached", "4.2.5")
    elif schneider_announced:
        notes.reason("angesagt war Schneider, erreicht", "Schneider was announced and reached", "4.2.5")


def _slot_setter(name: str) -> Callable[[Outcome, object], None]:
    setter: Callable[[Outcome, object], None] = Outcome.__dict__[name].__set__
    return setter


# The frozen dataclass's __init__ sets each field through object.__setattr__, which makes
# up almost half the cost of scoring a game; the slots' own setters do the same for less.
_set_contract = _slot_setter("contract")
_set_won = _slot_setter("won")
_set_value = _slot_setter("value")
_set_score = _slot_setter("score")
_set_overbid = _slot_setter("overbid")
_set_bid = _slot_setter("bid")
_set_matadors = _slot_setter("matadors")
_set_declarer_points = _slot_setter("declarer_points")
_set_declarer_tricks = _slot_setter("declarer_tricks")
_set_schneider = _slot_setter("schneider")
_set_schwarz = _slot_setter("schwarz")
_set_kontra = _slot_setter("kontra")
_set_re = _slot_setter("re")
_set_bock = _slot_setter("bock")
_set_rules = _slot_setter("rules")
_set_counted_game = _slot_setter("counted_game")
_set_declarer_mask = _slot_setter("declarer_mask")
_set_termination = _slot_setter("termination")
_set_calls = _slot_setter("calls")


def _new_outcome(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    won: bool,
    value: int,
    score: int,
    overbid: bool,
    bid: int,
    matadors: int,
    declarer_points: int,
    declarer_tricks: int,
    schneider: bool,
    schwarz: bool,
    kontra: bool,
    re: bool,
    bock: bool,
    rules: RuleSet,
    counted_game: GameType | None = None,
    declarer_mask: int | None = None,
    termination: Termination | None = None,
    calls: HouseCalls = NO_CALLS,
) -> Outcome:
    """The same as ``Outcome(...)`` with every field given (Outcome has no __post_init__)."""
    outcome: Outcome = object.__new__(Outcome)
    _set_contract(outcome, contract)
    _set_won(outcome, won)
    _set_value(outcome, value)
    _set_score(outcome, score)
    _set_overbid(outcome, overbid)
    _set_bid(outcome, bid)
    _set_matadors(outcome, matadors)
    _set_declarer_points(outcome, declarer_points)
    _set_declarer_tricks(outcome, declarer_tricks)
    _set_schneider(outcome, schneider)
    _set_schwarz(outcome, schwarz)
    _set_kontra(outcome, kontra)
    _set_re(outcome, re)
    _set_bock(outcome, bock)
    _set_rules(outcome, rules)
    _set_counted_game(outcome, counted_game)
    _set_declarer_mask(outcome, declarer_mask)
    _set_termination(outcome, termination)
    _set_calls(outcome, calls)
    return outcome


def _settle(  # noqa: PLR0913 - over the budget since issue 27; to be split
    gv: GameValue,
    bid: int,
    won: bool,
    rules: RuleSet,
    doublings: tuple[bool, bool, bool],
    steps: list[Step] | None,
    reasons: list[tuple[str, str]] | None = None,
    cited: list[str] | None = None,
    *,
    more: int = 0,
    allowed: int | None = None,
) -> tuple[bool, int, int, bool]:
    """The one place that turns a verdict into a list entry: the overbid multiple
    (4.4.1, 4.4.2), single or double for a loss (4.3.4), Kontra/Re/Bock (K.1.4) and the
    ``more`` levels after Re (K.7.10). ``allowed``: the value a hand game counts at that a
    house rule lets not be overbid (K.7.5).

    Returns (won, value, score, overbid). When ``steps`` is a list it appends the
    overbid multiple (a fact) and the verdict step, built from ``reasons`` (the facts
    that decided, as (German, English) phrases) and ``cited`` (their rules, decisive first).
    """
    value = gv.value
    overbid = value < bid and allowed is None
    decided_by_play = won
    won = won and not overbid
    base = gv.base
    counted = lowest_multiple(base, bid) if overbid else value if allowed is None else allowed
    factor = 1 if won else rules.loss_factor(gv.contract.hand)
    score = counted if won else -factor * counted
    for flag in doublings:
        if flag:
            score *= 2
    score *= 2**more
    if steps is not None:
        reasons = list(reasons or [])
        cited = list(cited or [])
        if overbid:
            overbid_rule = "4.4.2" if gv.contract.hand else "4.4.1"
            steps.append(
                Step(
                    f"Überreizt: der Spielwert {value} erreicht den Reizwert {bid} nicht; angeschrieben wird "
                    f"das kleinste Vielfache des Grundwerts, das ihn erreicht: {counted // base} × {base} = {counted}",
                    f"Overbid: the game value {value} does not reach the bid of {bid}; the entry is the lowest "
                    f"multiple of the base value that reaches it: {counted // base} × {base} = {counted}",
                    (overbid_rule,),
                )
            )
            phrase = (f"überreizt ({value} statt {bid})", f"overbid ({value} instead of {bid})")
            if decided_by_play:
                # The play alone would have won: the overbid value decides.
                reasons.append(phrase)
                cited.insert(0, overbid_rule)
            else:
                reasons.append(phrase)
                cited.append(overbid_rule)
        if factor == 1 and not won and rules.house:
            de, en = house_rule("hand_not_punished")
            steps.append(
                Step(
                    f"{_capital(de)}: das verlorene Handspiel zählt einfach",
                    f"{_capital(en)}: the lost hand game counts single",
                    ("K.5.7", "K.7.5"),
                )
            )
        names = ["Kontra", "Re"] if doublings[1] else ["Kontra"] if doublings[0] else []
        names += list(rules.doubling_levels[2 : 2 + more]) + (["Bock"] if doublings[2] else [])
        if more:
            cited.append("K.7.10")
        steps.append(_verdict_step(reasons, cited, won, counted, score, factor, names))
    return won, counted, score, overbid


@dataclass(frozen=True, slots=True)
class Settlement:
    """A game decided without counting Augen (a ruling or a concession) and its list entry."""

    won: bool
    value: int
    score: int
    overbid: bool
    steps: Derivation

    def explain(self, lang: str = "de", *, plain: bool = False) -> list[str]:
        return [step.plain(lang) if plain else step.text(lang) for step in self.steps]


def settle(  # noqa: PLR0913 - over the budget since issue 27; to be split
    contract: Contract,
    matadors: int,
    *,
    bid: int,
    won: bool,
    schneider: bool = False,
    schwarz: bool = False,
    rules: RuleSet = ISKO,
    reason: tuple[str, str, tuple[str, ...]] | None = None,
) -> Settlement:
    """The list entry of a game whose verdict is already known (a referee's ruling, a
    concession): its value with the levels that count, at least the bid (overbid), and
    single or double for a loss. Announced levels always count (4.2.5).

    ``reason`` (German, English, rule ids with the decisive one first) opens the last
    step, which states the verdict."""
    gv = game_value(contract, matadors, schneider=schneider, schwarz=schwarz, rules=rules)
    steps = list(gv.steps)
    reasons = [(reason[0], reason[1])] if reason else []
    cited = list(reason[2]) if reason else []
    won, value, score, overbid = _settle(gv, bid, won, rules, (False, False, False), steps, reasons, cited)
    return Settlement(won, value, score, overbid, tuple(steps))


def concede(contract: Contract, matadors: int, *, bid: int, rules: RuleSet = ISKO) -> Settlement:
    """A game the declarer gives up (ISkO 2.4.3, 3.3.1): lost at level einfach (announced
    levels still count), with his Spitzen and at least the bid."""
    return settle(contract, matadors, bid=bid, won=False, rules=rules, reason=_CONCEDED)
