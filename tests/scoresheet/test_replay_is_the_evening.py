"""The score sheet's replay and the engine's evening value a deal in one place (evening.play_deal):
the same entries give the same rows, totals and Bock queue either way."""

from __future__ import annotations

from typing import Any

from skatschule.engine.evening import EveningGame, EveningPassed, EveningRamsch, play_evening
from skatschule.engine.rules import PUB
from skatschule.scoresheet.sheet import house_game, new_sheet, replay

GAMES: list[dict[str, Any]] = [
    {"kind": "game", "declarer": 0, "game": "clubs", "matadors": 2, "bid": 18, "points": 60, "tricks": 5},
    {
        "kind": "game",
        "declarer": 0,
        "game": "hearts",
        "matadors": -1,
        "bid": 20,
        "points": 0,
        "tricks": 0,
        "conceded": True,
    },
    {
        "kind": "game",
        "declarer": 1,
        "game": "grand",
        "matadors": 1,
        "bid": 48,
        "points": 50,
        "tricks": 4,
        "kontra": True,
    },
    {"kind": "ramsch", "augen": [40, 50, 30], "tricks": [3, 4, 3], "schieben": 1},
]
"""A 60:60 split starts a Bock round; in it a conceded game, a lost Kontra (which queues another
round) and a Ramsch."""


def test_the_sheet_replays_its_entries_as_the_engines_evening() -> None:
    data = new_sheet(players=["A", "B", "C"], pub=True, profile={"schneider_at_30": True})
    data["entries"] = GAMES
    rep = replay(data)
    rules = PUB.with_switches({"schneider_at_30": True})
    deals = [
        EveningRamsch(tuple(e["augen"]), tuple(e["tricks"]), e["schieben"])
        if e["kind"] == "ramsch"
        else EveningPassed()
        if e["kind"] == "passed"
        else EveningGame(e["declarer"], house_game(e, pub=True))
        for e in GAMES
    ]
    evening = play_evening(players=3, dealer=0, rules=rules, deals=deals)
    assert [r.entry for r in rep.rows] == [r.entry for r in evening.rows]
    assert [r.deal for r in rep.rows] == [r.deal for r in evening.rows]
    assert [r.steps for r in rep.rows] == [r.steps for r in evening.rows]
    assert rep.state.totals == evening.round.totals and rep.state.running == evening.round.running
    assert [r.deal.value for r in rep.rows] == ["normal", "bock", "bock", "bock"]
    assert rep.state.waiting  # the lost Kontra queued another round
