"""The table at /ueben/spiel/: a whole hand against two bots, plain-form POSTs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from skatschule.engine import GameState, Phase, SkatError
from skatschule.engine.iss import parse_record
from skatschule.engine.names import card_name
from skatschule.table import services
from tests.present import present
from tests.table.stored import session_game

URL = "/ueben/spiel/"
PUBLIC_ISS = Path(__file__).resolve().parents[2].parent / "shared" / "vectors" / "public_iss.json"


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 20_000)
    monkeypatch.setattr(services, "HINT_TIME_CAP", 0.05)


def _next_post(table: services.Table, state: GameState) -> dict[str, Any]:
    """A legal move for the learner, chosen from what the engine allows."""
    phase = state.phase
    if phase is Phase.AUCTION:
        return {"action": "bid:18"} if state.auction.value == 0 and not state.auction.pending else {"action": "pass"}
    if phase is Phase.SKAT:
        return {"action": "pickup"}
    if phase is Phase.DISCARD:
        return {"action": "discard", "cards": [c.code for c in list(state.hand(table.seat))[:2]]}
    if phase is Phase.DECLARE:
        return {"action": "declare", "value": "grand"}
    return {"action": "card", "value": next(iter(state.legal_cards())).code}


@pytest.mark.django_db
def test_a_whole_hand_with_plain_posts(client: Client) -> None:
    """A hand played to its end by plain POSTs, then its analysis and its export.

    A deal that is passed in has neither, so the test deals again (a finished game needs no
    confirmation) until a hand is played; it fails if none is, rather than passing unchecked."""
    assert client.get(URL).status_code == 200
    for _deal in range(20):
        for _ in range(80):
            table, state = session_game(client)
            if state.is_over():
                break
            assert state.to_move == table.seat  # the bots moved until it was the learner's turn
            if state.phase is Phase.PLAY:
                # the other hands never reach the browser while the game runs
                page = client.get(URL).content.decode()
                own = next(iter(state.hand(table.seat)))
                assert f'aria-label="{card_name(own.code)}' in page  # the check below can see card names
                for seat in range(3):
                    if seat != table.seat:
                        for card in state.hand(seat):
                            assert f'aria-label="{card_name(card.code)}' not in page
            response = client.post(URL, _next_post(table, state))
            assert response.status_code == 302
        table, state = session_game(client)
        assert state.is_over()
        page = client.get(URL).content.decode()
        assert "Neues Spiel" in page
        if not state.passed_in:
            break
        assert "Hätte ich gewinnen können?" not in page
        assert client.post(URL, {"action": "new"}).status_code == 302
    assert not state.passed_in, "every deal was passed in"
    assert "Hätte ich gewinnen können?" in page
    assert 'id="table-result" tabindex="-1" autofocus' in page  # without JavaScript the page starts there
    analysis = client.get(URL + "analyse/")
    assert analysis.status_code == 200
    assert "alle Karten offen" in analysis.content.decode().replace("allen Karten offen", "alle Karten offen")
    record = client.get(URL + "export.sgf").content.decode().strip()
    again = parse_record(record).state
    assert again.record() == state.record()


@pytest.mark.django_db
def test_illegal_moves_get_a_400_with_the_engines_reason(client: Client) -> None:
    client.get(URL)
    table, state = session_game(client)
    assert client.post(URL, {"action": "card", "value": "XX"}).status_code == 400
    assert client.post(URL, {"action": "nonsense"}).status_code == 400
    assert client.post(URL, {"action": "bid:19"}).status_code == 400
    # the analysis and the export wait for the end of the game
    if not state.is_over():
        assert client.get(URL + "analyse/").status_code == 409
        assert client.get(URL + "export.sgf").status_code == 409


@pytest.mark.django_db
def test_finished_games_of_signed_in_users_are_stored(client: Client, django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("spieler", password="geheim-12345")
    client.force_login(user)
    client.get(URL)
    for _ in range(400):  # games passed in are not stored: play on until one is played
        table, state = session_game(client)
        if state.is_over() and not state.passed_in:
            break
        if state.is_over():
            client.post(URL, {"action": "new"})  # a finished game needs no confirmation
            continue
        client.post(URL, _next_post(table, state))
    assert state.is_over() and not state.passed_in
    from skatschule.table.models import TableGame

    row = TableGame.objects.get(user=user)
    assert row.pk == table.saved
    assert client.get(f"{URL}{row.pk}/").status_code == 200
    other = django_user_model.objects.create_user("andere", password="geheim-12345")
    client.force_login(other)
    assert client.get(f"{URL}{row.pk}/").status_code == 404


def test_a_hint_explains_the_computers_card() -> None:
    for seed in range(30):
        table = services.new_table(seed=seed)
        state = services.replay(table=table)
        while not state.is_over() and state.phase is not Phase.PLAY:
            state = services.play(table=table, **_service_move(table, state))
        if state.phase is Phase.PLAY and state.to_move == table.seat:
            said = services.hint(table=table)
            first = re.match(r"⟦card:(\w\w)⟧: ", said.de)  # the card the computer would play, then why
            assert first is not None and first.group(1) in {c.code for c in state.legal_cards()}
            assert said.en.startswith(first.group(0))
            return
    pytest.fail("no deal reached the learner's first card")


def _service_move(table: services.Table, state: GameState) -> dict[str, Any]:
    post = _next_post(table, state)
    action = post["action"]
    if action.startswith("bid:"):
        return {"action": "bid", "value": action[4:]}
    return {"action": action, "value": post.get("value", ""), "cards": post.get("cards")}


@pytest.mark.django_db
@pytest.mark.skipif(not PUBLIC_ISS.exists(), reason="no shared vectors beside the project")
def test_iss_import_and_step_through(client: Client) -> None:
    cases = json.loads(PUBLIC_ISS.read_text(encoding="utf-8"))["cases"]
    record = cases[0]["input"]["record"]
    assert client.post(URL + "iss/", {"records": record}).status_code == 302
    page = client.get(URL + "iss/?spiel=0&schritt=4").content.decode()
    assert "Karte 4 von 30" in page
    assert "Welche Karten darf" in page and "Erlaubt sind" not in page
    state = parse_record(record).state
    probe = GameState(state.deal)
    plays = [c for t in state.tricks for c in t.cards]
    for move in state.moves[: len(state.moves) - len(plays)]:
        probe.push(move)
    for card in plays[:4]:
        probe.play(card)
    right = [c.code for c in probe.legal_cards()]
    graded = client.post(URL + "iss/", {"exercise": "legal", "spiel": 0, "schritt": 4, "cards": right})
    assert graded.status_code == 200 and "Richtig." in graded.content.decode()
    wrong = [c.code for c in probe.hand(present(probe.to_move)) if c.code not in right][:1] or right[:-1]
    graded = client.post(URL + "iss/", {"exercise": "legal", "spiel": 0, "schritt": 4, "cards": wrong})
    assert "Nicht ganz." in graded.content.decode()
    broken = next(c for c in cases if c["expected"].get("error"))["input"]["record"]
    response = client.post(URL + "iss/", {"records": broken})
    assert response.status_code == 400
    assert "ISS-Datensatz" in response.content.decode()
    # the only record of the paste is broken: no "the others have been read"
    assert "Der Datensatz ließ sich nicht einlesen." in response.content.decode()
    assert "die anderen sind eingelesen" not in response.content.decode()
    assert '<div class="feedback-wrong" role="alert" tabindex="-1" autofocus>' in response.content.decode()


@pytest.mark.django_db
def test_ouvert_check_page(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "OUVERT_SAMPLES", 4)
    safe = "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7".split()
    page = client.get(URL + "ouvert/", {"game": "null", "cards": safe}).content.decode()
    assert "Gewonnen gegen 4 von 4" in page
    risky = "CA CK S7 S8 S9 H7 H8 H9 D7 D8".split()
    page = client.get(URL + "ouvert/", {"game": "null", "cards": risky}).content.decode()
    assert "Eine Verteilung, gegen die das Spiel verloren geht" in page
    nine = client.get(URL + "ouvert/", {"game": "null", "cards": safe[:9]})
    assert nine.status_code == 400
    # the page starts at the message; the nine cards stay ticked
    html = nine.content.decode()
    assert '<p class="feedback-wrong" role="alert" tabindex="-1" autofocus>' in html
    assert len(re.findall(r'name="cards" value="\w+" checked', html)) == 9


@pytest.mark.django_db
def test_a_revoke_is_refused_in_the_visitors_deck(client: Client) -> None:
    """The engine's reason names the card and the suit as the chosen deck does."""
    from skatschule.cards.context_processors import DECK_COOKIE
    from skatschule.engine.names import render

    client.cookies[DECK_COOKIE] = "german"
    for _game in range(20):
        client.post(URL, {"action": "new"})
        for _ in range(80):
            table, state = session_game(client)
            if state.is_over():
                break
            illegal = [c for c in state.hand(table.seat) if c not in state.legal_cards()] if state.trick else []
            if state.phase is Phase.PLAY and illegal:
                response = client.post(URL, {"action": "card", "value": illegal[0].code})
                text = response.content.decode()
                assert response.status_code == 400 and "muss bedient werden" in text and "⟦" not in text
                name = render(f"⟦card:{illegal[0].code}⟧", "de", "german")
                assert name in text and "nicht erlaubt" in text
                return
            client.post(URL, _next_post(table, state))
    raise AssertionError("no moment to revoke in 20 games")


