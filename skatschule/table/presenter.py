"""What the table's pages show, built from one replay of the game (the views hand it over).

Every name of a card, suit or game goes through the deck's names (:mod:`skatschule.engine.names`),
every word of the interface through gettext; nothing here reads the request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from skatschule.engine import (
    SEATS,
    Bid,
    Card,
    CardSet,
    GameState,
    GameType,
    Hold,
    Phase,
    sort_hand,
)
from skatschule.engine.bidding import BID_VALUES
from skatschule.engine.cards import parse_card
from skatschule.engine.games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, TOTAL_POINTS, WIN_POINTS, Contract
from skatschule.engine.iss import IssGame
from skatschule.engine.names import game_ref
from skatschule.engine.names import render as render_names
from skatschule.engine.scoring import side_won

from . import moments
from .analysis import CLASSES, GOOD_AUGEN, INACCURATE_AUGEN, Analysis, Insight, Step

GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)


@dataclass(frozen=True)
class Speech:
    """The reader's language and deck."""

    lang: str
    deck: str

    def seat(self, seat: int) -> str:
        return SEATS[seat].text.get(self.lang)

    def names(self, text: str) -> str:
        return render_names(text, self.lang, self.deck)

    def contract(self, contract: Contract | None) -> str:
        return "" if contract is None else self.names(contract.ref(self.lang, capital=True))

    def games(self) -> list[tuple[str, str]]:
        """The game choice: (value, name in the deck)."""
        return [(g.value, self.names(game_ref(g))) for g in GAMES]


def codes(cards: CardSet | Sequence[Card], game: GameType | None = None) -> list[str]:
    return [c.code for c in sort_hand(CardSet(cards) if not isinstance(cards, CardSet) else cards, game)]


def trick_rows(state: GameState, speech: Speech) -> list[dict[str, Any]]:
    return [
        {
            "number": n,
            "cards": [{"seat": speech.seat(t.seat_of(i)), "code": c.code} for i, c in enumerate(t.cards)],
            "winner": speech.seat(t.winner),
            "points": t.points,
        }
        for n, t in enumerate(state.tricks, 1)
    ]


def auction_steps(state: GameState, seat: int, speech: Speech) -> list[dict[str, Any]]:
    return [{"seat": speech.seat(s), "said": said, "mine": s == seat} for s, said in auction_words(state)]


def skat_shown(state: GameState, *, seen: bool) -> dict[str, list[str]]:
    """The skat as dealt and, after a pick-up, the two cards put away (they count for the
    declarer); empty when the reader may not see them yet."""
    if not seen:
        return {"dealt": [], "put_away": []}
    game = state.contract.game if state.contract else None
    return {
        "dealt": [c.code for c in state.deal.skat],
        "put_away": codes(CardSet(state.skat), game) if state.picked_up else [],
    }


def grouped(value: int) -> str:
    """A whole number with the page language's thousands separator (German 1.234, English 1,234)."""
    return number_format(value, force_grouping=True)


def entry(score: int) -> str:
    """A list entry with its sign and thousands separator: ``+1.296``, ``-48``, ``0``."""
    return f"+{grouped(score)}" if score > 0 else grouped(score)


def verdict(state: GameState, seat: int | None, *, seat_name: str = "") -> dict[str, Any] | None:
    """The result of a finished game from ``seat``'s side (:func:`declared_verdict`); None
    when the game runs or was passed in."""
    outcome = state.outcome()
    if outcome is None or state.declarer is None:
        return None
    declares = None if seat is None else seat == state.declarer
    return declared_verdict(outcome.won, outcome.score, declares=declares, seat_name=seat_name)


