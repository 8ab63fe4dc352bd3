"""The table as a table: the seats round it (places, names, roles, the dealer, the auction, the
cards left), the last trick kept on show after the bots completed it and led again, and the
question before a running game is discarded coming first (not below the hand, whose card would
keep the keyboard). Checked against the engine's own state."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from skatschule.engine import Bid, GameState, Hold, Phase
from skatschule.table import presenter, services
from tests.table.stored import after_a_bots_trick

URL = "/ueben/spiel/"
SPEECH = presenter.Speech("de", "french")


def _declared(seat: int) -> tuple[services.Table, GameState]:
    """A game with the learner at ``seat``, declared by a bot, in play."""
    for seed in range(100):
        table = services.new_table(seed=seed, seat=seat)
        state = services.replay(table=table)
        while state.phase is Phase.AUCTION and state.to_move == seat:
            state = services.play(table=table, action="pass", state=state)
        if state.phase is Phase.PLAY and state.declarer is not None:
            return table, state
    raise AssertionError("no bot declared")


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_seats_sit_round_the_learner_with_their_roles_and_words(seat: int) -> None:
    table, state = _declared(seat)
    tricks, trick = len(state.tricks), list(state.trick)
    seats = presenter.seats(state, seat, SPEECH)
    # the next to play sits on the left (clockwise), the learner at the bottom
    assert [(s.seat, s.place) for s in seats] == [((seat + 1) % 3, "left"), ((seat + 2) % 3, "right"), (seat, "bottom")]
    for s in seats:
        assert s.name == ("Vorhand", "Mittelhand", "Hinterhand")[s.seat]
        assert s.player == ("Du" if s.seat == seat else "Computer")
        assert s.role == ("Alleinspieler" if s.seat == state.declarer else "Gegenspieler")
        assert s.deals == (s.seat == 2)  # three at the table: the dealer is Hinterhand
        assert s.cards_left == len(state.hand(s.seat)) == len(s.backs)
        assert s.to_move == (state.to_move == s.seat)
        words = [
            str(m.value) if isinstance(m, Bid) else "ja" if isinstance(m, Hold) else "passe"
            for m in state.auction.moves
            if m.seat == s.seat
        ]
        assert list(s.said) == words
    assert "passe" in next(s for s in seats if s.place == "bottom").said
    # read only: the caller's state is where it was
    assert (len(state.tricks), list(state.trick)) == (tricks, trick)


def test_the_last_trick_is_the_one_the_bots_completed_with_its_taker() -> None:
    table = after_a_bots_trick()
    state = services.replay(table=table)
    last = presenter.last_trick(state, table.seat, SPEECH)
    done = state.tricks[-1]
    assert last is not None
    assert last.number == len(state.tricks)
    assert [c.code for c in last.cards] == [c.code for c in done.cards]
    assert [c.seat for c in last.cards] == [SPEECH.seat(done.seat_of(i)) for i in range(3)]
    assert last.winner == SPEECH.seat(done.winner) and last.points == done.points
    assert last.winner_place == presenter.place_of(done.winner, table.seat) != "bottom"
    on_table = presenter.trick_on_table(state, table.seat, SPEECH)
    assert [c.code for c in on_table] == [c.code for c in state.trick]
    assert (
        presenter.last_trick(services.replay(table=services.Table(table.seed, table.seat)), table.seat, SPEECH) is None
    )


@pytest.mark.django_db
def test_the_page_shows_the_last_trick_and_asks_before_the_hand(client: Client) -> None:
    table = after_a_bots_trick()
    state = services.replay(table=table)
    session = client.session
    session[services.SESSION_KEY] = table.as_session()
    session.save()
    page = client.get(URL).content.decode()
    shown = page.split('class="last-trick', 1)[1].split("</section>", 1)[0]
    assert re.findall(r'data-card="(\w+)"', shown) == [c.code for c in state.tricks[-1].cards]
    assert 'role="toolbar"' in page
    assert page.count('<ol class="auction-steps">') == 1  # the auction as it happened, after it too
    assert re.search(r'<button name="value"[^>]* autofocus', page)  # the keyboard starts on a card
    # "Neues Spiel" without JavaScript: the question first, the keyboard on it, not on a card
    page = client.post(URL, {"action": "new"}).content.decode()
    asked = page.index("Wirklich verwerfen")
    assert asked < page.index('class="felt"') < page.index('class="table-hand"')
    assert not re.search(r'<button name="value"[^>]* autofocus', page)
    assert page.count(" autofocus") == 1


@pytest.mark.django_db
def test_the_table_speaks_english(client: Client) -> None:
    table = after_a_bots_trick()
    session = client.session
    session[services.SESSION_KEY] = table.as_session()
    session.save()
    client.cookies["django_language"] = "en"
    page = client.get(URL).content.decode()
    for words in ("Last trick (no. ", "takes the trick", "Defender", "Declarer", "You", "Your cards: choose with"):
        assert words in page, words
    for german in ("Letzter Stich", "nimmt den Stich", "Gegenspieler", "Deine Karten: mit"):
        assert german not in page, german
