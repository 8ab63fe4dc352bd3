"""'Hätte ich gewinnen können?': the Augen per card, checked against the engine itself.

The oracle is the open-hand solver asked separately for each position (the card played, then
the position solved again), never a list of expected numbers; the page is checked against the
analysis in German and in English (words that agree with the numbers).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client

from skatschule.engine import Card, CardSet, Contract, GameState, GameType, Phase
from skatschule.engine.cards import deal_cards
from skatschule.engine.games import augen_needed, augen_to_stop
from skatschule.engine.names import card_name
from skatschule.engine.solver import SearchAborted, solve_state
from skatschule.table import analysis, services

URL = "/ueben/spiel/"


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 300_000)


def _random_game(seed: int, game: GameType) -> tuple[GameState, list[Card], GameState]:
    """A hand game of ``game`` from a seeded deal, random legal cards: (start, plays, start again)."""
    rng = random.Random(seed)
    deal = deal_cards(rng=rng)
    declarer = seed % 3

    def start() -> GameState:
        return GameState.start(deal, declarer=declarer, bid=18, contract=Contract(game, hand=True))

    played = start()
    plays: list[Card] = []
    while not played.is_over():
        card = rng.choice(sorted(played.legal_cards()))
        played.play(card)
        plays.append(card)
    return start(), plays, start()


def _declarer_total(state: GameState) -> int:
    """The declarer's Augen with best play from ``state`` on (or as the game ended)."""
    if state.phase is Phase.PLAY:
        found = solve_state(state, card_values=False)
        assert found.declarer_points is not None
        return found.declarer_points
    return state.declarer_trick_points + CardSet(state.skat).points


def _own(total: int, declares: bool) -> int:
    return total if declares else 120 - total


@pytest.mark.parametrize("seed", range(6))
def test_every_card_is_valued_as_the_engine_values_it_alone(seed: int) -> None:
    game = (GameType.CLUBS, GameType.HEARTS, GameType.GRAND)[seed % 3]
    start, plays, probe = _random_game(seed, game)
    seat = (seed // 3 + 1) % 3
    found = analysis.analyse_plays(start, plays, seat, max_nodes=400_000)
    declares = probe.declarer == seat
    assert found.learner_declares is declares
    assert found.need == (61 if declares else 60)
    exact = 0
    steps = iter(found.steps)
    for card in plays:
        if probe.to_move != seat:
            probe.play(card)
            continue
        step = next(steps)
        assert step.card == card.code and step.trick == len(probe.tricks) + 1
        if step.exact:
            exact += 1
            assert step.before == _own(_declarer_total(probe), declares)
            values = {}
            for other in sorted(probe.legal_cards()):
                probe.play(other)
                values[other.code] = _own(_declarer_total(probe), declares)
                probe.pop()
            # the best card keeps the value; the card played is worth what the engine says it is
            assert step.before == max(values.values())
            assert step.after == values[card.code]
            assert step.best == tuple(c for c, v in values.items() if v == step.before)
            assert step.cost == step.before - step.after >= 0
            assert step.wins_before == (step.before >= found.need)
            assert step.wins_after == (step.after >= found.need)
            assert step.gave_away == (step.before >= found.need > step.after)
        probe.play(card)
    assert next(steps, None) is None
    assert exact >= 5  # the late positions are small enough for exact Augen


def test_a_search_past_its_budget_falls_back_to_win_or_lose_and_then_to_too_big() -> None:
    start, plays, probe = _random_game(11, GameType.SPADES)
    seat = probe.declarer
    assert seat is not None
    tight = analysis.analyse_plays(start, plays, seat, max_nodes=2_000)
    assert any(not s.exact for s in tight.steps), "the budget should be too small for the first cards"
    steps = iter(tight.steps)
    for card in plays:
        if probe.to_move == seat:
            step = next(steps)
            if not step.exact:
                assert step.before is None and step.after is None and step.cost is None
                if step.wins_before is not None:
                    # the win/lose verdict is the engine's answer to "at least 61 Augen?"
                    answer = solve_state(probe, target=61)
                    assert step.wins_before == answer.declarer_wins
                    winning = {c.code for c, v in answer.card_values.items() if v}
                    assert step.wins_after == (card.code in winning)
                    assert set(step.best) == (winning if step.wins_before else set())
                else:
                    assert step.too_big and step.best == ()
                    with pytest.raises(SearchAborted):
                        solve_state(probe, target=61, max_nodes=2_000)
        probe.play(card)
    assert any(s.exact for s in tight.steps)  # the last tricks are small enough even so


def test_null_stays_win_or_lose() -> None:
    for seed in range(20):
        start, plays, probe = _random_game(seed, GameType.NULL)
        seat = probe.declarer
        assert seat is not None
        found = analysis.analyse_plays(start, plays, seat, max_nodes=400_000)
        assert found.null and found.need is None
        if not found.steps:
            continue
        steps = iter(found.steps)
        for card in plays:
            if probe.to_move == seat:
                step = next(steps)
                assert step.before is None and step.after is None and step.cost is None
                answer = solve_state(probe)  # does the declarer still take no trick?
                assert step.wins_before == answer.declarer_wins
                assert step.wins_after == bool(answer.card_values[card])
            probe.play(card)
        return
    pytest.fail("no Null game with a card of the declarer")


def test_schneider_announced_needs_90_and_schwarz_is_not_a_question_of_augen() -> None:
    assert augen_needed(Contract(GameType.GRAND)) == 61
    assert augen_needed(Contract(GameType.GRAND, hand=True, schneider_announced=True)) == 90
    assert augen_needed(Contract(GameType.GRAND, hand=True, schwarz_announced=True)) is None
    assert augen_needed(Contract(GameType.NULL)) is None
    assert (augen_to_stop(61), augen_to_stop(90)) == (60, 31)  # the defenders' side of the same line


# -- the page ---------------------------------------------------------------------------


def _finished_table(seed: int, *, declare: bool) -> services.Table:
    """A game at the table played to the end: the learner bids 18 and plays hand (``declare``)
    or passes at once, and always plays his first legal card."""
    table = services.new_table(seed=seed)
    state = services.replay(table=table)
    while not state.is_over():
        if state.phase is Phase.AUCTION:
            bid = declare and not state.auction.pending and state.auction.value < 18
            move: dict[str, Any] = {"action": "bid", "value": "18"} if bid else {"action": "pass"}
            if declare and state.auction.pending:
                move = {"action": "hold"}
        elif state.phase is Phase.SKAT:
            move = {"action": "declare", "value": "grand"}
        else:
            move = {"action": "card", "value": sorted(state.legal_cards())[0].code}
        state = services.play(table=table, **move)
    return table


def _table_where(*, declare: bool) -> services.Table:
    for seed in range(60):
        table = _finished_table(seed, declare=declare)
        state = services.replay(table=table)
        if not state.passed_in and (state.declarer == table.seat) is declare:
            return table
    raise AssertionError("no seed gave that game")


def _page(client: Client, table: services.Table, lang: str, deck: str = "french") -> str:
    session = client.session
    session[services.SESSION_KEY] = table.as_session()
    session["deck"] = deck
    session.save()
    client.cookies["django_language"] = lang
    response = client.get(URL + "analyse/")
    assert response.status_code == 200
    return response.content.decode()


def _items(page: str) -> list[str]:
    body = page.split('<ol class="analysis-steps">', 1)[1].split("</ol>", 1)[0]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li)) for li in body.split("<li>")[1:]]


