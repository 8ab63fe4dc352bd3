"""What would the computer do before the first card, and why: the hint in the auction, at the
skat and at the declaration (issue 37 §3). The card play has its own hint (:mod:`.bots.play`).

The answers are the trainers' gradings, so that the table and the exercises agree:

- **Auction** and **skat** (pick up or play hand): the bidding trainer graded by play
  (:func:`.bidplay.grade_bid`) for the learner's ten cards in his seat: the bid the hand is worth
  (the highest bid with a positive expected list score), the game that makes it, and whether to
  hold, bid on or pass now.
- **Discard** (twelve cards in hand): the Drücken trainer (:func:`.discard.grade_hand`): the two
  cards to put away and the game to declare.
- **Declaration** (the skat already put away): the games graded with that discard
  (:func:`.discard.grade`), the best one.

At the skat, the discard and the declaration only games that reach the bid are advised (a Null
is never declared above its value, a suit game or Grand must be worth the bid with its
matadors), as a player who is held to his bid must choose.

Each answer says over how many deals it was played. The text holds name references
(``⟦card:CJ⟧``, ``⟦game:hearts⟧``) for the reader's deck (:func:`.names.render`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .bidding import Bid, Hold
from .bidplay import grade_bid
from .cards import Card, CardSet
from .discard import CANDIDATE_GAMES, grade, grade_hand
from .game import GameState, Phase
from .games import Contract, GameType
from .names import game_ref
from .scoring import game_value, matadors_in_mask
from .text import Text

__all__ = ["Advice", "advise", "ADVICE_PHASES"]

ADVICE_PHASES = (Phase.AUCTION, Phase.SKAT, Phase.DISCARD, Phase.DECLARE)
"""The phases before the first card in which :func:`advise` answers."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The computer's choice before the first card and why; ``deals``: the deals it played."""

    text: Text
    deals: int


def _ten(state: GameState, seat: int) -> tuple[Card, ...]:
    return tuple(CardSet(state.hands[seat]))


def _score(value: float) -> tuple[str, str]:
    """An expected list score, signed, one decimal: ``+12,3`` (German) and ``+12.3``."""
    text = f"{value:+.1f}".replace("-", "\u2212")
    return text.replace(".", ","), text


def _percent(share: float) -> tuple[str, str]:
    whole = f"{share * 100:.0f}"
    return f"{whole}\u00a0%", f"{whole}%"


def _auction(state: GameState, seat: int, *, deals: int, seed: int) -> Advice:
    graded = grade_bid(_ten(state, seat), seat, deals=deals, seed=seed)
    limit = graded.limit
    best = graded.best
    moves = state.legal_moves()
    bids = sorted(m.value for m in moves if isinstance(m, Bid))
    holds = any(isinstance(m, Hold) for m in moves)
    asked = state.auction.value
    played = (
        f"über {deals} Verteilungen des Skats und der anderen Blätter, jede ausgespielt",
        f"over {deals} deals of the skat and the other hands, each played out",
    )
    if not limit:
        return Advice(
            Text(
                f"Passen: Kein Spiel bringt bei 18 im Mittel Punkte ({played[0]}).",
                f"Pass: no game scores on average at 18 ({played[1]}).",
            ),
            deals,
        )
    game_de, game_en = best.contract.ref("de"), best.contract.ref("en", capital=True)
    share = _percent(best.win_chance(limit))
    worth = (
        f"Das Blatt ist bis {limit} wert, mit {game_de} ({played[0]}: bei {limit} gewonnen in {share[0]}, "
        f"im Mittel {_score(best.expected(limit) or 0.0)[0]} Punkte).",
        f"The hand is worth up to {limit}, with {game_en} ({played[1]}: at {limit} won in {share[1]}, "
        f"{_score(best.expected(limit) or 0.0)[1]} points on average).",
    )
    if holds:
        now = ("Also: ja, halten.", "So: yes, hold.") if asked <= limit else ("Also: passen.", "So: pass.")
    elif bids and bids[0] <= limit:
        now = (f"Also: {bids[0]} sagen.", f"So: say {bids[0]}.")
    else:
        now = ("Also: passen.", "So: pass.")
    return Advice(Text(f"{worth[0]} {now[0]}", f"{worth[1]} {now[1]}"), deals)


