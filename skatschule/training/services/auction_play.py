"""Play the auction (Reizen) as one seat against the engine.

The learner sits in one seat with ten cards; the two other seats are played by
simple engine bots. Every step, the learner's and the bots', goes through the
engine's :class:`~skatschule.engine.Auction`, so an illegal step is refused with
the engine's message. The bots bid up to the value of the game the engine's hand
evaluation (:mod:`skatschule.engine.evaluation`: trumps and matadors, aces and tens,
losers in the side suits) would declare, and pass without one; the learner's hint
"what could I play?" shows the same evaluation. They are sparring partners, not
strong players.

The table lives in the session (seed, seat, moves): the other hands are never sent
to the browser until the auction is over.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, cast

from skatschule.engine import (
    BID_VALUES,
    SEATS,
    Auction,
    AuctionMove,
    Bid,
    Card,
    Contract,
    Deal,
    GameType,
    Hold,
    SkatError,
    Text,
    deal_cards,
)
from skatschule.engine.bidding import parse_auction_move
from skatschule.engine.bots import choose_bid
from skatschule.engine.evaluation import evaluate
from skatschule.engine.names import game_ref
from skatschule.engine.numbers import plain_number
from skatschule.engine.sorting import sort_hand

__all__ = ["Table", "Limit", "hand_limit", "new_table", "play_user_move", "auction_of", "table_context"]


@dataclass(frozen=True)
class Limit:
    """The highest bid a hand supports: the value of the game its evaluation declares (0: pass)."""

    value: int
    contract: Contract | None
    text: Text
    """The summary (with name references: render with ``names.render``)."""
    lines: tuple[Text, ...] = ()
    """Every game looked at, with its facts and whether it is playable."""


def hand_limit(*, cards: tuple[Card, ...]) -> Limit:
    """The bidding limit of ten cards from the engine's hand evaluation (see
    :func:`skatschule.engine.evaluation.evaluate` and lesson 7)."""
    evaluation = evaluate(cards)
    lines = tuple(
        Text(" – ".join(step.de for step in check.steps), " – ".join(step.en for step in check.steps))
        for check in evaluation.checks
    )
    if evaluation.best is None:
        return Limit(0, None, Text(evaluation.summary("de"), evaluation.summary("en")), lines)
    best = evaluation.best
    game_de = best.contract.name("de") if best.game is GameType.NULL else game_ref(best.game)
    game_en = best.contract.name("en") if best.game is GameType.NULL else game_ref(best.game)
    return Limit(
        evaluation.limit,
        best.contract,
        Text(
            f"{game_de} bis {evaluation.limit}: {evaluation.summary('de')}",
            f"{game_en} up to {evaluation.limit}: {evaluation.summary('en')}",
        ),
        lines,
    )


@dataclass
class Table:
    seed: int
    seat: int
    moves: list[list[object]] = field(default_factory=list)

    def as_session(self) -> dict[str, object]:
        return {"seed": self.seed, "seat": self.seat, "moves": self.moves}

    @classmethod
    def from_session(cls, data: object) -> Table | None:
        if not isinstance(data, dict):
            return None
        seed, seat, moves = data.get("seed"), data.get("seat"), data.get("moves")
        if not isinstance(seed, int) or seat not in (0, 1, 2) or not isinstance(moves, list):
            return None
        return cls(seed, int(seat), list(moves))

    @property
    def deal(self) -> Deal:
        return deal_cards(self.seed)

    def hand(self) -> tuple[Card, ...]:
        return self.deal.hand(self.seat)


def auction_of(*, table: Table) -> Auction:
    auction = Auction()
    for raw in table.moves:
        auction = auction.apply(parse_auction_move(raw))
    return auction


def _notation(move: AuctionMove) -> list[object]:
    if isinstance(move, Bid):
        return [move.seat, move.value]
    return [move.seat, "y" if isinstance(move, Hold) else "p"]


def _let_bots_play(table: Table) -> Auction:
    auction = auction_of(table=table)
    deal = table.deal
    while not auction.is_over and auction.to_move != table.seat:
        seat = auction.to_move
        assert seat is not None
        move = choose_bid(auction, deal.hand(seat))
        auction = auction.apply(move)
        table.moves.append(_notation(move))
    return auction


def new_table(*, seed: int | None = None, seat: int | None = None) -> Table:
    rng = random.Random(seed)
    table = Table(rng.randrange(2**31), rng.randrange(3) if seat is None else seat)
    _let_bots_play(table)
    return table


def play_user_move(*, table: Table, action: str) -> Auction:
    """Apply the learner's move ("p", "y" or a bid value) and let the bots answer.

    Raises :class:`SkatError` (its message a :class:`Text` in ``text``) for an illegal step.
    """
    action = action.strip().lower()
    raw: list[object]
    value = plain_number(action, max_digits=3)
    if value is not None:
        raw = [table.seat, value]
    elif action in ("p", "y"):
        raw = [table.seat, action]
    else:
        raise SkatError(f"Unbekannter Reizschritt {action!r}", f"Unknown auction step {action!r}")
    auction_of(table=table).apply(parse_auction_move(raw))  # raises if illegal
    table.moves.append(raw)
    return _let_bots_play(table)


SAID = {"y": Text("ja", "yes (hold)"), "p": Text("passe", "pass")}
"""What a hold and a pass are called in the list of the auction's steps."""


def seat_name(*, seat: int, lang: str) -> str:
    return SEATS[seat].text.get(lang)


def table_context(*, table: Table, lang: str) -> dict[str, Any]:
    """What the table page shows; the other hands only once the auction is over."""
    auction = auction_of(table=table)
    deal = table.deal
    steps = []
    for raw in table.moves:
        seat, what = raw
        name = seat_name(seat=cast(int, seat), lang=lang)  # checked when the table was read
        said = SAID[what].get(lang) if what in SAID else str(what)
        steps.append({"seat": name, "said": said, "mine": seat == table.seat})
    options: list[int] = []
    if not auction.is_over and auction.to_move == table.seat and not auction.pending:
        options = [v for v in BID_VALUES if v > auction.value][:8]
    limit = hand_limit(cards=table.hand())
    return {
        "table": table,
        "seat_name": seat_name(seat=table.seat, lang=lang),
        "hand": [c.code for c in sort_hand(table.hand())],
        "steps": steps,
        "auction": auction,
        "my_turn": not auction.is_over and auction.to_move == table.seat,
        "options": options,
        "summary": auction.describe(lang),
        # The hint "what could I play?" is about the learner's own ten cards only.
        "limit_text": limit.text.get(lang),
        "limit_lines": [line.get(lang) for line in limit.lines],
        "limit_value": limit.value,
        "others": [
            {"seat": seat_name(seat=s, lang=lang), "cards": [c.code for c in sort_hand(deal.hand(s))]}
            for s in range(3)
            if s != table.seat
        ]
        if auction.is_over
        else [],
    }
