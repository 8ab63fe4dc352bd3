import pytest

from skatschule.engine import (
    PRE1999,
    PUB,
    Contract,
    GameType,
    SkatError,
    bierlachs,
    game_value,
    isko_totals,
    matadors,
    parse_cards,
    score_game,
    seeger_totals,
)
from skatschule.engine.names import render

C = Contract


def test_value_derivation_text_and_rules() -> None:
    v = game_value(C(GameType.CLUBS, hand=True), 2)
    assert v.value == 48 and v.plain("de") == "mit 2, Spiel 3, Hand 4 × Kreuz 12 = 48"
    assert v.plain("en") == "with 2, game 3, hand 4 × clubs 12 = 48"
    # The text names the game by reference, so that each deck can name it its own way.
    assert v.text("de") == "mit 2, Spiel 3, Hand 4 × ⟦game:clubs⟧ 12 = 48"
    assert render(v.text("de"), "de", "german") == "mit 2, Spiel 3, Hand 4 × Eichel 12 = 48"
    assert "4.1.1" in v.steps[0].rules
    assert game_value(C(GameType.GRAND, hand=True, ouvert=True), 4).value == 264
    assert game_value(C(GameType.GRAND, hand=True, ouvert=True), 4, rules=PRE1999).value == 360
    assert [
        game_value(C(GameType.NULL, hand=h, ouvert=o)).value
        for h, o in [(False, False), (True, False), (False, True), (True, True)]
    ] == [23, 35, 46, 59]


def test_matadors_over_twelve_cards() -> None:
    assert matadors(GameType.CLUBS, parse_cards("CJ SJ HJ DJ CA CT C7 S7 S8 H7 H8 D7")) == 6
    assert matadors(GameType.GRAND, parse_cards("SJ")) == -1
    assert matadors(GameType.NULL, parse_cards("CJ")) == 0
    with pytest.raises(SkatError):
        game_value(C(GameType.GRAND), 5)


def test_overbid_examples_of_the_isko() -> None:
    # bid 50, Kreuz-Bube in the skat, Herz declared: Herz mit 1 "überreizt" = -100
    o = score_game(C(GameType.HEARTS), 1, bid=50, declarer_points=70, declarer_tricks=6)
    assert (o.won, o.value, o.score, o.overbid) == (False, 50, -100, True)
    assert any("überreizt" in line for line in o.explain("de")) and "4.4.1" in o.rule_ids
    # Herz hand ohne 3 bid 36, Kreuz-Bube in the skat: lost with 4 x 10 = -80
    o = score_game(C(GameType.HEARTS, hand=True), 1, bid=36, declarer_points=75, declarer_tricks=7)
    assert (o.value, o.score) == (40, -80) and "4.4.2" in o.rule_ids


def test_announced_levels_no_eigenschneider() -> None:
    o = score_game(
        C(GameType.HEARTS, hand=True, schneider_announced=True), 2, bid=18, declarer_points=25, declarer_tricks=2
    )
    # lost, Schneider counted once although the declarer is schneider himself
    assert o.value == (2 + 1 + 1 + 1 + 1) * 10 and o.score == -120


def test_schwarz_by_tricks_not_points() -> None:
    o = score_game(C(GameType.GRAND), 1, bid=18, declarer_points=120, declarer_tricks=9)
    assert o.won and not o.schwarz and o.value == 72


def test_rule_sets_and_doublings() -> None:
    assert (
        score_game(C(GameType.CLUBS, hand=True), 1, bid=18, declarer_points=50, declarer_tricks=4, rules=PRE1999).score
        == -36
    )
    o = score_game(
        C(GameType.GRAND), 1, bid=18, declarer_points=50, declarer_tricks=4, rules=PUB, kontra=True, re=True, bock=True
    )
    assert o.score == -48 * 2 * 8
    with pytest.raises(SkatError):
        score_game(C(GameType.GRAND), 1, bid=18, declarer_points=50, declarer_tricks=4, kontra=True)
    with pytest.raises(SkatError):
        score_game(C(GameType.NULL), 0, bid=23, declarer_points=0, declarer_tricks=0, rules=PUB, kontra=True, re=True)


def test_score_lists() -> None:
    games = [(0, 48), (1, -72), (None, 0), (2, 36)]
    assert isko_totals(3, games) == [48, -72, 36]
    assert seeger_totals(3, games) == [138, -122, 126]
    assert seeger_totals(4, [(0, -96), (3, 20)]) == [-146, 30, 30, 100]
    rounds = bierlachs(3, [(0, 200), (1, -120)] * 2)
    assert rounds[0].loser is not None and rounds[-1].loser is None
    with pytest.raises(SkatError):
        seeger_totals(5, games)


