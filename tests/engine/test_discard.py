"""Drücken: discards graded by the expected list score over sampled deals (engine/discard.py).

The grades come from the fast open-hand playout (engine/playout.py); the tests check that it
plays by the rules and counts like the engine, and what the grades must satisfy whatever the play.
"""

from __future__ import annotations

import itertools
import random

from skatschule.engine import discard, playout
from skatschule.engine.cards import CARDS, CardSet, parse_cards
from skatschule.engine.discard import HandGrading, all_discards, deals_for, grade, grade_hand, rank_of
from skatschule.engine.games import Contract, GameType, legal_cards, trick_winner
from skatschule.engine.playout import KINDS, Tables, play
from skatschule.engine.scoring import game_value
from skatschule.engine.solver import solve

TWELVE = parse_cards("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7 DA SA")


def test_sampled_deals_split_the_other_twenty_cards() -> None:
    deals = deals_for(TWELVE, 30, seed=1)
    mine = CardSet(TWELVE).mask
    assert len(deals) == 30 and len(set(deals)) == 30
    for a, b in deals:
        assert a.bit_count() == b.bit_count() == 10
        assert not a & b and not (a | b) & mine and (a | b | mine) == 0xFFFFFFFF
    assert deals == deals_for(TWELVE, 30, seed=1)


def test_putting_the_dangerous_aces_away_grades_best() -> None:
    pairs = [tuple(parse_cards(p)) for p in ("DA SA", "C7 C8", "DA C7")]
    grades = grade(TWELVE, GameType.NULL, deals=2, discards=pairs)  # type: ignore[arg-type]
    value = game_value(Contract(GameType.NULL)).value
    by_cards = {frozenset(g.cards): g for g in grades}
    safe = by_cards[frozenset(parse_cards("DA SA"))]
    assert grades[0] is safe and safe.won == 2 and safe.total == 2 * value
    for g in grades:
        # every deal scores +value or -2 * value
        assert g.total == g.won * value - (g.deals - g.won) * 2 * value
    assert rank_of(grades, tuple(parse_cards("DA SA"))) == 1
    assert rank_of(grades, tuple(parse_cards("C8 C7"))) > 1
    assert safe.augen_away == 22


# -- the fast playout and the full grading ------------------------------------------------------


def test_playout_plays_legal_cards_and_counts_like_the_engine() -> None:
    """Every trick of the playout follows suit and goes to the card the engine says takes it:
    the declarer's Augen and tricks agree with a replay through :func:`legal_cards`."""

    rng = random.Random(5)
    for kind, name in enumerate(KINDS):
        game = GameType(name)
        t = Tables(kind)
        for _ in range(15):
            deck = list(range(32))
            rng.shuffle(deck)
            hands = [sum(1 << i for i in deck[k * 10 : k * 10 + 10]) for k in range(3)]
            # replay with the module's own choosers, checked by the engine
            live = list(hands)
            seat, augen, tricks, took = 0, 0, 0, False
            while live[seat]:
                lead = playout._lead(live, seat, 0, t)
                live[seat] ^= 1 << lead
                second = (seat + 1) % 3
                follow = playout._second(live, second, lead, 0, t)
                third = (seat + 2) % 3
                allowed = legal_cards(game, CardSet(live[second] | 1 << follow), [CARDS[lead]])
                assert CARDS[follow] in allowed
                live[second] ^= 1 << follow
                best, holder = (follow, second) if t.above[lead] >> follow & 1 else (lead, seat)
                augen_so_far = t.points[lead] + t.points[follow]
                last = playout._third(live[third], third, t.group[lead], best, holder, augen_so_far, 0, t)
                allowed = legal_cards(game, CardSet(live[third]), [CARDS[lead], CARDS[follow]])
                assert CARDS[last] in allowed
                live[third] ^= 1 << last
                winner = (seat + trick_winner(game, [CARDS[lead], CARDS[follow], CARDS[last]])) % 3
                if winner == 0:
                    took = True
                    augen += CARDS[lead].points + CARDS[follow].points + CARDS[last].points
                    tricks += 1
                    if game.is_null:
                        break
                seat = winner
            result = play(hands[0], hands[1], hands[2], 0, 0, t)
            if game.is_null:
                assert result == int(took)
            else:
                assert result == augen * 16 + tricks


