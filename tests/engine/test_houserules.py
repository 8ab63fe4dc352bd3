"""House-rule profiles: every switch valued against seed 002's examples; the ISkO profile equals score_game."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from skatschule.engine import Contract, GameType, SkatError, concede, parse_card, parse_cards, score_game
from skatschule.engine.houserules import (
    EXTENDED_DOUBLING_LEVELS,
    PROFILES,
    REVOLUTION_VARIANTS,
    HandOverbid,
    HouseGame,
    Special,
    saxon_trick_winner,
    score_house,
    spitze_cards,
    spitze_made,
)
from skatschule.engine.names import render
from skatschule.engine.rules import PUB, RuleSet

ISKO = RuleSet()


@pytest.mark.parametrize("game", list(GameType))
def test_isko_profile_gives_the_isko_entry(game: GameType) -> None:
    """Every switch off: the same won/value/score as the engine's ISkO scoring, over a grid."""
    flag_sets = [
        (False, False, False, False),
        (True, False, False, False),
        (True, False, True, False),
        (True, False, True, True),
        (True, True, True, True),
    ]
    if game is GameType.NULL:
        flag_sets = [(h, o, False, False) for h in (False, True) for o in (False, True)]
    matador_list = [0] if game is GameType.NULL else [1, -1, 3, -4]
    checked = 0
    for (hand, ouvert, sn, sw), m, points, bid in itertools.product(
        flag_sets, matador_list, (0, 25, 30, 31, 60, 61, 89, 90, 120), (18, 23, 48, 96)
    ):
        tricks = 0 if points == 0 else 10 if points == 120 else 5
        if game is GameType.NULL:
            tricks = 0 if points < 30 else 2
        contract = Contract(game, hand=hand, ouvert=ouvert, schneider_announced=sn, schwarz_announced=sw)
        expected = score_game(contract, m, bid=bid, declarer_points=points, declarer_tricks=tricks)
        got = score_house(
            HouseGame(
                game,
                hand=hand,
                ouvert=ouvert,
                schneider_announced=sn,
                schwarz_announced=sw,
                matadors=m,
                bid=bid,
                declarer_points=points,
                declarer_tricks=tricks,
            ),
            ISKO,
        )
        assert (got.won, got.value, got.score, got.overbid) == (
            expected.won,
            expected.value,
            expected.score,
            expected.overbid,
        ), (contract, m, points, bid)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("m,bid", [(1, 18), (-2, 36), (3, 60)])
def test_isko_profile_concede_equals_engine_concede(m: int, bid: int) -> None:
    expected = concede(Contract(GameType.HEARTS), m, bid=bid)
    got = score_house(
        HouseGame(GameType.HEARTS, matadors=m, bid=bid, declarer_points=40, declarer_tricks=3, conceded=True)
    )
    assert (got.won, got.value, got.score) == (expected.won, expected.value, expected.score)


def test_seed_spitze_example_mit_2_spiel_3_mit_2_spitzen_5_mal_kreuz_60() -> None:
    rules = RuleSet(spitze=True)
    o = score_house(
        HouseGame(GameType.CLUBS, matadors=2, spitze=2, bid=18, declarer_points=70, declarer_tricks=6), rules
    )
    assert o.value == 60 and o.score == 60
    assert "mit 2, Spiel 3, 2 Spitzen 5 × Kreuz 12 = 60" in [render(t) for t in o.explain()]
    assert "K.5.5" in o.rule_ids
    lost = score_house(
        HouseGame(
            GameType.CLUBS, matadors=2, spitze=2, spitze_made=False, bid=18, declarer_points=70, declarer_tricks=6
        ),
        rules,
    )
    assert not lost.won and lost.score == -120
    with pytest.raises(SkatError):
        score_house(HouseGame(GameType.CLUBS, matadors=2, spitze=1, declarer_points=70, declarer_tricks=6), ISKO)


def test_spitze_cards_are_the_games_lowest_trumps() -> None:
    assert spitze_cards(GameType.CLUBS, 2) == tuple(parse_cards("C7 C8"))
    assert spitze_cards(GameType.GRAND, 1) == (parse_card("DJ"),)
    assert spitze_made(GameType.HEARTS, 1, [parse_card("H7"), parse_card("HA")])
    assert not spitze_made(GameType.HEARTS, 2, [parse_card("H7"), parse_card("HA")])


