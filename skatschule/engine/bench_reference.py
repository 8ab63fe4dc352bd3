"""A frozen copy of the open-hand solver as it stood before issue 23 (commit 8a7ab9e).

Only the solver benchmark (``python -m skatschule.engine.bench --solver``) and the test that compares
answers over many random positions use it: it is the reference measured in the same run, so that the
speed-up of :mod:`.solver` is a ratio on one machine at one moment. Do not change it and do not call it
from the site.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .cards import CARDS, Card, CardSet, Rank, Suit, mask_points
from .errors import SkatError
from .game import GameState, Phase
from .games import GameType

__all__ = ["Solution", "SearchAborted", "solve", "solve_state", "GameTables", "tables_for"]


def _pext_table() -> bytes:
    """``_PEXT8[live << 8 | x]``: the bits of ``x`` at the places of ``live``'s bits, packed
    to the low end (a software "parallel bit extract" for one suit of eight cards)."""
    out = bytearray(1 << 16)
    for live in range(256):
        places = [b for b in range(8) if live >> b & 1]
        for x in range(256):
            v = 0
            for k, b in enumerate(places):
                if x >> b & 1:
                    v |= 1 << k
            out[live << 8 | x] = v
    return bytes(out)


_PEXT8 = _pext_table()


def _chunks(tables: GameTables) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each group of the solver numbering as (shift, mask) pieces of at most eight bits."""
    out: list[tuple[tuple[int, int], ...]] = []
    start = 0
    while start < 32:
        width = tables.follow[start].bit_count()
        pieces = []
        for shift in range(start, start + width, 8):
            pieces.append((shift, (1 << min(8, start + width - shift)) - 1))
        out.append(tuple(pieces))
        start += width
    return tuple(out)


class SearchAborted(Exception):
    """The search went past its node budget (``max_nodes``) and stopped without an answer."""


_NEXT = (1, 2, 0)

# Rank orders inside one group, strongest first.
_SUIT_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_NULL_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)


@dataclass(frozen=True, eq=False)
class GameTables:
    """One game's cards in the solver's numbering (see the module text)."""

    game: GameType
    to_solver: tuple[int, ...]
    """Card index (:attr:`Card.index`) -> solver index."""
    to_card: tuple[int, ...]
    """Solver index -> card index."""
    points: tuple[int, ...]
    """Augen by solver index."""
    follow: tuple[int, ...]
    """By solver index: the mask of the group that must follow it (its own group)."""
    beats: tuple[bool, ...]
    """``beats[x * 32 + w]``: card x (solver index) beats card w, which is winning the trick."""
    klass: tuple[int, ...]
    """By solver index: group and Augen in one number; equal classes may be equivalent."""


@functools.cache
def tables_for(game: GameType) -> GameTables:  # noqa: C901 - over the budget since issue 27; to be split
    """The solver's numbering and tables for ``game`` (built once per game)."""
    groups: list[list[Card]] = []
    if game.is_null:
        for s in Suit:
            groups.append([CARDS[8 * s + r] for r in _NULL_RANKS])
    else:
        trumps = list(game.trumps_in_order)
        groups.append(trumps)
        for s in Suit:
            if s is game.trump_suit:
                continue
            groups.append([CARDS[8 * s + r] for r in _SUIT_RANKS])
    order = [c for g in groups for c in g]
    assert len(order) == 32
    to_card = tuple(c.index for c in order)
    to_solver = [0] * 32
    for i, c in enumerate(order):
        to_solver[c.index] = i
    group_of: list[int] = []
    follow: list[int] = []
    start = 0
    for gi, g in enumerate(groups):
        mask = ((1 << len(g)) - 1) << start
        for _ in g:
            group_of.append(gi)
            follow.append(mask)
        start += len(g)
    has_trumps = not game.is_null
    beats: list[bool] = []
    for x in range(32):
        for w in range(32):
            if group_of[x] == group_of[w]:
                beats.append(x < w)
            else:
                beats.append(has_trumps and group_of[x] == 0)
    points = tuple(order[i].points for i in range(32))
    klass = tuple(group_of[i] * 16 + points[i] for i in range(32))
    return GameTables(game, tuple(to_solver), to_card, points, tuple(follow), tuple(beats), klass)


