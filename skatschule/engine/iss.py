"""Game records of the International Skat Server (ISS), read and written.

A record is one line ``(;GM[Skat]PC[...]...MV[...]R[...] ;)``. Only ``MV`` (the moves)
is read to rebuild the game; ``R[...]``, the server's own summary, is never read: the
engine works the result out from the moves. ``MV`` holds pairs of actor and move:

* ``w C7.CJ....`` the dealer ("world") deals 32 cards: Vorhand, Mittelhand, Hinterhand
  (ten each), then the skat;
* ``1 18``, ``0 y``, ``2 p``: a seat bids a value, holds or passes;
* ``1 s``: the declarer takes up the skat, which the server then shows as ``w S1.S2``;
* ``1 G.S8.H9``: the declaration: ``G`` Grand, ``C``/``S``/``H``/``D`` a suit, ``N`` Null,
  followed by ``H`` Hand, ``S`` Schneider announced, ``Z`` Schwarz announced, ``O`` ouvert,
  then after a pick-up ``.card.card`` for the two cards put away (an open game may
  list the declarer's cards after them);
* ``0 DT``: a seat plays a card (rank ``T`` is the Zehn);
* ``0 RE``: a seat resigns (the declarer gives up, or both defenders do);
  ``0 SC``: the declarer shows his cards (play goes on);
  ``w TI.1`` / ``w LE.1``: seat 1 ran out of time or left the table.

Resignations follow the server: when the declarer gives up, the tricks still to come go
to the defenders (in the first trick the game is lost at level einfach, ISkO 3.3.1);
when both defenders give up, they go to the declarer. A seat that runs out of time or
leaves counts as having given up (for a defender: on behalf of both).

Every error names the move (``Zug 7``: the seventh item of ``MV`` after the deal).
"""

from __future__ import annotations

from dataclasses import dataclass

from .bidding import Bid, Hold, Pass
from .cards import CARDS, Card, Deal, mask_points, parse_card
from .errors import SkatError
from .game import Declare, Discard, GameState, Phase, PickUp
from .games import Contract, GameType
from .numbers import plain_number
from .rules import ISKO, RuleSet
from .scoring import Outcome, concede, score_game
from .seats import SEATS

__all__ = ["IssGame", "parse_record", "parse_records", "split_records", "write_record", "IssError"]

_GAMES = {
    "G": GameType.GRAND,
    "C": GameType.CLUBS,
    "S": GameType.SPADES,
    "H": GameType.HEARTS,
    "D": GameType.DIAMONDS,
    "N": GameType.NULL,
}
_LETTERS = {
    GameType.GRAND: "G",
    GameType.CLUBS: "C",
    GameType.SPADES: "S",
    GameType.HEARTS: "H",
    GameType.DIAMONDS: "D",
    GameType.NULL: "N",
}
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_SEATS = {"0": 0, "1": 1, "2": 2}


class IssError(SkatError):
    """A record that cannot be read or replayed; the message names the move."""


def _error(move_no: int, token: str, de: str, en: str) -> IssError:
    if move_no <= 0:
        return IssError(f"ISS-Datensatz: {de}", f"ISS record: {en}")
    return IssError(f"ISS-Datensatz, Zug {move_no} ({token}): {de}", f"ISS record, move {move_no} ({token}): {en}")