def test_rum_raises_the_factor_by_one_and_needs_the_skat() -> None:
    rules = RuleSet(rum=True)
    o = score_house(HouseGame(GameType.SPADES, matadors=1, rum=True, declarer_points=70, declarer_tricks=6), rules)
    assert o.value == (1 + 1 + 1) * 11
    with pytest.raises(SkatError):
        score_house(
            HouseGame(GameType.SPADES, matadors=1, rum=True, hand=True, declarer_points=70, declarer_tricks=6), rules
        )


def test_jacks_only_matadors_cut_mit_6_to_mit_4() -> None:
    o = score_house(
        HouseGame(GameType.CLUBS, matadors=6, declarer_points=70, declarer_tricks=6),
        RuleSet(jacks_only_matadors=True),
    )
    assert o.value == (4 + 1) * 12
    assert score_house(HouseGame(GameType.CLUBS, matadors=6, declarer_points=70, declarer_tricks=6)).value == 7 * 12


def test_grand_20_and_grand_ouvert_36_or_30() -> None:
    g = HouseGame(GameType.GRAND, matadors=1, declarer_points=70, declarer_tricks=6)
    assert score_house(g, RuleSet(grand_base=20)).value == 40
    ouvert = HouseGame(GameType.GRAND, matadors=4, hand=True, ouvert=True, declarer_points=120, declarer_tricks=10)
    # ISkO: mit 4, Spiel, Hand, Schneider, angesagt, Schwarz, angesagt, offen = 11 × 24
    assert score_house(ouvert).value == 11 * 24
    # own base: no level "offen"
    assert score_house(ouvert, RuleSet(grand_ouvert_base=36)).value == 10 * 36
    assert score_house(ouvert, RuleSet(grand_base=20, grand_ouvert_base=30)).value == 10 * 30


def test_schneider_and_schwarz_double_instead_of_adding() -> None:
    g = HouseGame(GameType.CLUBS, matadors=1, declarer_points=95, declarer_tricks=8)
    assert score_house(g).value == 3 * 12
    o = score_house(g, RuleSet(schneider_doubles=True))
    assert o.value == 2 * 12 * 2 and "K.5.6" in o.rule_ids
    schwarz = HouseGame(GameType.CLUBS, matadors=1, declarer_points=120, declarer_tricks=10)
    assert score_house(schwarz, RuleSet(schneider_doubles=True)).value == 2 * 12 * 4


def test_hand_is_not_punished() -> None:
    g = HouseGame(GameType.HEARTS, matadors=1, hand=True, declarer_points=55, declarer_tricks=4)
    assert score_house(g).score == -2 * 30
    assert score_house(g, RuleSet(hand_not_punished=True)).score == -30


def test_seed_example_no_overbidding_in_hand_games_45_or_27() -> None:
    # bid ohne 3, Spiel 4, Hand 5 × Karo = 45; the jack of clubs lies in the skat: mit 1, Spiel 2, Hand 3 = 27
    g = HouseGame(
        GameType.DIAMONDS,
        matadors=1,
        matadors_without_skat=-3,
        hand=True,
        bid=45,
        declarer_points=70,
        declarer_tricks=6,
    )
    isko = score_house(g)
    assert isko.overbid and not isko.won
    by_hand = score_house(g, RuleSet(hand_overbid=HandOverbid.HAND))
    by_skat = score_house(g, RuleSet(hand_overbid=HandOverbid.SKAT))
    assert (by_hand.won, by_hand.score) == (True, 45)
    assert (by_skat.won, by_skat.score) == (True, 27)
    with pytest.raises(SkatError):
        score_house(replace_matadors(g), RuleSet(hand_overbid=HandOverbid.HAND))


def replace_matadors(g: HouseGame) -> HouseGame:
    from dataclasses import replace

    return replace(g, matadors_without_skat=None)


def test_out_of_schneider_with_30() -> None:
    g = HouseGame(GameType.CLUBS, matadors=1, declarer_points=90, declarer_tricks=8)
    assert score_house(g).schneider
    o = score_house(g, RuleSet(schneider_at_30=True))
    assert not o.schneider and o.value == 2 * 12
    assert score_house(
        HouseGame(GameType.CLUBS, matadors=1, declarer_points=91, declarer_tricks=8), RuleSet(schneider_at_30=True)
    ).schneider


