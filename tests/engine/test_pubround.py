"""PubRound and KontraState: every rule of chapter K on its own, and a property test."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatschule.engine import Contract, GameType, SkatError, score_game, score_ramsch
from skatschule.engine.bidding import Bid, Hold, Pass
from skatschule.engine.pubround import (
    DealKind,
    DeclineRe,
    DoublingPhase,
    EscapeGrand,
    FirstCard,
    GamePlayed,
    KontraReading,
    KontraState,
    LayOut,
    PassedIn,
    PlayerChange,
    PlayersLeave,
    PubRound,
    RamschPlayed,
    SayKontra,
    SayRe,
    auction_summary,
    bock_trigger,
    pay_off,
)
from skatschule.engine.rules import PUB
from skatschule.engine.seats import Seat
from tests.present import present

# --- who may say Kontra (K.1.1)


def test_defender_who_held_18_may_say_kontra_and_one_who_passed_may_not() -> None:
    # Middlehand passes at once; rearhand bids 18, forehand holds and rearhand passes.
    moves: list[Bid | Hold | Pass] = [Pass(Seat(1)), Bid(Seat(2), 18), Hold(Seat(0)), Pass(Seat(2))]
    summary = auction_summary(moves)
    assert summary.highest == (18, 0, 18)
    state = KontraState.start(Contract(GameType.CLUBS), 0, summary)
    assert state.eligible == frozenset({2})
    assert state.may_say_kontra(2) and not state.may_say_kontra(1)


def test_rearhand_may_say_kontra_without_a_bid_when_the_others_reached_20() -> None:
    moves: list[Bid | Hold | Pass] = [
        Bid(Seat(1), 18),
        Hold(Seat(0)),
        Bid(Seat(1), 20),
        Hold(Seat(0)),
        Pass(Seat(1)),
        Pass(Seat(2)),
    ]
    summary = auction_summary(moves)
    assert summary.before_rearhand == 20
    assert KontraState.start(Contract(GameType.GRAND), 0, summary).eligible == frozenset({1, 2})
    # the same auction at 18 only: rearhand is out
    short = auction_summary([Bid(Seat(1), 18), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))])
    assert KontraState.start(Contract(GameType.GRAND), 0, short).eligible == frozenset({1})


def test_house_reading_lets_rearhand_in_at_18_the_club_reading_does_not() -> None:
    moves: list[Bid | Hold | Pass] = [Bid(Seat(1), 18), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))]
    summary = auction_summary(moves)
    club = KontraState.start(Contract(GameType.HEARTS), 0, summary, KontraReading.CLUB)
    house = KontraState.start(Contract(GameType.HEARTS), 0, summary, KontraReading.HOUSE)
    assert club.eligible == frozenset({1})
    assert house.eligible == frozenset({1, 2})


def test_declarer_never_says_kontra() -> None:
    summary = auction_summary([Bid(Seat(1), 18), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))])
    state = KontraState.start(Contract(GameType.HEARTS), 0, summary)
    with pytest.raises(SkatError):
        state.apply(SayKontra(0))


# --- when (K.1.2)


def test_kontra_only_before_ones_own_first_card() -> None:
    summary = auction_summary(
        [Bid(Seat(1), 18), Hold(Seat(0)), Bid(Seat(1), 20), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))]
    )
    state = KontraState.start(Contract(GameType.SPADES), 0, summary)  # defenders 1 (bid) and 2 (rearhand at 20)
    state = state.apply(FirstCard(0)).apply(FirstCard(1))
    assert SayKontra(1) not in state.legal_actions()
    assert SayKontra(2) in state.legal_actions()
    with pytest.raises(SkatError):
        state.apply(SayKontra(1))
    after = state.apply(SayKontra(2))
    assert after.phase is DoublingPhase.AWAIT_RE and after.kontra_by == 2


def test_open_game_kontra_only_before_the_cards_are_laid_out() -> None:
    summary = auction_summary([Bid(Seat(1), 18), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))])
    state = KontraState.start(
        Contract(GameType.GRAND, hand=True, ouvert=True, schneider_announced=True, schwarz_announced=True), 0, summary
    )
    assert FirstCard(0) not in state.legal_actions()  # laid out first
    laid = state.apply(LayOut())
    assert not laid.may_say_kontra(1)
    with pytest.raises(SkatError):
        laid.apply(SayKontra(1))
    assert state.apply(SayKontra(1)).kontra


# --- Re (K.1.3)


def test_re_only_by_the_declarer_in_answer_to_kontra() -> None:
    summary = auction_summary([Bid(Seat(1), 18), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))])
    state = KontraState.start(Contract(GameType.CLUBS), 0, summary)
    with pytest.raises(SkatError):
        state.apply(SayRe())
    k = state.apply(SayKontra(1))
    assert k.legal_actions() == (SayRe(), DeclineRe())
    with pytest.raises(SkatError):
        k.apply(FirstCard(0))  # the answer comes at once
    assert k.apply(SayRe()).doublings == 2
    declined = k.apply(DeclineRe())
    assert declined.doublings == 1 and SayRe() not in declined.legal_actions()


@pytest.mark.parametrize("hand", [False, True])
def test_no_re_on_null_and_null_hand_but_on_null_ouvert(hand: bool) -> None:
    summary = auction_summary([Bid(Seat(1), 23), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))])
    k = KontraState.start(Contract(GameType.NULL, hand=hand), 0, summary).apply(SayKontra(1))
    assert k.phase is DoublingPhase.SETTLED
    with pytest.raises(SkatError):
        k.apply(SayRe())
    ouvert = KontraState.start(Contract(GameType.NULL, ouvert=True), 0, summary).apply(SayKontra(1))
    assert SayRe() in ouvert.legal_actions()


# --- multipliers (K.1.4)


def test_kontra_re_bock_each_double_and_seeger_bonus_is_not_multiplied() -> None:
    contract = Contract(GameType.GRAND)
    plain = score_game(contract, 1, bid=18, declarer_points=50, declarer_tricks=5, rules=PUB)
    all3 = score_game(
        contract, 1, bid=18, declarer_points=50, declarer_tricks=5, rules=PUB, kontra=True, re=True, bock=True
    )
    assert all3.score == plain.score * 8
    bock_round = PubRound().apply(_lost_kontra(1, PubRound()))
    decl = bock_round.seats[0]
    before = bock_round.seeger_totals()
    after = bock_round.apply(GamePlayed.of(decl, all3)).seeger_totals()
    # Seeger: the entry and -50 once for the declarer, +40 to each other player, neither doubled
    assert [a - b for a, b in zip(after, before)] == [all3.score - 50 if p == decl else 40 for p in range(3)]


# --- the queue (K.2)


def _won(decl: int, pr: PubRound, **kw: Any) -> GamePlayed:
    o = score_game(
        Contract(GameType.CLUBS),
        1,
        bid=18,
        declarer_points=70,
        declarer_tricks=6,
        rules=PUB,
        bock=pr.next_kind is DealKind.BOCK,
        **kw,
    )
    return GamePlayed.of(decl, o)


def _lost_kontra(decl: int, pr: PubRound) -> GamePlayed:
    o = score_game(
        Contract(GameType.CLUBS),
        1,
        bid=18,
        declarer_points=50,
        declarer_tricks=4,
        rules=PUB,
        kontra=True,
        bock=pr.next_kind is DealKind.BOCK,
    )
    return GamePlayed.of(decl, o)


def test_triggers_are_those_of_starts_bock_round() -> None:
    pr = PubRound(players=3)
    assert not pr.apply(_won(1, pr, kontra=True)).running  # Kontra, declarer wins, no Re
    assert pr.apply(_won(1, pr, kontra=True, re=True)).running  # any Kontra+Re
    assert pr.apply(_lost_kontra(1, pr)).running  # Kontra lost by the declarer
    split = score_game(Contract(GameType.CLUBS), 1, bid=18, declarer_points=60, declarer_tricks=5, rules=PUB)
    assert pr.apply(GamePlayed.of(1, split)).running  # 60:60


@pytest.mark.parametrize("players", [3, 4])
def test_bock_then_ramsch_round_lengths(players: int) -> None:
    pr = PubRound(players=players)
    pr = pr.apply(_lost_kontra(pr.seats[0], pr))
    kinds = []
    for _ in range(2 * players):
        kinds.append(pr.next_kind)
        if pr.next_kind is DealKind.BOCK:
            pr = pr.apply(_won(pr.seats[0], pr))
        else:
            pr = pr.apply(RamschPlayed((-30, 20, 10)))
    assert kinds == [DealKind.BOCK] * players + [DealKind.RAMSCH] * players
    assert pr.next_kind is DealKind.NORMAL


def test_the_queue_counts_its_games_in_singular_and_plural() -> None:
    pr = PubRound().apply(_lost_kontra(1, PubRound()))
    texts = []
    while pr.next_kind is DealKind.BOCK:
        texts.append(pr.explain_queue()[0].de)
        pr = pr.apply(_won(pr.seats[0], pr))
    assert texts == [
        "Noch 3 Bockspiele, dann 3 Pflichtramsch",
        "Noch 2 Bockspiele, dann 3 Pflichtramsch",
        "Noch 1 Bockspiel, dann 3 Pflichtramsch",
    ]
    assert [pr.explain_queue()[0].de, pr.explain_queue()[0].en] == [
        "Noch 3 Pflichtramsch",
        "3 compulsory Ramsch games left",
    ]


def test_bock_doubles_and_a_game_in_the_wrong_kind_is_refused() -> None:
    pr = PubRound().apply(_lost_kontra(1, PubRound()))
    o = score_game(Contract(GameType.CLUBS), 1, bid=18, declarer_points=70, declarer_tricks=6, rules=PUB)
    with pytest.raises(SkatError):
        pr.apply(GamePlayed.of(pr.seats[0], o))  # not doubled in a Bock game


def test_ramsch_in_bock_round_is_not_doubled_and_uses_up_a_bock_game() -> None:
    pr = PubRound().apply(_lost_kontra(1, PubRound()))
    result = score_ramsch((52, 41, 27), (4, 3, 3))
    after = pr.apply(RamschPlayed.of(result))
    assert present(after.running).bock_left == 2
    assert after.entries[-1] == tuple(result.scores[pr.seats.index(p)] for p in range(3))


def test_at_most_one_round_waits_and_further_triggers_are_lost() -> None:
    pr = PubRound()
    pr = pr.apply(_lost_kontra(pr.seats[0], pr))
    pr = pr.apply(_lost_kontra(pr.seats[0], pr))
    assert pr.waiting == 1
    pr = pr.apply(_lost_kontra(pr.seats[0], pr))
    assert pr.waiting == 1 and pr.queued == 2
    # the running round ends, the waiting one starts fresh
    pr = pr.apply(RamschPlayed((-10, 5, 5)))
    for _ in range(3):
        pr = pr.apply(RamschPlayed((-10, 5, 5)))
    assert present(pr.running).bock_left == 3 and pr.waiting == 0


def test_escape_grand_once_per_player_adds_a_ramsch_and_the_dealer_deals_again() -> None:
    pr = PubRound()
    pr = pr.apply(_lost_kontra(pr.seats[0], pr))
    for _ in range(3):
        pr = pr.apply(_won(pr.seats[0], pr))
    assert pr.next_kind is DealKind.RAMSCH and present(pr.running).ramsch_left == 3
    dealer = pr.dealer
    grand = score_game(Contract(GameType.GRAND, hand=True), 1, bid=18, declarer_points=72, declarer_tricks=6, rules=PUB)
    p = pr.seats[1]
    pr2 = pr.apply(EscapeGrand.of(p, grand))
    assert present(pr2.running).ramsch_left == 3 and pr2.dealer == dealer
    assert not pr2.may_escape(p)
    with pytest.raises(SkatError):
        pr2.apply(EscapeGrand.of(p, grand))
    with pytest.raises(SkatError):
        pr2.apply(GamePlayed.of(p, grand))  # no ordinary game in the Ramsch round


def test_passed_in_only_without_pub_ramsch_and_consumes_a_bock_game() -> None:
    pub = PubRound()
    with pytest.raises(SkatError):
        pub.apply(PassedIn())
    plain = PubRound(ramsch_when_passed=False)
    plain = plain.apply(_lost_kontra(1, plain)).apply(PassedIn())
    assert present(plain.running).bock_left == 2 and plain.entries[-1] == (0, 0, 0)


def test_player_change_carries_the_queue_and_one_player_left_drops_it() -> None:
    pr = PubRound().apply(_lost_kontra(1, PubRound()))
    left = pr.apply(PlayersLeave(1))
    assert left.running == pr.running
    with pytest.raises(SkatError):
        left.apply(RamschPlayed((-10, 5, 5)))  # not with an empty seat
    back = left.apply(PlayerChange(2))
    assert back.running == pr.running and back.present == 3
    assert pr.apply(PlayersLeave(2)).running is None


def test_four_players_dealer_sits_out_and_rotates() -> None:
    pr = PubRound(players=4, dealer=0)
    assert pr.sitting_out == 0 and pr.seats == (1, 2, 3)
    with pytest.raises(SkatError):
        pr.apply(_won(0, pr))
    pr = pr.apply(_won(1, pr))
    assert pr.dealer == 1 and pr.seats == (2, 3, 0)


def test_money_settlement_pays_the_declarer_by_every_other_player() -> None:
    pr = PubRound(players=4)
    pr = pr.apply(_won(1, pr))  # +24 for player 1
    assert pr.balances() == (-24, 72, -24, -24)
    transfers = pr.settlement(10)
    assert sum(t.cents for t in transfers if t.payee == 1) == 720
    assert {t.payer for t in transfers} == {0, 2, 3}


def test_pay_off_rejects_unbalanced_input() -> None:
    with pytest.raises(SkatError):
        pay_off((1, 0, 0), 5)


# --- the property test

event_choice = st.sampled_from(["game", "kontra", "re", "split", "ramsch", "escape", "leave", "join"])


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([3, 4]), st.lists(event_choice, min_size=1, max_size=60), st.data())
def test_random_evenings_keep_the_queue_short_and_the_totals_right(
    players: int, choices: list[str], data: st.DataObject
) -> None:
    pr = PubRound(players=players)
    for choice in choices:
        legal = pr.legal_events()
        if pr.present < players:
            pr = pr.apply(PlayerChange(0))
            continue
        if choice == "leave":
            pr = pr.apply(PlayersLeave(1))
            continue
        decl = data.draw(st.sampled_from(pr.seats))
        bock = pr.next_kind is DealKind.BOCK
        if choice == "escape" and EscapeGrand in legal and pr.may_escape(decl):
            o = score_game(
                Contract(GameType.GRAND, hand=True),
                1,
                bid=18,
                declarer_points=50,
                declarer_tricks=4,
                rules=PUB,
                kontra=True,
            )
            pr = pr.apply(EscapeGrand.of(decl, o))
        elif choice in ("game", "kontra", "re", "split") and GamePlayed in legal:
            points = {"game": 75, "kontra": 40, "re": 80, "split": 60}[choice]
            o = score_game(
                Contract(GameType.HEARTS),
                2,
                bid=18,
                declarer_points=points,
                declarer_tricks=5,
                rules=PUB,
                kontra=choice in ("kontra", "re"),
                re=choice == "re",
                bock=bock,
            )
            pr = pr.apply(GamePlayed.of(decl, o))
        else:
            augen = data.draw(st.sampled_from([(52, 41, 27), (40, 40, 40), (0, 70, 50)]))
            tricks = {0: (0, 6, 4)}.get(augen[0], (4, 3, 3))
            pr = pr.apply(RamschPlayed.of(score_ramsch(augen, tricks, schieben=data.draw(st.integers(0, 3)))))
        assert pr.waiting <= 1 and pr.queued <= 2
        assert pr.running is None or (
            0 <= present(pr.running).bock_left <= players and 0 <= present(pr.running).ramsch_left <= players
        )
        assert pr.totals == tuple(sum(e[p] for e in pr.entries) for p in range(players))
        assert sum(pr.balances()) == 0


@pytest.mark.parametrize("game", [GameType.CLUBS, GameType.NULL])
@pytest.mark.parametrize("points,tricks", [(40, 3), (60, 5), (75, 7)])
@pytest.mark.parametrize("kontra,re", [(False, False), (True, False), (True, True)])
def test_bock_trigger_from_facts_agrees_with_starts_bock_round(
    game: GameType, points: int, tricks: int, kontra: bool, re: bool
) -> None:
    from skatschule.engine.pub import starts_bock_round

    contract = Contract(game, ouvert=game is GameType.NULL and re)
    null_tricks = 0 if points == 75 else 1
    o = score_game(
        contract,
        1,
        bid=18,
        declarer_points=points,
        declarer_tricks=null_tricks if game.is_null else tricks,
        rules=PUB,
        kontra=kontra,
        re=re,
    )
    assert bock_trigger(
        kontra=kontra, re=re, won=o.won, null=game.is_null, declarer_points=points
    ) == starts_bock_round(o)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4]), st.lists(st.tuples(st.integers(0, 3), st.sampled_from([40, 60, 75, 95])), max_size=30))
def test_without_ramsch_the_totals_agree_with_lists(players: int, games: list[tuple[int, int]]) -> None:
    """For games only, PubRound's Seeger and Bierlachs equal lists.py's."""
    from skatschule.engine.lists import bierlachs, seeger_totals

    pr = PubRound(players=players, ramsch_when_passed=False, bock_rounds=False)
    for pick, points in games:
        declarer = pr.seats[pick % 3]
        o = score_game(Contract(GameType.SPADES), -1, bid=18, declarer_points=points, declarer_tricks=6)
        pr = pr.apply(GamePlayed.of(declarer, o))
    assert list(pr.seeger_totals()) == seeger_totals(players, pr.game_entries())
    ours = pr.bierlachs()
    theirs = bierlachs(players, pr.game_entries())
    assert ours == tuple(theirs)


def test_without_pub_rules_no_trigger_starts_a_round() -> None:
    split = score_game(Contract(GameType.CLUBS), 1, bid=18, declarer_points=60, declarer_tricks=5)
    pr = PubRound(ramsch_when_passed=False, bock_rounds=False)
    assert pr.apply(GamePlayed.of(pr.seats[0], split)).running is None
    assert PubRound().apply(GamePlayed.of(pr.seats[0], split)).running is not None


def test_legal_events_follow_the_queue() -> None:
    pr = PubRound()
    assert GamePlayed in pr.legal_events() and EscapeGrand not in pr.legal_events()
    assert PassedIn not in pr.legal_events()  # pub rules: Ramsch instead
    assert PassedIn in PubRound(ramsch_when_passed=False).legal_events()
    pr = pr.apply(_lost_kontra(pr.seats[0], pr))
    for _ in range(3):
        pr = pr.apply(RamschPlayed((-10, 5, 5)))
    assert pr.next_kind is DealKind.RAMSCH
    assert EscapeGrand in pr.legal_events() and GamePlayed not in pr.legal_events()
    assert pr.apply(PlayersLeave(1)).legal_events() == (PlayerChange, PlayersLeave)


def test_broken_off_ramsch_gives_the_rest_to_the_breaker() -> None:
    from skatschule.engine.pubround import score_broken_ramsch

    r = score_broken_ramsch((20, 15, 10), (2, 2, 1), breaker=2, schieben=1)
    assert r.augen == (20, 15, 85) and r.tricks == (2, 2, 6)
    assert r.scores == score_ramsch((20, 15, 85), (2, 2, 6), schieben=1).scores
    assert "K.7.12" in r.steps[0].rules


def test_broken_off_ramsch_is_never_a_durchmarsch() -> None:
    from skatschule.engine.pubround import score_broken_ramsch

    r = score_broken_ramsch((30, 0, 0), (3, 0, 0), breaker=0, schieben=2)
    assert r.durchmarsch is None and r.losers == (0,)
    assert r.multiplier == 1 + 2 + 1  # the pushes and one Jungfrau
    assert r.scores[0] == -120 * 4
    with pytest.raises(SkatError):
        score_broken_ramsch((0, 0, 0), (10, 0, 0), breaker=0)


# --- issue 26 §2: the engine's semantics


def test_vorhand_cannot_say_kontra_after_hinterhand_has_played() -> None:
    """The first trick goes Vorhand, Mittelhand, Hinterhand: Hinterhand's first card cannot come
    before Vorhand's, so Vorhand's Kontra after it is refused."""
    summary = auction_summary(
        [Bid(Seat(1), 18), Hold(Seat(0)), Bid(Seat(1), 20), Hold(Seat(0)), Pass(Seat(1)), Pass(Seat(2))]
    )
    state = KontraState.start(Contract(GameType.SPADES), 1, summary)  # Vorhand held 20: a defender
    with pytest.raises(SkatError):
        state.apply(FirstCard(2))
    assert FirstCard(2) not in state.legal_actions() and FirstCard(0) in state.legal_actions()
    played = state.apply(FirstCard(0)).apply(FirstCard(1)).apply(FirstCard(2))
    assert played.legal_actions() == ()
    with pytest.raises(SkatError):
        played.apply(SayKontra(0))


def test_bierlachs_two_over_the_limit_in_one_game_both_lose() -> None:
    """The seeds give no tie-break; the engine's named reading (lists.BIERLACHS_TIE): both lose."""
    from skatschule.engine.lists import BIERLACHS_TIE, bierlachs_rows

    assert BIERLACHS_TIE == "all_over_the_limit_lose"
    rows = [(None, [-250, -250, 60]), (None, [-60, -60, 40])]  # two Ramsch games: 310 each
    rounds = bierlachs_rows(3, rows)
    assert rounds[0].losers == (0, 1) and rounds[0].loser == 0
    assert rounds[-1].minus == (0, 0, 0) and rounds[-1].losers == ()
    # the same through an evening's round (a Ramsch that puts two players over the limit)
    pr = PubRound(players=3, dealer=0).apply(RamschPlayed((-310, -310, 60)))  # Vorhand 1, Mittelhand 2
    assert [r.losers for r in pr.bierlachs()] == [(1, 2), ()]


