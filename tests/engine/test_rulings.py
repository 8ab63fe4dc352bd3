"""Referee cases for the rulings engine, written from the ISkO principles."""

import json
from pathlib import Path

import pytest

from skatschule.engine import Contract, Deal, GameState, GameType, SkatError, parse_card
from skatschule.engine.rulings import Event, Irregularity, rule

# Vorhand, Mittelhand (declarer), Hinterhand, skat
DEAL = Deal.from_codes([
    "HA C8 D8 SK SQ S9 CJ DQ CK HQ".split(),
    "DJ DA DT DK D9 CA CT SA H7 H8".split(),
    "ST C7 CQ HT C9 HK SJ D7 H9 HJ".split(),
    ["S7", "S8"],
])


def game(contract=Contract(GameType.DIAMONDS), bid=18, plays=()):
    state = GameState.start(DEAL, declarer=1, bid=bid, contract=contract,
                            discard=None if contract.hand else DEAL.skat)
    for code in plays:
        state.play(parse_card(code))
    return state


def test_declarer_revoke_before_the_decision_loses_einfach():
    state = game(plays=["HQ"])  # Mittelhand holds H7 H8 but throws a trump
    r = rule(state, Event(Irregularity.REVOKE, 1, parse_card("DA")))
    assert (r.won, r.value, r.score, r.guilty) == (False, 36, -72, "declarer")
    assert "3.1.4" in r.rule_ids and "3.2.3" in r.rule_ids
    assert any("einfach" in line for line in r.explain("de"))


def test_a_revoke_must_really_be_one():
    state = game(plays=["HQ"])
    with pytest.raises(SkatError, match="regelgerecht"):
        rule(state, Event(Irregularity.REVOKE, 1, parse_card("H7")))
    with pytest.raises(SkatError, match="nicht an der Reihe"):
        rule(state, Event(Irregularity.REVOKE, 2, parse_card("HK")))


def _state_where(predicate):
    """Search seeded games (first legal card each time) for a position matching ``predicate``."""
    from skatschule.engine import deal_cards

    for seed in range(500):
        d = deal_cards(seed)
        state = GameState.start(d, declarer=0, bid=18, contract=Contract(GameType.GRAND, hand=True))
        while not state.is_over() and not state.trick:
            if predicate(state):
                return state
            for _ in range(3):
                state.play(next(iter(state.legal_cards())))
    raise AssertionError("no such position found")


def test_a_game_the_declarer_has_won_is_not_lost_by_his_later_violation():
    state = _state_where(lambda s: s.declarer_augen() >= 61 and len(s.tricks) < 10)
    r = rule(state, Event(Irregularity.SKAT_VIEWED, 0))
    assert r.won and r.score > 0 and r.guilty is None and "3.1.3" in r.rule_ids


def test_a_game_the_defenders_have_won_stays_won_for_them():
    state = _state_where(lambda s: sum(t.points for t in s.tricks) - s.declarer_points >= 60 and len(s.tricks) < 10)
    r = rule(state, Event(Irregularity.CARDS_EXPOSED, 1))
    assert not r.won and r.score < 0


def test_lead_out_of_turn_at_the_last_trick_does_not_matter():
    rng_state = game(plays=[])
    # play nine tricks with the first legal card each time
    while len(rng_state.tricks) < 9:
        rng_state.play(next(iter(rng_state.legal_cards())))
    to_move = rng_state.to_move
    other = (to_move + 1) % 3
    card = next(iter(rng_state.hand(other)))
    r = rule(rng_state, Event(Irregularity.LEAD_OUT_OF_TURN, other, card))
    assert r.guilty is None and "3.1.10" in r.rule_ids
    finished = rng_state
    assert finished.is_over()


def test_declarer_may_pick_up_fallen_cards():
    with pytest.raises(SkatError, match="ohne Folgen"):
        rule(game(), Event(Irregularity.CARDS_EXPOSED, 1))
    r = rule(game(), Event(Irregularity.CARDS_EXPOSED, 0))
    assert r.won and r.guilty == "defenders"


def test_schwarz_needed_in_an_ohne_game_cannot_be_awarded():
    # Karo ohne 3: Schwarz would be needed to reach 81 (ohne 3, Spiel 4, Schneider 5, Schwarz 6 = 54 < 81 -> impossible)
    state = game(bid=54)  # ohne 3, Spiel 4, Schneider 5, Schwarz 6 x 9 = 54: needs Schwarz
    r = rule(state, Event(Irregularity.REVOKE, 0, parse_card("C8")) if False else Event(Irregularity.DEFENDER_CONCEDES, 0))
    assert not r.won and r.score == -108  # a defender holds the Kreuz-Bube: Schwarz was impossible


def test_required_schneider_is_awarded_after_a_defender_violation():
    # Karo ohne 3 bid 45: needs Schneider (ohne 3, Spiel 4, Schneider 5 x 9 = 45)
    state = game(bid=45, plays=["HQ", "H7", "HK"])  # Hinterhand takes 7 Augen, defenders not yet out of Schneider
    r = rule(state, Event(Irregularity.CARDS_EXPOSED, 2))
    assert (r.won, r.value, r.score) == (True, 45, 45) and "3.1.5" in r.rule_ids


def test_declarer_concession_counts_the_bid():
    r = rule(game(bid=40), Event(Irregularity.DECLARER_CONCEDES, 1))
    assert (r.won, r.value, r.score) == (False, 45, -90)  # Karo ohne 3 = 36 < 40: lowest multiple of 9 is 45


VECTORS = Path(__file__).resolve().parents[3] / "shared" / "vectors"


@pytest.mark.parametrize("name", ["public.json", "public_rulings.json"])
def test_shared_vectors_pass(name):
    from skatschule.engine.vectors import answer_case, check_case

    path = VECTORS / name
    if not path.exists():
        pytest.skip(f"{path} not beside the project")
    cases = json.loads(path.read_text())["cases"]
    failures = [c["id"] for c in cases if not check_case(c, answer_case({k: v for k, v in c.items() if k != "expected"}))]
    assert failures == []


def test_engine_imports_no_django():
    root = Path(__file__).resolve().parents[2] / "skatschule" / "engine"
    offenders = [p.name for p in root.glob("*.py") if "import django" in p.read_text() or "from django" in p.read_text()]
    assert offenders == []
