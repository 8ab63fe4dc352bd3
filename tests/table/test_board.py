"""The analysis board, "Meine Spiele", takeback, "Neues Spiel" asking first, the deck's names at
the table, and the ISS paste that keeps its good records. Graded by the engine: positions are
played again with the engine, card values come from the solver asked on its own."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client

from skatschule.cards.context_processors import DECK_COOKIE
from skatschule.engine import CardSet, Contract, GameState, GameType, Phase, SkatError
from skatschule.engine.bidding import BID_VALUES
from skatschule.engine.games import augen_needed
from skatschule.engine.iss import parse_record
from skatschule.engine.names import card_name, game_ref, render
from skatschule.engine.solver import solve_state
from skatschule.table import analysis, services
from skatschule.table.models import TableGame
from skatschule.training.models import Attempt
from tests.present import present
from tests.table.stored import session_game

from .records import played_record

URL = "/ueben/spiel/"


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 300_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 4)
    monkeypatch.setattr(services, "INSIGHT_NODES", 20_000)
    monkeypatch.setattr(services, "HINT_TIME_CAP", 0.05)


def _move(state: GameState) -> dict[str, Any]:
    if state.phase is Phase.AUCTION:
        return {"action": "pass"}
    return {"action": "card", "value": sorted(state.legal_cards())[0].code}


def _play_to_the_end(client: Client) -> tuple[services.Table, GameState]:
    """Deal until a bot declares (the learner passes), then play the hand out with plain POSTs."""
    for _ in range(30):
        client.post(URL, {"action": "new", "confirm": "1"})
        table, state = session_game(client)
        while not state.is_over():
            assert client.post(URL, _move(state)).status_code == 302
            table, state = session_game(client)
        if not state.passed_in:
            return table, state
    raise AssertionError("every deal was passed in")


def _position(table: services.Table, state: GameState, step: int) -> GameState:
    """The engine's own position after ``step`` cards, played from the deal."""
    plays = services.plays_of(state=state)
    probe = GameState(seed=table.seed)
    for move in table.moves:
        if move[0] == "c":
            break
        services._apply(probe, move)
    for card in plays[:step]:
        probe.play(card)
    return probe


@pytest.mark.django_db
def test_the_board_steps_card_by_card_with_every_hand_open_and_marks_each_legal_card(client: Client) -> None:
    table, state = _play_to_the_end(client)
    plays = services.plays_of(state=state)
    own_steps = [i for i in range(len(plays)) if _position(table, state, i).to_move == table.seat]
    assert own_steps
    for step in (0, 1, 3, own_steps[0], own_steps[-1], len(plays)):
        response = client.get(URL + "brett/", {"schritt": step})
        assert response.status_code == 200
        page = response.content.decode()
        probe = _position(table, state, step)
        trick = step // 3 if step and step % 3 == 0 else step // 3 + 1  # the trick on the table
        assert f"Karte {step} von {len(plays)} · Stich {trick}" in page
        # every hand open: each remaining card of each seat, and the skat as dealt
        for seat in range(3):
            for card in probe.hand(seat):
                assert card_name(card.code) in page
        assert "Skat" in page
        # the links that work without JavaScript
        assert f'href="?schritt={max(step - 1, 0)}#brett-karte-zurueck" id="brett-karte-zurueck" rel="prev"' in page
        assert f'href="?schritt={min(step + 1, len(plays))}#brett-karte-vor" id="brett-karte-vor" rel="next"' in page
        assert 'data-key="Home"' in page and 'data-key="End"' in page
    # at the learner's decision: each legal card with the declarer's Augen from the solver
    step = own_steps[-1]
    probe = _position(table, state, step)
    page = client.get(URL + "brett/", {"schritt": step}).content.decode()
    solved = solve_state(probe)
    # the whole game is on the page once; the decision of this step is the one not hidden
    shown = re.findall(r'<section class="board-decision" data-decision="(\d+)"([^>]*)>(.*?)</section>', page, re.S)
    assert [int(index) for index, _attrs, _body in shown] == own_steps
    assert [index for index, attrs, _body in shown if "hidden" not in attrs] == [str(step)]
    marks = re.findall(r'<ul class="board-marks">(.*?)</ul>', {i: b for i, _a, b in shown}[str(step)], re.S)
    assert marks, page
    items = re.findall(r"<li class=\"([^\"]*)\">(.*?)</li>", marks[0], flags=re.S)
    assert len(items) == len(probe.legal_cards())
    need = 61 if not (state.contract and state.contract.schneider_announced) else 90
    for (classes, body), card in zip(items, sorted(probe.legal_cards(), key=lambda c: _order(probe, c)), strict=True):
        value = solved.card_values[card]
        assert f"Alleinspieler {value} Augen" in body or f"Alleinspieler {value} Auge" in body
        own = value if state.declarer == table.seat else 120 - value
        own_need = need if state.declarer == table.seat else 121 - need
        assert ("mark-win" in classes) == (own >= own_need)
        assert ("✓" in body) == (own >= own_need) and ("✗" in body) == (own < own_need)
        assert ("mark-played" in classes) == (card == plays[step])