def test_free_announcements_allow_schneider_after_picking_up_and_open_without_schwarz() -> None:
    g = HouseGame(GameType.SPADES, matadors=1, schneider_announced=True, declarer_points=92, declarer_tricks=8)
    with pytest.raises(SkatError):
        score_house(g)
    o = score_house(g, RuleSet(free_announcements=True))
    assert o.won and o.value == (1 + 1 + 2) * 11
    open_ = HouseGame(GameType.GRAND, matadors=2, hand=True, ouvert=True, declarer_points=80, declarer_tricks=7)
    assert not score_house(open_).won  # ISkO: open means every trick
    free = score_house(open_, RuleSet(free_announcements=True))
    assert free.won and free.value == (2 + 1 + 1 + 1) * 24


@pytest.mark.parametrize("variant", [1, 2, 3])
def test_revolution_is_worth_92_in_every_variant(variant: int) -> None:
    rules = RuleSet(revolution=variant)
    assert score_house(HouseGame(special=Special.REVOLUTION, bid=92, declarer_tricks=0), rules).score == 92
    assert score_house(HouseGame(special=Special.REVOLUTION, bid=92, declarer_tricks=1), rules).score == -184
    with pytest.raises(SkatError):
        score_house(HouseGame(special=Special.REVOLUTION, declarer_tricks=0))


def test_saxon_spitze_base_20_and_reversed_order() -> None:
    o = score_house(
        HouseGame(special=Special.SAXON, matadors=2, declarer_points=70, declarer_tricks=6),
        RuleSet(saxon_spitze=True),
    )
    assert o.value == 3 * 20
    assert saxon_trick_winner(parse_cards("HA H7 HK")) == 1  # the seven beats ace and king
    assert saxon_trick_winner(parse_cards("CJ DJ HA")) == 1  # the jack of diamonds is highest
    assert saxon_trick_winner(parse_cards("S7 C7 D7")) == 0  # not following does not win


def test_kontra_re_and_the_further_doublings() -> None:
    lost = HouseGame(GameType.GRAND, matadors=1, bid=18, declarer_points=50, declarer_tricks=5, doublings=2)
    assert score_house(lost, PUB).score == -2 * 48 * 4  # the seed's eightfold: 2 lost x 2 Kontra x 2 Re
    with pytest.raises(SkatError):  # Kontra only under rules that have it (the pub rules)
        score_house(lost)
    with pytest.raises(SkatError):
        score_house(HouseGame(GameType.GRAND, matadors=1, declarer_points=70, declarer_tricks=6, doublings=3), PUB)
    long = PUB.with_switches({"doubling_levels": EXTENDED_DOUBLING_LEVELS})
    o = score_house(HouseGame(GameType.GRAND, matadors=1, declarer_points=70, declarer_tricks=6, doublings=7), long)
    assert o.score == 48 * 2**7
    verdict = o.steps[-1].de
    assert [verdict.index(f"{name} verdoppelt") for name in EXTENDED_DOUBLING_LEVELS] == sorted(
        verdict.index(f"{name} verdoppelt") for name in EXTENDED_DOUBLING_LEVELS
    )
    assert "K.7.10" in o.rule_ids


def test_profiles_round_trip_as_data() -> None:
    for rules in PROFILES.values():
        assert RuleSet.from_dict(rules.as_dict()) == rules
    with pytest.raises(SkatError):
        RuleSet.from_dict({"grand_base": 22})
    with pytest.raises(SkatError):
        RuleSet.from_dict({"nonsense": True})


def test_revolution_variants_as_seed_002_describes_them() -> None:
    one, two, three = (REVOLUTION_VARIANTS[v] for v in (1, 2, 3))
    assert one.hand and one.defenders_swap and not one.defenders_take_skat and not one.declarer_leads
    assert two.defenders_take_skat and not two.defenders_swap and not two.declarer_leads
    assert three.defenders_swap and three.defenders_take_skat and three.declarer_leads


# --- one variant model (issue 27 §1) and the engine semantics of issue 26 §1.1/§2


def test_out_of_schneider_with_30_helps_the_defenders_only() -> None:
    """Grand Hand mit 2, the declarer with 30 Augen: still Schneider for him (seed 002 and
    K.7.4 name only the defenders), so 5 × 24 = 120, lost -240 (not -192)."""
    g = HouseGame(GameType.GRAND, hand=True, matadors=2, declarer_points=30, declarer_tricks=3)
    isko = score_house(g)
    house = score_house(g, RuleSet(schneider_at_30=True))
    assert house.schneider and (house.value, house.score) == (isko.value, isko.score) == (120, -240)


