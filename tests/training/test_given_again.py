"""An answer that could not be read comes back into the form as the learner gave it."""

from __future__ import annotations

from skatschule.training.presenters import given_again


def test_cards_and_a_choice_come_back_as_given() -> None:
    assert given_again({"widget": "discard", "signed_max": None}, ["CJ", "grand"]) == {
        "saved": ["CJ", "grand"],
        "saved_number": "",
    }


def test_a_number_comes_back_into_the_number_field() -> None:
    assert given_again({"widget": "number", "signed_max": None}, ["61"])["saved_number"] == "61"
    assert given_again({"widget": "case", "signed_max": None}, ["a", "-48"])["saved_number"] == "-48"


def test_mit_ohne_and_its_count_come_back_as_one_value() -> None:
    assert given_again({"widget": "choice", "signed_max": 11}, ["+", "3"])["saved"] == ["+3"]