def declared_verdict(declarer_won: bool, score: int, *, declares: bool | None, seat_name: str = "") -> dict[str, Any]:
    """A game's result from the reader's side (:func:`skatschule.engine.scoring.side_won`),
    the declarer's named apart when the reader defended, and the declarer's list entry.
    ``declares`` None (an ISS record watched from outside): the declarer's result only;
    ``seat_name``: the side is a seat of a record the reader watches, not the reader's own."""
    if declares is None:
        won = declarer_won
        text = _("Der Alleinspieler gewinnt.") if declarer_won else _("Der Alleinspieler verliert.")
    else:
        won = side_won(declarer_won, declares=declares)
        if seat_name:
            if declares:
                text = _("%(seat)s gewinnt als Alleinspieler.") if won else _("%(seat)s verliert als Alleinspieler.")
            elif won:
                text = _("Der Alleinspieler verliert; %(seat)s gewinnt als Gegenspieler.")
            else:
                text = _("Der Alleinspieler gewinnt; %(seat)s verliert als Gegenspieler.")
            text = capfirst(text % {"seat": seat_name})
        elif declares:
            text = _("Du hast gewonnen.") if won else _("Du hast verloren.")
        elif won:
            text = _("Der Alleinspieler verliert; ihr habt gewonnen.")
        else:
            text = _("Der Alleinspieler gewinnt; ihr habt verloren.")
    shown = entry(score)
    mine = declares and not seat_name
    return {
        "won": won,
        "declarer_won": declarer_won,
        "declares": declares,
        "text": text,
        "score": shown,
        "entry": _("Dein Eintrag in der Liste: %(score)s") % {"score": shown}
        if mine
        else _("Eintrag des Alleinspielers in der Liste: %(score)s") % {"score": shown},
    }


PLACES = ("bottom", "left", "right")
"""Where a seat sits seen from the learner: the learner at the bottom, the next to play (the
seat to the left, :attr:`skatschule.engine.Seat.next`) on the left, the one after on the right."""


@dataclass(frozen=True)
class SeatView:
    """One seat round the table as the learner sees it (:func:`seats`)."""

    seat: int
    name: str
    """The seat's name (Vorhand, Mittelhand, Hinterhand)."""
    player: str
    """"Du" or "Computer"."""
    place: str
    """``bottom`` (the learner), ``left`` or ``right``: one of :data:`PLACES`."""
    role: str
    """Alleinspieler or Gegenspieler once a game is declared, else empty."""
    deals: bool
    """With three at the table the dealer is Hinterhand."""
    said: tuple[str, ...]
    """What the seat said in the auction, in order."""
    cards_left: int
    to_move: bool

    @property
    def backs(self) -> range:
        """One card back per card in the seat's hand (drawn, not named)."""
        return range(self.cards_left)


@dataclass(frozen=True)
class PlayedCard:
    code: str
    seat: str
    place: str


@dataclass(frozen=True)
class LastTrick:
    """The trick completed last: it stays on show until the next one is completed."""

    number: int
    cards: tuple[PlayedCard, ...]
    winner: str
    winner_place: str
    points: int


def place_of(seat: int, learner: int) -> str:
    """Where ``seat`` sits for the learner at ``learner`` (:data:`PLACES`)."""
    return PLACES[(seat - learner) % 3]


def seats(state: GameState, learner: int, speech: Speech) -> tuple[SeatView, ...]:
    """The three seats for the table, left, right and the learner last (reads ``state`` only)."""
    said: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for step in auction_words(state):
        said[step[0]].append(step[1])
    over = state.is_over()
    views = []
    for s in ((learner + 1) % 3, (learner + 2) % 3, learner):
        role = ""
        if state.declarer is not None:
            role = _("Alleinspieler") if s == state.declarer else _("Gegenspieler")
        views.append(
            SeatView(
                seat=s,
                name=speech.seat(s),
                player=_("Du") if s == learner else _("Computer"),
                place=place_of(s, learner),
                role=role,
                deals=s == 2,
                said=tuple(said[s]),
                cards_left=len(state.hand(s)),
                to_move=not over and state.to_move == s,
            )
        )
    return tuple(views)


def trick_on_table(state: GameState, learner: int, speech: Speech) -> tuple[PlayedCard, ...]:
    """The cards of the trick under way, in the order played, each with its seat's place."""
    seat_of = [(state.leader + i) % 3 for i in range(len(state.trick))]
    return tuple(
        PlayedCard(c.code, speech.seat(s), place_of(s, learner)) for s, c in zip(seat_of, state.trick, strict=True)
    )


