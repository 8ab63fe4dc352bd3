"""Matadors, game values and results (ISkO chapter 4).

``game_value`` answers "what is this game worth?"; ``score_game`` turns a
finished game (Augen, tricks, bid) into an :class:`Outcome` with the list
entry and a derivation a beginner can follow. An outcome of a game played on a
:class:`~.game.GameState` carries its :class:`Termination` (how the game ended).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .cards import Card, CardSet
from .errors import SkatError
from .explain import Derivation, Step, Text, plural, rule_ids_of
from .games import OUT_OF_SCHNEIDER, TOTAL_POINTS, WIN_POINTS, Contract, GameType
from .names import game_ref
from .rules import ISKO, RuleSet

__all__ = [
    "matadors",
    "matadors_in_mask",
    "matadors_text",
    "GameValue",
    "game_value",
    "Outcome",
    "Termination",
    "score_game",
    "lowest_multiple",
    "levels_reached",
    "schneider_made",
    "Settlement",
    "settle",
    "concede",
    "cheapest_lost_game",
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
    if lang != "en":
        return f"{'mit' if count > 0 else 'ohne'} {abs(count)}"
    return f"{'with' if count > 0 else 'without'} {abs(count)}"


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


def _check_matadors(game: GameType, count: int) -> None:
    if game.is_null:
        return
    if count == 0 or abs(count) > game.max_matadors:
        raise SkatError(
            f"{game.name_de}: Spitzen gehen von 1 bis {game.max_matadors}, nicht {count}",
            f"{game.name_en}: matadors range from 1 to {game.max_matadors}, not {count}",
        )


_VALUE_CACHE: dict[tuple[GameType, bool, bool, bool, bool, int, bool, bool, int], GameValue] = {}


def game_value(
    contract: Contract,
    matadors: int = 0,
    *,
    schneider: bool = False,
    schwarz: bool = False,
    rules: RuleSet = ISKO,
) -> GameValue:
    """The value of ``contract`` with ``matadors`` and the levels reached.

    Announced levels always count (a Schwarz announcement also counts Schneider and
    Schwarz); Schwarz reached includes Schneider. Null games have fixed values.
    Results are cached: there are only a few thousand different games.
    """
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
        cached = _VALUE_CACHE[key] = _game_value(contract, matadors, schneider, schwarz, rules)
    return cached


def _game_value(contract: Contract, matadors: int, schneider: bool, schwarz: bool, rules: RuleSet) -> GameValue:
    game = contract.game
    if game.is_null:
        value = rules.null_value(contract.hand, contract.ouvert)
        step = Step(f"{contract.ref('de')} = {value}", f"{contract.ref('en')} = {value}", ("4.1.2",))
        return GameValue(contract, 0, (), value, value, (step,))
    _check_matadors(game, matadors)
    announced_schwarz = contract.schwarz_announced
    announced_schneider = contract.schneider_announced
    count_schwarz = schwarz or announced_schwarz
    count_schneider = schneider or count_schwarz or announced_schneider
    levels: list[tuple[str, str]] = [("Spiel", "game")]
    rule_ids = ["1.4.2", "4.3.2"]
    if contract.hand:
        levels.append(("Hand", "hand"))
    if count_schneider:
        levels.append(("Schneider", "schneider"))
        rule_ids.append("4.2.3")
    if announced_schneider:
        levels.append(("Schneider angesagt", "schneider announced"))
        rule_ids.append("4.2.5")
    if count_schwarz:
        levels.append(("Schwarz", "schwarz"))
        rule_ids.append("4.2.4")
    if announced_schwarz:
        levels.append(("Schwarz angesagt", "schwarz announced"))
    ouvert_level = contract.ouvert and (game is not GameType.GRAND or rules.grand_ouvert_level)
    if ouvert_level:
        levels.append(("offen", "open"))
        rule_ids.append("4.2.6")
    base = rules.base_value(game, contract.ouvert)
    rule_ids.append("4.1.1")
    multiplier = abs(matadors) + len(levels)
    value = multiplier * base
    parts_de = [matadors_text(matadors, "de")]
    parts_en = [matadors_text(matadors, "en")]
    running = abs(matadors)
    for de, en in levels:
        running += 1
        parts_de.append(f"{de} {running}")
        parts_en.append(f"{en} {running}")
    grand_ouvert = game is GameType.GRAND and contract.ouvert and base != rules.base_value(game)
    base_name = f"{game_ref(game)} ouvert" if grand_ouvert else game_ref(game)
    step = Step(
        f"{', '.join(parts_de)} × {base_name} {base} = {value}",
        f"{', '.join(parts_en)} × {base_name} {base} = {value}",
        tuple(dict.fromkeys(rule_ids)),
    )
    return GameValue(contract, matadors, tuple(levels), base, value, (step,))


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


def score_game(
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

    ``termination`` (how a game played on a :class:`~.game.GameState` ended) is only
    carried onto the outcome; it does not change the result.
    """
    if not 0 <= declarer_points <= TOTAL_POINTS or not 0 <= declarer_tricks <= 10:
        raise SkatError(
            "Augen liegen zwischen 0 und 120, Stiche zwischen 0 und 10",
            "Card points lie between 0 and 120, tricks between 0 and 10",
        )
    contract.validate()
    if (kontra or re or bock) and not rules.doublings:
        raise SkatError(
            "Kontra, Re und Bock gibt es nur mit den Kneipenregeln (rules=pub)",
            "Kontra, Re and Bock exist only under the pub rules (rules=pub)",
        )
    if re and not kontra:
        raise SkatError("Re gibt es nur nach einem Kontra", "Re is only possible after a Kontra")
    if re and contract.game.is_null and not contract.ouvert:
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
    )[0]


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
        top = rules.max_matadors(game)
        count = (1 if count > 0 else -1) * min(abs(count), top)
        gv = game_value(contract, count, rules=rules)
        counted = gv.value if gv.value >= bid else lowest_multiple(gv.base, bid)
        if best is None or counted < best[0]:
            best = (counted, contract, count, gv)
    assert best is not None
    return best[1], best[2], best[3]