def test_every_discard_meets_the_same_deals_and_scores_a_list_entry() -> None:
    twelve = parse_cards("CJ SJ HA HT HK H9 H7 CA C8 SK S7 D9")
    grades = grade(twelve, GameType.HEARTS, deals=24)
    assert len(grades) == 66 and {g.cards for g in grades} == set(all_discards(twelve))
    values = {
        game_value(Contract(GameType.HEARTS), 2, schneider=s, schwarz=z).value
        for s, z in ((False, False), (True, False), (True, True))
    }
    for g in grades:
        assert 0 <= g.won <= 24
        # each deal scored +v or -2v for one of the game's values: the total is bounded by them
        assert -2 * max(values) * 24 <= g.total <= max(values) * 24
    assert [g.total for g in grades] == sorted((g.total for g in grades), reverse=True)
    # putting both trump jacks away (they are the Spitzen and the best trumps) is worse than the best
    jacks = next(g for g in grades if set(g.cards) == set(parse_cards("CJ SJ")))
    assert jacks.total < grades[0].total
    assert rank_of(grades, jacks.cards) > 10


def test_hand_grading_names_the_best_game_and_round_trips_through_json() -> None:
    twelve = parse_cards("C7 C8 C9 S7 S8 SJ H7 H9 HQ D7 D8 DT")
    found = grade_hand(twelve, GameType.HEARTS, deals=30, screen=10)
    assert found.chosen.game is GameType.HEARTS and found.deals == 30
    assert found.best.best.total >= found.chosen.best.total
    assert set(found.screened) == {g for g in GameType if g is not GameType.HEARTS}
    again = HandGrading.from_json(found.as_json())
    assert again == found
    # the grading is a function of the hand: the same hand gives the same answer
    assert grade_hand(twelve, GameType.HEARTS, deals=30, screen=10) == found


def test_the_augen_put_away_count_for_the_declarer() -> None:
    twelve = parse_cards("CJ SJ HJ DJ CA CT CK C9 SA ST HA HT")
    grades = {g.cards: g for g in grade(twelve, GameType.GRAND, deals=10)}
    for pair in itertools.islice(grades, 10):
        g = grades[pair]
        assert g.augen >= g.deals * g.augen_away  # every deal gets at least the skat


def test_calibration_counts_both_verdicts_deal_by_deal() -> None:
    """The calibration plays the playout's best discard; its columns are the playout's settled
    win and the solver's proof on each sampled deal, and "same verdict" counts where they meet."""
    twelve = parse_cards("DJ SA SK SQ S9 S8 HT HQ D7 DA DT C7")
    found = discard.calibrate(twelve, GameType.GRAND, deals=6, seed=3)
    assert found.discard == grade(twelve, GameType.GRAND, deals=6, seed=3)[0].cards
    hand = CardSet(twelve).mask & ~(found.discard[0].bit | found.discard[1].bit)
    away = found.discard[0].points + found.discard[1].points
    values = discard.level_values(GameType.GRAND, 1)  # the win does not depend on the value
    by_play, by_proof = [], []
    for left, right in deals_for(twelve, 6, 3):
        result = play(hand, left, right, 0, 0, discard.game_tables(GameType.GRAND))
        by_play.append(discard.settle_playout(result, away, False, values)[1])
        hands = [CardSet(hand), CardSet(left), CardSet(right)]
        proof = solve(GameType.GRAND, 0, hands, leader=0, skat=list(found.discard), card_values=False, target=61)
        by_proof.append(proof.declarer_wins)
    assert (found.deals, found.playout_won, found.solver_won) == (6, sum(by_play), sum(by_proof))
    assert found.agree == sum(a == b for a, b in zip(by_play, by_proof))