@dataclass(frozen=True)
class IssGame:
    """One game read from a record: the replayed :class:`GameState` and how it ended.

    ``resigned``: "declarer" when the declarer gave up, "defenders" when the defenders
    did (or a seat timed out or left, counted the same way), else None.
    """

    state: GameState
    properties: dict[str, str]
    resigned: str | None = None

    @property
    def plays(self) -> list[Card]:
        """The cards played, in order."""
        return [c for t in self.state.tricks for c in t.cards] + list(self.state.trick)

    def position(self, step: int) -> GameState:
        """The game after its first ``step`` cards (0: before the first card; clamped)."""
        state = self.state
        plays = self.plays
        step = min(max(step, 0), len(plays))
        probe = GameState(state.deal, rules=state.rules)
        for move in state.moves[: len(state.moves) - len(plays)]:
            probe.push(move)
        for card in plays[:step]:
            probe.play(card)
        return probe

    @property
    def players(self) -> tuple[str, str, str]:
        p = self.properties
        return (p.get("P0", ""), p.get("P1", ""), p.get("P2", ""))

    def outcome(self) -> Outcome | None:
        """The result for the declarer counted from the tricks (None when the deal was
        passed in, or when the declarer gave up in the first trick or in a Null game:
        then :meth:`answer` uses the concession, lost at level einfach)."""
        state = self.state
        if state.passed_in or state.contract is None or self._conceded():
            return None
        if self.resigned is None:
            return state.score()
        points, tricks = self.resigned_counts()
        return score_game(
            state.contract,
            state.matadors(),
            bid=state.bid,
            declarer_points=points,
            declarer_tricks=tricks,
            rules=state.rules,
        )

    def _conceded(self) -> bool:
        state = self.state
        assert state.contract is not None
        return self.resigned == "declarer" and (state.trick_count == 0 or state.contract.game.is_null)

    def resigned_counts(self) -> tuple[int, int]:
        """Augen (skat included) and tricks of the declarer once the remaining tricks
        went to the side that did not give up."""
        state = self.state
        points = state.declarer_augen()
        tricks = state.declarer_trick_count
        if self.resigned == "defenders":
            rest = state.hands[0] | state.hands[1] | state.hands[2]
            points += mask_points(rest) + sum(c.points for c in state.trick)
            tricks += 10 - state.trick_count
        return points, tricks

    def answer(self) -> dict[str, object]:
        """The ``game_replay`` answer of the vectors contract."""
        state = self.state
        if state.passed_in or state.contract is None:
            return {"declarer": None, "bid": None}
        points, tricks = self.resigned_counts()
        if self._conceded():
            settlement = concede(state.contract, state.matadors(), bid=state.bid, rules=state.rules)
            return {
                "declarer": state.declarer,
                "bid": state.bid,
                "matadors": state.matadors(),
                "declarer_points": points,
                "declarer_tricks": tricks,
                "won": settlement.won,
                "value": settlement.value,
                "score": settlement.score,
                "overbid": settlement.overbid,
            }
        outcome = self.outcome()
        assert outcome is not None
        return {
            "declarer": state.declarer,
            "bid": state.bid,
            "matadors": outcome.matadors,
            "declarer_points": outcome.declarer_points,
            "declarer_tricks": outcome.declarer_tricks,
            **outcome.as_dict(),
        }


def split_records(text: str) -> list[str]:
    r"""The record lines ``(;GM[Skat]...;)`` in ``text``, unread: each from a ``(;`` to the next ``;)``.

    One pass (``str.find`` never looks back): a ``(;`` without a ``;)`` after it ends the search,
    because no later ``(;`` can have one either. (A regex ``\(;.*?;\)`` tried every ``(;`` up to
    the end of the text: quadratic in a paste of ``(;(;(;...``.)"""
    records: list[str] = []
    start = text.find("(;")
    while start >= 0:
        end = text.find(";)", start + 2)
        if end < 0:
            break
        records.append(text[start : end + 2])
        start = text.find("(;", end + 2)
    return records


def parse_records(text: str, rules: RuleSet = ISKO) -> list[IssGame]:
    """Every record in ``text`` (one or many, e.g. a pasted ``.sgf`` file)."""
    records = split_records(text)
    if not records:
        raise _error(
            0, "", "kein Datensatz der Form (;GM[Skat]...;) gefunden", "no record of the form (;GM[Skat]...;) found"
        )
    return [parse_record(r, rules) for r in records]


def parse_record(record: str, rules: RuleSet = ISKO) -> IssGame:
    """Read one record and replay it with the engine (which checks every move)."""
    if not isinstance(record, str):
        raise _error(0, "", "ein Datensatz ist Text", "a record is text")
    text = record.strip()
    if not (text.startswith("(;") and text.endswith(";)")):
        raise _error(0, "", "ein Datensatz beginnt mit (; und endet mit ;)", "a record starts with (; and ends with ;)")
    properties: dict[str, str] = {}
    for key, value in _properties(text):
        if key == "R":
            continue  # the server's summary is never read
        properties.setdefault(key, value)
    if properties.get("GM", "Skat") != "Skat":
        raise _error(0, "", f"unbekanntes Spiel GM[{properties['GM']}]", f"unknown game GM[{properties['GM']}]")
    if "MV" not in properties:
        raise _error(0, "", "der Datensatz hat keine Züge MV[...]", "the record has no moves MV[...]")
    return _replay(properties["MV"].split(), properties, rules)


