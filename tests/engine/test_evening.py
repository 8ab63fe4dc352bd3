"""The vector kind ``evening``: a whole club evening through the engine (issue 26 §4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skatschule.engine.vectors import answer_case, check_case

PUBLIC = Path(__file__).resolve().parents[2] / ".." / "shared" / "vectors" / "public_evening.json"


def _evening(**inp: Any) -> Any:  # the answer's JSON
    result = answer_case({"id": "t", "kind": "evening", "input": inp})
    return result.get("answer", result)


def _game(  # noqa: PLR0913 - a test helper over the budget since issue 27; to be split
    declarer: int, game: str = "clubs", points: int = 70, tricks: int = 6, bid: int = 18, matadors: int = 1, **kw: Any
) -> dict[str, Any]:
    return {
        "declarer": declarer,
        "game": game,
        "matadors": matadors,
        "declarer_points": points,
        "declarer_tricks": tricks,
        "bid": bid,
        **kw,
    }


def _public_cases() -> list[dict[str, Any]]:
    if not PUBLIC.exists():
        return []
    cases: list[dict[str, Any]] = json.loads(PUBLIC.read_text(encoding="utf-8"))["cases"]
    return cases


@pytest.mark.parametrize("case", _public_cases(), ids=lambda c: c["id"])
def test_public_evenings(case: dict[str, Any]) -> None:
    public = {k: v for k, v in case.items() if k not in ("expected", "check")}
    assert check_case(case, answer_case(public)), answer_case(public)


def test_isko_evening_with_a_fractional_stake() -> None:
    # 3 players, dealer 0: Vorhand is player 1. Player 1 wins Kreuz mit 1 (+24); player 2 loses a
    # Grand mit 1 (2 x 24 = 48, lost -96); a deal is thrown in.
    out = _evening(
        players=["A", "B", "C"],
        dealer=0,
        rules="isko",
        stake="1/4",
        games=[_game(1), _game(2, "grand", points=50, tricks=4), {"passed": True}],
    )
    assert out["list"] == [0, 24, -96]
    assert out["seeger"] == [40, 24 + 50 + 40, -96 - 50]
    assert out["money"]["balance_points"] == [72, 144, -216]
    assert out["money"]["stake"] == "1/4" and out["money"]["cents"] == ["18", "36", "-54"]
    assert [r["dealer"] for r in out["rows"]] == [0, 1, 2] and out["next_dealer"] == 0
    assert out["queue"] == {"next": "normal", "bock_left": 0, "ramsch_left": 0, "waiting": 0}
    tenth = _evening(players=["A", "B", "C"], dealer=0, stake="1/10", games=[_game(1)])
    assert tenth["money"]["cents"] == ["-12/5", "24/5", "-12/5"]


def test_pub_evening_lost_kontra_starts_bock_then_ramsch_with_an_escape_grand() -> None:
    games = [_game(1, points=50, tricks=4, kontra=True)]  # lost Kontra: -96, starts the round
    games += [_game(2), _game(0), _game(1)]  # three Bock games: each +48
    games += [{"ramsch": {"augen": [50, 40, 30], "tricks": [4, 3, 3], "schieben": 1}}]
    games += [_game(2, "grand", hand=True)]  # escape Grand Hand by player 2 (Hinterhand; dealer 2 deals again)
    out = _evening(players=["A", "B", "C"], dealer=0, rules="pub", games=games)
    kinds = [r["deal"] for r in out["rows"]]
    assert kinds == ["normal", "bock", "bock", "bock", "ramsch", "ramsch"]
    assert [r["entry"] for r in out["rows"][1:4]] == [[0, 0, 48], [48, 0, 0], [0, 48, 0]]
    # dealer 1: Vorhand is player 2 with the most Augen, 50 x 2 (one push); the others get 60 - Augen
    assert out["rows"][4]["entry"] == [20, 30, -100]
    assert out["rows"][5]["dealer"] == out["rows"][4]["dealer"] + 1 and out["next_dealer"] == out["rows"][5]["dealer"]
    assert out["queue"] == {"next": "ramsch", "bock_left": 0, "ramsch_left": 2, "waiting": 0}


def test_the_bock_reading_is_a_house_switch() -> None:
    won_kontra = [_game(1, kontra=True)]
    plain = _evening(players=["A", "B", "C"], dealer=0, rules="pub", games=won_kontra)
    other = _evening(
        players=["A", "B", "C"], dealer=0, rules="pub", house={"bock_reading": "defenders_lost"}, games=won_kontra
    )
    assert plain["queue"]["next"] == "normal" and other["queue"]["next"] == "bock"


def test_overbid_null_with_matadors_is_the_cheapest_lost_game() -> None:
    out = _evening(players=["A", "B", "C"], dealer=0, games=[_game(1, "null", matadors=2, bid=30, points=0, tricks=0)])
    assert out["list"] == [0, -60, 0]


@pytest.mark.parametrize(
    "inp",
    [
        {"players": ["A", "B", "C"], "rules": "pub", "games": [{"passed": True}]},
        {"players": ["A", "B", "C"], "games": [{"ramsch": {"augen": [40, 40, 40], "tricks": [3, 3, 4]}}]},
        {"players": ["A", "B", "C"], "games": [_game(1, kontra=True)]},
        {"players": ["A", "B", "C", "D"], "dealer": 0, "games": [_game(0)]},  # the dealer sits out at four
        {"players": ["A", "B", "C"], "rules": "pub", "games": [_game(1, re=True)]},
        {"players": ["A", "B", "C"], "stake": "-1", "games": []},
        {"players": ["A", "B", "C"], "stake": "ein Euro", "games": []},
        {"players": ["A", "B"], "games": []},
        {"players": ["A", "B", "C"], "house": {"grand_base": 22}, "games": []},
        {"players": ["A", "B", "C"], "games": [_game(1, "revolution")]},  # no Revolution switch
    ],
)
def test_bad_evenings_are_errors(inp: dict[str, Any]) -> None:
    result = answer_case({"id": "t", "kind": "evening", "input": inp})
    assert "error" in result, result


def test_an_escape_grand_must_be_a_grand_hand_and_once_per_player() -> None:
    start = [_game(1, points=50, tricks=4, kontra=True), _game(2), _game(0), _game(1)]
    suit = _evening(players=["A", "B", "C"], dealer=0, rules="pub", games=[*start, _game(2, hand=True)])
    assert "error" in suit
    twice = [*start, _game(2, "grand", hand=True), _game(2, "grand", hand=True)]
    assert "error" in _evening(players=["A", "B", "C"], dealer=0, rules="pub", games=twice)