def _shown_decision(page: str) -> str:
    """The one decision of the page's board that is not hidden (the whole game is on the page)."""
    shown = re.findall(r'<section class="board-decision" data-decision="\d+"([^>]*)>(.*?)</section>', page, re.S)
    bodies = [body for attrs, body in shown if "hidden" not in attrs]
    assert len(bodies) == 1
    return str(bodies[0])


def _order(state: GameState, card: Any) -> int:
    from skatschule.engine import sort_hand

    game = state.contract.game if state.contract else None
    return [c.code for c in sort_hand(state.legal_cards(), game)].index(card.code)


@pytest.mark.django_db
def test_the_board_names_the_first_mistake_and_how_many_deals_were_sampled(client: Client) -> None:
    table, state = _play_to_the_end(client)
    found = services.analyse(table=table, state=state, insights=True)
    assert found is not None
    for step in found.steps:
        page = _shown_decision(client.get(URL + "brett/", {"schritt": step.index}).content.decode())
        assert ("Ergebnis verschenkt, der erste solche Fehler" in page) == (step is found.first_given_away)
        insight = step.insight
        assert insight is not None and insight.tried <= 4
        if insight.samples:
            assert f"In {insight.samples} Verteilungen" in page
            assert f"{insight.share(step.card)} %" in page
            assert f"Gezogen: {insight.tried} Verteilungen, durchgerechnet: {insight.samples}." in page


def test_the_insight_uses_only_what_the_learner_saw() -> None:
    """Two positions that look the same to the learner (the other hands swapped where their
    voids allow) give the same "Hätte ich es wissen können?"."""
    checked = 0
    for seed in range(40):
        start, plays, _ = _random_game(seed)
        seat = (seed + 1) % 3
        state = start
        for card in plays[:7]:
            state.play(card)
        if state.to_move != seat:
            continue
        a, b = [s for s in range(3) if s != seat]
        swapped = _swap_hidden(state, a, b)
        if swapped is None:
            continue
        need = augen_needed(state.contract) if state.contract else None
        one = analysis.insight_at(state, seat, need, samples=3, max_nodes=20_000, seed=1)
        two = analysis.insight_at(swapped, seat, need, samples=3, max_nodes=20_000, seed=1)
        assert one == two
        checked += 1
    assert checked >= 5


def _random_game(seed: int) -> tuple[GameState, list[Any], GameState]:
    from skatschule.engine import Contract, GameType
    from skatschule.engine.cards import deal_cards

    rng = random.Random(seed)
    deal = deal_cards(rng=rng)
    game = (GameType.GRAND, GameType.HEARTS, GameType.NULL)[seed % 3]

    def start() -> GameState:
        return GameState.start(deal, declarer=seed % 3, bid=18, contract=Contract(game, hand=True))

    played = start()
    plays = []
    while not played.is_over():
        card = rng.choice(sorted(played.legal_cards()))
        played.play(card)
        plays.append(card)
    return start(), plays, start()