def last_trick(state: GameState, learner: int, speech: Speech) -> LastTrick | None:
    """The trick completed last (None before the first is complete): lichess shows the last
    move, BBO the last trick; here the bots may have completed it and led again meanwhile."""
    if not state.tricks:
        return None
    trick = state.tricks[-1]
    return LastTrick(
        number=len(state.tricks),
        cards=tuple(
            PlayedCard(c.code, speech.seat(trick.seat_of(i)), place_of(trick.seat_of(i), learner))
            for i, c in enumerate(trick.cards)
        ),
        winner=speech.seat(trick.winner),
        winner_place=place_of(trick.winner, learner),
        points=trick.points,
    )


def auction_words(state: GameState) -> list[tuple[int, str]]:
    """Each word of the auction as (seat, what was said), in order."""
    words = []
    for move in state.auction.moves:
        said = str(move.value) if isinstance(move, Bid) else _("ja") if isinstance(move, Hold) else _("passe")
        words.append((int(move.seat), said))
    return words


def table_page(table: Any, state: GameState, speech: Speech) -> dict[str, Any]:
    """The table at /ueben/spiel/ for ``table`` (services.Table) standing at ``state``."""
    seat = table.seat
    game = state.contract.game if state.contract else None
    over = state.is_over()
    my_turn = not over and state.to_move == seat
    auction = state.auction
    legal = {c.code for c in state.legal_cards()} if my_turn and state.phase is Phase.PLAY else set()
    options = (
        [v for v in BID_VALUES if v > auction.value][:8]
        if my_turn and state.phase is Phase.AUCTION and not auction.pending
        else []
    )
    outcome = state.outcome() if over else None
    hand = [{"code": c, "legal": c in legal} for c in codes(state.hand(seat), game)]
    first_legal = next((c["code"] for c in hand if c["legal"]), None)
    return {
        "table": table,
        "state": state,
        "seat_name": speech.seat(seat),
        "phase": state.phase.value,
        "my_turn": my_turn,
        "hand": hand,
        "first_legal": first_legal,
        "steps": auction_steps(state, seat, speech),
        "auction_pending": auction.pending,
        "auction_value": auction.value,
        "options": options,
        "declarer": None if state.declarer is None else speech.seat(state.declarer),
        "i_declare": state.declarer == seat,
        "contract": speech.contract(state.contract),
        "trick": trick_on_table(state, seat, speech),
        "last_trick": last_trick(state, seat, speech),
        "seats": seats(state, seat, speech),
        "skat_face_down": state.phase in (Phase.AUCTION, Phase.SKAT) and not state.is_over(),
        "tricks": trick_rows(state, speech),
        "to_move": None if state.to_move is None else speech.seat(state.to_move),
        "games": speech.games(),
        "over": over,
        "passed_in": state.passed_in,
        "result": [speech.names(line) for line in outcome.explain(speech.lang)] if outcome else [],
        "outcome": outcome,
        "verdict": verdict(state, seat),
        "others": [{"seat": speech.seat(s), "cards": codes(state.deal.hand(s), game)} for s in range(3) if s != seat]
        if over
        else [],
        "skat": skat_shown(state, seen=over or (state.picked_up and state.declarer == seat)),
        "pickup_hand": codes(state.hand(seat), game) if state.phase is Phase.DISCARD else [],
        "can_take_back": not over and table.running and not table.contest,
        "took_back": table.took_back,
        "confirm_new": False,
    }


# -- the analysis board ---------------------------------------------------------------------


def _mark(analysis: Analysis, step: Step, card: str) -> dict[str, Any]:
    """One legal card at a decision: what it gives the learner's side with best play."""
    value = step.value_of(card)
    wins = analysis.card_wins(step, card)
    own = value if isinstance(value, int) and not isinstance(value, bool) else None
    return {
        "code": card,
        "augen": None if own is None else own if analysis.learner_declares else TOTAL_POINTS - own,
        "wins": wins,
        "played": card == step.card,
        "best": card in step.best,
        "share": None if step.insight is None else step.insight.share(card),
    }


@dataclass(frozen=True)
class BoardGame:
    """A finished game for the board: the state at its end (played back by the board), the
    cards played in order, whose decisions are analysed, and the seats' names."""

    state: GameState
    plays: list[Card]
    learner: int
    players: tuple[str, str, str] | None = None