def test_the_switch_is_named_only_where_it_changes_the_result() -> None:
    rules = RuleSet(schneider_at_30=True)
    changed = score_house(HouseGame(GameType.CLUBS, matadors=1, declarer_points=90, declarer_tricks=8), rules)
    untouched = score_house(HouseGame(GameType.CLUBS, matadors=1, declarer_points=95, declarer_tricks=8), rules)
    assert any("Mit 30 aus dem Schneider" in s.de and "Out of Schneider with 30" in s.en for s in changed.steps)
    assert not any("30" in s.de and "Hausregel" in s.de for s in untouched.steps)


def test_overbid_null_is_the_cheapest_lost_game_with_the_matadors_under_every_rule_set() -> None:
    """Case F-13 / ISkO 2.4.4: Null bid to 30 with 'mit 2' is a lost Herz game, -60 (not 2 × 23 = -92);
    the house-rule path, score_game with the number of matadors and the Bock game agree."""
    g = HouseGame(GameType.NULL, matadors=2, bid=30, declarer_points=0, declarer_tricks=0)
    assert score_house(g).score == -60
    assert score_house(g, RuleSet(jacks_only_matadors=True, grand_base=20)).score == -60
    assert score_house(HouseGame(GameType.NULL, matadors=2, bid=30, bock=True), PUB).score == -120
    o = score_game(Contract(GameType.NULL), 0, bid=30, declarer_points=0, declarer_tricks=0, null_matadors=2)
    assert (o.score, o.counted_game) == (-60, GameType.HEARTS)
    assert any("2.4.4" in s.rules for s in o.steps)
    # without the matadors the vectors contract's reading stays: 2 × 23 = 46, lost -92
    assert score_house(HouseGame(GameType.NULL, bid=30)).score == -92


def test_one_rule_set_model_pre1999_and_pub_are_switches_of_it() -> None:
    from skatschule.engine.rules import ISKO, PRE1999, PUB, RuleSet

    assert RuleSet is RuleSet and RuleSet() == ISKO and ISKO.is_isko
    assert PRE1999 == RuleSet(grand_ouvert_base=36, hand_not_punished=True) == PROFILES["alt"]
    assert PUB.doublings and not PUB.is_isko
    # the numbers come from the switches, for score_game too
    grand = Contract(GameType.GRAND)
    assert score_game(grand, 1, bid=18, declarer_points=70, declarer_tricks=6, rules=RuleSet(grand_base=20)).value == 40
    assert score_game(grand, 1, bid=18, declarer_points=70, declarer_tricks=6).value == 48  # the cache tells them apart


def test_every_switch_is_listed_once_with_labels_in_both_languages() -> None:
    from skatschule.engine.explain import Text
    from skatschule.engine.rules import SWITCHES

    fields_ = [s.field for s in SWITCHES]
    assert len(set(fields_)) == len(fields_)
    every_on = RuleSet(
        jacks_only_matadors=True,
        grand_base=20,
        grand_ouvert_base=30,
        schneider_doubles=True,
        hand_not_punished=True,
        hand_overbid=HandOverbid.SKAT,
        schneider_at_30=True,
        free_announcements=True,
        revolution=2,
        spitze=True,
        rum=True,
        saxon_spitze=True,
        doubling_levels=EXTENDED_DOUBLING_LEVELS,
        bock_reading=RuleSet.from_dict({"bock_reading": "defenders_lost"}).bock_reading,
    )
    assert set(every_on.switches()) == set(fields_)
    assert all(isinstance(s.label, Text) and s.label.de and s.label.en and "_" not in s.label.de for s in SWITCHES)


def test_doubling_levels_are_any_names_after_kontra_and_re() -> None:
    rules = PUB.with_switches({"doubling_levels": ["Kontra", "Re", "Bock"]})
    o = score_house(HouseGame(GameType.GRAND, matadors=1, declarer_points=70, declarer_tricks=6, doublings=3), rules)
    assert o.score == 48 * 8 and "Bock" in o.steps[-1].de
    for bad in (["Re", "Kontra"], ["Kontra", "Re", "Re"], "Kontra"):
        with pytest.raises(SkatError):
            RuleSet.from_dict({"doubling_levels": bad})