def _properties(text: str) -> list[tuple[str, str]]:
    r"""The ``KEY[value]`` pairs of a record, in order (a key: a capital, then capitals or digits).

    One pass: each ``[`` is found once, its key read back over at most the characters since the
    previous value, and a ``[`` without a ``]`` after it ends the search. (The regex
    ``([A-Z][A-Z0-9]*)\[([^\]]*)\]`` retried every capital of a long run, and every ``[`` of an
    unclosed value, up to the end: quadratic.)"""
    pairs: list[tuple[str, str]] = []
    floor = 0  # keys never reach back into a value already read
    open_at = text.find("[")
    while open_at >= 0:
        close = text.find("]", open_at + 1)
        if close < 0:
            break
        first = open_at
        while first > floor and text[first - 1] in _KEY_CHARS:
            first -= 1
        while first < open_at and not ("A" <= text[first] <= "Z"):
            first += 1  # the key starts at its first capital, as the regex's leftmost match did
        if first < open_at:
            pairs.append((text[first:open_at], text[open_at + 1 : close]))
            floor = close + 1
            open_at = text.find("[", close + 1)
        else:
            floor = open_at + 1  # no key: this [ is no property; the next [ may be
            open_at = text.find("[", open_at + 1)
    return pairs


def _card(token: str, move_no: int, label: str) -> Card:
    if token == "??":
        raise _error(
            move_no,
            label,
            "verdeckte Karte ??: der Datensatz zeigt nicht alle Karten",
            "hidden card ??: the record does not show every card",
        )
    try:
        return parse_card(token)
    except SkatError:
        raise _error(move_no, label, f"{token!r} ist keine Karte", f"{token!r} is not a card") from None


def _replay(tokens: list[str], properties: dict[str, str], rules: RuleSet) -> IssGame:  # noqa: C901 - over the budget since issue 27; to be split
    if len(tokens) < 2 or tokens[0] != "w":
        raise _error(
            1,
            " ".join(tokens[:2]),
            "der erste Zug muss das Geben sein: w und 32 Karten",
            "the first move must be the deal: w and 32 cards",
        )
    deal_codes = tokens[1].split(".")
    if len(deal_codes) != 32:
        raise _error(
            1,
            "w",
            f"beim Geben werden 32 Karten gezeigt, nicht {len(deal_codes)}",
            f"the deal shows 32 cards, not {len(deal_codes)}",
        )
    cards = [_card(c, 1, "w") for c in deal_codes]
    try:
        deal = Deal.from_codes(
            [
                [c.code for c in cards[0:10]],
                [c.code for c in cards[10:20]],
                [c.code for c in cards[20:30]],
                [c.code for c in cards[30:32]],
            ]
        )
    except SkatError as exc:
        raise _error(1, "w", exc.text.de, exc.text.en) from None
    state = GameState(deal, rules=rules)
    resigned: str | None = None
    defender_resigns: set[int] = set()
    awaiting_skat = False
    move_no = 1
    rest = tokens[2:]
    if len(rest) % 2:
        raise _error(
            move_no + len(rest) // 2 + 1,
            rest[-1],
            "ein Zug ohne Handelnden oder ohne Inhalt",
            "a move without actor or without content",
        )
    for k in range(0, len(rest), 2):
        move_no += 1
        actor, action = rest[k], rest[k + 1]
        label = f"{actor} {action}"
        try:
            if resigned is not None or state.is_over():
                if state.is_over() and resigned is None and actor in _SEATS and _is_card(action):
                    continue  # the rules had already ended the game; later cards do not count
                if action in ("SC",) or action.startswith("SC."):
                    continue
                raise _error(move_no, label, "das Spiel ist bereits beendet", "the game is already over")
            if actor == "w":
                if awaiting_skat:
                    shown = {_card(c, move_no, label) for c in action.split(".")}
                    if shown != set(deal.skat):
                        raise _error(
                            move_no,
                            label,
                            "der gezeigte Skat ist nicht der gegebene",
                            "the skat shown is not the one dealt",
                        )
                    awaiting_skat = False
                    continue
                seat = _timeout_seat(action)
                if seat is None:
                    raise _error(move_no, label, "unbekannter Zug des Servers", "unknown server move")
                resigned = _resign(state, seat, move_no, label, defender_resigns, all_at_once=True)
                continue
            if actor not in _SEATS:
                raise _error(
                    move_no,
                    label,
                    f"unbekannter Platz {actor!r}: 0, 1, 2 oder w",
                    f"unknown seat {actor!r}: 0, 1, 2 or w",
                )
            seat = _SEATS[actor]
            if awaiting_skat:
                raise _error(
                    move_no,
                    label,
                    "nach s zeigt der Server den Skat (w S1.S2)",
                    "after s the server shows the skat (w S1.S2)",
                )
            if action == "RE":
                resigned = _resign(state, seat, move_no, label, defender_resigns, all_at_once=False)
                continue
            if action == "SC" or action.startswith("SC."):
                continue  # showing the cards changes nothing on ISS: play goes on
            phase = state.phase
            if phase is Phase.AUCTION:
                _auction_move(state, seat, action, move_no, label)
            elif phase is Phase.SKAT:
                _expect_declarer(state, seat, move_no, label)
                if action == "s":
                    state.push(PickUp())
                    awaiting_skat = True
                else:
                    _declare(state, action, move_no, label, picked_up=False)
            elif phase is Phase.DISCARD:
                _expect_declarer(state, seat, move_no, label)
                _declare(state, action, move_no, label, picked_up=True)
            elif phase is Phase.PLAY:
                card = _card(action, move_no, label)
                if state.to_move != seat:
                    raise _error(
                        move_no,
                        label,
                        f"Platz {seat} ist nicht am Zug, sondern {state.to_move}",
                        f"seat {seat} is not to play, seat {state.to_move} is",
                    )
                state.play(card)
            else:
                raise _error(move_no, label, "das Spiel ist bereits beendet", "the game is already over")
        except IssError:
            raise
        except SkatError as exc:
            raise _error(move_no, label, exc.text.de, exc.text.en) from None
    if resigned is None and not state.is_over():
        raise _error(
            move_no,
            rest[-2] + " " + rest[-1] if rest else "w",
            "die Züge enden, bevor das Spiel zu Ende ist",
            "the moves end before the game is over",
        )
    return IssGame(state, properties, resigned)