WORDS: dict[str, dict[str, Any]] = {
    "de": {
        "declarer": "Du warst Alleinspieler",
        "defender": "Du warst Gegenspieler",
        "best": "nichts: eine der besten Karten",
        "gave_away": "verschenkt",
        "augen": ("Auge", "Augen"),
    },
    "en": {
        "declarer": "You were the declarer",
        "defender": "You were a defender",
        "best": "nothing: one of the best cards",
        "gave_away": "thrown away",
        "augen": ("card point", "card points"),
    },
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("declare", "deck"), [(True, "french"), (False, "german")])
def test_the_page_says_what_the_numbers_say(client: Client, lang: str, declare: bool, deck: str) -> None:
    table = _table_where(declare=declare)
    found = services.analyse(table=table)
    assert found is not None and found.learner_declares is declare
    page = _page(client, table, lang, deck)
    words = WORDS[lang]
    assert words["declarer" if declare else "defender"] in page
    assert words["defender" if declare else "declarer"] not in page
    items = _items(page)
    assert len(items) == len(found.steps)
    for step, text in zip(found.steps, items, strict=True):
        assert card_name(step.card, lang, deck) in text  # in the visitor's deck
        assert all(card_name(c, lang, deck) in text for c in step.best)
        assert (words["gave_away"] in text) == step.gave_away, text
        if step.exact:
            one, many = words["augen"]
            assert f"{step.before} {one if step.before == 1 else many}" in text
            assert f"{step.after} {one if step.after == 1 else many}" in text
            if step.cost:
                assert f"{step.cost} {one if step.cost == 1 else many}" in text
                assert words["best"] not in text
            else:
                assert words["best"] in text
    # the summary names the first card that cost Augen, or says that none did
    summary = page.split('id="summary"', 1)[1].split("</div>", 1)[0]
    if found.first_given_away is None:
        assert words["gave_away"] not in summary