def test_seed_002_example_counts_45_or_27_and_names_the_house_rule() -> None:
    g = HouseGame(
        GameType.DIAMONDS,
        matadors=1,
        matadors_without_skat=-3,
        hand=True,
        bid=45,
        declarer_points=70,
        declarer_tricks=6,
    )
    for choice, value in ((HandOverbid.HAND, 45), (HandOverbid.SKAT, 27)):
        o = score_house(g, RuleSet(hand_overbid=choice))
        assert (o.won, o.score) == (True, value)
        assert any("K.7.5" in s.rules and "Hausregel" in s.de for s in o.steps)


@pytest.mark.parametrize(
    "switch,game",
    [
        ({"jacks_only_matadors": True}, HouseGame(GameType.CLUBS, matadors=6, declarer_points=70, declarer_tricks=6)),
        ({"grand_base": 20}, HouseGame(GameType.GRAND, matadors=1, declarer_points=70, declarer_tricks=6)),
        (
            {"grand_ouvert_base": 36},
            HouseGame(GameType.GRAND, hand=True, ouvert=True, matadors=4, declarer_points=120, declarer_tricks=10),
        ),
        ({"schneider_doubles": True}, HouseGame(GameType.CLUBS, matadors=1, declarer_points=95, declarer_tricks=8)),
        ({"hand_not_punished": True}, HouseGame(GameType.HEARTS, hand=True, matadors=1, declarer_points=55)),
        ({"schneider_at_30": True}, HouseGame(GameType.CLUBS, matadors=1, declarer_points=90, declarer_tricks=8)),
        (
            {"free_announcements": True},
            HouseGame(GameType.SPADES, matadors=1, schneider_announced=True, declarer_points=92, declarer_tricks=8),
        ),
        ({"spitze": True}, HouseGame(GameType.CLUBS, matadors=2, spitze=1, declarer_points=70, declarer_tricks=6)),
        ({"rum": True}, HouseGame(GameType.CLUBS, matadors=2, rum=True, declarer_points=70, declarer_tricks=6)),
    ],
)
def test_a_switch_that_changes_the_entry_is_named_in_the_derivation(switch: dict[str, Any], game: HouseGame) -> None:
    from skatschule.engine.rules import SWITCHES

    rules = RuleSet.from_dict(switch)
    (field,) = switch
    label = next(s.label for s in SWITCHES if s.field == field)
    label = type(label)(label.de, label.en.lower())
    o = score_house(game, rules)
    try:
        changed = score_house(game).score != o.score
    except SkatError:  # the ISkO refuses the game altogether
        changed = True
    assert changed
    assert any(f"Hausregel „{label.de}“" in s.de and f"house rule “{label.en}”" in s.en.lower() for s in o.steps)


@pytest.mark.parametrize(
    "rules",
    [RuleSet(hand_overbid=HandOverbid.SKAT), RuleSet(schneider_at_30=True)],
    ids=["hand_overbid", "at_30"],
)
def test_the_switch_path_agrees_with_score_game_where_the_switch_does_not_apply(rules: RuleSet) -> None:
    """Games a switch sends down score_house's own path still get the ISkO's entry when the
    switch changes nothing (no overbid hand game; the defenders do not have exactly 30)."""
    checked = 0
    for game in (GameType.CLUBS, GameType.GRAND):
        for (hand, ouvert, sn, sw), m, points, bid in itertools.product(
            [(True, False, False, False), (True, False, True, False), (True, True, True, True)],
            (1, -3),
            (0, 25, 31, 60, 61, 89, 91, 120),
            (18, 48, 96),
        ):
            tricks = 0 if points == 0 else 10 if points == 120 else 5
            contract = Contract(game, hand=hand, ouvert=ouvert, schneider_announced=sn, schwarz_announced=sw)
            expected = score_game(contract, m, bid=bid, declarer_points=points, declarer_tricks=tricks)
            if expected.overbid and rules.hand_overbid is not None:
                continue
            got = score_house(
                HouseGame(
                    game,
                    hand=hand,
                    ouvert=ouvert,
                    schneider_announced=sn,
                    schwarz_announced=sw,
                    matadors=m,
                    bid=bid,
                    declarer_points=points,
                    declarer_tricks=tricks,
                ),
                rules,
            )
            assert (got.won, got.value, got.score, got.overbid) == (
                expected.won,
                expected.value,
                expected.score,
                expected.overbid,
            ), (contract, m, points, bid)
            checked += 1
    assert checked > 50
