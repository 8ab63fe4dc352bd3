"""Matadors, game values and results (ISkO chapter 4).

``game_value`` answers "what is this game worth?"; ``score_game`` turns a
finished game (Augen, tricks, bid) into an :class:`Outcome` with the list
entry and a derivation a beginner can follow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .cards import Card, CardSet
from .errors import SkatError
from .explain import Derivation, Step, rule_ids_of
from .games import Contract, GameType
from .rules import ISKO, RuleSet

__all__ = [
    "matadors",
    "matadors_in_mask",
    "matadors_text",
    "GameValue",
    "game_value",
    "Outcome",
    "score_game",
    "lowest_multiple",
    "Settlement",
    "settle",
    "concede",
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
    if lang == "de":
        return f"{'mit' if count > 0 else 'ohne'} {abs(count)}"
    return f"{'with' if count > 0 else 'without'} {abs(count)}"


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
        return self.steps[0].text(lang)


def _check_matadors(game: GameType, count: int) -> None:
    if game.is_null:
        return
    if count == 0 or abs(count) > game.max_matadors:
        raise SkatError(
            f"{game.name_de}: Spitzen gehen von 1 bis {game.max_matadors}, nicht {count}",
            f"{game.name_en}: matadors range from 1 to {game.max_matadors}, not {count}",
        )


_VALUE_CACHE: dict[tuple[GameType, bool, bool, bool, bool, int, bool, bool, str], GameValue] = {}


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
        contract.game, contract.hand, contract.ouvert, contract.schneider_announced,
        contract.schwarz_announced, matadors, schneider, schwarz, rules.name,
    )
    cached = _VALUE_CACHE.get(key)
    if cached is None:
        cached = _VALUE_CACHE[key] = _game_value(contract, matadors, schneider, schwarz, rules)
    return cached


def _game_value(contract: Contract, matadors: int, schneider: bool, schwarz: bool, rules: RuleSet) -> GameValue:
    game = contract.game
    if game.is_null:
        value = rules.null_value(contract.hand, contract.ouvert)
        name_de, name_en = contract.name("de"), contract.name("en")
        step = Step(f"{name_de} = {value}", f"{name_en} = {value}", ("4.1.2",))
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
    base_de = "Grand ouvert" if game is GameType.GRAND and contract.ouvert and base != rules.base_value(game) else game.name_de
    base_en = "grand ouvert" if base_de == "Grand ouvert" else game.name_en
    step = Step(
        f"{', '.join(parts_de)} × {base_de} {base} = {value}",
        f"{', '.join(parts_en)} × {base_en} {base} = {value}",
        tuple(dict.fromkeys(rule_ids)),
    )
    return GameValue(contract, matadors, tuple(levels), base, value, (step,))


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
    declarer_points: int
    declarer_tricks: int
    schneider: bool
    """Schneider reached by either party (or announced)."""
    schwarz: bool
    kontra: bool = False
    re: bool = False
    bock: bool = False
    rules: RuleSet = ISKO

    @property
    def steps(self) -> Derivation:
        """The derivation, step by step (built on demand: scoring itself needs no text)."""
        return _evaluate(
            self.contract, self.matadors, self.bid, self.declarer_points, self.declarer_tricks,
            self.rules, self.kontra, self.re, self.bock, explain=True,
        )[1]

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return rule_ids_of(self.steps)

    @property
    def defender_points(self) -> int:
        return 120 - self.declarer_points

    def explain(self, lang: str = "de") -> list[str]:
        return [s.text(lang) for s in self.steps]

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
) -> Outcome:
    """Score a finished (or ended) game: won or lost, at which value, with which list entry.

    - Farb- and Grandspiele are won with the 61st Auge incl. the skat (ISkO 4.2.2) and
      any announced level reached (4.2.5, 4.2.6); Schneider at 30 Augen or fewer for
      either party (4.2.3), Schwarz by tricks, not Augen (4.2.4).
    - Null is won when the declarer takes no trick (4.2.7).
    - A game whose value does not reach the bid is overbid and lost with the lowest
      multiple of its base value that reaches the bid (4.4.1, 4.4.2).
    - Lost games count double (4.3.4), or single for hand games under ``pre1999``.
    """
    if not 0 <= declarer_points <= 120 or not 0 <= declarer_tricks <= 10:
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
    return _evaluate(contract, matadors, bid, declarer_points, declarer_tricks, rules, kontra, re, bock, explain=False)[0]


def _evaluate(
    contract: Contract,
    matadors: int,
    bid: int,
    declarer_points: int,
    declarer_tricks: int,
    rules: RuleSet,
    kontra: bool,
    re: bool,
    bock: bool,
    *,
    explain: bool,
) -> tuple[Outcome, Derivation]:
    """The one place that decides a result; with ``explain`` it also writes the steps."""
    game = contract.game
    steps: list[Step] = []
    if game.is_null:
        won_by_play = declarer_tricks == 0
        gv = game_value(contract, rules=rules)
        schneider = schwarz = False
        if won_by_play:
            if explain:
                steps.append(Step("Der Alleinspieler hat keinen Stich bekommen: gewonnen",
                                  "The declarer took no trick: won", ("4.2.7",)))
        else:
            if explain:
                steps.append(Step(f"Der Alleinspieler hat {declarer_tricks} Stich(e) bekommen: verloren",
                                  f"The declarer took {declarer_tricks} trick(s): lost", ("4.2.7",)))
    else:
        defenders_schwarz = declarer_tricks == 10
        declarer_schwarz = declarer_tricks == 0
        schwarz = defenders_schwarz or declarer_schwarz
        schneider = declarer_points >= 90 or declarer_points <= 30 or schwarz
        gv = game_value(contract, matadors, schneider=schneider, schwarz=schwarz, rules=rules)
        won_by_play = declarer_points >= 61
        if won_by_play:
            if explain:
                steps.append(Step(f"{declarer_points} Augen für den Alleinspieler: mindestens 61, gewonnen",
                                  f"{declarer_points} card points for the declarer: at least 61, won", ("4.2.2",)))
        else:
            if explain:
                steps.append(Step(f"{declarer_points} Augen für den Alleinspieler: weniger als 61, verloren",
                                  f"{declarer_points} card points for the declarer: fewer than 61, lost", ("4.2.2",)))
        if schwarz:
            who = ("die Gegenpartei", "the defenders") if defenders_schwarz else ("der Alleinspieler", "the declarer")
            if explain:
                steps.append(Step(f"Schwarz: {who[0]} hat keinen Stich bekommen", f"Schwarz: {who[1]} took no trick", ("4.2.4",)))
        elif schneider:
            who = ("die Gegenpartei", "the defenders") if declarer_points >= 90 else ("der Alleinspieler", "the declarer")
            if explain:
                steps.append(Step(f"Schneider: {who[0]} hat 30 Augen oder weniger", f"Schneider: {who[1]} {'has' if who[1] == 'the declarer' else 'have'} 30 card points or fewer", ("4.2.3",)))
        if contract.schwarz_announced and not defenders_schwarz:
            won_by_play = False
            label = "ouvert" if contract.ouvert else "Schwarz angesagt"
            if explain:
                steps.append(Step(f"{label}: der Alleinspieler musste alle Stiche machen, verloren",
                                  f"{'open' if contract.ouvert else 'Schwarz announced'}: the declarer had to take every trick, lost",
                                  ("4.2.6" if contract.ouvert else "4.2.5",)))
        elif contract.schneider_announced and declarer_points < 90:
            won_by_play = False
            if explain:
                steps.append(Step("Schneider angesagt, aber nicht erreicht: verloren",
                                  "Schneider announced but not reached: lost", ("4.2.5",)))
    if explain:
        steps.extend(gv.steps)
    won, value, score, overbid = _settle(gv, bid, won_by_play, rules, (kontra, re, bock), steps if explain else None)
    outcome = _new_outcome(
        contract, won, value, score, overbid, bid, gv.matadors, declarer_points, declarer_tricks,
        schneider, schwarz, kontra, re, bock, rules,
    )
    return outcome, tuple(steps)


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


def _new_outcome(
    contract: Contract, won: bool, value: int, score: int, overbid: bool, bid: int, matadors: int,
    declarer_points: int, declarer_tricks: int, schneider: bool, schwarz: bool,
    kontra: bool, re: bool, bock: bool, rules: RuleSet,
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
    return outcome


def _settle(
    gv: GameValue,
    bid: int,
    won: bool,
    rules: RuleSet,
    doublings: tuple[bool, bool, bool],
    steps: list[Step] | None,
) -> tuple[bool, int, int, bool]:
    """The one place that turns a verdict into a list entry: the overbid multiple
    (4.4.1, 4.4.2), single or double for a loss (4.3.4), Kontra/Re/Bock (K.1.4).

    Returns (won, value, score, overbid); appends the steps when ``steps`` is a list.
    """
    value = gv.value
    overbid = value < bid
    won = won and not overbid
    if overbid:
        base = gv.base
        counted = lowest_multiple(base, bid)
        if steps is not None:
            steps.append(Step(
                f"überreizt: {value} < {bid}, verloren mit {counted // base} × {base} = {counted}",
                f"overbid: {value} < {bid}, lost with {counted // base} × {base} = {counted}",
                ("4.4.2" if gv.contract.hand else "4.4.1",)))
        value = counted
    if won:
        score = value
        if steps is not None:
            steps.append(Step(f"Gewonnen: +{value}", f"Won: +{value}", ("4.3.1",)))
    else:
        factor = rules.loss_factor(gv.contract.hand)
        score = -factor * value
        if steps is not None:
            if factor == 2:
                steps.append(Step(f"Verloren zählt doppelt: {score}", f"A lost game counts double: {score}", ("4.3.4",)))
            else:
                steps.append(Step(f"Verlorenes Handspiel zählt einfach: {score}",
                                  f"A lost hand game counts single: {score}", ("4.3.4",)))
    if any(doublings):
        for flag, name in zip(doublings, ("Kontra", "Re", "Bock")):
            if flag:
                score *= 2
                if steps is not None:
                    steps.append(Step(f"{name} verdoppelt: {score}", f"{name} doubles: {score}", ("K.1.4",)))
    return won, value, score, overbid


@dataclass(frozen=True, slots=True)
class Settlement:
    """A game decided without counting Augen (a ruling or a concession) and its list entry."""

    won: bool
    value: int
    score: int
    overbid: bool
    steps: Derivation

    def explain(self, lang: str = "de") -> list[str]:
        return [step.text(lang) for step in self.steps]


def settle(
    contract: Contract,
    matadors: int,
    *,
    bid: int,
    won: bool,
    schneider: bool = False,
    schwarz: bool = False,
    rules: RuleSet = ISKO,
) -> Settlement:
    """The list entry of a game whose verdict is already known (a referee's ruling, a
    concession): its value with the levels that count, at least the bid (overbid), and
    single or double for a loss. Announced levels always count (4.2.5)."""
    gv = game_value(contract, matadors, schneider=schneider, schwarz=schwarz, rules=rules)
    steps = list(gv.steps)
    won, value, score, overbid = _settle(gv, bid, won, rules, (False, False, False), steps)
    return Settlement(won, value, score, overbid, tuple(steps))


def concede(contract: Contract, matadors: int, *, bid: int, rules: RuleSet = ISKO) -> Settlement:
    """A game the declarer gives up (ISkO 2.4.3, 3.3.1): lost at level einfach, with his
    Spitzen and at least the bid."""
    settlement = settle(contract, matadors, bid=bid, won=False, rules=rules)
    note = Step("Aufgegeben: verloren in der Stufe einfach, mit den Spitzen und mindestens zum Reizwert",
                "Conceded: lost at the simple level, with the matadors and at least at the bid", ("3.3.1", "2.4.3"))
    return Settlement(settlement.won, settlement.value, settlement.score, settlement.overbid,
                      (note,) + settlement.steps)