def test_ramsch_and_bock_under_pub_rules() -> None:
    from skatschule.engine import GameState, GameType, deal_cards
    from skatschule.engine.pub import play_ramsch, score_ramsch, starts_bock_round

    r = score_ramsch([50, 40, 30], [4, 3, 3], schieben=2)
    assert r.scores == (-150, 20, 30) and r.multiplier == 3
    assert score_ramsch([70, 50, 0], [6, 4, 0]).multiplier == 2  # a Jungfrau adds one
    assert score_ramsch([60, 60, 0], [5, 5, 0]).losers == (0, 1)
    assert score_ramsch([120, 0, 0], [10, 0, 0]).scores == (120, 0, 0)
    with pytest.raises(SkatError):
        score_ramsch([60, 60, 1], [5, 5, 0])
    # a Ramsch played out by the first legal card: all 120 Augen end up with someone
    deal = deal_cards(4)
    state = GameState.start(deal, declarer=0, bid=18, contract=C(GameType.GRAND, hand=True))
    while not state.is_over():
        state.play(next(iter(state.legal_cards())))
    augen, tricks = play_ramsch(deal, [m.card for m in state.moves if hasattr(m, "card")])
    assert sum(augen) == 120 and sum(tricks) == 10
    lost_kontra = score_game(
        C(GameType.GRAND), 1, bid=18, declarer_points=50, declarer_tricks=4, rules=PUB, kontra=True
    )
    assert starts_bock_round(lost_kontra)
    split = score_game(C(GameType.GRAND), 1, bid=18, declarer_points=60, declarer_tricks=5, rules=PUB)
    assert starts_bock_round(split) and not split.won


def test_concede_and_settle_share_the_overbid_and_loss_rules() -> None:
    from skatschule.engine import concede, settle

    # Pik ohne 4 bid to 50, Kreuz-Bube in the skat: Herz mit 1 conceded is written -100 (ISkO 2.4.3 / 4.4.1)
    c = concede(C(GameType.HEARTS), 1, bid=50)
    assert (c.won, c.value, c.score, c.overbid) == (False, 50, -100, True)
    assert c.steps[-1].rules[0] == "3.3.1"  # the decisive rule opens the verdict
    s = settle(C(GameType.HEARTS, hand=True), 1, bid=40, won=True, schneider=True)  # seed 001: mit 1, Hand, Schneider
    assert (s.won, s.value, s.score) == (True, 40, 40)
    assert settle(C(GameType.CLUBS, hand=True), 1, bid=18, won=False, rules=PRE1999).score == -36


def test_fast_outcome_constructor_equals_the_dataclass() -> None:
    from dataclasses import fields

    from skatschule.engine.scoring import HouseCalls, Outcome, Termination, _new_outcome

    values = (
        C(GameType.HEARTS, hand=True),
        False,
        60,
        -240,
        True,
        59,
        -2,
        70,
        6,
        True,
        False,
        True,
        True,
        False,
        PUB,
        GameType.CLUBS,
        4095,
        Termination.SCHNEIDER_MISSED,
        HouseCalls(rum=True),
    )
    assert len(values) == len(fields(Outcome))
    fast, plain = _new_outcome(*values), Outcome(*values)
    assert fast == plain and repr(fast) == repr(plain)
    assert [getattr(fast, f.name) for f in fields(Outcome)] == list(values)
    with pytest.raises(AttributeError):
        fast.won = True  # type: ignore[misc]


def test_one_contract_name_for_every_caller() -> None:
    """Contract.ref is the one name (game as a reference); Contract.name is it in the ISkO's names,
    and English says "Hand" everywhere (the two old helpers said "hand" and "Hand")."""
    from skatschule.engine import scoring
    from skatschule.exercises import helpers

    c = C(GameType.SPADES, hand=True, schneider_announced=True)
    assert c.ref("de") == "⟦game:spades⟧ Hand Schneider angesagt"
    assert c.ref("en") == "⟦game:spades⟧ Hand Schneider announced"
    assert c.ref("en", capital=True) == "⟦Suit:S⟧ Hand Schneider announced"
    assert c.name("de") == render(c.ref("de"), "de") == "Pik Hand Schneider angesagt"
    assert c.name("en") == "Spades Hand Schneider announced"
    assert not hasattr(scoring, "contract_ref") and not hasattr(helpers, "contract_ref")
    null = game_value(C(GameType.NULL, hand=True))
    assert null.plain("en") == "Null Hand = 35"