def test_bock_trigger_reading_is_a_named_switch() -> None:
    """Seed 004: a Kontra game the declarer lost starts a Bock round; seed 002's pairing reads
    "verlorenes Kontra" as the defenders' loss. A won Kontra game triggers only under the latter."""
    from skatschule.engine.pub import BockReading, starts_bock_round

    won = score_game(Contract(GameType.CLUBS), 1, bid=18, declarer_points=70, declarer_tricks=6, rules=PUB, kontra=True)
    lost = score_game(
        Contract(GameType.CLUBS), 1, bid=18, declarer_points=50, declarer_tricks=4, rules=PUB, kontra=True
    )
    assert not starts_bock_round(won) and starts_bock_round(lost)
    assert starts_bock_round(won, BockReading.DEFENDERS_LOST) and not starts_bock_round(
        lost, BockReading.DEFENDERS_LOST
    )
    assert PUB.bock_reading is BockReading.DECLARER_LOST
    assert bock_trigger(
        kontra=True, re=False, won=True, null=False, declarer_points=70, reading=BockReading.DEFENDERS_LOST
    )


def test_stakes_are_exact_fractions_and_rounded_only_for_paying() -> None:
    """Seed 003 plays for 1/10, 1/4 and 1/2 cent: the sums stay exact."""
    from fractions import Fraction

    from skatschule.engine.pubround import round_cents

    pr = PubRound(players=3).apply(_won(1, PubRound(players=3)))  # +24 for player 1: balances -24, 48, -24
    transfers = pr.settlement(Fraction(1, 10))
    assert sum(t.cents for t in transfers) == Fraction(48, 10)
    assert {(t.payer, t.payee, t.cents) for t in transfers} == {(0, 1, Fraction(12, 5)), (2, 1, Fraction(12, 5))}
    assert [t.payable for t in transfers] == [2, 2]
    assert (round_cents(Fraction(5, 2)), round_cents(Fraction(-5, 2)), round_cents(Fraction(49, 20))) == (3, -3, 2)


def test_a_rule_sets_bock_reading_reaches_the_round() -> None:
    from dataclasses import replace

    from skatschule.engine.pub import BockReading

    club = replace(PUB, bock_reading=BockReading.DEFENDERS_LOST)
    won = score_game(
        Contract(GameType.CLUBS), 1, bid=18, declarer_points=70, declarer_tricks=6, rules=club, kontra=True
    )
    assert PubRound().apply(GamePlayed.of(PubRound().seats[0], won)).next_kind is DealKind.BOCK


def test_a_ramsch_derivation_names_each_entry_by_its_seat() -> None:
    """A score sheet's columns are players whose seats rotate: a bare list "-52, 19, 33" in seat
    order read as the sheet's column order gave entries to the wrong people."""
    result = score_ramsch((27, 52, 41), (3, 4, 3))
    last = result.steps[-1]
    assert last.de.endswith(f"Vorhand {result.scores[0]}, Mittelhand {result.scores[1]}, Hinterhand {result.scores[2]}")
    assert last.en.endswith(f"forehand {result.scores[0]}, middlehand {result.scores[1]}, rearhand {result.scores[2]}")