@pytest.mark.parametrize("value", ["²", "٨٠", "１８", "1000"])
def test_a_bid_that_is_not_plain_ascii_digits_is_refused(value: str) -> None:
    """ "²" passes ``str.isdigit`` but not ``int`` (``action=bid:²`` was a 500 at /ueben/spiel/);
    "٨٠" and "１８" would be read as 80 and 18."""
    for seed in range(50):
        table = services.new_table(seed=seed)
        state = services.replay(table=table)
        if state.phase is Phase.AUCTION and state.to_move == table.seat and not state.auction.pending:
            break
    else:
        raise AssertionError("no seed gave the learner the first bid")
    moves = list(table.moves)
    with pytest.raises(SkatError, match="Reizwert"):
        services.play(table=table, action="bid", value=value)
    assert table.moves == moves


def _to_phase(client: Client, phase: Phase) -> tuple[services.Table, GameState]:
    """Deal until the learner reaches ``phase`` as the declarer (bidding 18 and holding)."""
    assert client.get(URL).status_code == 200
    for _deal in range(30):
        for _ in range(20):
            table, state = session_game(client)
            if state.phase is phase and state.to_move == table.seat:
                return table, state
            if state.is_over() or state.phase is Phase.PLAY or state.declarer not in (None, table.seat):
                break
            assert client.post(URL, _next_post(table, state)).status_code == 302
        assert client.post(URL, {"action": "new", "confirm": "1"}).status_code == 302
    raise AssertionError(f"the learner never reached {phase}")