@pytest.mark.django_db
def test_the_analysis_is_cached_and_a_passed_in_game_gets_a_clear_409(client: Client) -> None:
    table = _table_where(declare=False)
    first = services.analyse(table=table)
    assert services.analyse(table=table) is not None
    assert services.analyse(table=table) == first
    passed = _passed_in_table()
    session = client.session
    session[services.SESSION_KEY] = passed.as_session()
    session.save()
    response = client.get(URL + "analyse/")
    assert response.status_code == 409
    assert "Eingepasst" in response.content.decode()


# ------------------------------------------------------------- the analysis of a stored game


def _stored(table: services.Table, user: Any) -> int:
    fresh = services.Table(table.seed, table.seat, list(table.moves))
    pk = services.save_finished(table=fresh, user=user)
    assert pk is not None
    return pk


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_stored_game_has_its_own_analysis_for_its_owner_only(
    client: Client, django_user_model: Any, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    from django.core.cache import cache

    cache.clear()
    table = _table_where(declare=True)
    owner = django_user_model.objects.create_user(f"besitzer-{lang}", password="geheim-12345")
    pk = _stored(table, owner)
    client.force_login(owner)
    client.cookies["django_language"] = lang
    # the session holds another game (or none): the stored game's page links to its own analysis
    session = client.session
    session[services.SESSION_KEY] = _table_where(declare=False).as_session()
    session["deck"] = "german"
    session.save()
    game_page = client.get(f"{URL}{pk}/").content.decode()
    assert f'href="{URL}{pk}/analyse/"' in game_page and f'href="{URL}analyse/"' not in game_page
    assert f'href="{URL}{pk}/export.sgf"' in game_page

    calls: list[int] = []
    real = analysis.analyse_plays  # the function services imported

    def counting(*args: Any, **kwargs: Any) -> analysis.Analysis:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "analyse_plays", counting)
    response = client.get(f"{URL}{pk}/analyse/")
    assert response.status_code == 200
    page = response.content.decode()
    # cached like the session's analysis (the job's result): the second page does not search again
    assert client.get(f"{URL}{pk}/analyse/").status_code == 200
    assert len(calls) == 1
    found = services.analyse(table=table)  # the engine once more, outside the view
    assert found is not None and found.learner_declares
    assert WORDS[lang]["declarer"] in page
    items = _items(page)
    assert len(items) == len(found.steps)
    for step, text in zip(found.steps, items, strict=True):
        assert card_name(step.card, lang, "german") in text
    assert f'href="{URL}{pk}/"' in page  # back to the stored game

    other = django_user_model.objects.create_user(f"andere-{lang}", password="geheim-12345")
    client.force_login(other)
    assert client.get(f"{URL}{pk}/analyse/").status_code == 404
    assert client.get(f"{URL}{pk}/export.sgf").status_code == 404
    assert client.get(f"{URL}{pk + 1000}/analyse/").status_code == 404
    client.logout()
    assert client.get(f"{URL}{pk}/analyse/").status_code == 302  # to the login, as the stored game


@pytest.mark.django_db
def test_a_stored_game_exports_its_own_record(client: Client, django_user_model: Any) -> None:
    from skatschule.engine.iss import parse_record

    table = _table_where(declare=False)
    owner = django_user_model.objects.create_user("exporteur", password="geheim-12345")
    pk = _stored(table, owner)
    client.force_login(owner)
    response = client.get(f"{URL}{pk}/export.sgf")
    assert response.status_code == 200
    game = parse_record(response.content.decode().strip())
    outcome = services.replay(table=table).outcome()
    assert outcome is not None
    assert game.answer()["score"] == outcome.score


@pytest.mark.django_db
def test_a_stored_game_passed_in_has_nothing_to_analyse(client: Client, django_user_model: Any) -> None:
    passed = _passed_in_table()
    owner = django_user_model.objects.create_user("eingepasst", password="geheim-12345")
    pk = _stored(passed, owner)
    client.force_login(owner)
    response = client.get(f"{URL}{pk}/analyse/")
    assert response.status_code == 409
    assert "Eingepasst" in response.content.decode()


def _passed_in_table() -> services.Table:
    """The first seeded table that is passed in when the learner passes too."""
    for seed in range(200):
        candidate = services.new_table(seed=seed)
        state = services.replay(table=candidate)
        while not state.is_over() and state.phase is Phase.AUCTION:
            state = services.play(table=candidate, action="pass")
        if state.passed_in:
            return candidate
    raise AssertionError("no passed-in deal among 200 seeds")