def _to_solver_mask(tables: GameTables, mask: int) -> int:
    out = 0
    to_solver = tables.to_solver
    while mask:
        low = mask & -mask
        out |= 1 << to_solver[low.bit_length() - 1]
        mask ^= low
    return out


@dataclass(frozen=True)
class Solution:
    """What the solver found for one position.

    ``declarer_points``: for suit and Grand games the most Augen the declarer can make
    sure of, the skat and the Augen already taken included (None in Null).
    ``declarer_wins``: in Null, whether the declarer can make sure of taking no trick;
    in other games, whether ``declarer_points`` reaches 61.
    ``card_values``: for each legal card of the player to move, the same measure after
    that card is played (Augen, or for Null whether the declarer still wins).
    """

    game: GameType
    to_move: int
    declarer_points: int | None
    declarer_wins: bool
    card_values: Mapping[Card, int | bool] = field(default_factory=dict)
    nodes: int = 0

    def best_cards(self) -> list[Card]:
        """The legal cards that keep the value (the best for the side to move)."""
        if not self.card_values:
            return []
        target: int | bool = self.declarer_wins if self.declarer_points is None else self.declarer_points
        return sorted(c for c, v in self.card_values.items() if v == target)


class _Search:
    """One solver run: the hands, the tables and the transposition table."""

    def __init__(self, tables: GameTables, declarer: int, hands: list[int]) -> None:
        self.t = tables
        self.declarer = declarer
        self.hands = hands
        self.tt: dict[int, int] = {}
        self.null_tt: dict[int, bool] = {}
        self.nodes = 0
        self.limit = 1 << 62
        self.all_tricks = False
        self.chunks = _chunks(tables)
        """The yes/no search asks "takes every trick?" (Schwarz) instead of "takes none?" (Null)."""
        self.trumps = 0 if tables.game.is_null else len(tables.game.trumps_in_order)
        self.trump_mask = (1 << self.trumps) - 1

    # ------------------------------------------------------------------ moves
    def moves(self, seat: int, legal: int, trick_mask: int) -> list[int]:
        """The legal cards (solver indexes) with equivalent cards reduced to one."""
        hands = self.hands
        hand = hands[seat]
        sep = (hands[0] | hands[1] | hands[2] | trick_mask) & ~hand
        klass = self.t.klass
        out: list[int] = []
        prev = -1
        prev_class = -1
        x = legal
        while x:
            low = x & -x
            i = low.bit_length() - 1
            x ^= low
            k = klass[i]
            if k == prev_class and not sep & (low - (2 << prev)):
                prev = i
                continue
            out.append(i)
            prev = i
            prev_class = k
        return out

    # ------------------------------------------------------------------ Augen games
    def points(  # noqa: C901, PLR0913 - over the budget since issue 27; to be split
        self,
        seat: int,
        n: int,
        best: int,
        bseat: int,
        tpts: int,
        follow: int,
        tmask: int,
        left: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Augen the declarer gets from the current trick (``tpts`` already in it) and
        all later ones; fail-soft alpha-beta. ``left``: Augen still in the hands."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise SearchAborted(self.nodes)
        hands = self.hands
        lo = 0
        hi = left
        tt_move = -1
        key = 0
        if n == 0:
            if left <= alpha:
                return left
            if beta <= 0:
                return 0
            h0 = hands[0]
            h1 = hands[1]
            h2 = hands[2]
            if not h0 & (h0 - 1):
                # the last trick: every hand holds one card, nothing to choose
                if not h0:
                    return 0
                t = self.t
                a = hands[seat].bit_length() - 1
                b = hands[_NEXT[seat]].bit_length() - 1
                c = hands[_NEXT[_NEXT[seat]]].bit_length() - 1
                beats = t.beats
                w, ws = (b, 1) if beats[b * 32 + a] else (a, 0)
                if beats[c * 32 + w]:
                    ws = 2
                return left if (seat + ws) % 3 == self.declarer else 0
            key = h0 | h1 << 32 | h2 << 64 | seat << 96
            entry = self.tt.get(key)
            if entry is not None:
                # packed: lower bound, upper bound and best lead, 8 bits each
                lo = entry & 0xFF
                hi = entry >> 8 & 0xFF
                tt_move = entry >> 16
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        hand = hands[seat]
        legal = hand & follow if n else hand
        if not legal:
            legal = hand
        t = self.t
        pts = t.points
        beats = t.beats
        declarer = self.declarer
        moves = self.moves(seat, legal, tmask)
        maximize = seat == declarer
        if len(moves) > 1:
            moves = self._order(moves, seat, n, best, bseat, tt_move)
        v = -1 if maximize else 1000
        best_move = moves[0]
        alpha0 = alpha
        beta0 = beta
        nxt = _NEXT[seat]
        for i in moves:
            bit = 1 << i
            hands[seat] = hand ^ bit
            p = pts[i]
            if n == 0:
                r = self.points(nxt, 1, i, seat, p, t.follow[i], bit, left - p, alpha, beta)
            elif n == 1:
                if beats[i * 32 + best]:
                    r = self.points(nxt, 2, i, seat, tpts + p, follow, tmask | bit, left - p, alpha, beta)
                else:
                    r = self.points(nxt, 2, best, bseat, tpts + p, follow, tmask | bit, left - p, alpha, beta)
            else:
                winner = seat if beats[i * 32 + best] else bseat
                if winner == declarer:
                    gain = tpts + p
                    r = gain + self.points(winner, 0, 0, 0, 0, 0, 0, left - p, alpha - gain, beta - gain)
                else:
                    r = self.points(winner, 0, 0, 0, 0, 0, 0, left - p, alpha, beta)
            if maximize:
                if r > v:
                    v = r
                    best_move = i
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if r < v:
                    v = r
                    best_move = i
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        hands[seat] = hand
        if n == 0:
            if v <= alpha0:
                if v < hi:
                    hi = v
            elif v >= beta0:
                if v > lo:
                    lo = v
            else:
                lo = hi = v
            # ints, not lists: the table holds millions of entries, and the garbage
            # collector would scan every list again and again
            self.tt[key] = lo | hi << 8 | best_move << 16
        return v

    def _order(self, moves: list[int], seat: int, n: int, best: int, bseat: int, tt_move: int) -> list[int]:  # noqa: C901, PLR0913 - over the budget since issue 27; to be split
        """Try the most promising cards first."""
        pts = self.t.points
        if n == 0:
            hands = self.hands
            live = hands[0] | hands[1] | hands[2]
            follow = self.t.follow
            lead_scores: list[tuple[int, int]] = []
            for i in moves:
                low = 1 << i
                if not live & follow[i] & (low - 1):
                    score = 30 + pts[i]  # the highest card left in its group
                    if i < self.trumps:
                        score += 20 if seat == self.declarer else -10
                else:
                    score = -pts[i]
                lead_scores.append((-score, i))
            lead_scores.sort()
            ordered = [i for _, i in lead_scores]
            if tt_move >= 0 and tt_move in moves:
                first = tt_move
                return [first] + [m for m in ordered if m != first]
            return ordered
        beats = self.t.beats
        declarer = self.declarer
        mine = seat == declarer
        same_side = mine == (bseat == declarer)
        scored: list[tuple[int, int]] = []
        if n == 2:
            for i in moves:
                if beats[i * 32 + best] or same_side:
                    score = 100 + pts[i]  # my side takes the trick: as many Augen as possible
                else:
                    score = 40 - pts[i]  # the trick is lost: throw the cheapest card
                scored.append((-score, i))
        else:
            third = _NEXT[seat]
            partner_last = (third == declarer) == mine
            hand3 = self.hands[third]
            follow_t = self.t.follow
            trumps = self.trump_mask
            f3 = hand3 & follow_t[best]
            for i in moves:
                if beats[i * 32 + best]:
                    top, top_mine = i, True
                else:
                    top, top_mine = best, same_side
                # can the last player beat the card on top?
                if f3:
                    over = f3 & follow_t[top] & ((1 << top) - 1)
                else:
                    t3 = hand3 & trumps
                    over = t3 & ((1 << top) - 1) if top < self.trumps else t3
                if top_mine and (partner_last or not over):
                    score = 100 + pts[i]  # my side keeps the trick
                elif partner_last and over:
                    score = 70 + pts[i]  # my partner can take it
                else:
                    score = 40 - pts[i]
                scored.append((-score, i))
        scored.sort()
        return [i for _, i in scored]

    # ------------------------------------------------------------------ Null
    def null(self, seat: int, n: int, best: int, bseat: int, follow: int, tmask: int) -> bool:  # noqa: C901, PLR0913 - over the budget since issue 27; to be split
        """Can the declarer make sure of taking no trick from here?"""
        self.nodes += 1
        if self.nodes > self.limit:
            raise SearchAborted(self.nodes)
        hands = self.hands
        key = 0
        if n == 0:
            h0 = hands[0]
            if not h0 | hands[1] | hands[2]:
                return True
            # Yes/no questions (Null, every trick) do not count Augen: only the order of the
            # cards still in play counts, so each group is keyed with the cards already
            # played squeezed out; many more positions meet in the table that way
            h1 = hands[1]
            h2 = hands[2]
            live = h0 | h1 | h2
            key = seat
            pext = _PEXT8
            for chunks in self.chunks:
                v0 = v1 = v2 = 0
                offset = 0
                for shift, mask in chunks:
                    part = live >> shift & mask
                    base = part << 8
                    v0 |= pext[base | (h0 >> shift & mask)] << offset
                    v1 |= pext[base | (h1 >> shift & mask)] << offset
                    v2 |= pext[base | (h2 >> shift & mask)] << offset
                    offset += part.bit_count()
                key = key << 33 | v0 << 22 | v1 << 11 | v2
            known = self.null_tt.get(key)
            if known is not None:
                return known
        hand = hands[seat]
        legal = hand & follow if n else hand
        if not legal:
            legal = hand
        beats = self.t.beats
        declarer = self.declarer
        moves = self.moves(seat, legal, tmask)
        is_declarer = seat == declarer
        if self.all_tricks:
            pass  # any order is correct; the default (strongest first) suits a declarer who wants every trick
        elif len(moves) > 1 and n:
            # declarer: cards that stay under the trick first, the highest of them first;
            # defenders: cards that leave the declarer on top first
            if is_declarer:
                moves.sort(key=lambda i: (beats[i * 32 + best], -i))
            elif bseat == declarer:
                moves.sort(key=lambda i: (beats[i * 32 + best], -i))
            else:
                moves.sort(key=lambda i: (not beats[i * 32 + best], i))
        elif len(moves) > 1 and not is_declarer:
            moves.reverse()  # defenders lead low cards first
        follow_t = self.t.follow
        nxt = _NEXT[seat]
        result = not is_declarer
        for i in moves:
            bit = 1 << i
            hands[seat] = hand ^ bit
            if n == 0:
                r = self.null(nxt, 1, i, seat, follow_t[i], bit)
            elif n == 1:
                if beats[i * 32 + best]:
                    r = self.null(nxt, 2, i, seat, follow, tmask | bit)
                else:
                    r = self.null(nxt, 2, best, bseat, follow, tmask | bit)
            else:
                winner = seat if beats[i * 32 + best] else bseat
                r = False if (winner != declarer) == self.all_tricks else self.null(winner, 0, 0, 0, 0, 0)
            if r == is_declarer:
                result = r
                break
        hands[seat] = hand
        if n == 0:
            self.null_tt[key] = result
        return result


def solve(  # noqa: C901, PLR0913 - over the budget since issue 27; to be split
    game: GameType,
    declarer: int,
    hands: Sequence[CardSet | Iterable[Card]],
    *,
    leader: int,
    trick: Sequence[Card] = (),
    skat: CardSet | Iterable[Card] = (),
    points: int = 0,
    card_values: bool = True,
    target: int | None = None,
    max_nodes: int | None = None,
    all_tricks: bool = False,
) -> Solution:
    """Solve a position with all cards open.

    ``hands``: the three seats' remaining cards (without the cards of ``trick``, the 0-2
    cards already played to the current trick, which ``leader`` led). ``skat``: its
    Augen belong to the declarer in suit and Grand games. ``points``: the Augen the
    declarer has taken so far. With ``card_values`` every legal card is valued too.

    ``target`` (suit and Grand games) asks only "can the declarer make sure of at least
    ``target`` Augen?" (e.g. 61), which is much quicker than the exact Augen: then
    ``declarer_points`` is None, ``declarer_wins`` the answer and the card values are
    yes/no. ``max_nodes`` stops a search that grows too big with :class:`SearchAborted`.
    ``all_tricks`` (suit and Grand games) asks instead "can the declarer make sure of
    every trick?" (Schwarz, as a Grand ouvert needs), answered like a Null game.
    """
    masks = [h.mask if isinstance(h, CardSet) else CardSet(h).mask for h in hands]
    skat_mask = skat.mask if isinstance(skat, CardSet) else CardSet(skat).mask
    trick = list(trick)
    _check_position(declarer, masks, leader, trick, skat_mask)
    tables = tables_for(game)
    search = _Search(tables, declarer, [_to_solver_mask(tables, m) for m in masks])
    if max_nodes is not None:
        search.limit = max_nodes
    to_move = (leader + len(trick)) % 3
    # the trick on the table: who is winning it, its Augen, the group to follow
    n = len(trick)
    best = bseat = tpts = follow = tmask = 0
    for k, card in enumerate(trick):
        i = tables.to_solver[card.index]
        tmask |= 1 << i
        tpts += tables.points[i]
        if k == 0:
            best, bseat, follow = i, leader, tables.follow[i]
        elif tables.beats[i * 32 + best]:
            best, bseat = i, (leader + k) % 3
    hand = search.hands[to_move]
    legal = hand & follow if n else hand
    if not legal:
        legal = hand
    if all_tricks and game.is_null:
        raise SkatError("Im Nullspiel gibt es kein Schwarz", "A Null game has no Schwarz")
    search.all_tricks = all_tricks
    if game.is_null or all_tricks:
        wins = search.null(to_move, n, best, bseat, follow, tmask)
        values: dict[Card, int | bool] = {}
        if card_values:
            for card, v in _root_values(search, to_move, n, best, bseat, tpts, follow, tmask, legal, None).items():
                values[card] = bool(v)
        return Solution(game, to_move, None, wins, values, search.nodes)
    base = points + mask_points(skat_mask)
    left = mask_points(masks[0] | masks[1] | masks[2])
    if target is not None:
        need = target - base
        wins = _at_least(_bind(search, to_move, n, best, bseat, tpts, follow, tmask, left), need, tpts + left)
        values = {}
        if card_values:
            for card, v in _root_values(
                search, to_move, n, best, bseat, tpts, follow, tmask, legal, left, need
            ).items():
                values[card] = bool(v)
        return Solution(game, to_move, None, wins, values, search.nodes)
    value = _mtdf(_bind(search, to_move, n, best, bseat, tpts, follow, tmask, left), tpts + left)
    values = {}
    if card_values:
        for card, v in _root_values(search, to_move, n, best, bseat, tpts, follow, tmask, legal, left).items():
            values[card] = base + v
    return Solution(game, to_move, base + value, base + value >= 61, values, search.nodes)


Bounded = Callable[[int, int], int]


def _bind(  # noqa: PLR0913 - over the budget since issue 27; to be split
    search: _Search, seat: int, n: int, best: int, bseat: int, tpts: int, follow: int, tmask: int, left: int
) -> Bounded:
    def run(alpha: int, beta: int) -> int:
        return search.points(seat, n, best, bseat, tpts, follow, tmask, left, alpha, beta)

    return run


def _at_least(search: Bounded, need: int, top: int) -> bool:
    """Does the value reach ``need`` (one null-window search)?"""
    if need <= 0:
        return True
    if need > top:
        return False
    return search(need - 1, need) >= need


def _mtdf(search: Bounded, top: int, guess: int | None = None) -> int:
    """The exact value in [0, top] by null-window searches ("at least beta?").

    A fail-soft answer beyond the window (a bound tighter than the question asked) is
    tested next, as in MTD(f); otherwise the interval still open is halved.
    """
    lo, hi = 0, top
    beta = top // 2 if guess is None else guess
    while lo < hi:
        beta = min(max(beta, lo + 1), hi)
        g = search(beta - 1, beta)
        if g < beta:
            hi = g
            beta = g if g < beta - 1 else (lo + hi + 1) // 2
        else:
            lo = g
            beta = g + 1 if g > beta else (lo + hi + 1) // 2
    return lo


def _root_values(  # noqa: PLR0913 - over the budget since issue 27; to be split
    search: _Search,
    seat: int,
    n: int,
    best: int,
    bseat: int,
    tpts: int,
    follow: int,
    tmask: int,
    legal: int,
    left: int | None,
    need: int | None = None,
) -> dict[Card, int]:
    """The value after each legal card (equivalent cards share the searched value).

    ``left`` is None in Null (the values are 1 for "the declarer still wins", else 0);
    otherwise the Augen still in the hands, and the values count the Augen the declarer
    gets from the current trick on.
    """
    t = search.t
    hands = search.hands
    hand = hands[seat]
    reps = search.moves(seat, legal, tmask)
    # every legal card maps to its representative: the searched card just before it
    rep_of: dict[int, int] = {}
    x = legal
    current = -1
    while x:
        low = x & -x
        i = low.bit_length() - 1
        x ^= low
        if i in reps:
            current = i
        rep_of[i] = current
    values: dict[int, int] = {}
    declarer = search.declarer
    nxt = _NEXT[seat]
    for i in reps:
        bit = 1 << i
        hands[seat] = hand ^ bit
        p = t.points[i]
        if n == 0:
            nb, ns, nf = i, seat, t.follow[i]
        else:
            nb, ns, nf = ((i, seat) if t.beats[i * 32 + best] else (best, bseat)) + (follow,)
        np = tpts + p
        r: int
        if left is None:
            if n < 2:
                r = int(search.null(nxt, n + 1, nb, ns, nf, tmask | bit))
            else:
                r = 0 if (ns != declarer) == search.all_tricks else int(search.null(ns, 0, 0, 0, 0, 0))
        else:
            rest = left - p
            if need is not None:
                if n < 2:
                    r = int(_at_least(_bind(search, nxt, n + 1, nb, ns, np, nf, tmask | bit, rest), need, np + rest))
                else:
                    gain = np if ns == declarer else 0
                    r = int(_at_least(_bind(search, ns, 0, 0, 0, 0, 0, 0, rest), need - gain, rest))
            elif n < 2:
                r = _mtdf(_bind(search, nxt, n + 1, nb, ns, np, nf, tmask | bit, rest), np + rest)
            else:
                gain = np if ns == declarer else 0
                r = gain + _mtdf(_bind(search, ns, 0, 0, 0, 0, 0, 0, rest), rest)
        hands[seat] = hand
        values[i] = r
    return {CARDS[t.to_card[i]]: values[rep_of[i]] for i in rep_of}


def _check_position(declarer: int, masks: list[int], leader: int, trick: list[Card], skat: int) -> None:
    if declarer not in (0, 1, 2) or leader not in (0, 1, 2):
        raise SkatError("Plätze sind 0, 1 und 2", "Seats are 0, 1 and 2")
    if len(masks) != 3:
        raise SkatError("Es braucht die Karten aller drei Plätze", "The cards of all three seats are needed")
    if len(trick) > 2:
        raise SkatError("Im laufenden Stich liegen höchstens zwei Karten", "At most two cards lie in the current trick")
    seen = 0
    total = 0
    for m in masks + [c.bit for c in trick] + [skat]:
        if seen & m:
            raise SkatError("Eine Karte ist doppelt angegeben", "A card is listed twice")
        seen |= m
        total += m.bit_count()
    if total != seen.bit_count():  # pragma: no cover - caught above
        raise SkatError("Eine Karte ist doppelt angegeben", "A card is listed twice")
    counts = [m.bit_count() for m in masks]
    # the seats that already played to the trick hold one card fewer
    expected = [counts[(leader + k) % 3] + (1 if k < len(trick) else 0) for k in range(3)]
    if len(set(expected)) != 1 or expected[0] == 0:
        raise SkatError(
            "Die Hände passen nicht zum Stich: jeder Platz muss gleich viele Karten haben (die schon gespielten "
            "mitgezählt)",
            "The hands do not fit the trick: every seat must hold as many cards (counting those already played)",
        )


def solve_state(
    state: object, *, card_values: bool = True, target: int | None = None, max_nodes: int | None = None
) -> Solution:
    """Solve a :class:`~.game.GameState` in its play phase from where it stands."""
    if not isinstance(state, GameState) or state.phase != Phase.PLAY or state.contract is None:
        raise SkatError("Nur ein laufendes Kartenspiel lässt sich lösen", "Only a game in play can be solved")
    assert state.declarer is not None
    trick = state.trick
    leader = state.leader
    return solve(
        state.contract.game,
        state.declarer,
        [CardSet(m) for m in state.hands],
        leader=leader,
        trick=trick,
        skat=CardSet(state.skat),
        points=state.declarer_trick_points,
        card_values=card_values,
        target=target,
        max_nodes=max_nodes,
    )
