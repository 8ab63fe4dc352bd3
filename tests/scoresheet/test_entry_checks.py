"""Games that cannot happen are refused in the form, with the entered game kept (issue 26 §2), and a
Null above its value asks for the matadors and counts as the cheapest lost game (issue 26 §1.1)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from skatschule.engine import Contract, GameType, score_game
from skatschule.engine.cards import CardSet
from skatschule.engine.feasible import declarer_points_possible
from skatschule.engine.houserules import HouseGame, score_house
from skatschule.engine.rules import ISKO, RuleSet

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db

NEW = {"player1": "Anna", "player2": "Bernd", "player3": "Carla", "dealer": "0", "cents": "0", "grand_base": "24"}


def _game(client: Client, **fields: object) -> _MonkeyPatchedWSGIResponse:
    data = {"declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"}
    data.update({k: str(v) for k, v in fields.items()})
    return client.post("/liste/sitzung/spiel/", data)


def _value(page: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    return found.group(1) if found else None


@pytest.fixture
def sheet(client: Client) -> Client:
    client.post("/liste/", NEW)
    return client


@pytest.mark.parametrize(
    ("points", "tricks"),
    [(0, 10), (120, 0), (61, 9), (23, 0), (100, 2)],
)
def test_augen_that_do_not_fit_the_tricks_are_refused_in_the_form(sheet: Client, points: int, tricks: int) -> None:
    assert not declarer_points_possible(points, tricks)  # the engine says it cannot happen
    r = _game(sheet, points=points, tricks=tricks)
    page = r.content.decode()
    assert r.status_code == 400
    assert 'id="game-form"' in page and "höchstens 33 Augen" in page  # the sheet page, not an error page
    assert 'id="entry-error"' in page  # named at the top, with a link to the form
    assert _value(page, "points") == str(points) and _value(page, "tricks") == str(tricks)
    assert sheet.session["scoresheet"]["entries"] == []


def test_possible_extremes_are_accepted(sheet: Client) -> None:
    # Schwarz with "mit 1": the defenders' Pik-Bube falls into his tricks; "ohne 1": no jack of his needs a trick
    for points, tricks, matadors in ((120, 10, 1), (22, 0, -1), (87, 9, 1), (0, 1, -1), (96, 9, -1)):
        assert declarer_points_possible(points, tricks)
        assert _game(sheet, points=points, tricks=tricks, matadors=matadors).status_code == 302
    assert len(sheet.session["scoresheet"]["entries"]) == 5
    # "mit 1" puts the Kreuz-Bube (2 Augen) in his tricks or the skat: not 0 Augen;
    # "ohne 1": the defenders' one trick holds the Kreuz-Bube and two cards, at most 24 Augen
    assert _game(sheet, points=0, tricks=1, matadors=1).status_code == 400
    assert _game(sheet, points=95, tricks=9, matadors=-1).status_code == 400
    assert len(sheet.session["scoresheet"]["entries"]) == 5


@pytest.mark.parametrize("bid", [19, 999, 21, 217])
def test_a_bid_must_be_a_bid_value(sheet: Client, bid: int) -> None:
    assert bid not in ISKO.bid_values()
    r = _game(sheet, bid=bid)
    assert r.status_code == 400 and "Kein Reizwert" in r.content.decode()
    assert _value(r.content.decode(), "bid") == str(bid)


def test_matadors_that_the_tricks_cannot_hold_are_refused(sheet: Client) -> None:
    # "mit 6" puts six top trumps with the declarer; each one played wins its own trick
    assert _game(sheet, matadors=6, points=30, tricks=2).status_code == 400
    assert _game(sheet, matadors=6, points=95, tricks=8).status_code == 302


def test_engine_refusals_stay_in_the_form_with_the_game(sheet: Client) -> None:
    sheet.post("/liste/", {**NEW, "pub": "on"})
    r = _game(sheet, re="on", points=66)
    page = r.content.decode()
    assert r.status_code == 400 and "K.1.3" in page and 'id="game-form"' in page
    assert _value(page, "points") == "66" and re.search(r'name="re"[^>]*checked', page)


def test_a_suit_game_needs_its_matadors(sheet: Client) -> None:
    r = _game(sheet, matadors="")
    assert r.status_code == 400 and "Spitzen angeben" in r.content.decode()


def test_a_null_above_its_value_asks_for_the_matadors_and_counts_as_the_cheapest_lost_game(sheet: Client) -> None:
    r = _game(sheet, game="null", bid=30, points=0, tricks=0, matadors="")
    assert r.status_code == 400 and "ISkO 2.4.4" in r.content.decode()
    assert _game(sheet, game="null", bid=30, points=0, tricks=0, matadors=2).status_code == 302
    # case F-13's declarer: Kreuz- and Pik-Bube, no Herz-Bube ("mit 2"); the engine scores his cards
    cards = CardSet("CJ SJ CT CK CQ C9 HA HT D7 S7 D9 D8")
    expected = score_game(
        Contract(GameType.NULL), 0, bid=30, declarer_points=0, declarer_tricks=0, declarer_cards=cards
    )
    page = sheet.get("/liste/sitzung/").content.decode()
    assert f">{expected.score}<" in page and "2.4.4" in page
    assert expected.score != -2 * 46  # not the Null's own multiple


def test_a_null_within_its_value_needs_no_matadors(sheet: Client) -> None:
    assert _game(sheet, game="null", bid=23, points=0, tricks=0, matadors="").status_code == 302
    assert _game(sheet, game="null", bid=23, points="", tricks=1, matadors="").status_code == 302  # Augen don't count
    assert _game(sheet, points="", tricks=6).status_code == 400  # in a suit game they do


def test_house_rules_shown_by_their_names_in_the_visitors_language(client: Client) -> None:
    from skatschule.engine.names import render

    profile = {"hand_not_punished": True, "schneider_at_30": True, "hand_overbid": "hand"}
    client.post("/liste/", {**NEW, **{k: "on" if v is True else v for k, v in profile.items()}})
    active = RuleSet.from_dict(profile).active_switches()
    assert len(active) == 3
    for lang in ("de", "en"):
        client.cookies["django_language"] = lang
        page = client.get("/liste/sitzung/").content.decode()
        assert "hand_not_punished" not in page and "schneider_at_30" not in page and "hand_overbid" not in page
        for switch, text in active:
            assert render(text.get(lang), lang) in page and f">{switch.rule_id}<" in page


SEED_002 = {
    "grand_base": "24",
    "game": "diamonds",
    "hand": "on",
    "matadors": "1",
    "bid": "45",
    "points": "70",
    "tricks": "7",
}


@pytest.mark.parametrize("switch", ["hand", "skat"])
def test_seed_002_hand_game_not_overbid_is_reproducible_on_the_house_rule_page(client: Client, switch: str) -> None:
    """Karo ohne 3 Hand, bid 45, Kreuz-Bube in the skat: counted 45 (without the skat) or 27 (with it)."""
    r = client.get("/liste/hausregeln/", {**SEED_002, "hand_overbid": switch, "matadors_without_skat": "-3"})
    page = r.content.decode()
    assert r.status_code == 200, page
    game = HouseGame(
        GameType.DIAMONDS,
        hand=True,
        matadors=1,
        matadors_without_skat=-3,
        bid=45,
        declarer_points=70,
        declarer_tricks=7,
    )
    house = score_house(game, RuleSet.from_dict({"hand_overbid": switch})).score
    isko = score_house(game).score
    assert f'id="entry-house">{house}<' in page and f'id="entry-isko">{isko}<' in page
    assert house == (45 if switch == "hand" else 27) and isko < 0  # seed 002's numbers; overbid under the ISkO
    assert "K.7.5" in page


def test_the_house_rule_page_asks_for_the_matadors_without_the_skat_instead_of_an_engine_error(client: Client) -> None:
    r = client.get("/liste/hausregeln/", {**SEED_002, "hand_overbid": "hand"})
    page = r.content.decode()
    assert r.status_code == 400 and "Für den Wert ohne Skat fehlen" not in page
    assert "gib die Spitzen ohne Skat an" in page and _value(page, "bid") == "45"


def test_the_house_rule_page_has_announcements_and_a_null_above_its_value(client: Client) -> None:
    query = {"grand_base": "24", "game": "hearts", "hand": "on", "schneider_announced": "on", "matadors": "1"}
    r = client.get("/liste/hausregeln/", {**query, "bid": "50", "points": "95", "tricks": "9"})
    expected = score_house(
        HouseGame(
            GameType.HEARTS,
            hand=True,
            schneider_announced=True,
            matadors=1,
            bid=50,
            declarer_points=95,
            declarer_tricks=9,
        )
    ).score
    assert r.status_code == 200 and f'id="entry-isko">{expected}<' in r.content.decode()
    null = {"grand_base": "24", "game": "null", "bid": "30", "points": "0", "tricks": "0", "matadors": "2"}
    page = client.get("/liste/hausregeln/", null).content.decode()
    cards = CardSet("CJ SJ CT CK CQ C9 HA HT D7 S7 D9 D8")
    lost = score_game(Contract(GameType.NULL), 0, bid=30, declarer_points=0, declarer_tricks=0, declarer_cards=cards)
    assert f'id="entry-isko">{lost.score}<' in page and "2.4.4" in page
    client.cookies["django_language"] = "en"
    page = client.get("/liste/hausregeln/", null).content.decode()
    assert "cannot be played" in page and f'id="entry-isko">{lost.score}<' in page


def test_every_game_really_played_passes_the_check() -> None:
    """No false refusals: games played out by the engine (random legal cards, a greedy declarer
    and greedy defenders for the extremes) always pass the sheet's check."""
    import random

    from skatschule.engine.game import GameState
    from skatschule.engine.scoring import matadors
    from skatschule.scoresheet.scoring import is_possible

    rng = random.Random(26)
    seen = set()
    for seed in range(400):
        game = rng.choice([GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND])
        declarer = rng.randrange(3)
        state = GameState(seed=seed)
        state = GameState.start(state.deal, declarer=declarer, bid=18, contract=Contract(game, hand=True))
        greedy = rng.choice(("declarer", "defenders", None))  # who plays their highest cards
        while not state.is_over():
            cards = list(state.legal_cards())
            side = "declarer" if state.to_move == declarer else "defenders"
            card = max(cards, key=lambda c: (c.rank, c.points)) if side == greedy else rng.choice(cards)
            state.play(card)
        twelve = CardSet(list(state.deal.hand(declarer)) + list(state.deal.skat))
        entry = HouseGame(
            game,
            hand=True,
            matadors=matadors(game, twelve),
            declarer_points=state.declarer_augen(),
            declarer_tricks=state.declarer_trick_count,
        )
        seen.add((entry.declarer_points, entry.declarer_tricks))
        assert is_possible(entry), entry
    assert len(seen) > 100