def _verdict_step(
    reasons: list[tuple[str, str]],
    rules_cited: list[str],
    won: bool,
    value: int,
    score: int,
    loss_factor: int,
    doublings: tuple[bool, bool, bool],
) -> Step:
    """The last step: the reasons that decided, then the verdict and the list entry."""
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
    for flag, name in zip(doublings, ("Kontra", "Re", "Bock")):
        if flag:
            running *= 2
            de += f"; {name} verdoppelt: {running}"
            en += f"; {name} doubles it: {running}"
    if any(doublings):
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


def _evaluate(
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
) -> tuple[Outcome, Derivation]:
    """The one place that decides a result; with ``explain`` it also writes the steps.

    The callers have checked the figures (:func:`score_game` does, a
    :class:`~.game.GameState` holds them by construction); ``termination`` is only
    carried on to the outcome.

    Every step but the last states a fact; the last gives the reasons that decided, the
    verdict and the list entry, citing the decisive rule first. The steps: what the play
    decided (:func:`_null_played`, :func:`_suit_played`), then the game value, then the
    bid and the list entry (:func:`_settle`)."""
    notes = _Notes() if explain else None
    if contract.game.is_null:
        played = _null_played(contract, bid, declarer_tricks, rules, notes, declarer_mask, null_matadors)
    else:
        played = _suit_played(contract, matadors, declarer_points, declarer_tricks, rules, notes)
    gv, won_by_play, schneider, schwarz, kept_matadors, counted_game = played
    if notes is not None:
        notes.steps.extend(gv.steps)
    won, value, score, overbid = _settle(
        gv,
        bid,
        won_by_play,
        rules,
        (kontra, re, bock),
        notes.steps if notes is not None else None,
        notes.reasons if notes is not None else None,
        notes.cited if notes is not None else None,
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
    )
    return outcome, tuple(notes.steps) if notes is not None else ()


def _null_played(
    contract: Contract,
    bid: int,
    declarer_tricks: int,
    rules: RuleSet,
    notes: _Notes | None,
    declarer_mask: int | None,
    null_matadors: int | None,
) -> _Played:
    """A Null: won without a trick (4.2.7); below the bid and with the declarer's matadors
    known, a suit or Grand game lost instead (2.4.4)."""
    gv = game_value(contract, rules=rules)
    if gv.value < bid and (declarer_mask is not None or null_matadors):
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


def _suit_played(
    contract: Contract,
    matadors: int,
    declarer_points: int,
    declarer_tricks: int,
    rules: RuleSet,
    notes: _Notes | None,
) -> _Played:
    """A suit or Grand game: won with the 61st Auge (4.2.2) and any announced level
    reached (4.2.5, 4.2.6); Schneider and Schwarz reached by either party count (4.2.3, 4.2.4)."""
    schneider, schwarz = levels_reached(declarer_points, declarer_tricks)
    gv = game_value(contract, matadors, schneider=schneider, schwarz=schwarz, rules=rules)
    by_points = declarer_points >= WIN_POINTS
    if notes is not None:
        _note_levels(notes, declarer_points, declarer_tricks, schneider, schwarz)
    if notes is None and not (contract.schneider_announced or contract.schwarz_announced):
        return gv, by_points, schneider, schwarz, gv.matadors, None  # no announced level: the points decide
    won = _announced_levels(contract, declarer_points, declarer_tricks == 10, by_points, notes)
    return gv, won, schneider, schwarz, gv.matadors, None


