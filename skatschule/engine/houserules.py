"""House-rule games under the one variant model (chapter K.5 and K.7; not ISkO).

A house-rule profile is a :class:`~.rules.RuleSet`: the ISkO plus named switches
(``HouseRules`` is the same class under its old name). :func:`score_house` values a
finished game as a score sheet enters it under any rule set and writes the derivation
step by step. What the ISkO decides (won or lost, Schneider, Schwarz, overbid, the
unplayable Null of 2.4.4) is decided in one place, :func:`.scoring.score_game`, for every
game that no house switch touches; the switches (K.7) add their own steps, each naming
the house rule it applies.

Game names in derivation texts are references (``⟦game:clubs⟧``) that
:func:`.names.render` turns into the reader's deck and language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType

from .cards import Card, Rank, Suit
from .errors import SkatError
from .explain import Derivation, Step, rule_ids_of
from .games import OUT_OF_SCHNEIDER, TOTAL_POINTS, WIN_POINTS, Contract, GameType
from .names import game_ref
from .rules import (
    DOUBLING_LEVELS,
    EXTENDED_DOUBLING_LEVELS,
    ISKO,
    SWITCHES,
    HandOverbid,
    RuleSet,
)
from .scoring import Outcome, concede, levels_reached, lowest_multiple, matadors_text, schneider_made, score_game

__all__ = [
    "Special",
    "HandOverbid",
    "HouseRules",
    "HouseGame",
    "HouseOutcome",
    "score_house",
    "doublings",
    "PROFILES",
    "DOUBLING_LEVELS",
    "EXTENDED_DOUBLING_LEVELS",
    "SWITCHES",
    "Revolution",
    "REVOLUTION_VARIANTS",
    "spitze_cards",
    "spitze_made",
    "saxon_trick_winner",
    "REVOLUTION_VALUE",
    "SAXON_BASE",
]

REVOLUTION_VALUE = 92
SAXON_BASE = 20


class Special(Enum):
    """Games that exist only under a house rule."""

    REVOLUTION = "revolution"
    SAXON = "saxon"


@dataclass(frozen=True, slots=True)
class Revolution:
    """What a Revolution variant allows (K.5.1): its value is always 92."""

    variant: int
    defenders_swap: bool
    defenders_take_skat: bool
    declarer_leads: bool
    hand: bool


REVOLUTION_VARIANTS: Mapping[int, Revolution] = MappingProxyType(
    {
        1: Revolution(1, defenders_swap=True, defenders_take_skat=False, declarer_leads=False, hand=True),
        2: Revolution(2, defenders_swap=False, defenders_take_skat=True, declarer_leads=False, hand=False),
        3: Revolution(3, defenders_swap=True, defenders_take_skat=True, declarer_leads=True, hand=False),
    }
)


HouseRules = RuleSet
"""The old name of a rule set with house switches: there is one variant model."""

PROFILES: Mapping[str, HouseRules] = MappingProxyType(
    {
        "isko": HouseRules(),
        "alt": HouseRules(grand_ouvert_base=36, hand_not_punished=True),
        "kneipe": HouseRules(jacks_only_matadors=True, hand_overbid=HandOverbid.SKAT, schneider_at_30=True),
        "bunt": HouseRules(
            jacks_only_matadors=True,
            spitze=True,
            rum=True,
            revolution=1,
            saxon_spitze=True,
            doubling_levels=EXTENDED_DOUBLING_LEVELS,
        ),
    }
)


@dataclass(frozen=True, slots=True)
class HouseGame:
    """A finished game as a score sheet enters it.

    ``matadors`` counts over all the declarer's cards, skat included, as the ISkO does
    (``+N`` mit, ``-N`` ohne); a profile that counts only jacks cuts it down.
    ``matadors_without_skat`` is needed only for a hand game that the skat made overbid.
    """

    game: GameType | None = None
    special: Special | None = None
    hand: bool = False
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    matadors: int = 0
    matadors_without_skat: int | None = None
    bid: int = 18
    declarer_points: int = 0
    declarer_tricks: int = 0
    conceded: bool = False
    spitzen: int = 0
    spitze_made: bool = True
    rum: bool = False
    doublings: int = 0
    bock: bool = False


@dataclass(frozen=True, slots=True)
class HouseOutcome:
    won: bool
    value: int
    score: int
    overbid: bool
    schneider: bool
    schwarz: bool
    steps: Derivation

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return rule_ids_of(self.steps)

    def explain(self, lang: str = "de") -> list[str]:
        return [s.text(lang) for s in self.steps]


def _name(game: HouseGame) -> tuple[str, str]:
    if game.special is Special.REVOLUTION:
        return "Revolution", "Revolution"
    if game.special is Special.SAXON:
        return "Sächsische Spitze", "Saxon Spitze"
    assert game.game is not None
    return game_ref(game.game), game_ref(game.game)


_LABELS = {switch.field: switch.label for switch in SWITCHES}


def house_rule(field: str, *, start: bool = False) -> tuple[str, str]:
    """``Hausregel „Grand 20“`` / ``house rule “Grand 20”``: how a derivation names the switch it
    applies (``start``: at the start of a sentence, ``House rule`` in English)."""
    label = _LABELS[field]
    return f"Hausregel „{label.de}“", f"{'House' if start else 'house'} rule “{label.en}”"


def _base_note(game: HouseGame, rules: RuleSet) -> Step | None:
    """The step that names a Grand base value set by a switch (K.7.3), if one applies."""
    if game.game is not GameType.GRAND:
        return None
    if game.ouvert and rules.grand_ouvert_base is not None:
        de, en = house_rule("grand_ouvert_base", start=True)
        return Step(
            f"{de}: Grand ouvert hat den Grundwert {rules.grand_ouvert_base}, ohne die Stufe „offen“",
            f"{en}: Grand ouvert has the base value {rules.grand_ouvert_base}, without the level “open”",
            ("K.5.3", "K.7.3"),
        )
    if rules.grand_base != ISKO.grand_base:
        de, en = house_rule("grand_base", start=True)
        return Step(
            f"{de}: der Grand hat den Grundwert {rules.grand_base}",
            f"{en}: Grand has the base value {rules.grand_base}",
            ("K.5.3", "K.7.3"),
        )
    return None


def doublings(*, kontra: bool, re: bool, more: int, null_closed: bool, pub: bool) -> int:
    """How many times Kontra, Re and the further levels double a game (K.1, K.7.10), checked:
    only under pub rules, Re only after Kontra, further levels only after Re, no Re on a Null
    or Null Hand (``null_closed``)."""
    if (kontra or re or more) and not pub:
        raise SkatError("Kontra und Re nur mit Kneipenregeln (K.1)", "Kontra and Re only with pub rules (K.1)")
    if re and not kontra:
        raise SkatError("Re gibt es nur nach einem Kontra (K.1.3)", "Re is only possible after a Kontra (K.1.3)")
    if more < 0 or (more and not re):
        raise SkatError("Weitere Stufen erst nach Re (K.7.10)", "Further levels only after Re (K.7.10)")
    if re and null_closed:
        raise SkatError("Auf Null und Null Hand gibt es kein Re (K.1.3)", "There is no Re on Null or Null Hand (K.1.3)")
    return int(kontra) + int(re) + more


def _check(game: HouseGame, rules: RuleSet) -> None:
    if (game.game is None) == (game.special is None):
        raise SkatError("Entweder ein Spiel der ISkO oder ein Sonderspiel", "Either an ISkO game or a special game")
    if not 0 <= game.declarer_points <= TOTAL_POINTS or not 0 <= game.declarer_tricks <= 10:
        raise SkatError(
            "Augen liegen zwischen 0 und 120, Stiche zwischen 0 und 10",
            "Card points lie between 0 and 120, tricks between 0 and 10",
        )
    if game.bid < 18:
        raise SkatError("Gereizt wird ab 18", "Bidding starts at 18")
    if game.special is Special.REVOLUTION and rules.revolution is None:
        raise SkatError("Die Revolution gibt es nur mit dem Schalter Revolution", "Revolution needs its switch")
    if game.special is Special.SAXON and not rules.saxon_spitze:
        raise SkatError("Die Sächsische Spitze gibt es nur mit ihrem Schalter", "Saxon Spitze needs its switch")
    if game.spitzen and not rules.spitze:
        raise SkatError("Spitzen ansagen gibt es nur mit dem Schalter Spitze", "Announcing Spitzen needs its switch")
    if game.rum and not rules.rum:
        raise SkatError("Rum gibt es nur mit dem Schalter Rum", "Rum needs its switch")
    if game.rum and game.hand:
        raise SkatError(
            "Rum sagt, wer den Skat aufnimmt: kein Handspiel", "Rum is said before picking up the skat: no hand game"
        )
    if not 0 <= game.doublings <= len(rules.doubling_levels):
        raise SkatError(
            f"Höchstens {len(rules.doubling_levels)} Verdopplungen ({', '.join(rules.doubling_levels)})",
            f"At most {len(rules.doubling_levels)} doublings ({', '.join(rules.doubling_levels)})",
        )
    null_like = game.game is GameType.NULL or game.special is Special.REVOLUTION
    if null_like:
        if game.spitzen or game.rum or game.schneider_announced or game.schwarz_announced:
            raise SkatError(
                "Nullspiele haben keine Spitzen und keine Gewinnstufen", "Null games have no matadors and no levels"
            )
        return
    top = 4 if (game.game is GameType.GRAND or game.special is Special.SAXON) else 11
    if game.matadors == 0 or abs(game.matadors) > top:
        raise SkatError(f"Spitzen gehen von 1 bis {top}", f"Matadors range from 1 to {top}")
    if game.spitzen < 0 or game.spitzen > 4:
        raise SkatError("Angesagt werden 0 bis 4 Spitzen", "0 to 4 Spitzen may be announced")
    if (
        not rules.free_announcements
        and not game.hand
        and (game.schneider_announced or game.schwarz_announced or game.ouvert)
    ):
        raise SkatError(
            "Ansagen und offene Spiele nur aus der Hand (ISkO 2.4.4); frei nur mit dem Schalter freie Ansagen",
            "Announcements and open games only as hand games (ISkO 2.4.4); free only with its switch",
        )


def score_house(game: HouseGame, rules: RuleSet = ISKO) -> HouseOutcome:
    """Value ``game`` under ``rules`` and write its derivation.

    A game that no house switch touches is scored by :func:`.scoring.score_game` (the
    one place for won or lost, Schneider, Schwarz, overbid and the overbid Null) under the
    rule set's numbers (Grand 20, Grand ouvert 36, "Hand wird nicht bestraft" are numbers of
    the rule set); the switches that change how a game is played or counted are valued
    here, each step naming its house rule."""
    _check(game, rules)
    if _isko_shaped(game, rules):
        return _score_isko_shaped(game, rules)
    steps: list[Step] = []
    name_de, name_en = _name(game)
    if game.special is Special.REVOLUTION:
        assert rules.revolution is not None
        value = REVOLUTION_VALUE
        steps.append(
            Step(
                f"Revolution (Spielweise {rules.revolution}) = {value}",
                f"Revolution (variant {rules.revolution}) = {value}",
                ("K.5.1", "K.7.7"),
            )
        )
        won = game.declarer_tricks == 0 and not game.conceded
        steps.append(
            Step(
                f"Der Alleinspieler hat {game.declarer_tricks} Stich(e): {'gewonnen' if won else 'verloren'}",
                f"The declarer took {game.declarer_tricks} trick(s): {'won' if won else 'lost'}",
                ("4.2.7",),
            )
        )
        overbid = value < game.bid
        counted = value
        if overbid:
            counted = lowest_multiple(value, game.bid)
            steps.append(
                Step(
                    f"überreizt: {value} < {game.bid}, verloren mit {counted // value} × {value} = {counted}",
                    f"overbid: {value} < {game.bid}, lost with {counted // value} × {value} = {counted}",
                    ("4.4.2" if game.hand else "4.4.1",),
                )
            )
        return _finish(game, rules, counted, won and not overbid, overbid, counted, False, False, steps)

    # ---- announcements, normalised as the ISkO does unless they are free
    schwarz_announced = game.schwarz_announced or (game.ouvert and not rules.free_announcements)
    schneider_announced = game.schneider_announced or (schwarz_announced and not rules.free_announcements)
    if rules.free_announcements and (
        (not game.hand and (game.schneider_announced or game.schwarz_announced or game.ouvert))
        or (game.ouvert and not game.schwarz_announced)
        or (game.schwarz_announced and not game.schneider_announced)
    ):
        de, en = house_rule("free_announcements", start=True)
        steps.append(
            Step(
                f"{de}: die Ansagen gelten, wie sie gemacht wurden",
                f"{en}: the announcements count as they were made",
                ("K.5.10", "K.7.6"),
            )
        )

    # ---- reached levels; "mit 30 aus dem Schneider" helps the defenders only (K.7.4)
    out_with = OUT_OF_SCHNEIDER - 1 if rules.schneider_at_30 else OUT_OF_SCHNEIDER
    defenders = TOTAL_POINTS - game.declarer_points
    schneider, schwarz = levels_reached(game.declarer_points, game.declarer_tricks, out_with)
    schneider, schwarz = schneider and not game.conceded, schwarz and not game.conceded
    if rules.schneider_at_30 and defenders == out_with and not schwarz and not game.conceded:
        steps.append(
            Step(
                f"Die Gegenpartei hat 30 Augen: aus dem Schneider ({house_rule('schneider_at_30')[0]})",
                f"The defenders have 30 card points: out of Schneider ({house_rule('schneider_at_30')[1]})",
                ("K.5.9", "K.7.4"),
            )
        )

    # ---- matadors
    matadors = game.matadors
    if rules.jacks_only_matadors or game.special is Special.SAXON:
        cut = (1 if matadors > 0 else -1) * min(abs(matadors), 4)
        if cut != matadors:
            de, en = house_rule("jacks_only_matadors" if game.special is None else "saxon_spitze", start=True)
            steps.append(
                Step(
                    f"{de}: {matadors_text(matadors)} zählt als {matadors_text(cut)}",
                    f"{en}: {matadors_text(matadors, 'en')} counts as {matadors_text(cut, 'en')}",
                    ("K.5.2", "K.7.2"),
                )
            )
        matadors = cut

    # ---- base value
    is_grand = game.game is GameType.GRAND
    base_rule: tuple[str, ...]
    own_ouvert_base = is_grand and game.ouvert and rules.grand_ouvert_base is not None
    if game.special is Special.SAXON:
        base, base_rule = SAXON_BASE, ("K.5.5", "K.7.9")
    elif own_ouvert_base:
        assert rules.grand_ouvert_base is not None
        base, base_rule = rules.grand_ouvert_base, ("K.5.3", "K.7.3")
    elif is_grand:
        base, base_rule = rules.grand_base, (("4.1.1",) if rules.grand_base == 24 else ("K.5.3", "K.7.3"))
    else:
        assert game.game is not None
        base, base_rule = ISKO.base_value(game.game), ("4.1.1",)
    note = _base_note(game, rules)
    if note is not None:
        steps.append(note)

    # ---- levels
    levels: list[tuple[str, str]] = [("Spiel", "game")]
    level_rules = ["1.4.2", "4.3.2"]
    doubling_levels: list[tuple[str, str]] = []
    if game.hand:
        levels.append(("Hand", "hand"))
    ladder = []
    if schneider or schneider_announced:
        ladder.append(("Schneider", "schneider"))
    if schneider_announced:
        ladder.append(("Schneider angesagt", "schneider announced"))
    if schwarz or schwarz_announced:
        ladder.append(("Schwarz", "schwarz"))
    if schwarz_announced:
        ladder.append(("Schwarz angesagt", "schwarz announced"))
    if rules.schneider_doubles:
        doubling_levels = ladder
    else:
        levels.extend(ladder)
        if ladder:
            level_rules += ["4.2.3", "4.2.5"] if schneider_announced else ["4.2.3"]
    if game.ouvert and not own_ouvert_base:
        levels.append(("offen", "open"))
        level_rules.append("4.2.6")
    if game.rum:
        levels.append(("Rum", "rum"))
        level_rules += ["K.5.4", "K.7.8"]
    if game.spitzen:
        level_rules += ["K.5.5", "K.7.8"]
    for flag, field in ((game.rum, "rum"), (bool(game.spitzen), "spitze")):
        if flag:
            de, en = house_rule(field, start=True)
            steps.append(Step(f"{de}: ein Fall mehr je Ansage", f"{en}: one more multiplier per call", ("K.7.8",)))
    factor = abs(matadors) + len(levels) + game.spitzen
    value = factor * base
    parts_de, parts_en, running = [matadors_text(matadors)], [matadors_text(matadors, "en")], abs(matadors)
    for de, en in levels:
        running += 1
        parts_de.append(f"{de} {running}")
        parts_en.append(f"{en} {running}")
    if game.spitzen:
        # each announced Spitze is one more multiplier: "mit 2, Spiel 3, 2 Spitzen 5"
        running += game.spitzen
        label = f"{game.spitzen} Spitze{'n' if game.spitzen > 1 else ''}"
        parts_de.append(f"{label} {running}")
        parts_en.append(f"{label} {running}")
    steps.insert(
        len(steps),
        Step(
            f"{', '.join(parts_de)} × {name_de} {base} = {value}",
            f"{', '.join(parts_en)} × {name_en} {base} = {value}",
            tuple(dict.fromkeys(level_rules + list(base_rule))),
        ),
    )
    for de, en in doubling_levels:
        value *= 2
        steps.append(
            Step(
                f"{de} verdoppelt ({house_rule('schneider_doubles')[0]}): {value}",
                f"{en} doubles ({house_rule('schneider_doubles')[1]}): {value}",
                ("K.5.6", "K.7.4"),
            )
        )

    # ---- won or lost by play
    if game.conceded:
        won = False
        steps.insert(
            0,
            Step(
                "Aufgegeben: verloren in der Stufe einfach, mit den Spitzen und mindestens zum Reizwert",
                "Conceded: lost at the simple level, with the matadors and at least at the bid",
                ("3.3.1", "2.4.3"),
            ),
        )
    else:
        won = game.declarer_points >= WIN_POINTS
        steps.insert(
            0,
            Step(
                f"{game.declarer_points} Augen für den Alleinspieler: "
                f"{'mindestens 61, gewonnen' if won else 'weniger als 61, verloren'}",
                f"{game.declarer_points} card points for the declarer: "
                f"{'at least 61, won' if won else 'fewer than 61, lost'}",
                ("4.2.2",),
            ),
        )
        if schwarz_announced and game.declarer_tricks != 10:
            won = False
            steps.insert(
                1,
                Step(
                    "Schwarz angesagt, aber nicht alle Stiche: verloren",
                    "Schwarz announced but not every trick: lost",
                    ("4.2.5",),
                ),
            )
        elif schneider_announced and not schneider_made(game.declarer_points, out_with):
            won = False
            steps.insert(
                1,
                Step(
                    "Schneider angesagt, aber nicht erreicht: verloren",
                    "Schneider announced but not reached: lost",
                    ("4.2.5",),
                ),
            )
        if game.spitzen and not game.spitze_made:
            won = False
            steps.append(
                Step(
                    "Die angesagte Spitze ist nicht gefallen: verloren",
                    "The announced Spitze did not take its trick: lost",
                    ("K.5.5", "K.7.8"),
                )
            )

    # ---- overbid, or not in a hand game under the house rule
    counted = value
    overbid = value < game.bid
    if overbid and game.hand and rules.hand_overbid is not None:
        overbid = False
        if rules.hand_overbid is HandOverbid.HAND:
            if game.matadors_without_skat is None:
                raise SkatError(
                    "Für den Wert ohne Skat fehlen die Spitzen ohne Skat", "The matadors without the skat are missing"
                )
            without = replace(game, matadors=game.matadors_without_skat, matadors_without_skat=None, bid=18)
            counted = score_house(without, replace(rules, hand_overbid=None)).value
            if counted < game.bid:
                overbid = True
            else:
                steps.append(
                    Step(
                        f"Handspiel, nicht überreizt ({house_rule('hand_overbid')[0]}): es zählt der Wert ohne "
                        f"Skat, {counted}",
                        f"Hand game, not overbid ({house_rule('hand_overbid')[1]}): the value without the skat "
                        f"counts, {counted}",
                        ("K.5.8", "K.7.5"),
                    )
                )
        else:
            steps.append(
                Step(
                    f"Handspiel, nicht überreizt ({house_rule('hand_overbid')[0]}): es zählt der Wert mit Skat, "
                    f"{value}",
                    f"Hand game, not overbid ({house_rule('hand_overbid')[1]}): the value with the skat counts, "
                    f"{value}",
                    ("K.5.8", "K.7.5"),
                )
            )
    if overbid:
        won = False
        counted = lowest_multiple(base, game.bid)
        steps.append(
            Step(
                f"überreizt: {value} < {game.bid}, verloren mit {counted // base} × {base} = {counted}",
                f"overbid: {value} < {game.bid}, lost with {counted // base} × {base} = {counted}",
                ("4.4.2" if game.hand else "4.4.1",),
            )
        )
    return _finish(game, rules, counted, won, overbid, counted, schneider, schwarz, steps)


def _isko_shaped(game: HouseGame, rules: RuleSet) -> bool:
    """Does the ISkO's scoring (with the rule set's numbers) value this game?"""
    if game.special is not None or game.spitzen or game.rum:
        return False
    if game.game is GameType.NULL:
        return True  # no switch changes a Null (its overbid is 2.4.4's, in scoring)
    if rules.jacks_only_matadors or rules.schneider_doubles or rules.free_announcements:
        return False
    return not (rules.schneider_at_30 or (rules.hand_overbid is not None and game.hand))


def _score_isko_shaped(game: HouseGame, rules: RuleSet) -> HouseOutcome:
    assert game.game is not None
    contract = Contract(
        game.game,
        hand=game.hand,
        ouvert=game.ouvert,
        schneider_announced=game.schneider_announced,
        schwarz_announced=game.schwarz_announced,
    )
    matadors = 0 if game.game.is_null else game.matadors
    steps: list[Step]
    if game.conceded:
        settled = concede(contract, matadors, bid=game.bid, rules=rules)
        won, value, score, overbid, schneider, schwarz = (
            settled.won,
            settled.value,
            settled.score,
            settled.overbid,
            False,
            False,
        )
        steps = list(settled.steps)
    else:
        outcome: Outcome = score_game(
            contract,
            matadors,
            bid=game.bid,
            declarer_points=game.declarer_points,
            declarer_tricks=game.declarer_tricks,
            rules=rules,
            null_matadors=game.matadors if game.game.is_null and game.matadors else None,
        )
        won, value, score, overbid = outcome.won, outcome.value, outcome.score, outcome.overbid
        schneider, schwarz = outcome.schneider, outcome.schwarz
        steps = list(outcome.steps)
    note = _base_note(game, rules)
    if note is not None:
        steps.insert(0, note)
    if game.hand and rules.hand_not_punished and not won:
        steps.append(
            Step(
                f"{house_rule('hand_not_punished')[0]}: das verlorene Handspiel zählt einfach",
                f"{house_rule('hand_not_punished', start=True)[1]}: the lost hand game counts single",
                ("K.5.7", "K.7.5"),
            )
        )
    score = _doubled(game, rules, score, steps)
    return HouseOutcome(won, value, score, overbid, schneider, schwarz, tuple(steps))


def _doubled(game: HouseGame, rules: RuleSet, score: int, steps: list[Step]) -> int:
    """Kontra, Re and the further levels of K.7.10, then the Bock game (K.2.2)."""
    for name in rules.doubling_levels[: game.doublings]:
        score *= 2
        steps.append(
            Step(
                f"{name} verdoppelt: {score}",
                f"{name} doubles: {score}",
                ("K.1.4",) if name in DOUBLING_LEVELS else ("K.1.4", "K.7.10"),
            )
        )
    if game.bock:
        score *= 2
        steps.append(Step(f"Bockspiel verdoppelt: {score}", f"Bock game doubles: {score}", ("K.2.2",)))
    return score


def _finish(
    game: HouseGame,
    rules: RuleSet,
    value: int,
    won: bool,
    overbid: bool,
    counted: int,
    schneider: bool,
    schwarz: bool,
    steps: list[Step],
) -> HouseOutcome:
    if won:
        score = counted
        steps.append(Step(f"Gewonnen: +{counted}", f"Won: +{counted}", ("4.3.1",)))
    elif game.hand and rules.hand_not_punished:
        score = -counted
        steps.append(
            Step(
                f"Verlorenes Handspiel zählt einfach ({house_rule('hand_not_punished')[0]}): {score}",
                f"A lost hand game counts single ({house_rule('hand_not_punished')[1]}): {score}",
                ("K.5.7", "K.7.5"),
            )
        )
    else:
        score = -2 * counted
        steps.append(Step(f"Verloren zählt doppelt: {score}", f"A lost game counts double: {score}", ("4.3.4",)))
    score = _doubled(game, rules, score, steps)
    return HouseOutcome(won, value, score, overbid, schneider, schwarz, tuple(steps))


# ---- Spitze and Saxon Spitze: the cards


def spitze_cards(game: GameType, count: int) -> tuple[Card, ...]:
    """The game's lowest trumps that must take the last ``count`` tricks, last trick first
    (K.5.5): in a suit game the seven of trumps, then the eight ...; in Grand the jack of
    diamonds, then of hearts ..."""
    if game.is_null:
        raise SkatError("Nullspiele haben keine Spitze", "Null games have no Spitze")
    if not 1 <= count <= 4:
        raise SkatError("Angesagt werden 1 bis 4 Spitzen", "1 to 4 Spitzen may be announced")
    return tuple(reversed(game.trumps_in_order))[:count]


def spitze_made(game: GameType, count: int, winning_cards: Sequence[Card]) -> bool:
    """Did the declarer take the last ``count`` tricks with the announced trumps?
    ``winning_cards`` holds the card that won each of the last tricks for the declarer,
    last trick first (``None``-free; a trick the declarer lost breaks the Spitze)."""
    needed = spitze_cards(game, count)
    return len(winning_cards) >= count and tuple(winning_cards[:count]) == needed


_SAXON_SUIT_ORDER = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE)
_SAXON_JACKS = (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS)


def _saxon_strength(card: Card, led: Suit) -> int:
    if card.rank is Rank.JACK:
        return 100 + (len(_SAXON_JACKS) - _SAXON_JACKS.index(card.suit))
    if card.suit is led:
        return 50 + (len(_SAXON_SUIT_ORDER) - _SAXON_SUIT_ORDER.index(card.rank))
    return 0


def saxon_trick_winner(trick: Sequence[Card]) -> int:
    """Position (0-2) of the card that takes a full trick in Saxon Spitze (K.5.5): jacks
    are trumps with the jack of diamonds highest, and in the suits the order runs upwards
    from the seven (seven highest, ace lowest)."""
    if len(trick) != 3:
        raise SkatError("Ein Stich hat drei Karten", "A trick has three cards")
    first = trick[0]
    led = first.suit if first.rank is not Rank.JACK else None
    strengths = [
        (100 + (4 - _SAXON_JACKS.index(c.suit)))
        if c.rank is Rank.JACK
        else (_saxon_strength(c, led) if led is not None else 0)
        for c in trick
    ]
    return max(range(3), key=lambda i: strengths[i])
