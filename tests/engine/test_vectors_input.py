"""Odd input to the vectors contract: a clear error for what cannot be, a value for what can.

Found while cross-checking the engine against other Skat programs' test cases.
"""

from __future__ import annotations

from skatschule.engine.cards import parse_card
from skatschule.engine.vectors import answer_case


def _answer(kind: str, inp: dict[str, object], rules: str | None = None) -> dict[str, object]:
    case: dict[str, object] = {"id": "t", "kind": kind, "input": inp}
    if rules is not None:
        case["rules"] = rules
    return answer_case(case)


def test_mixed_case_card_codes_parse() -> None:
    # The contract's card notation: the code is read regardless of case, "10" stands for the Zehn.
    for text in ("sT", "Ca", "hJ", "s10", "dq"):
        assert parse_card(text) is parse_card(text.upper().replace("10", "T"))
    assert _answer("card_points", {"cards": ["sT", "Ca"]}) == {"id": "t", "answer": 21}


def test_card_listed_twice_is_refused_in_card_points() -> None:
    # A pack holds every card once (2.2.3, 32 cards dealt): two Kreuz-Asse cannot be counted.
    assert "error" in _answer("card_points", {"cards": ["CA", "CA"]})


def test_card_listed_twice_is_refused_in_legal_cards() -> None:
    assert "error" in _answer("legal_cards", {"game": "grand", "hand": ["CA", "CA", "S7"], "trick": []})
    assert "error" in _answer("legal_cards", {"game": "grand", "hand": ["S7"], "trick": ["HA", "HA"]})


def test_legal_cards_without_trick_key_means_leading() -> None:
    got = _answer("legal_cards", {"game": "clubs", "hand": ["CJ", "HA"]})
    assert isinstance(got["answer"], list) and sorted(got["answer"]) == ["CJ", "HA"]


def test_seeger_declarer_must_be_a_player_number_not_a_flag() -> None:
    assert "error" in _answer("seeger", {"players": 3, "games": [{"declarer": True, "score": 24}]})


def test_auction_words_are_case_insensitive() -> None:
    moves = [[1, "P"], [2, "Pass"], [0, "p"]]
    assert _answer("auction", {"moves": moves})["answer"] == {"declarer": None, "bid": None}


def test_game_result_null_bid_means_default_bid() -> None:
    # bid: null is treated like a missing bid (18, the lowest bid of 2.3.1).
    got = _answer(
        "game_result", {"game": "spades", "matadors": 1, "bid": None, "declarer_points": 70, "declarer_tricks": 6}
    )
    assert got["answer"] == {"won": True, "value": 22, "score": 22, "overbid": False}


def test_game_result_without_tricks_reads_schwarz_from_the_augen() -> None:
    # 4.2.4: Schwarz is about tricks; when only the Augen are given, 120 means every trick
    # and 0 means none, anything in between is neither.
    base = {"game": "grand", "matadors": 1, "bid": 18}
    all_points = _answer("game_result", {**base, "declarer_points": 120})["answer"]
    some_points = _answer("game_result", {**base, "declarer_points": 95})["answer"]
    assert all_points["value"] == (1 + 1 + 1 + 1) * 24  # type: ignore[index]
    assert some_points["value"] == (1 + 1 + 1) * 24  # type: ignore[index]
    # a Null game still needs the tricks: the result depends on nothing else
    assert "error" in _answer("game_result", {"game": "null", "bid": 23})
