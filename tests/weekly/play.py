"""Playing a deal of the week at the table through its pages, as a learner would (a helper)."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from skatschule.engine.game import Phase
from skatschule.table import services as table_services


def learner_move(table: table_services.Table) -> dict[str, str]:
    """A fixed, simple learner: passes in the auction (so a computer declares, or nobody) and
    then plays its first legal card in the engine's order."""
    state = table_services.replay(table=table)
    if state.phase is Phase.AUCTION:
        return {"action": "pass"}
    if state.phase is Phase.PLAY:
        return {"action": "card", "value": list(state.legal_cards())[0].code}
    raise AssertionError(f"the learner never declares, yet is asked in {state.phase}")


def play_to_the_end(client: Client, *, key: str, number: int, stop_after: int | None = None) -> Any:
    """Open deal ``number`` of the set ``key`` and play it through the table's pages; with
    ``stop_after`` only that many learner moves. Returns the table as the session holds it."""
    response = client.post(reverse("weekly:play", args=[key, number]))
    assert response.status_code == 302
    done = 0
    while True:
        loaded = table_services.from_session(session=client.session)
        assert loaded is not None
        table, state = loaded
        if state.is_over() or (stop_after is not None and done >= stop_after):
            return table
        reply = client.post(reverse("table:play"), learner_move(table))
        assert reply.status_code == 302, reply.content[:400]
        done += 1