def _known(
    insight: Insight | None, kind: GameType | None, speech: Speech, players: tuple[str, str, str] | None
) -> dict[str, Any] | None:
    """ "Was weiß ich?": where each card the learner could not see lay in the drawn deals, in
    percent per other seat (and the skat, where he had not seen it), cards in the game's order."""
    if insight is None or not insight.places or not insight.tried:
        return None
    order = {code: k for k, code in enumerate(codes(CardSet([parse_card(p[0]) for p in insight.places]), kind))}
    rows = sorted(insight.places, key=lambda p: order[p[0]])
    tried = insight.tried
    skat = any(p[3] for p in rows)
    columns = [
        speech.seat(s) if players is None else f"{capfirst(speech.seat(s))} ({players[s]})" for s in insight.others
    ]
    return {
        "columns": columns,
        "skat": skat,
        "tried": tried,
        "rows": [
            {"code": code, "shares": [round(100 * n / tried) for n in ((a, b, c) if skat else (a, b))]}
            for code, a, b, c in rows
        ],
    }


def _decision(
    game: BoardGame,
    state: GameState,
    step: int,
    analysis: Analysis | None,
    speech: Speech,
) -> dict[str, Any]:
    """The learner's decision before card ``step`` (``state`` is there): each legal card with
    its value, the mark, "Hätte ich es wissen können?"."""
    contract = game.state.contract
    kind = contract.game if contract else None
    mistake = None if analysis is None else analysis.first_given_away
    found = None if analysis is None else analysis.step_at(step)
    legal = codes(state.legal_cards(), kind)
    marks = (
        [_mark(analysis, found, c) for c in legal]
        if analysis is not None and found is not None and found.values
        else [{"code": c, "augen": None, "wins": None, "played": c == game.plays[step].code} for c in legal]
    )
    played = game.plays[step].code
    best = None
    if found is not None and found.insight is not None and found.best:
        best = max(found.best, key=found.insight.wins_with)
    return {
        "index": step,
        "played": played,
        "marks": marks,
        "step": found,
        "first_mistake": mistake is not None and found is not None and mistake.index == found.index,
        "mark": None if analysis is None or found is None else analysis.mark(found),
        "quality": None if analysis is None or found is None else analysis.quality(found),
        "insight": None if found is None else found.insight,
        "insight_best": best,
        "played_share": None if found is None or found.insight is None else found.insight.share(played),
        "played_interval": None if found is None or found.insight is None else found.insight.interval(played),
        "known": None if found is None else _known(found.insight, kind, speech, game.players),
        "best_share": None if best is None or found is None or found.insight is None else found.insight.share(best),
    }


def _trick_start(step: int) -> int:
    """The first card on the table at ``step``: a full trick stays there until the next card."""
    return step - 3 if step > 0 and step % 3 == 0 else step // 3 * 3


@dataclass(frozen=True)
class BoardPage:
    """The analysis board of one finished game at card ``step`` (:func:`board_page`); the
    template reads :meth:`context`."""

    contract: str
    declarer: str | None
    bid: int
    result: list[str]
    outcome: Any
    verdict: Any
    skat: Any
    step: int
    total: int
    title: str
    table_title: str
    hands: list[dict[str, Any]]
    on_table: list[dict[str, Any]]
    table_shown: bool
    tricks: list[dict[str, Any]]
    tricks_shown: bool
    decision: dict[str, Any] | None
    decisions_at: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    steps: list[dict[str, Any]]
    mistake: Step | None
    learner_declares: bool
    learner: str
    nav: dict[str, str]
    graph: Any
    accuracy: Any
    null: bool
    need: int | None
    analysed: bool

    def context(self) -> dict[str, Any]:
        """The template's context (a new dict: the view adds its own entries to it)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _first_lead(state: GameState, cards: int) -> GameState:
    """A new state of ``state``'s game before its first card (``cards`` were played since)."""
    start = GameState(state.deal, rules=state.rules)
    for move in state.moves[: len(state.moves) - cards]:
        start.push(move)
    return start