def _is_card(token: str) -> bool:
    try:
        parse_card(token)
    except SkatError:
        return False
    return True


def _timeout_seat(action: str) -> int | None:
    for prefix in ("TI.", "LE."):
        if action.startswith(prefix) and action[3:] in _SEATS:
            return _SEATS[action[3:]]
    return None


def _resign(  # noqa: PLR0913 - over the budget since issue 27; to be split
    state: GameState, seat: int, move_no: int, label: str, defender_resigns: set[int], all_at_once: bool
) -> str | None:
    if state.phase is not Phase.PLAY:
        raise _error(
            move_no,
            label,
            "aufgeben lässt sich nur während des Kartenspiels",
            "a game can only be given up while cards are played",
        )
    if seat == state.declarer:
        return "declarer"
    defender_resigns.add(seat)
    if all_at_once or len(defender_resigns) == 2:
        return "defenders"
    return None


def _expect_declarer(state: GameState, seat: int, move_no: int, label: str) -> None:
    if seat != state.declarer:
        raise _error(
            move_no,
            label,
            f"nur der Alleinspieler (Platz {state.declarer}) ist jetzt am Zug",
            f"only the declarer (seat {state.declarer}) is to move now",
        )


def _auction_move(state: GameState, number: int, action: str, move_no: int, label: str) -> None:
    seat = SEATS[number]
    if action == "y":
        state.push(Hold(seat))
    elif action == "p":
        state.push(Pass(seat))
    elif (value := plain_number(action, max_digits=3)) is not None:
        state.push(Bid(seat, value))
    else:
        raise _error(
            move_no,
            label,
            "beim Reizen sind nur Reizwerte, y und p möglich",
            "only bid values, y and p are possible in the auction",
        )


def _declare(state: GameState, action: str, move_no: int, label: str, picked_up: bool) -> None:
    parts = action.split(".")
    code = parts[0]
    if not code or code[0] not in _GAMES or set(code[1:]) - set("HSZO") or len(set(code[1:])) != len(code) - 1:
        raise _error(
            move_no,
            label,
            "unbekannte Spielansage (G, C, S, H, D oder N, dann H, S, Z, O)",
            "unknown declaration (G, C, S, H, D or N, then H, S, Z, O)",
        )
    flags = set(code[1:])
    hand = "H" in flags
    if picked_up and hand:
        raise _error(
            move_no,
            label,
            "nach Aufnahme des Skats ist kein Handspiel möglich",
            "after taking up the skat a hand game is not possible",
        )
    if not picked_up and not hand:
        raise _error(
            move_no,
            label,
            "ohne Aufnahme des Skats muss die Ansage H (Hand) enthalten",
            "without taking up the skat the declaration must contain H (hand)",
        )
    cards = [_card(c, move_no, label) for c in parts[1:] if c]
    declarer = state.declarer
    assert declarer is not None
    if picked_up:
        if len(cards) < 2:
            raise _error(
                move_no,
                label,
                "nach Aufnahme des Skats werden zwei Karten gedrückt (.K1.K2)",
                "after taking up the skat two cards are put away (.C1.C2)",
            )
        state.push(Discard((cards[0], cards[1])))
        shown = cards[2:]
    else:
        shown = cards
    if shown:
        if "O" not in flags or {c.bit for c in shown} != {c.bit for c in _hand_cards(state, declarer)}:
            raise _error(
                move_no,
                label,
                "die gezeigten Karten sind nicht die Hand des Alleinspielers",
                "the cards shown are not the declarer's hand",
            )
    contract = Contract(
        _GAMES[code[0]],
        hand=hand,
        ouvert="O" in flags,
        schneider_announced="S" in flags,
        schwarz_announced="Z" in flags,
    )
    state.push(Declare(contract))


