"""A Null announced above the bid (ISkO 2.4.4) is scored the same way on every path:
the casebook ruling, game_result with the declarer's cards, game_replay and GameState."""

import random
from pathlib import Path
from typing import Any

import pytest

from skatschule.casebook import cases as casebook
from skatschule.engine import Contract, GameState, GameType, score_game
from skatschule.engine.cards import CardSet, parse_cards
from skatschule.engine.scoring import cheapest_lost_game, game_value, lowest_multiple
from skatschule.engine.vectors import answer_case, replay_from_input
from tests.present import present

F13 = present(casebook.get_case("F-13"))  # Null announced, bid 30: the engine decides it as invalid_declaration


def _f13_state() -> tuple[Any, GameState]:
    inp = casebook.thaw(F13.engine_input)
    return inp, replay_from_input(inp, "isko")


def test_the_ruling_and_game_result_agree() -> None:
    ruling = casebook.engine_ruling(F13)
    inp, state = _f13_state()
    twelve = [c.code for c in state.declarer_cards()]
    answer = answer_case(
        {
            "id": "n",
            "kind": "game_result",
            "input": {
                "game": "null",
                "bid": state.bid,
                "declarer_points": 0,
                "declarer_tricks": 0,
                "declarer_cards": twelve,
            },
        }
    )
    result = answer["answer"]
    assert isinstance(result, dict) and result["won"] is False
    assert (result["value"], result["score"]) == (ruling.value, ruling.score)
    # The counted game is the cheapest suit or Grand game with the declarer's matadors.
    contract, count, gv = cheapest_lost_game(state.bid, state.declarer_cards().mask)
    counted = gv.value if gv.value >= state.bid else lowest_multiple(gv.base, state.bid)
    assert ruling.value == counted and ruling.score == -2 * counted


@pytest.mark.parametrize("seed", range(5))
def test_game_replay_scores_the_overbid_null_by_the_matadors(seed: int) -> None:
    """Play the Null out (any legal cards): taking no trick does not save it."""
    inp, state = _f13_state()
    rng = random.Random(seed)
    while not state.is_over():
        state.play(rng.choice(list(state.legal_cards())))
    record = state.record()
    answer = answer_case({"id": "r", "kind": "game_replay", "input": record})["answer"]
    assert isinstance(answer, dict)
    ruling = casebook.engine_ruling(F13)
    assert answer["won"] is False and (answer["value"], answer["score"]) == (ruling.value, ruling.score)
    outcome = state.score()
    assert outcome.counted_game is not None and outcome.score == ruling.score
    steps = outcome.explain("de", plain=True)
    assert "2.4.4" == outcome.rule_ids[0] and steps[-1].endswith(f"Eintrag {ruling.score}")


def test_without_the_cards_the_contract_reading_applies() -> None:
    """game_result without declarer_cards: the lowest multiple of the Null value (vectors README)."""
    answer = answer_case(
        {
            "id": "n",
            "kind": "game_result",
            "input": {"game": "null", "bid": 30, "declarer_points": 0, "declarer_tricks": 0},
        }
    )["answer"]
    assert answer == {
        "won": False,
        "value": lowest_multiple(23, 30),
        "score": -2 * lowest_multiple(23, 30),
        "overbid": True,
    }


def test_a_null_at_or_below_the_bid_is_untouched() -> None:
    cards = parse_cards("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7 D8 D9")
    for bid in (18, 23):
        outcome = score_game(
            Contract(GameType.NULL), 0, bid=bid, declarer_points=0, declarer_tricks=0, declarer_cards=cards
        )
        assert outcome.won and outcome.counted_game is None
        assert outcome.value == game_value(Contract(GameType.NULL)).value


def test_the_cheapest_game_uses_the_real_matadors() -> None:
    # Kreuz-, Pik- und Herz-Bube: Karo mit 3 = 4 x 9 = 36 reaches 30 first.
    mask = CardSet(parse_cards("CJ SJ HJ C7 C8 S7 S8 H7 H8 D7 D8 D9")).mask
    contract, count, gv = cheapest_lost_game(30, mask)
    assert (contract.game, count, gv.value) == (GameType.DIAMONDS, 3, 36)
    # Without any jack: ohne 4, Karo 5 x 9 = 45 (Herz 5 x 10 = 50): Karo.
    mask = CardSet(parse_cards("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7 D8 D9")).mask
    assert cheapest_lost_game(30, mask)[0].game is GameType.DIAMONDS


def test_the_vectors_cli_explains_in_plain_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skatschule.engine.vectors import explain_case, main

    case = {
        "id": "x",
        "kind": "game_result",
        "input": {"game": "clubs", "matadors": 2, "hand": True, "bid": 48, "declarer_points": 61, "declarer_tricks": 5},
    }
    lines = explain_case(case)
    assert lines[-1] == "61 Augen reichen für einfach: gewonnen; Eintrag +48"
    assert any("× Kreuz 12 = 48" in line for line in lines) and not any("⟦" in line for line in lines)
    assert explain_case(dict(case, input={"game": "nope"})) == []  # refused input: no derivation
    path = tmp_path / "cases.json"
    path.write_text(
        '[{"id": "x", "kind": "game_result", "input": {"game": "null", "bid": 23, '
        '"declarer_points": 0, "declarer_tricks": 1}}]',
        encoding="utf-8",
    )
    assert main(["explain", str(path), "en"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "x" and "The declarer took 1 trick: lost" in out


def test_any_ruling_in_an_overbid_null_counts_the_lost_game() -> None:
    """Whatever happens after a Null announced above the bid, 2.4.4 has already decided it."""
    from skatschule.engine.rulings import Event, Irregularity, rule

    _, state = _f13_state()
    expected = casebook.engine_ruling(F13)
    seat = (present(state.declarer) + 1) % 3
    ruling = rule(state, Event(Irregularity.SKAT_VIEWED, seat))  # a defender's violation would win a normal game
    assert (ruling.won, ruling.value, ruling.score) == (False, expected.value, expected.score)
    assert ruling.rule_ids[1] == "2.4.4"