def _board_step(index: int, total: int, link: str, tricks: list[dict[str, Any]], to_move: int | None) -> dict[str, Any]:
    """What the board shows at step ``index``: its title, the trick on the table, the links."""
    done = index > 0 and index % 3 == 0
    trick_no = max(index // 3, 1) if done else index // 3 + 1  # a full trick still on the table is its own
    return {
        "step": index,
        "url": f"{link}schritt={index}",
        "title": _("Karte %(step)s von %(total)s · Stich %(trick)s")
        % {"step": index, "total": total, "trick": trick_no},
        "table": (
            _("Der volle Stich: %(seat)s bekommt ihn") % {"seat": tricks[index // 3 - 1]["winner"]}
            if done
            else _("Der Stich auf dem Tisch")
        ),
        "from": _trick_start(index),
        "tricks": index // 3 - 1 if done else index // 3,
        "to_move": None if index == total else to_move,
        "nav": [
            0,
            (index - 1) // 3 * 3 if index else 0,
            max(index - 1, 0),
            min(index + 1, total),
            min((index // 3 + 1) * 3, total),
            total,
        ],
    }


def _decision_list(analysis: Analysis | None, step: int, link: str) -> list[dict[str, Any]]:
    """ "Alle Entscheidungen": each of the learner's valued cards with its marks."""
    if analysis is None:
        return []
    return [
        {
            "index": s.index,
            "trick": s.trick,
            "card": s.card,
            "wins": analysis.card_wins(s, s.card),
            "gave_away": s.gave_away,
            "mark": analysis.mark(s),
            "quality": analysis.quality(s),
            "cost": s.cost,
            "current": s.index == step,
            "url": f"{link}schritt={s.index}",
        }
        for s in analysis.steps
    ]


def board_page(game: BoardGame, step: int, analysis: Analysis | None, speech: Speech, *, link: str) -> BoardPage:
    """The whole board, sent once, at card ``step`` (0: before the first card). ``link``: the
    page's URL with ``?`` or ``&`` ready for ``schritt=N``. ``game.state`` is left as it is: the
    board plays a copy of the game from its first lead.

    Every card is on the page once: each hand as dealt (a card carries the number of the card
    of the game it became, ``played``: it is in the hand before that step), each card played
    (on the table from :func:`_trick_start` to its own step), each trick, each of the
    learner's decisions; ``steps`` says per step what shows (``board.js`` steps in the
    browser; the server hides the rest, so that the page works without JavaScript)."""
    end = game.state
    total = len(game.plays)
    step = min(max(step, 0), total)
    contract = end.contract
    kind = contract.game if contract else None
    outcome = end.outcome()
    tricks = trick_rows(end, speech)
    state = _first_lead(end, total)
    played_at = {card.code: i for i, card in enumerate(game.plays)}
    names = game.players or ("", "", "")
    hands = [
        {
            "seat": speech.seat(s),
            "player": names[s],
            "mine": s == game.learner,
            "cards": [
                {"code": c, "played": played_at.get(c, total), "shown": played_at.get(c, total) >= step}
                for c in codes(state.hand(s), kind)
            ],
        }
        for s in range(3)
    ]
    steps: list[dict[str, Any]] = []
    table: list[dict[str, Any]] = []
    decisions_at: list[dict[str, Any]] = []
    for index in range(total + 1):
        steps.append(_board_step(index, total, link, tricks, state.to_move))
        if index == total:
            break
        if state.to_move == game.learner:
            decisions_at.append(_decision(game, state, index, analysis, speech))
        card = game.plays[index]
        table.append({"index": index, "seat": speech.seat(state.to_move or 0), "code": card.code})
        state.play(card)
    now = steps[step]
    for t, trick in enumerate(tricks):
        trick["shown"] = t < now["tricks"]
    for played in table:
        played["shown"] = now["from"] <= played["index"] < step
    for hand, seat in zip(hands, range(3), strict=True):
        hand["to_move"] = now["to_move"] == seat
    nav = dict(zip(("first", "prev_trick", "prev", "next", "next_trick", "last"), now["nav"], strict=True))
    return BoardPage(
        contract=speech.contract(contract),
        declarer=None if end.declarer is None else speech.seat(end.declarer),
        bid=end.bid,
        result=[speech.names(line) for line in outcome.explain(speech.lang)] if outcome else [],
        outcome=outcome,
        verdict=verdict(end, game.learner, seat_name="" if game.players is None else speech.seat(game.learner)),
        skat=skat_shown(end, seen=True),
        step=step,
        total=total,
        title=now["title"],
        table_title=now["table"],
        hands=hands,
        on_table=table,
        table_shown=any(p["shown"] for p in table),
        tricks=tricks,
        tricks_shown=now["tricks"] > 0,
        decision=next((d for d in decisions_at if d["index"] == step), None),
        decisions_at=decisions_at,
        decisions=_decision_list(analysis, step, link),
        steps=steps,
        mistake=None if analysis is None else analysis.first_given_away,
        learner_declares=end.declarer == game.learner,
        learner=speech.seat(game.learner),
        nav={name: f"{link}schritt={n}" for name, n in nav.items()},
        graph=None if analysis is None else graph(analysis, total, link=link, step=step),
        accuracy=None if analysis is None else accuracy(analysis),
        null=kind is GameType.NULL,
        need=None if analysis is None else analysis.need,
        analysed=analysis is not None,
    )


# -- accuracy and the graph over the game -----------------------------------------------------


def quality_names() -> dict[str, str]:
    """The classes of :meth:`Analysis.quality`, in the page's language."""
    return {
        "best": _("beste Karte"),
        "good": _("gut"),
        "inaccuracy": _("ungenau"),
        "mistake": pgettext("Genauigkeit", "Fehler"),
        "blunder": _("grober Fehler"),
    }


def accuracy(analysis: Analysis) -> dict[str, Any]:
    """The learner's accuracy (:attr:`Analysis.accuracy`) and how many decisions fell in each class."""
    counts = analysis.qualities()
    names = quality_names()
    return {
        "figure": analysis.accuracy,
        "valued": sum(counts.values()),
        "mistakes": analysis.mistakes,
        "classes": [{"name": name, "label": names[name], "count": counts[name]} for name in CLASSES],
        "good_augen": GOOD_AUGEN,
        "inaccurate_augen": INACCURATE_AUGEN,
    }


GRAPH_WIDTH, GRAPH_HEIGHT = 340, 180
"""The graph's viewBox; it scales to the page's width."""
_LEFT, _RIGHT, _TOP, _BOTTOM = 34, 10, 20, 32
_LINES = (OUT_OF_SCHNEIDER - 1, WIN_POINTS, SCHNEIDER_POINTS)
"""The declarer's Augen marked across the graph: 61 wins; 90 makes the defenders Schneider; at
30 or fewer he is Schneider himself."""


def graph(analysis: Analysis, total: int, *, link: str, step: int) -> dict[str, Any] | None:
    """The declarer's Augen with best play of both sides, every card open, after each card
    the analysis valued (before and after each of the learner's cards), as coordinates of an
    inline SVG; a point is a link to its step, the learner's costly cards are marked
    (:meth:`Analysis.quality`). None in Null or when no card got exact Augen."""
    if analysis.null or total == 0:
        return None

    def declarer(own: int) -> int:
        return own if analysis.learner_declares else TOTAL_POINTS - own

    augen: dict[int, int] = {}
    for s in analysis.steps:
        if s.before is not None:
            augen.setdefault(s.index, declarer(s.before))
        if s.after is not None:
            augen[s.index + 1] = declarer(s.after)
    if not augen:
        return None
    width = GRAPH_WIDTH - _LEFT - _RIGHT
    height = GRAPH_HEIGHT - _TOP - _BOTTOM

    def x(card: int) -> float:
        return round(_LEFT + width * card / total, 1)

    def y(value: int) -> float:
        return round(_TOP + height * (TOTAL_POINTS - value) / TOTAL_POINTS, 1)

    names = quality_names()
    marked = {s.index + 1: analysis.quality(s) for s in analysis.steps}
    dots = []
    for card, value in sorted(augen.items()):
        quality = marked.get(card)
        costly = quality in ("inaccuracy", "mistake", "blunder")
        title = _("Nach Karte %(card)s: Alleinspieler %(augen)s Augen") % {"card": card, "augen": value}
        dots.append(
            {
                "step": min(card, total),
                "x": x(card),
                "y": y(value),
                "url": f"{link}schritt={min(card, total)}",
                "quality": quality if costly else "",
                "title": f"{title} · {names[quality]}" if costly and quality else title,
            }
        )
    return {
        "width": GRAPH_WIDTH,
        "height": GRAPH_HEIGHT,
        "left": _LEFT,
        "right": GRAPH_WIDTH - _RIGHT,
        "top": _TOP,
        "bottom": _TOP + height,
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        "y_ticks": [
            {"label": v, "y": y(v), "line": v in _LINES, "win": v == WIN_POINTS} for v in (0, *_LINES, TOTAL_POINTS)
        ],
        "x_ticks": [{"label": c, "x": x(c)} for c in range(0, total + 1, 3)],
        "steps": [x(c) for c in range(total + 1)],
        "now": x(step),
        "label_y": GRAPH_HEIGHT - 4,
        "middle": round(_LEFT + width / 2, 1),
    }


# -- the ISS viewer ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IssViewer:
    """One moment (card ``step``) of an imported ISS record (:func:`iss_viewer`); the template
    reads :meth:`context` (the view adds which record of the paste it is)."""

    step: int
    total: int
    players: Any
    contract: str
    declarer: str | None
    bid: int
    hands: list[dict[str, Any]]
    skat: Any
    trick: list[dict[str, Any]]
    trick_done: bool
    tricks: list[dict[str, Any]]
    to_move: str | None
    kinds: Any
    seats: list[dict[str, Any]]
    mover_hand: list[str]
    show_result: bool
    answer: dict[str, Any]
    verdict: Any
    result: list[str]
    prev: int
    next: int
    playable: bool

    def context(self) -> dict[str, Any]:
        """A new dict of the fields (the view adds its own entries to it)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _on_table(probe: GameState, done: bool, speech: Speech) -> list[dict[str, Any]]:
    """The cards on the table: the trick just completed (who takes it is the exercise), else
    the one being played."""
    if done:
        last = probe.tricks[-1]
        return [{"seat": speech.seat(last.seat_of(i)), "code": c.code} for i, c in enumerate(last.cards)]
    return [{"seat": speech.seat((probe.leader + i) % 3), "code": c.code} for i, c in enumerate(probe.trick)]


def iss_viewer(game: IssGame, step: int, speech: Speech, *, show_result: bool = False) -> IssViewer:
    """The record at card ``step`` (clamped to the game): the hands, the trick, the tricks, the
    exercises the moment offers (:mod:`.moments`) and, with ``show_result``, the result with its
    derivation. Reads positions the record plays anew; ``game`` is left as it is."""
    state = game.state
    plays = game.plays
    step = min(max(step, 0), len(plays))
    probe = game.position(step)
    game_type = state.contract.game if state.contract else None
    kinds = moments.kinds_at(game, step)
    done = moments.trick_done(game, step)
    answer = game.answer() if show_result else {}
    tricks = trick_rows(probe, speech)
    return IssViewer(
        step=step,
        total=len(plays),
        players=game.players,
        contract=speech.contract(state.contract),
        declarer=None if state.declarer is None else speech.seat(state.declarer),
        bid=state.bid,
        hands=[{"seat": speech.seat(s), "cards": codes(probe.hand(s), game_type)} for s in range(3)],
        skat=skat_shown(state, seen=True),
        trick=_on_table(probe, done, speech),
        trick_done=done,
        tricks=tricks[:-1] if done else tricks,
        to_move=None if probe.to_move is None else speech.seat(probe.to_move),
        kinds=kinds,
        seats=[{"value": s, "name": speech.seat(s)} for s in range(3)],
        mover_hand=codes(probe.hand(probe.to_move), game_type)
        if "legal" in kinds and probe.to_move is not None
        else [],
        show_result=show_result,
        answer=answer,
        verdict=declared_verdict(bool(answer["won"]), int(str(answer["score"])), declares=None)
        if answer.get("declarer") is not None
        else None,
        result=[speech.names(s.text(speech.lang)) for s in moments.result_steps(game)] if show_result else [],
        prev=max(step - 1, 0),
        next=min(step + 1, len(plays)),
        playable=state.contract is not None and bool(plays),
    )
