"""Table games for the tests: the one kept in a test client's session, and finished games
stored for a user, played with the services (no pages)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from skatschule.engine import GameState, Phase
from skatschule.table import services


def session_game(client: Client) -> tuple[services.Table, GameState]:
    """The game kept in ``client``'s session and where it stands."""
    loaded = services.from_session(session=client.session)
    assert loaded is not None
    return loaded


def stored_games(user: User, count: int) -> list[tuple[int | None, GameState]]:
    """``count`` finished games of ``user`` (ids and final states), dealt from seed 0 on: the
    learner passes, a bot declares, the learner plays its lowest legal card; passed-in deals
    are skipped."""
    stored = []
    for seed in range(60):
        table = services.new_table(seed=seed)
        state = services.replay(table=table)
        while not state.is_over():
            if state.phase is Phase.AUCTION:
                state = services.play(table=table, action="pass", state=state)
            else:
                state = services.play(
                    table=table, action="card", value=sorted(state.legal_cards())[0].code, state=state
                )
        if not state.passed_in:
            stored.append((services.save_finished(table=table, user=user, state=state), state))
        if len(stored) == count:
            return stored
    raise AssertionError(f"fewer than {count} deals were played out")


def after_a_bots_trick() -> services.Table:
    """A game (the club bots) where the learner defends and is to play after the bots completed
    a trick and one of them led again: the learner has not seen that trick end. Dealt from seed 0 on."""
    from skatschule.engine import sort_hand

    for seed in range(200):
        table = services.new_table(seed=seed)
        state = services.replay(table=table)
        while state.phase is Phase.AUCTION and state.to_move == table.seat:
            state = services.play(table=table, action="pass", state=state)
        while state.phase is Phase.PLAY and state.to_move == table.seat:
            last = state.tricks[-1] if state.tricks else None
            if last is not None and last.winner != table.seat and state.trick and len(state.tricks) >= 2:
                return table
            card = sort_hand(state.legal_cards())[0]
            state = services.play(table=table, action="card", value=card.code, state=state)
    raise AssertionError("no seed in 200 let the bots take a trick and lead again")