def _swap_hidden(state: GameState, a: int, b: int) -> GameState | None:
    """``state`` with one card of ``a`` and one of ``b`` exchanged (same suit group, so no void
    shown is broken), or None."""
    from skatschule.engine import Deal

    game = state.contract.game if state.contract else None
    assert game is not None
    for x in state.hand(a):
        for y in state.hand(b):
            if game.follow_mask[x.index] == game.follow_mask[y.index] and x != y:
                hands = [list(state.deal.hand(s)) for s in range(3)]
                hands[a] = [y if c == x else c for c in hands[a]]
                hands[b] = [x if c == y else c for c in hands[b]]
                deal = Deal(tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), state.deal.skat)
                swapped = GameState.start(
                    deal, declarer=state.declarer or 0, bid=state.bid, contract=present(state.contract)
                )
                for t in state.tricks:
                    for card in t.cards:
                        swapped.play(card)
                for card in state.trick:
                    swapped.play(card)
                return swapped
    return None


def test_an_analysis_reads_back_from_its_json() -> None:
    start, plays, again = _random_game(4)
    found = analysis.analyse_plays(start, plays, 1, max_nodes=100_000)
    found = analysis.add_insights(again, plays, 1, found, samples=2, max_nodes=10_000)
    assert analysis.Analysis.from_json(found.as_json()) == found


@pytest.mark.django_db
def test_meine_spiele_lists_filters_and_links_each_board(client: Client, player: Any, django_user_model: Any) -> None:
    assert client.get(URL + "meine/").status_code == 200
    table, state = _play_to_the_end(client)
    other = django_user_model.objects.create_user("fremd", password="geheim-12345")
    TableGame.objects.create(user=other, seed=1, seat=0, moves=[], won=True, learner_won=True, score=10, game="grand")
    page = client.get(URL + "meine/").content.decode()
    row = TableGame.objects.get(user=player, pk=present(table.saved))
    assert f'href="/ueben/spiel/{row.pk}/brett/"' in page
    assert f"/ueben/spiel/{TableGame.objects.get(user=other).pk}/brett/" not in page
    assert state.contract is not None and row.game == state.contract.game.value
    assert row.learner_won == state.side_won(table.seat)
    result = "gewonnen" if row.learner_won else "verloren"
    wrong = "verloren" if row.learner_won else "gewonnen"
    assert f"/ueben/spiel/{row.pk}/brett/" in client.get(URL + "meine/", {"ergebnis": result}).content.decode()
    assert f"/ueben/spiel/{row.pk}/brett/" not in client.get(URL + "meine/", {"ergebnis": wrong}).content.decode()
    other_game = "null" if row.game != "null" else "grand"
    assert f"/ueben/spiel/{row.pk}/brett/" in client.get(URL + "meine/", {"spiel": row.game}).content.decode()
    assert f"/ueben/spiel/{row.pk}/brett/" not in client.get(URL + "meine/", {"spiel": other_game}).content.decode()
    # junk in a filter is no error
    assert client.get(URL + "meine/", {"spiel": "²", "ergebnis": "x" * 300}).status_code == 200
    # the stored game's board, only for its owner
    assert client.get(URL + f"{row.pk}/brett/").status_code == 200
    client.force_login(other)
    assert client.get(URL + f"{row.pk}/brett/").status_code == 404


@pytest.mark.django_db
def test_meine_spiele_asks_visitors_to_sign_in(client: Client) -> None:
    response = client.get(URL + "meine/")
    assert response.status_code == 302 and "/konto/" in response["Location"]