@pytest.mark.django_db
def test_a_refused_discard_keeps_the_ticked_card_and_the_keyboard_starts_in_the_choice(client: Client) -> None:
    """Drücken with one card (a full page, no htmx): the 400 page names the error, the ticked card
    is still ticked, and the first card of the choice has the focus (the page starts there)."""
    table, state = _to_phase(client, Phase.DISCARD)
    shown = re.findall(r'name="cards" value="(\w+)"', client.get(URL).content.decode())
    assert sorted(shown) == sorted(c.code for c in state.hand(table.seat))
    first, ticked = shown[:2]
    response = client.post(URL, {"action": "discard", "cards": [ticked]})
    assert response.status_code == 400
    html = response.content.decode()
    assert "genau zwei Karten" in html
    assert re.findall(r'name="cards" value="(\w+)"[^>]* checked', html) == [ticked]
    assert re.findall(r'name="cards" value="(\w+)"[^>]* autofocus', html) == [first]


@pytest.mark.django_db
def test_a_refused_declaration_keeps_the_chosen_game_and_flags(client: Client) -> None:
    """Grand ouvert after picking up the skat is refused (ouvert only as a hand game, Null aside):
    the form comes back with Grand and ouvert still chosen, the focus on Grand."""
    _to_phase(client, Phase.DECLARE)
    response = client.post(URL, {"action": "declare", "value": "grand", "ouvert": "1"})
    assert response.status_code == 400
    html = response.content.decode()
    assert re.findall(r'name="value" value="(\w+)"[^>]* checked', html) == ["grand"]
    assert re.findall(r'name="value" value="(\w+)"[^>]* autofocus', html) == ["grand"]
    assert re.search(r'name="ouvert" value="1" checked', html)