def test_a_correction_that_cannot_happen_stays_in_its_form(sheet: Client) -> None:
    assert _game(sheet).status_code == 302
    r = sheet.post(
        "/liste/sitzung/spiel/1/",
        {"declarer": "1", "game": "grand", "matadors": "2", "bid": "19", "points": "0", "tricks": "10"},
    )
    page = r.content.decode()
    assert r.status_code == 400 and "Kein Reizwert" in page and "höchstens 33 Augen" in page
    assert _value(page, "bid") == "19" and "korrigieren" in page
    assert sheet.session["scoresheet"]["entries"][0]["game"] == "clubs" and not sheet.session["scoresheet"]["history"]
    # an engine refusal (the dealer of four cannot declare) lands in the form as well
    sheet.post("/liste/", {**NEW, "player4": "Dora"})
    r = _game(sheet, declarer=0, points=66)
    assert r.status_code == 400 and "Geber" in r.content.decode() and _value(r.content.decode(), "points") == "66"


def test_the_switches_are_named_in_the_chosen_deck_and_language(client: Client) -> None:
    from skatschule.engine.houserules import SWITCHES
    from skatschule.engine.names import render

    label = next(switch.label for switch in SWITCHES if switch.field == "jacks_only_matadors")
    de, en = label.de, label.en
    client.cookies["skatschule_deck"] = "german"
    for url in ("/liste/hausregeln/", "/liste/"):
        page = client.get(url).content.decode()
        assert render(de, "de", "german") in page and "Unter" in render(de, "de", "german")
    client.cookies["django_language"] = "en"
    page = client.get("/liste/hausregeln/").content.decode()
    assert render(en, "en", "german") in page


def test_the_sheet_names_a_game_by_the_engines_contract_name() -> None:
    """The list's game column is Contract.ref (the one contract name), with the sheet's own words
    (Rum, Spitzen, Kontra) after it; a house game keeps its name in place of the engine's game."""
    from skatschule.scoresheet.sheet import game_label

    grand = {"kind": "game", "game": "grand", "hand": True, "ouvert": True, "kontra": True}
    assert game_label(grand, "de") == f"{Contract(GameType.GRAND, hand=True, ouvert=True).ref('de')} Kontra"
    clubs = {"kind": "game", "game": "clubs", "hand": True, "schneider_announced": True}
    assert game_label(clubs, "en") == Contract(GameType.CLUBS, hand=True, schneider_announced=True).ref("en")
    assert game_label({"kind": "game", "game": "revolution", "hand": True, "ouvert": True}) == "Revolution ouvert Hand"
    assert game_label({"kind": "game", "game": "saxon", "hand": True}, "en") == "Saxon Spitze Hand"