def _note_levels(notes: _Notes, declarer_points: int, declarer_tricks: int, schneider: bool, schwarz: bool) -> None:
    """The Augen, the level reached, and whether the Augen are enough."""
    notes.fact(
        f"Augen: Alleinspieler {declarer_points}, Gegenpartei {TOTAL_POINTS - declarer_points}",
        f"Card points: declarer {declarer_points}, defenders {TOTAL_POINTS - declarer_points}",
    )
    if schwarz:
        who = ("die Gegenpartei", "the defenders") if declarer_tricks == 10 else ("der Alleinspieler", "the declarer")
        notes.fact(f"Schwarz: {who[0]} hat keinen Stich", f"Schwarz: {who[1]} took no trick", ("4.2.4",))
    elif schneider and schneider_made(declarer_points):
        notes.fact(
            "Schneider: die Gegenpartei hat 30 Augen oder weniger",
            "Schneider: the defenders have 30 card points or fewer",
            ("4.2.3",),
        )
    elif schneider:
        notes.fact(
            "Schneider: der Alleinspieler hat 30 Augen oder weniger",
            "Schneider: the declarer has 30 card points or fewer",
            ("4.2.3",),
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


def _announced_levels(
    contract: Contract, declarer_points: int, defenders_schwarz: bool, by_points: bool, notes: _Notes | None
) -> bool:
    """Is a game won on points (``by_points``) still won with its announced levels? The
    decision is the one the ISkO makes (4.2.5, 4.2.6); the notes only describe it."""
    if contract.schwarz_announced and not defenders_schwarz:
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
    if contract.schneider_announced and not schneider_made(declarer_points):
        if notes is not None and by_points:
            notes.reason(
                "angesagt war Schneider, erreicht nicht",
                "Schneider was announced and not reached",
                "4.2.5",
                decisive=True,
            )
        return False
    if notes is not None and by_points:
        _note_announced_reached(notes, contract)
    return by_points


def _note_announced_reached(notes: _Notes, contract: Contract) -> None:
    if contract.schwarz_announced and contract.ouvert:
        notes.reason(
            "offen gespielt hat der Alleinspieler alle Stiche gemacht",
            "playing open, the declarer took every trick",
            "4.2.6",
        )
    elif contract.schwarz_announced:
        notes.reason("angesagt war Schwarz, erreicht", "Schwarz was announced and reached", "4.2.5")
    elif contract.schneider_announced:
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


def _new_outcome(
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
    return outcome


def _settle(
    gv: GameValue,
    bid: int,
    won: bool,
    rules: RuleSet,
    doublings: tuple[bool, bool, bool],
    steps: list[Step] | None,
    reasons: list[tuple[str, str]] | None = None,
    cited: list[str] | None = None,
) -> tuple[bool, int, int, bool]:
    """The one place that turns a verdict into a list entry: the overbid multiple
    (4.4.1, 4.4.2), single or double for a loss (4.3.4), Kontra/Re/Bock (K.1.4).

    Returns (won, value, score, overbid). When ``steps`` is a list it appends the
    overbid multiple (a fact) and the verdict step, built from ``reasons`` (the facts
    that decided, as (German, English) phrases) and ``cited`` (their rules, decisive first).
    """
    value = gv.value
    overbid = value < bid
    decided_by_play = won
    won = won and not overbid
    base = gv.base
    counted = lowest_multiple(base, bid) if overbid else value
    factor = 1 if won else rules.loss_factor(gv.contract.hand)
    score = counted if won else -factor * counted
    for flag in doublings:
        if flag:
            score *= 2
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
        steps.append(_verdict_step(reasons, cited, won, counted, score, factor, doublings))
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


def settle(
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
    return settle(
        contract,
        matadors,
        bid=bid,
        won=False,
        rules=rules,
        reason=(
            "Der Alleinspieler hat aufgegeben; gewertet wird die Stufe einfach mit seinen Spitzen, mindestens zum "
            "Reizwert",
            "The declarer conceded; the simple level counts, with his matadors and at least at the bid",
            ("3.3.1", "2.4.3"),
        ),
    )