def test_the_contract_name_keeps_what_makes_a_declaration_invalid() -> None:
    """Exercises ask about invalid declarations by the same name: a Null with an announcement keeps
    it (the fault); an ouvert Grand implies Hand and Schwarz angesagt and does not repeat them."""
    assert C(GameType.NULL, hand=True, schneider_announced=True).ref("de") == "⟦game:null⟧ Hand Schneider angesagt"
    assert C(GameType.NULL, schwarz_announced=True).ref("en") == "⟦game:null⟧ Schwarz announced"
    assert C(GameType.GRAND, hand=True, ouvert=True).ref("de") == "⟦game:grand⟧ ouvert"
    assert C(GameType.NULL, hand=True, ouvert=True).ref("de", game="Revolution") == "Revolution ouvert Hand"


def test_tricks_from_augen_read_schwarz_only_at_the_ends() -> None:
    from skatschule.engine.games import TOTAL_POINTS, WIN_POINTS, tricks_from_augen

    for points in range(TOTAL_POINTS + 1):
        tricks = tricks_from_augen(points)
        outcome = score_game(C(GameType.CLUBS), 1, bid=18, declarer_points=points, declarer_tricks=tricks)
        assert outcome.schwarz == (points in (0, TOTAL_POINTS)), points
        assert tricks_from_augen(points, schwarz=True) == (10 if points >= WIN_POINTS else 0)


def test_the_games_numbers_are_named_once() -> None:
    from skatschule.engine.games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, SPLIT_POINTS, TOTAL_POINTS, WIN_POINTS

    assert (TOTAL_POINTS, WIN_POINTS, SPLIT_POINTS, SCHNEIDER_POINTS, OUT_OF_SCHNEIDER) == (120, 61, 60, 90, 31)
    at = score_game(C(GameType.CLUBS), 1, bid=18, declarer_points=WIN_POINTS, declarer_tricks=5)
    below = score_game(C(GameType.CLUBS), 1, bid=18, declarer_points=SPLIT_POINTS, declarer_tricks=5)
    assert at.won and not below.won
    assert score_game(C(GameType.CLUBS), 1, bid=18, declarer_points=SCHNEIDER_POINTS, declarer_tricks=8).schneider
    assert not score_game(C(GameType.CLUBS), 1, bid=18, declarer_points=89, declarer_tricks=8).schneider


def test_card_names_come_from_names_only() -> None:
    from skatschule.engine.cards import Card, Suit
    from skatschule.engine.names import card_name, names_for

    assert not hasattr(Suit.CLUBS, "name_german_deck") and not hasattr(Card, "name_de")
    assert card_name("CJ") == "Kreuz-Bube" and card_name("CJ", "de", "german") == "Eichel-Unter"
    assert GameType.DIAMONDS.name_de == names_for(None).game("diamonds") == "Karo"


def test_seeger_totals_are_computed_in_one_place() -> None:
    """PubRound's Seeger-Fabian totals are lists.seeger_totals plus the Ramsch entries."""
    from skatschule.engine.pubround import GamePlayed, PubRound, RamschPlayed

    pr = PubRound(players=3, ramsch_when_passed=True, bock_rounds=False)
    pr = pr.apply(GamePlayed(pr.seats[0], -96, False)).apply(RamschPlayed((-60, 20, 10)))
    games = pr.game_entries()
    ramsch = [t - p for t, p in zip(pr.totals, isko_totals(3, games))]
    assert list(pr.seeger_totals()) == [s + r for s, r in zip(seeger_totals(3, games), ramsch)]


def test_english_derivations_write_schneider_and_schwarz_as_the_isko_terms() -> None:
    """ "schneider 5" stood beside "Schneider:" elsewhere on the same page: one spelling."""
    from skatschule.engine.rules import RuleSet

    v = game_value(Contract(GameType.CLUBS, hand=True, schwarz_announced=True), matadors=2)
    assert "Schneider 5, Schneider announced 6, Schwarz 7, Schwarz announced 8" in v.plain("en")
    doubled = game_value(Contract(GameType.CLUBS), matadors=1, schneider=True, rules=RuleSet(schneider_doubles=True))
    assert doubled.steps[-1].en.startswith("Schneider doubles")