@pytest.mark.django_db
def test_a_game_with_a_takeback_is_stored_but_does_not_count(client: Client, player: Any) -> None:
    for _ in range(30):
        client.post(URL, {"action": "new", "confirm": "1"})
        table, state = session_game(client)
        while state.phase is Phase.AUCTION and not state.is_over():
            client.post(URL, {"action": "pass"})
            table, state = session_game(client)
        if not state.is_over():
            break
    assert state.phase is Phase.PLAY and state.to_move == table.seat
    before = list(table.moves)
    hand = state.hand(table.seat)
    assert client.post(URL, _move(state)).status_code == 302
    assert client.post(URL, {"action": "takeback"}).status_code == 302
    table, state = session_game(client)
    assert table.moves == before and table.took_back and state.hand(table.seat) == hand
    while not state.is_over():
        client.post(URL, _move(state))
        table, state = session_game(client)
    row = TableGame.objects.get(user=player, pk=present(table.saved))
    assert row.took_back
    assert not Attempt.objects.filter(user=player, kind="spiel").exists()
    assert "zählt nicht für die Lektion" in client.get(URL).content.decode()
    # nothing to take back once the game is over
    assert client.post(URL, {"action": "takeback"}).status_code == 400


@pytest.mark.django_db
def test_new_game_asks_before_it_discards_a_running_game(client: Client) -> None:
    client.get(URL)
    table, state = session_game(client)
    while state.to_move != table.seat or state.phase is not Phase.AUCTION:
        client.post(URL, {"action": "new", "confirm": "1"})
        table, state = session_game(client)
    client.post(URL, {"action": "pass"})
    table, state = session_game(client)
    while state.is_over():  # passed in at once: the next deal
        client.post(URL, {"action": "new"})
        table, state = session_game(client)
        if state.phase is Phase.AUCTION and state.to_move == table.seat:
            client.post(URL, {"action": "pass"})
            table, state = session_game(client)
    response = client.post(URL, {"action": "new"})
    assert response.status_code == 200
    assert "Wirklich verwerfen" in response.content.decode()
    assert session_game(client)[0].moves == table.moves
    assert client.post(URL, {"action": "new", "confirm": "1"}).status_code == 302
    assert session_game(client)[0].seed != table.seed


@pytest.mark.django_db
@pytest.mark.parametrize(("deck", "lang"), [("german", "de"), ("french", "de"), ("german", "en")])
def test_the_game_choice_and_the_header_speak_the_deck(client: Client, deck: str, lang: str) -> None:
    client.cookies[DECK_COOKIE] = deck
    client.cookies["django_language"] = lang
    for seed in range(300):
        table = services.new_table(seed=seed)
        state = services.replay(table=table)
        while state.phase is Phase.AUCTION and state.to_move == table.seat and not state.is_over():
            higher = [v for v in BID_VALUES if v > state.auction.value]
            if state.auction.pending:
                state = services.play(table=table, action="hold")
            elif higher and higher[0] <= 30:
                state = services.play(table=table, action="bid", value=str(higher[0]))
            else:
                state = services.play(table=table, action="pass")
        if state.phase is Phase.SKAT and state.to_move == table.seat:
            break
    else:
        pytest.fail("no seed let the learner declare")
    session = client.session
    session[services.SESSION_KEY] = table.as_session()
    session.save()
    page = client.get(URL).content.decode()
    diamonds = render(game_ref("diamonds"), lang, deck)
    assert f'value="diamonds"> {diamonds}</label>' in page
    if deck == "german":
        assert "Karo" not in page.split("<main", 1)[-1]
    # declared: the header names the game in the deck
    client.post(URL, {"action": "declare", "value": "diamonds"})
    page = client.get(URL).content.decode()
    named = render(Contract(GameType.DIAMONDS, hand=True).ref(lang, capital=True), lang, deck)
    assert f"<strong>{named}</strong>" in page


@pytest.mark.django_db
def test_the_auction_speaks_the_page_language(client: Client) -> None:
    client.cookies["django_language"] = "en"
    for _ in range(30):
        client.post(URL, {"action": "new", "confirm": "1"})
        table, state = session_game(client)
        if any(m[2] == "p" for m in table.moves if m[0] == "a") and state.phase is Phase.AUCTION:
            break
    page = client.get(URL).content.decode()
    if '<ol class="auction-steps">' in page:
        steps = page.split('<ol class="auction-steps">', 1)[1].split("</ol>", 1)[0]
        assert "passe" not in steps and "ja<" not in steps


