"""Referee cases for the rulings engine, written from the ISkO principles."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from skatschule.engine import Contract, Deal, GameState, GameType, SkatError, parse_card
from skatschule.engine.rulings import Event, Irregularity, Party, Ruling, rule
from tests.present import present

# Vorhand, Mittelhand (declarer), Hinterhand, skat
DEAL = Deal.from_codes(
    [
        "HA C8 D8 SK SQ S9 CJ DQ CK HQ".split(),
        "DJ DA DT DK D9 CA CT SA H7 H8".split(),
        "ST C7 CQ HT C9 HK SJ D7 H9 HJ".split(),
        ["S7", "S8"],
    ]
)


def game(contract: Contract = Contract(GameType.DIAMONDS), bid: int = 18, plays: Sequence[str] = ()) -> GameState:
    state = GameState.start(DEAL, declarer=1, bid=bid, contract=contract, discard=None if contract.hand else DEAL.skat)
    for code in plays:
        state.play(parse_card(code))
    return state


def test_declarer_revoke_before_the_decision_loses_einfach() -> None:
    state = game(plays=["HQ"])  # Mittelhand holds H7 H8 but throws a trump
    r = rule(state, Event(Irregularity.REVOKE, 1, parse_card("DA")))
    assert (r.won, r.value, r.score, r.guilty) == (False, 36, -72, Party.DECLARER)
    assert "3.1.4" in r.rule_ids and "3.2.3" in r.rule_ids
    assert any("einfach" in line for line in r.explain("de"))


def test_a_revoke_must_really_be_one() -> None:
    state = game(plays=["HQ"])
    with pytest.raises(SkatError, match="regelgerecht"):
        rule(state, Event(Irregularity.REVOKE, 1, parse_card("H7")))
    with pytest.raises(SkatError, match="nicht an der Reihe"):
        rule(state, Event(Irregularity.REVOKE, 2, parse_card("HK")))


def _state_where(predicate: Callable[[GameState], bool]) -> GameState:
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


def test_a_game_the_declarer_has_won_is_not_lost_by_his_later_violation() -> None:
    state = _state_where(lambda s: s.declarer_augen() >= 61 and len(s.tricks) < 10)
    r = rule(state, Event(Irregularity.SKAT_VIEWED, 0))
    assert r.won and r.score > 0 and r.guilty is None and "3.1.3" in r.rule_ids


def test_a_game_the_defenders_have_won_stays_won_for_them() -> None:
    state = _state_where(
        lambda s: sum(t.points for t in s.tricks) - s.declarer_trick_points >= 60 and len(s.tricks) < 10
    )
    r = rule(state, Event(Irregularity.CARDS_EXPOSED, 1))
    assert not r.won and r.score < 0


def test_lead_out_of_turn_at_the_last_trick_does_not_matter() -> None:
    rng_state = game(plays=[])
    # play nine tricks with the first legal card each time
    while len(rng_state.tricks) < 9:
        rng_state.play(next(iter(rng_state.legal_cards())))
    to_move = rng_state.to_move
    other = (present(to_move) + 1) % 3
    card = next(iter(rng_state.hand(other)))
    r = rule(rng_state, Event(Irregularity.LEAD_OUT_OF_TURN, other, card))
    assert r.guilty is None and "3.1.10" in r.rule_ids
    finished = rng_state
    assert finished.is_over()


def test_declarer_may_pick_up_fallen_cards() -> None:
    with pytest.raises(SkatError, match="nimmt er sie einfach zurück"):
        rule(game(), Event(Irregularity.CARDS_EXPOSED, 1))
    r = rule(game(), Event(Irregularity.CARDS_EXPOSED, 0))
    assert r.won and r.guilty is Party.DEFENDERS


def test_schwarz_needed_in_an_ohne_game_cannot_be_awarded() -> None:
    # Karo ohne 3: Schwarz would be needed to reach 81 (ohne 3, Spiel 4, Schneider 5, Schwarz 6 = 54 < 81 -> impossible)
    state = game(bid=54)  # ohne 3, Spiel 4, Schneider 5, Schwarz 6 x 9 = 54: needs Schwarz
    r = rule(
        state, Event(Irregularity.REVOKE, 0, parse_card("C8")) if False else Event(Irregularity.DEFENDER_CONCEDES, 0)
    )
    assert not r.won and r.score == -108  # a defender holds the Kreuz-Bube: Schwarz was impossible


def test_required_schneider_is_awarded_after_a_defender_violation() -> None:
    # Karo ohne 3 bid 45: needs Schneider (ohne 3, Spiel 4, Schneider 5 x 9 = 45)
    state = game(bid=45, plays=["HQ", "H7", "HK"])  # Hinterhand takes 7 Augen, defenders not yet out of Schneider
    r = rule(state, Event(Irregularity.CARDS_EXPOSED, 2))
    assert (r.won, r.value, r.score) == (True, 45, 45) and "3.1.5" in r.rule_ids


def test_declarer_concession_counts_the_bid() -> None:
    r = rule(game(bid=40), Event(Irregularity.DECLARER_CONCEDES, 1))
    assert (r.won, r.value, r.score) == (False, 45, -90)  # Karo ohne 3 = 36 < 40: lowest multiple of 9 is 45


VECTORS = Path(__file__).resolve().parents[3] / "shared" / "vectors"


@pytest.mark.parametrize("name", ["public.json", "public_rulings.json"])
def test_shared_vectors_pass(name: str) -> None:
    from skatschule.engine.vectors import answer_case, check_case

    path = VECTORS / name
    if not path.exists():
        pytest.skip(f"{path} not beside the project")
    cases = json.loads(path.read_text())["cases"]
    failures = [
        c["id"] for c in cases if not check_case(c, answer_case({k: v for k, v in c.items() if k != "expected"}))
    ]
    assert failures == []


def test_engine_imports_no_django() -> None:
    root = Path(__file__).resolve().parents[2] / "skatschule" / "engine"
    offenders = [
        p.name for p in root.glob("*.py") if "import django" in p.read_text() or "from django" in p.read_text()
    ]
    assert offenders == []


# --------------------------------------------------------------------------- casebook events

from skatschule.engine.vectors import ruling_from_input  # noqa: E402

CLUBS: dict[str, Any] = {  # Vorhand plays clubs "mit 2" after picking up, bid 20
    "deal": [
        "CJ SJ CT CK CQ C9 HA HT D7 S7".split(),
        "HJ DJ CA SA ST SK H9 H8 DA DT".split(),
        "C8 C7 S9 S8 SQ HK HQ H7 DK DQ".split(),
        ["D9", "D8"],
    ],
    "auction": [[1, 18], [0, "y"], [1, 20], [0, "y"], [1, "p"], [2, "p"]],
    "declaration": {
        "game": "clubs",
        "hand": False,
        "ouvert": False,
        "schneider_announced": False,
        "schwarz_announced": False,
        "discard": ["D9", "D8"],
    },
}
FOUR_TRICKS = "CJ DJ C7 SJ HJ C8 CT CA DK SA S8 S7".split()  # declarer 8, defenders 36 Augen
GRAND: dict[str, Any] = {  # Vorhand grand hand with four jacks; after the jacks only Mittelhand's suits run
    "deal": [
        "CJ SJ HJ DJ CA CT S7 H7 H8 D7".split(),
        "SA ST SK SQ S9 DA DT DK D9 D8".split(),
        "HA HT HK HQ H9 CK CQ C9 C8 DQ".split(),
        ["C7", "S8"],
    ],
    "auction": [[1, 18], [0, "y"], [1, "p"], [2, "p"]],
    "declaration": {
        "game": "grand",
        "hand": True,
        "ouvert": False,
        "schneider_announced": False,
        "schwarz_announced": False,
        "discard": None,
    },
}
JACKS = "CJ S9 C8 SJ D8 C9 HJ D9 H9 DJ SQ CQ".split()


def decide(base: Mapping[str, Any], plays: list[str], **event: Any) -> Ruling:
    return ruling_from_input({**base, "plays": plays, "event": event}, "isko")


def test_declarer_leading_before_the_announcement_loses_the_cheapest_game() -> None:
    inp = {
        **CLUBS,
        "declaration": {"discard": ["D9", "D8"]},
        "plays": [],
        "event": {"type": "declarer_leads_before_declaring", "seat": 0, "card": "CJ"},
    }
    r = ruling_from_input(inp, "isko")
    assert (r.won, r.value, r.score, r.guilty) == (False, 27, -54, Party.DECLARER)  # Karo mit 2 = 27 >= 20
    assert "3.1.1" in r.rule_ids
    # the first step names the seat at the start of a sentence, in both languages
    assert r.steps[0].de.startswith("Vorhand (Alleinspieler)")
    assert r.steps[0].en.startswith("Forehand (the declarer)")
    inp["event"]["seat"] = 1
    with pytest.raises(SkatError):
        ruling_from_input(inp, "isko")


def test_unplayable_null_ends_as_a_lost_suit_game() -> None:
    inp = {
        **CLUBS,
        "auction": [[1, 30], [0, "y"], [1, "p"], [2, "p"]],
        "declaration": {**CLUBS["declaration"], "game": "null"},
    }
    r = decide(inp, [], type="invalid_declaration", seat=0)
    assert (r.won, r.value, r.score) == (False, 30, -60)  # Herz mit 2 = 30 is the cheapest
    with pytest.raises(SkatError, match="gültig"):
        decide(
            {**CLUBS, "declaration": {**CLUBS["declaration"], "game": "null"}}, [], type="invalid_declaration", seat=0
        )


def test_wrong_card_count_wins_for_the_party_with_the_right_number() -> None:
    assert decide(CLUBS, FOUR_TRICKS, type="wrong_card_count", seat=2).as_dict() == {
        "won": True,
        "value": 36,
        "score": 36,
    }
    assert decide(CLUBS, [], type="wrong_card_count", seat=0).score == -72


def test_claims_accepted_with_and_without_a_level_and_refused() -> None:
    assert decide(GRAND, [], type="declarer_claims", seat=0).score == 144  # nothing claimed: einfach
    assert decide(GRAND, [], type="declarer_claims", seat=0, claimed="schwarz").score == 192
    with pytest.raises(SkatError, match="fehlen"):
        decide(GRAND, [], type="declarer_claims", seat=0, accepted=False)
    with pytest.raises(SkatError):
        decide(GRAND, [], type="declarer_claims", seat=1)
    # the defenders already hold 14 Augen and a trick: Schwarz can no longer be claimed
    with pytest.raises(SkatError, match="Schwarz"):
        decide(GRAND, JACKS + ["S7", "SA", "HQ"], type="declarer_claims", seat=0, claimed="schwarz")


def test_refused_claim_is_played_out_and_scored() -> None:
    from skatschule.engine.vectors import answer_case, replay_from_input

    state = replay_from_input({**GRAND, "plays": JACKS}, "isko")
    rest = []
    while not state.is_over():  # any legal continuation will do: take the first legal card
        card = next(iter(state.legal_cards()))
        rest.append(card.code)
        state.play(card)
    r = decide(GRAND, JACKS, type="declarer_claims", seat=0, accepted=False, continuation=rest)
    replay = answer_case({"id": "x", "kind": "game_replay", "input": {**GRAND, "plays": JACKS + rest}})["answer"]
    assert isinstance(replay, dict)
    assert (r.won, r.value, r.score) == (replay["won"], replay["value"], replay["score"])
    assert "3.3.4" in r.rule_ids and r.guilty is None


def test_defender_playing_open_keeps_the_tricks_only_when_sure() -> None:
    early = decide(GRAND, JACKS, type="defender_plays_open", seat=1)  # Vorhand is on lead with CA CT
    assert (early.won, early.score) == (True, 192)
    sure = decide(GRAND, JACKS + ["S7", "SA", "HQ"], type="defender_plays_open", seat=1)
    assert (sure.won, sure.value, sure.score) == (False, 168, -336)
    with pytest.raises(SkatError, match="Zu früh"):
        decide(GRAND, [], type="defender_plays_open", seat=1)
    with pytest.raises(SkatError, match="kein Gegenspieler"):
        decide(GRAND, JACKS, type="defender_plays_open", seat=0)


def test_continuation_demanded_counts_the_violation_as_not_committed() -> None:
    deal = {
        **GRAND,
        "deal": [
            "CJ SJ HJ DJ CA CT CK SA ST HA".split(),
            "CQ C9 SK SQ S9 HT HK DA DT DK".split(),
            "C8 C7 S8 S7 HQ H9 H8 H7 DQ D9".split(),
            ["D8", "D7"],
        ],
    }
    plays = "CJ C9 D9 SJ SK DQ".split()
    rest = "HJ S9 S7 DJ SQ S8 CA CQ C8 CT DA C7 CK DT H7 SA DK H8 ST HK H9 HA HT HQ".split()
    plain = decide(deal, plays, type="lead_out_of_turn", seat=1, card="DA")
    assert plain.score == 144
    r = decide(deal, plays, type="lead_out_of_turn", seat=1, card="DA", continuation=rest)
    assert (r.won, r.score, r.guilty) == (True, 192, None) and "3.1.6" in r.rule_ids
    with pytest.raises(SkatError, match="Spielende"):
        decide(deal, plays, type="lead_out_of_turn", seat=1, card="DA", continuation=rest[:3])
    with pytest.raises(SkatError):
        decide(deal, plays, type="defender_concedes", seat=1, continuation=rest)


def test_late_concession_refused_plays_on() -> None:
    rest = "ST S9 C9 CK H8 H7 CQ H9 DQ HA SK HK HT DT HQ D7 DA SQ".split()
    r = decide(CLUBS, FOUR_TRICKS, type="declarer_concedes", seat=0, accepted=False, continuation=rest)
    assert (r.won, r.score) == (True, 36) and "3.3.2" in r.rule_ids
    assert decide(CLUBS, FOUR_TRICKS, type="declarer_concedes", seat=0, accepted=True).score == -72
    with pytest.raises(SkatError, match="neun"):
        decide(CLUBS, [], type="declarer_concedes", seat=0, accepted=False, continuation=rest)