def _skat(state: GameState, seat: int, *, deals: int, seed: int) -> Advice:
    graded = grade_bid(_ten(state, seat), seat, deals=deals, seed=seed)
    bid = max(state.bid, 18)
    # only a game that may be declared at the bid (a Null is worth no more than its value)
    best = max((g for g in graded.games if g.declarable(bid)), key=lambda g: g.expected(bid) or 0.0)
    expected = best.expected(bid)
    share = _percent(best.win_chance(bid))
    numbers = (
        f"über {deals} Verteilungen ausgespielt: bei {bid} gewonnen in {share[0]}, "
        f"im Mittel {_score(expected or 0.0)[0]} Punkte",
        f"played over {deals} deals: at {bid} won in {share[1]}, {_score(expected or 0.0)[1]} points on average",
    )
    if best.contract.hand:
        return Advice(
            Text(
                f"Ohne den Skat spielen: {best.contract.ref('de')} ({numbers[0]}).",
                f"Play without the skat: {best.contract.ref('en', capital=True)} ({numbers[1]}).",
            ),
            deals,
        )
    return Advice(
        Text(
            f"Den Skat aufnehmen; am meisten verspricht danach {game_ref(best.contract.game)} ({numbers[0]}).",
            f"Pick up the skat; the most promising game after it is {game_ref(best.contract.game)} ({numbers[1]}).",
        ),
        deals,
    )


def _game_words(game: GameType) -> tuple[str, str]:
    contract = Contract(game)
    return contract.ref("de"), contract.ref("en", capital=True)


def _reaching(twelve: tuple[Card, ...], bid: int) -> tuple[GameType, ...]:
    """The games (with pick-up) whose value with these twelve cards' matadors reaches ``bid``
    without Schneider: the others would be overbid (ISkO 4.4.1). All, if none does."""
    mask = CardSet(twelve).mask
    games = tuple(
        g
        for g in CANDIDATE_GAMES
        if game_value(Contract(g), 0 if g.is_null else matadors_in_mask(g, mask)).value >= bid
    )
    return games or CANDIDATE_GAMES


def _discard(state: GameState, seat: int, *, deals: int, seed: int) -> Advice:
    twelve = tuple(CardSet(state.hands[seat]))
    games = _reaching(twelve, state.bid)
    graded = grade_hand(twelve, games[0], deals=deals, seed=seed, games=games)
    best = graded.best.best
    a, b = best.cards
    de, en = _game_words(best.game)
    share = _percent(best.won / best.deals)
    return Advice(
        Text(
            f"Drücken: ⟦card:{a.code}⟧ und ⟦card:{b.code}⟧, dann {de} ansagen (alle 66 Paare über {deals} "
            f"Verteilungen ausgespielt: gewonnen in {share[0]}, im Mittel "
            f"{_score(best.expected)[0]} Punkte).",
            f"Put away ⟦card:{a.code}⟧ and ⟦card:{b.code}⟧, then declare {en} (all 66 pairs played over "
            f"{deals} deals: won in {share[1]}, {_score(best.expected)[1]} points "
            f"on average).",
        ),
        deals,
    )


def _declare(state: GameState, seat: int, *, deals: int, seed: int) -> Advice:
    away = tuple(CardSet(state.skat))  # the two cards he put away
    twelve = tuple(CardSet(state.hands[seat])) + away
    pair = (away[0], away[1])
    games = _reaching(twelve, state.bid)
    found = [grade(twelve, game, deals=deals, seed=seed, discards=[pair])[0] for game in games]
    best = max(found, key=lambda g: g.total)
    de, en = _game_words(best.game)
    share = _percent(best.won / best.deals)
    return Advice(
        Text(
            f"{de} ansagen (jedes Spiel mit deinem Skat über {deals} Verteilungen ausgespielt: gewonnen in "
            f"{share[0]}, im Mittel {_score(best.expected)[0]} Punkte).",
            f"Declare {en} (each game with your skat played over {deals} deals: won in "
            f"{share[1]}, {_score(best.expected)[1]} points on average).",
        ),
        deals,
    )


def advise(state: GameState, seat: int, *, deals: int = 200, seed: int = 0) -> Advice:
    """The computer's choice for ``seat`` to move in ``state`` before the first card (one of
    :data:`ADVICE_PHASES`), with the reason. Raises ``ValueError`` in another phase or when
    ``seat`` is not to move."""
    if state.to_move != seat or state.phase not in ADVICE_PHASES:
        raise ValueError("advice is for the seat to move before the first card")
    if state.phase is Phase.AUCTION:
        return _auction(state, seat, deals=deals, seed=seed)
    if state.phase is Phase.SKAT:
        return _skat(state, seat, deals=deals, seed=seed)
    if state.phase is Phase.DISCARD:
        return _discard(state, seat, deals=deals, seed=seed)
    return _declare(state, seat, deals=deals, seed=seed)