@pytest.mark.django_db
def test_the_end_of_a_pick_up_game_shows_what_was_put_away_and_the_dealt_skat(client: Client) -> None:
    for seed in range(400):
        table = services.new_table(seed=seed)
        state = services.replay(table=table)
        while state.phase is Phase.AUCTION and not state.is_over():
            state = services.play(table=table, action="pass", state=state)
        if state.phase is Phase.PLAY and state.picked_up and CardSet(state.skat) != CardSet(state.deal.skat):
            break
    else:
        pytest.fail("no bot picked up and changed the skat")
    while not state.is_over():
        state = services.play(table=table, action="card", value=sorted(state.legal_cards())[0].code)
    session = client.session
    session[services.SESSION_KEY] = table.as_session()
    session.save()
    page = client.get(URL).content.decode()
    section = page.split("Gedrückt (zählt für den Alleinspieler)", 1)[1].split("</p>", 1)[0]
    for card in CardSet(state.skat):
        assert card_name(card.code) in section
    dealt = page.split("Skat, wie er ausgeteilt wurde", 1)[1].split("</p>", 1)[0]
    for card in state.deal.skat:
        assert card_name(card.code) in dealt


@pytest.mark.django_db
def test_a_paste_keeps_its_good_records_names_the_broken_one_and_navigates(client: Client) -> None:
    good = [played_record(seed) for seed in (11, 12, 13, 14)]
    broken = good[2].replace("MV[", "MV[w XX.YY.ZZ ", 1)
    with pytest.raises(SkatError):
        parse_record(broken)
    paste = "\n".join([good[0], good[1], broken, good[3]])
    response = client.post(URL + "iss/", {"records": paste})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Datensatz 3:" in page and "Zug" in page
    assert "ließ sich nicht einlesen; die anderen sind eingelesen." in page
    assert good[0].replace("[", "").split()[0] in page.replace("[", "")  # the paste stays in the box
    assert "Spiel 1 von 3" in page
    page = client.get(URL + "iss/", {"spiel": 2}).content.decode()
    assert "Spiel 3 von 3" in page
    assert 'href="?spiel=0"' in page and 'href="?spiel=1"' in page
    # the board of a record, for any seat
    game = parse_record(good[3])
    if game.plays and game.state.declarer is not None:
        board = client.get(URL + "iss/brett/", {"spiel": 2, "schritt": 2})
        assert board.status_code == 200
        assert f"Karte 2 von {len(game.plays)}" in board.content.decode()
        assert client.get(URL + "iss/brett/", {"spiel": "2", "platz": "²"}).status_code == 200


@pytest.mark.django_db
def test_the_table_and_lessons_are_linked_from_menu_home_and_ueben(client: Client) -> None:
    for path in ("/", "/ueben/"):
        page = client.get(path).content.decode()
        assert 'href="/ueben/spiel/"' in page, path
    menu = client.get("/regeln/").content.decode().split('class="main-nav"', 1)[1].split("</nav>", 1)[0]
    assert 'href="/ueben/spiel/"' in menu and "Spieltisch" in menu


@pytest.mark.django_db
def test_english_pages_start_a_sentence_or_label_with_a_capital_seat_name(client: Client) -> None:
    """The seats are lower case in running English ("forehand"); where a name opens a sentence
    or a label ("Forehand plays …", "Middlehand: …") it starts with a capital."""
    client.cookies["django_language"] = "en"
    table, state = _play_to_the_end(client)
    assert state.declarer is not None
    declarer = ("forehand", "middlehand", "rearhand")[state.declarer]
    page = client.get(URL).content.decode()
    assert f"<strong>{declarer.capitalize()}</strong> plays" in page
    history = page.split("<ol>", 1)[1].split("</ol>", 1)[0]
    assert history.startswith("<li>") and history[4:5].isupper(), history[:40]
    board = client.get(URL + "brett/").content.decode()
    assert f"<strong>{declarer.capitalize()}</strong> plays" in board
    assert not re.search(r"<h3>(forehand|middlehand|rearhand)", board)