def _hand_cards(state: GameState, seat: int) -> list[Card]:
    mask = state.hands[seat]
    return [c for c in CARDS if mask & c.bit]


# ---------------------------------------------------------------------- writing
def _declaration_code(state: GameState) -> str:
    contract = state.contract
    assert contract is not None
    code = _LETTERS[contract.game]
    if contract.hand:
        code += "H"
    if contract.schneider_announced and not contract.ouvert and not contract.schwarz_announced:
        code += "S"
    if contract.schwarz_announced and not contract.ouvert:
        code += "Z"
    if contract.ouvert:
        code += "O"
    return code


def write_record(  # noqa: C901 - over the budget since issue 27; to be split
    state: GameState,
    *,
    players: tuple[str, str, str] = ("Vorhand", "Mittelhand", "Hinterhand"),
    game_id: str = "0",
    date: str = "",
    place: str = "Skatschule",
) -> str:
    """A finished game (or a passed-in deal) as one ISS record line.

    ``R[...]`` carries a summary in the server's manner (declarer, won or lost, score,
    matadors, Augen, tricks); readers, this module included, never rely on it.
    """
    if not state.is_over():
        raise SkatError(
            "Nur ein beendetes Spiel lässt sich als ISS-Datensatz schreiben",
            "Only a finished game can be written as an ISS record",
        )
    for name in players:
        if "[" in name or "]" in name:
            raise SkatError(
                "Spielernamen dürfen keine eckigen Klammern enthalten", "Player names may not contain square brackets"
            )
    deal = state.deal
    tokens = ["w", ".".join(c.code for part in deal for c in part)]
    for move in state.auction.moves:
        if isinstance(move, Bid):
            tokens += [str(move.seat), str(move.value)]
        elif isinstance(move, Hold):
            tokens += [str(move.seat), "y"]
        else:
            tokens += [str(move.seat), "p"]
    if state.contract is not None:
        code = _declaration_code(state)
        if state.picked_up:
            tokens += [str(state.declarer), "s", "w", ".".join(c.code for c in deal.skat)]
            discards = [m for m in state.moves if isinstance(m, Discard)]
            put_away = discards[0].cards if discards else tuple(c for c in CARDS if state.skat & c.bit)
            code += "." + ".".join(c.code for c in put_away)
        if state.contract.ouvert:
            code += "." + ".".join(c.code for c in _dealt_hand_after_discard(state))
        tokens += [str(state.declarer), code]
    for seat, card in _plays_with_seats(state):
        tokens += [str(seat), card.code]
    header = (
        f"(;GM[Skat]PC[{place}]CO[]SE[1]ID[{game_id}]DT[{date}]"
        f"P0[{players[0]}]P1[{players[1]}]P2[{players[2]}]R0[]R1[]R2[]"
    )
    return f"{header}MV[{' '.join(tokens)}]R[{_summary(state)}] ;)"


def _dealt_hand_after_discard(state: GameState) -> list[Card]:
    """The declarer's ten cards at the start of play (shown in an open game)."""
    declarer = state.declarer
    assert declarer is not None
    mask = (
        state.declarer_cards().mask & ~state.skat
        if state.picked_up
        else state.declarer_cards().mask & ~(state.declarer_cards().mask & _mask_of(state.deal.skat))
    )
    return [c for c in CARDS if mask & c.bit]


def _mask_of(cards: tuple[Card, ...]) -> int:
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def _plays_with_seats(state: GameState) -> list[tuple[int, Card]]:
    out: list[tuple[int, Card]] = []
    leader = 0
    for trick in state.tricks:
        for i, card in enumerate(trick.cards):
            out.append(((trick.leader + i) % 3, card))
        leader = trick.winner
    for i, card in enumerate(state.trick):
        out.append(((leader + i) % 3, card))
    return out


def _summary(state: GameState) -> str:
    if state.passed_in or state.contract is None:
        return "passed"
    outcome = state.score()
    return (
        f"d:{state.declarer} {'win' if outcome.won else 'loss'} v:{outcome.score} m:{outcome.matadors} "
        f"{'overbid' if outcome.overbid else 'bidok'} p:{outcome.declarer_points} t:{outcome.declarer_tricks}"
    )
