"""The open-hand (double-dummy) solver: every card open, both sides play their best.

For a suit or Grand game :func:`solve` gives the most Augen the declarer can make
sure of (the skat and the Augen already taken included); for Null it says whether
the declarer can make sure of taking no trick. It starts from any position: any
number of cards a hand and part of a trick already on the table. It also values
every legal card of the player to move.

How it works:

* **Own card numbering.** For each game the 32 cards are renumbered so that each
  group that must be followed (the trumps, then each plain suit) is a run of bits,
  strongest card first. "Follows the card led" is one mask, "beats" is a table look-up,
  and cards of one group that lie next to each other are next to each other in the mask.
* **Alpha-beta with a transposition table.** The value of a position at the start of a
  trick depends only on the cards left in the three hands and the seat to lead, never
  on how the play got there (it counts the Augen still to come), so the table is keyed
  on exactly that and keeps a lower and an upper bound, plus the best lead found.
  Null games keep a yes/no answer.
* **Equivalent cards** (quasi-symmetry, Kupferschmid & Helmert 2006): two cards of one
  hand in the same group, worth the same Augen, with no card between them still in
  another hand or on the table, do exactly the same in every continuation; only one of
  them is searched. Equal Augen in a group lie next to each other (the bands below), so
  only the cards inside bands can separate two cards, and the lists are remembered by
  the hand's cards and those cards only.
* **Move ordering**: the best lead stored in the table first, then the killer lead of
  that depth (the one of them there is, tried before the other leads are put in order,
  which it mostly makes unneeded), then the highest card of a group, and a defender's low
  lead towards the partner's highest card or into the partner's void (when he can trump)
  before other low leads; the declarer leads low trumps before other low cards, and plain
  suits that a defender lacks last. In a trick, cards are tried by what they do to it (taking it,
  smearing Augen to a partner, throwing the cheapest card). The orders of the second and
  the last hand are computed once for their cards and the card on top and then
  remembered; a card that cuts the search off moves to the front of its remembered order.
* **Sure tricks as masks**: the bounds at each trick start take the run of top cards of
  each group as one mask and its Augen from a table, with no loop per card; the followers
  add the cheapest cards they must give to those tricks. The leader's sure tricks bound
  his side; besides, the top trumps of either side take their tricks whenever they are
  played, with at least the cheapest cards of the other hands in those tricks, and when a
  defender leads and the defenders have no trumps, the declarer's top cards of the plain
  suits do too (he never has to give one up).
* **Sure yes/no answers** in the yes/no searches, at each trick start. Every trick
  (Grand or suit ouvert), the declarer to lead: a defender with more trumps than he has,
  or with a card over all his cards of a group he holds, takes a trick; his top cards take
  all when each group's top run is as long as either defender's cards of it (trumps drawn
  first). He never leads a card a defender takes at once, and the defenders give up the
  cards of suits he has no more of, then their lowest. Null, a defender to lead: the
  declarer is safe when his n-th lowest card of each suit has at most n - 1 of the
  defenders' cards under it, and lost when the leader holds a card under his lowest card
  of a suit and the other defender can stay under too (or holds none of the suit); the
  declarer only leads cards a defender must take.
* **Null-window search** at the root: a sequence of yes/no questions "can the declarer
  make sure of at least N Augen?" sharing one table, asked from the top down (a "no" is
  cheaper to prove than a "yes").
* **Native core.** The compiled build runs the searches (:meth:`_Root.points` with
  :meth:`_Search.trick`, and :meth:`_Search.null`) in C (``solver_core.c``, built beside the
  mypyc modules): the same searches node for node, with tables keyed by machine words and no
  allocation per node. This Python code stays the reference (and runs where nothing is built).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Protocol, cast

from .cards import CARDS, Card, CardSet, Rank, Suit, mask_points
from .errors import SkatError
from .game import GameState, Phase
from .games import WIN_POINTS, GameType

__all__ = [
    "Solution",
    "SearchAborted",
    "solve",
    "solve_state",
    "GameTables",
    "tables_for",
    "Position",
    "SCHWARZ",
    "wins",
    "card_values",
]


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
def tables_for(game: GameType) -> GameTables:  # noqa: C901 - the hot loop takes plain ints and branches inline (compiled with mypyc)
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


@functools.cache
def _layout(game: GameType) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]:
    """For the Augen search of ``game``: the plain suits' masks, ``band_low`` and the bands.

    A band is a run of cards of one group with the same Augen (the four Jacks; the 9, 8 and 7
    of a suit). Within a band only the number of cards still in play counts, so the search
    keeps the live cards of each band at its top: ``band_low[i]`` is the mask of the band's
    cards weaker than ``i`` (they move up one place when ``i`` is played). ``bands``: the
    (mask, first index) of each band of two or more cards.
    """
    t = tables_for(game)
    plain: list[int] = []
    trumps = 0 if game.is_null else len(game.trumps_in_order)
    for i in range(trumps, 32):
        if t.follow[i] not in plain:
            plain.append(t.follow[i])
    band_low = [0] * 32
    bands: list[tuple[int, int]] = []
    i = 0
    while i < 32:
        j = i
        while j + 1 < 32 and t.klass[j + 1] == t.klass[i] and t.follow[j + 1] == t.follow[i]:
            j += 1
        for k in range(i, j + 1):
            band_low[k] = ((1 << (j + 1)) - 1) & ~((1 << (k + 1)) - 1)
        if j > i:
            bands.append((((1 << (j + 1)) - 1) & ~((1 << i) - 1), i))
        i = j + 1
    return tuple(plain), tuple(band_low), tuple(bands)


@functools.cache
def _mask_points(game: GameType) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The Augen of any set of cards (solver indexes) of ``game`` as three look-ups, by its
    bits 0-10, 11-21 and 22-31 (the trumps of a suit game are bits 0-10)."""
    points = tables_for(game).points
    parts: list[tuple[int, ...]] = []
    for shift in (0, 11, 22):
        part = [0] * (1 << 11)
        for m in range(1, 1 << min(11, 32 - shift)):
            i = (m & -m).bit_length() - 1
            part[m] = part[m & (m - 1)] + points[shift + i]
        parts.append(tuple(part))
    return parts[0], parts[1], parts[2]


_Group = tuple[int, int, int, tuple[tuple[int, ...], ...], tuple[int, ...]]


@functools.cache
def _least(game: GameType) -> tuple[_Group, ...]:
    """For the sure-trick bound of ``game``: each group as (mask, shift, width mask, rows,
    Augen), where ``rows[cards >> shift & width mask]`` lists, for the cards of the group in one
    hand, the Augen of its 0, 1, 2, ... cheapest cards (what that hand must give at least when
    it has to follow; as long as the group, the last figure repeated), and
    ``Augen[cards >> shift & width mask]`` the Augen of those cards."""
    t = tables_for(game)
    out: list[_Group] = []
    start = 0
    while start < 32:
        mask = t.follow[start]
        width = mask.bit_count()
        rows: list[tuple[int, ...]] = []
        augen: list[int] = []
        for m in range(1 << width):
            own = sorted(t.points[start + i] for i in range(width) if m >> i & 1)
            sums = [0]
            for p in own:
                sums.append(sums[-1] + p)
            sums += [sums[-1]] * (width + 1 - len(sums))
            rows.append(tuple(sums))
            augen.append(sums[-1])
        out.append((mask, start, (1 << width) - 1, tuple(rows), tuple(augen)))
        start += width
    return tuple(out)


@functools.cache
def _game_chunks(game: GameType) -> tuple[tuple[tuple[int, int], ...], ...]:
    return _chunks(tables_for(game))


@functools.cache
def _derived(
    game: GameType,
) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]:
    """For :class:`_Search`: the mask of all bands, the cards over each card, the group masks
    and the Augen classes of ``game`` (see there)."""
    tables = tables_for(game)
    beats = tables.beats
    bands = _layout(game)[2]
    band_mask = sum(mask for mask, _ in bands)
    over = tuple(sum(1 << x for x in range(32) if beats[x * 32 + w]) for w in range(32))
    group_masks = tuple(group[0] for group in _least(game))
    point_classes = tuple(
        (p, sum(1 << i for i in range(32) if tables.points[i] == p)) for p in sorted(set(tables.points))
    )
    return band_mask, over, group_masks, point_classes


def _squeeze(bands: tuple[tuple[int, int], ...], h0: int, h1: int, h2: int) -> tuple[int, int, int]:
    """The hands with the live cards of every band moved to the band's top (the cards
    already played squeezed out): the same position for the Augen search."""
    for mask, first in bands:
        live = (h0 | h1 | h2) & mask
        count = live.bit_count()
        if live == ((1 << count) - 1) << first:
            continue
        out = [0, 0, 0]
        place = first
        x = live
        while x:
            low = x & -x
            x ^= low
            for s, h in enumerate((h0, h1, h2)):
                if h & low:
                    out[s] |= 1 << place
            place += 1
        h0 = h0 & ~mask | out[0]
        h1 = h1 & ~mask | out[1]
        h2 = h2 & ~mask | out[2]
    return h0, h1, h2


class _Core(Protocol):
    """The native core (``solver_core.c``): :meth:`_Root.points`, :meth:`_Search.trick` and
    :meth:`_Search.null` in C, with its own tables."""

    @property
    def nodes(self) -> int: ...

    def points(  # noqa: PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
        self,
        leader: int,
        trick: tuple[int, ...],
        h0: int,
        h1: int,
        h2: int,
        tpts: int,
        left: int,
        alpha: int,
        beta: int,
        nodes: int,
        limit: int,
    ) -> int | None: ...

    def null(  # noqa: PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
        self,
        seat: int,
        n: int,
        best: int,
        bseat: int,
        follow: int,
        tmask: int,
        h0: int,
        h1: int,
        h2: int,
        all_tricks: bool,
        nodes: int,
        limit: int,
    ) -> bool | None: ...


def _load_native() -> ModuleType | None:
    """The native core of the compiled build (``solver_core.c``, built by ``make setup`` into the
    folder of the mypyc modules, so it is there exactly when they run), or None: the pure build
    (also the copy of this module that the benchmark and the tests load as ``_solver_pure``)
    never uses it."""
    if not __name__.endswith(".solver"):
        return None
    try:
        from . import _solver_core
    except ImportError:
        return None
    return _solver_core


_NATIVE = _load_native()


@functools.cache
def _native_tables(game: GameType) -> object:
    """The static tables of ``game`` for the native core (built once per game)."""
    assert _NATIVE is not None
    t = tables_for(game)
    plain, band_low, bands = _layout(game)
    trumps = 0 if game.is_null else len(game.trumps_in_order)
    groups = tuple(group[0] for group in _least(game))
    band_mask = sum(mask for mask, _ in bands)
    flat_bands = tuple(x for band in bands for x in band)
    return cast(
        object,
        _NATIVE.tables(
            trumps,
            bytes(t.points),
            bytes(t.klass),
            bytes(t.beats),
            t.follow,
            band_low,
            band_mask,
            plain,
            groups,
            flat_bands,
        ),
    )


def _tt_key(lead: int, ha: int, hb: int, hc: int) -> int:
    """The transposition table's key of the position at the start of a trick (as
    :meth:`_Search.trick` gets it: the leader's hand first)."""
    return ha | hb << 32 | hc << 64 | lead << 96


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
        """The yes/no search asks "takes every trick?" (Schwarz) instead of "takes none?" (Null)."""
        game = tables.game
        self.chunks = _game_chunks(game)
        self.trumps = 0 if game.is_null else len(game.trumps_in_order)
        self.trump_mask = (1 << self.trumps) - 1
        self.plain, self.band_low, self.bands = _layout(game)
        self.pts_a, self.pts_b, self.pts_c = _mask_points(game)
        self.least = _least(game)
        self.least_plain = self.least[1:] if self.trumps else self.least
        # built once per game (a search of a small position costs little more than its set-up)
        self.band_mask, self.over, self.group_masks, self.point_classes = _derived(game)
        """The cards of all bands; by solver index, the mask of the cards that beat it; the mask
        of each group (the trumps first in a suit or Grand game); (Augen, mask of the cards worth
        that) from the cheapest up."""
        self.order_memo: dict[int, list[int]] = {}
        """The order of the last hand's cards in a trick, by its cards (as :meth:`reps` keys
        them), the card on top and whether that card belongs to the last hand's side."""
        self.order_b_memo: dict[int, list[int]] = {}
        """The same for the second hand, by its cards, the lead, what the last hand can put
        over and the declarer's place in the trick."""
        self.killer = [-1] * 11
        """By cards left a hand: the last lead that cut the search off."""
        self.rep_memo: dict[int, list[int]] = {}
        """The equivalent cards reduced (:meth:`reps`), by the cards and what separates them."""
        self.core: _Core | None = None
        """The native core, which runs :meth:`trick` with its own table (the compiled build)."""
        if _NATIVE is not None:
            self.core = cast(_Core, _NATIVE.Core(_native_tables(tables.game), declarer))

    # ------------------------------------------------------------------ moves
    def moves(self, seat: int, legal: int, trick_mask: int) -> list[int]:
        """The legal cards (solver indexes) with equivalent cards reduced to one."""
        hands = self.hands
        hand = hands[seat]
        return list(self.reps(legal, (hands[0] | hands[1] | hands[2] | trick_mask) & ~hand))

    def reps(self, legal: int, sep: int) -> list[int]:
        """The cards of ``legal`` with each run of equivalent cards reduced to its first:
        same group and Augen, and no card of ``sep`` (the other hands and the table) between.
        Remembered by ``legal`` and the part of ``sep`` that lies among it: do not change the list."""
        span = ((1 << legal.bit_length()) - 1) & ~((legal & -legal) - 1)
        key = legal | (sep & span) << 32
        known = self.rep_memo.get(key)
        if known is not None:
            return known
        return self.new_reps(legal, sep, key)

    def new_reps(self, legal: int, sep: int, key: int) -> list[int]:
        """:meth:`reps` for a ``key`` not remembered yet."""
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
        self.rep_memo[key] = out
        return out

    def sure(self, mine: int, live: int, opp1: int, opp2: int, f1: int, f2: int) -> int:  # noqa: C901, PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
        """Augen of the leader's own cards in the tricks it surely takes in a row from the lead:
        its top trumps, then the top cards of plain suits that no opponent (``opp1``, ``opp2``;
        0 for none) can trump in time. A lower bound of the leader's side's Augen to come.
        The followers (``f1``, ``f2``) must follow to those tricks as long as they can: at
        least their cheapest cards of each group, as many as the leader's tricks in it, count too."""
        tm = self.trump_mask
        # each run is a mask: the live cards of a group above its first card in another hand
        x = live & tm
        k = 0
        total = 0
        if mine & x & -x:
            other = x & ~mine
            if other:
                x &= (other & -other) - 1
            k = x.bit_count()
            _, _, _, rows, augen = self.least[0]
            total = augen[x] + rows[f1 & tm][k] + rows[f2 & tm][k]
        # the top trumps are cashed first: an opponent with no more trumps than those is out
        # of trumps afterwards and cannot ruff
        ruff1 = opp1 & tm
        if ruff1 and ruff1.bit_count() <= k:
            ruff1 = 0
        ruff2 = opp2 & tm
        if ruff2 and ruff2.bit_count() <= k:
            ruff2 = 0
        for suit, shift, width, rows, augen in self.least_plain:
            x = live & suit
            if not mine & x & -x:
                continue
            other = x & ~mine
            if other:
                x &= (other & -other) - 1
            k = x.bit_count()
            if ruff1 or ruff2:
                # an opponent with trumps ruffs once out of the suit: as many tricks as he follows
                cap = 8
                if ruff1:
                    cap = (opp1 & suit).bit_count()
                if ruff2:
                    cap = min(cap, (opp2 & suit).bit_count())
                while k > cap:
                    x ^= 1 << (x.bit_length() - 1)
                    k -= 1
            total += augen[x >> shift] + rows[f1 >> shift & width][k] + rows[f2 >> shift & width][k]
        return total

    def cheapest(self, hand: int, k: int) -> int:
        """The Augen of the ``k`` cheapest cards of ``hand`` (all of them if it has fewer)."""
        total = 0
        for p, m in self.point_classes:
            n = (hand & m).bit_count()
            if n >= k:
                return total + k * p
            total += n * p
            k -= n
        return total

    def lead_order(  # noqa: C901, PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
        self,
        moves: list[int],
        skip: int,
        tt_move: int,
        killer: int,
        live: int,
        ha: int,
        hb: int,
        hc: int,
        d: int,
        dh: int,
    ) -> list[int]:
        """The leads of ``moves`` but ``skip`` in the order :meth:`trick` tries them (see there)."""
        t = self.t
        follow = t.follow
        pts = t.points
        keys: list[int] = []
        trumps = self.trumps
        pa = hb if d == 2 else hc
        for i in moves:
            if i == skip:
                continue
            if i == tt_move:
                score = 1 << 30
            elif i == killer:
                score = 1 << 29
            else:
                if not live & follow[i] & ((1 << i) - 1):
                    score = 30 + pts[i]  # the highest card left in its group
                    if i < trumps:
                        score += 20 if d == 0 else -10
                else:
                    score = 20 - pts[i]
                    if not d and i < trumps:
                        score += 10  # the declarer draws trumps
                    if d:
                        # a defender leads low towards the partner's highest card left
                        g = live & follow[i]
                        if not (ha | dh) & g & -g:
                            score += 8
                if d and not dh & follow[i]:
                    score -= 15
                elif d and i >= trumps and not pa & follow[i] and pa & self.trump_mask:
                    score += 8  # the partner trumps it
                elif not d and i >= trumps and not (hb & follow[i] and hc & follow[i]):
                    score -= 40  # the declarer leads a plain suit a defender lacks last
                score = score << 16
            keys.append(score << 5 | i)
        keys.sort(reverse=True)
        return [k & 31 for k in keys]

    # ------------------------------------------------------------------ Augen games
    def trick(  # noqa: C901, PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
        self, lead: int, ha: int, hb: int, hc: int, left: int, alpha: int, beta: int, key: int, entry: int
    ) -> int:
        """The Augen the declarer gets from the trick ``lead`` leads now and all later ones
        (fail-soft alpha-beta). ``ha``, ``hb``, ``hc``: the hands of the leader and of the
        next two seats, with the bands squeezed (:func:`_squeeze`); ``left``: their Augen;
        ``key`` (:func:`_tt_key`) and ``entry``: the position's key and its table entry (-1 for
        none), which the caller has already looked up.

        One call plays a whole trick: the three cards are three nested loops, each with its
        own window, and only the position after the trick is a new call (and a table entry).
        """
        self.nodes += 1
        if self.nodes > self.limit:
            raise SearchAborted(self.nodes)
        if left <= alpha:
            return left
        if beta <= 0:
            return 0
        t = self.t
        beats = t.beats
        pts = t.points
        declarer = self.declarer
        if not ha & (ha - 1):
            # the last trick: one card a hand, nothing to choose
            if not ha:
                return 0
            a = ha.bit_length() - 1
            b = hb.bit_length() - 1
            c = hc.bit_length() - 1
            w, best = (1, b) if beats[b * 32 + a] else (0, a)
            if beats[c * 32 + best]:
                w = 2
            return left if (lead + w) % 3 == declarer else 0
        tt = self.tt
        lo = 0
        hi = left
        tt_move = -1
        if entry >= 0:
            # packed: lower bound, upper bound and best lead + 1 (0: none), 8 bits each
            lo = entry & 0xFF
            hi = entry >> 8 & 0xFF
            tt_move = (entry >> 16) - 1
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
        live = ha | hb | hc
        d = (declarer - lead) % 3  # the declarer's place in this trick, 0 = he leads
        dh = ha if d == 0 else hb if d == 1 else hc
        # sure Augen (only at a first visit: a table entry holds these bounds already). The
        # highest trumps left, as far as one side holds them all, go to that side whenever
        # they are played; and the leader can cash its sure tricks now
        if entry < 0:
            x = live & self.trump_mask
            run = 0
            other = 0
            if x:
                mine = (dh & x & -x) != 0
                other = x & ~dh if mine else x & dh
                if other:
                    x &= (other & -other) - 1
                run = self.pts_a[x] if mine else -self.pts_a[x]  # at most 11 trumps
                if not mine:
                    # the defenders' top trumps take at least as many tricks as one defender
                    # holds of them; the declarer gives a card to each of those (at least his
                    # cheapest), and so does a defender who holds none of them
                    e1 = hb if d == 0 else ha
                    e2 = hb if d == 2 else hc
                    k1 = (x & e1).bit_count()
                    k2 = (x & e2).bit_count()
                    run -= self.cheapest(dh, k1 if k1 > k2 else k2)
                    if not k1:
                        run -= self.cheapest(e1, k2)
                    elif not k2:
                        run -= self.cheapest(e2, k1)
            if d == 0:
                sure = self.sure(ha, live, hb, hc, hb, hc)
                if sure > lo:
                    lo = sure
                if run < 0 and left + run < hi:
                    hi = left + run
            else:
                sure = self.sure(ha, live, dh, 0, hb, hc)
                if run < 0 and -run > sure:
                    sure = -run
                sure = left - sure
                if sure < hi:
                    hi = sure
                if run > 0:
                    # the declarer's top trumps take a trick each whenever he plays them, and
                    # each defender gives a card to each of those tricks: at least his cheapest
                    k = x.bit_count()
                    if not other:
                        # the defenders have no trumps: the declarer never has to give up a top
                        # card of a plain suit (he wins with it, follows with a lower card or
                        # trumps), so these take a trick each too
                        for suit in self.plain:
                            y = live & suit
                            if dh & y & -y:
                                o = y & ~dh
                                if o:
                                    y &= (o & -o) - 1
                                k += y.bit_count()
                                run += self.pts_a[y & 0x7FF] + self.pts_b[y >> 11 & 0x7FF] + self.pts_c[y >> 22]
                    run += self.cheapest(ha, k) + self.cheapest(hc if d == 1 else hb, k)
                    if run > lo:
                        lo = run
            if lo >= beta or hi <= alpha:
                # these bounds end the search here: the table keeps them (with no best lead),
                # so that the next question over thresholds is answered before the call
                tt[key] = lo | hi << 8
                return lo if lo >= beta else hi
        alpha0 = alpha
        beta0 = beta
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        follow = t.follow
        band_low = self.band_low
        depth = ha.bit_count()
        killer = self.killer[depth]
        # the leads: the stored best first, then the killer, then by what they promise
        rep_memo = self.rep_memo
        # only the cards inside a band can separate equivalent cards (equal Augen in a group
        # lie next to each other): the other cards are left out of the keys of rep_memo, so
        # that more positions share them
        band_mask = self.band_mask
        sep_a = live & ~ha & band_mask
        ka = ha | (sep_a & ((1 << ha.bit_length()) - 1) & ~((ha & -ha) - 1)) << 32
        moves_a = rep_memo.get(ka)
        if moves_a is None:
            moves_a = self.new_reps(ha, sep_a, ka)
        # the stored best lead or else the killer is tried before the others are put in order:
        # most often it cuts the search off, and the order is never needed
        sorted_a = True
        if len(moves_a) > 1:
            first = tt_move if tt_move in moves_a else killer if killer in moves_a else -1
            if first >= 0:
                sorted_a = False
                order_a = [first]
            else:
                order_a = self.lead_order(moves_a, -1, tt_move, killer, live, ha, hb, hc, d, dh)
        else:
            order_a = moves_a
        max_a = d == 0
        max_b = d == 1
        max_c = d == 2
        lead_b = _NEXT[lead]
        lead_c = _NEXT[lead_b]
        sep_b = live & ~hb & band_mask
        sep_c = live & ~hc & band_mask
        trump_mask = self.trump_mask
        n_trumps = self.trumps
        va = -1 if max_a else 1000
        best_a = order_a[0]
        last = depth == 2
        order_memo = self.order_memo
        order_b_memo = self.order_b_memo
        t3 = hc & trump_mask
        partner_last = d == 0  # B and C defend together
        followers: dict[int, tuple[list[int], list[int], int, int]] = {}
        search = self.trick
        overs = self.over
        count = 0  # the nodes of this call's loops, added to self.nodes at the end
        i_a = 0
        while True:
            if i_a == len(order_a):
                if sorted_a:
                    break
                # the first lead did not cut the search off: the others in order
                order_a = self.lead_order(moves_a, order_a[0], tt_move, killer, live, ha, hb, hc, d, dh)
                sorted_a = True
                i_a = 0
            a = order_a[i_a]
            i_a += 1
            na0 = ha ^ (1 << a)
            ma = band_low[a] & live and band_low[a]
            pa = pts[a]
            fa = follow[a]
            known = followers.get(fa)
            if known is None:
                # the keys of the orders of the second and last hand: their cards as reps()
                # keys them; for the second hand also what the last hand can put over
                legal_b = hb & fa or hb
                legal_c = hc & fa or hc
                span_b = ((1 << legal_b.bit_length()) - 1) & ~((legal_b & -legal_b) - 1)
                span_c = ((1 << legal_c.bit_length()) - 1) & ~((legal_c & -legal_c) - 1)
                over_c = (hc & fa) << 1 | 1 if hc & fa else t3 << 1
                kb = legal_b | (sep_b & span_b) << 32
                kc = legal_c | (sep_c & span_c) << 32
                reps_b = rep_memo.get(kb)
                if reps_b is None:
                    reps_b = self.new_reps(legal_b, sep_b, kb)
                reps_c = rep_memo.get(kc)
                if reps_c is None:
                    reps_c = self.new_reps(legal_c, sep_c, kc)
                known = followers[fa] = (reps_b, reps_c, (kb << 33 | over_c) << 7 | d, kc << 7)
            moves_b, moves_c, bkey, ckey = known
            f3 = hc & fa
            okey = -1
            if len(moves_b) > 1:
                okey = bkey | a << 2
                known_b = order_b_memo.get(okey)
                if known_b is not None:
                    moves_b = known_b
            else:
                known_b = moves_b
            if known_b is None:
                # second hand: keep the trick for the own side (trumping a plain lead only
                # after smearing), smear to a partner who sits last and can take it, else
                # throw the cheapest card
                keys: list[int] = []
                for i in moves_b:
                    if beats[i * 32 + a]:
                        top = i
                        top_mine = True
                    else:
                        top = a
                        top_mine = d == 2  # the leader is my partner
                    if f3:
                        over = f3 & follow[top] & ((1 << top) - 1)
                    else:
                        over = t3 & ((1 << top) - 1) if top < n_trumps else t3
                    if top_mine and (partner_last or not over):
                        score = 100 + pts[i] - (30 if i < n_trumps and a >= n_trumps else 0)
                    elif partner_last and over:
                        score = 70 + pts[i]
                    else:
                        score = 40 - pts[i]
                    keys.append(score << 5 | i)
                keys.sort(reverse=True)
                moves_b = order_b_memo[okey] = [k & 31 for k in keys]
            vb = -1 if max_b else 1000
            under_a: list[int] = []
            under_key = -1
            alpha_b = alpha
            beta_b = beta
            for b in moves_b:
                nb0 = hb ^ (1 << b)
                pab = pa + pts[b]
                if beats[b * 32 + a]:
                    top = b
                    wpos = 1
                else:
                    top = a
                    wpos = 0
                # last hand: take the trick for the own side with the most Augen, or throw the cheapest
                # (the same order for every second card that leaves the lead on top)
                ckey_top = -1
                if len(moves_c) < 2:
                    order_c = moves_c
                elif wpos == 0 and under_a:
                    order_c = under_a
                    ckey_top = under_key
                else:
                    side_top = (wpos == d) == max_c  # the card on top belongs to C's side
                    ckey_top = ckey | top << 1 | side_top
                    known_c = order_memo.get(ckey_top)
                    if known_c is None:
                        keys = []
                        for i in moves_c:
                            if beats[i * 32 + top] or side_top:
                                keys.append((100 + pts[i] - (12 if i < n_trumps else 0)) << 5 | i)
                            else:
                                keys.append((40 - pts[i]) << 5 | i)
                        keys.sort(reverse=True)
                        known_c = order_memo[ckey_top] = [k & 31 for k in keys]
                    order_c = known_c
                    if wpos == 0:
                        under_a = order_c
                        under_key = ckey_top
                vc = -1 if max_c else 1000
                mb = band_low[b] & live and band_low[b]
                band_ab = ma | mb
                alpha_c = alpha_b
                beta_c = beta_b
                count += len(order_c)
                over_top = overs[top]
                for c in order_c:
                    tp = pab + pts[c]
                    w = 2 if over_top >> c & 1 else wpos
                    rest = left - tp
                    gain = tp if w == d else 0
                    if last:
                        # one card a hand is left: play the last trick here
                        nc = hc ^ (1 << c)
                        if w == 0:
                            x0, x1, x2, lp = na0, nb0, nc, lead
                        elif w == 1:
                            x0, x1, x2, lp = nb0, nc, na0, lead_b
                        else:
                            x0, x1, x2, lp = nc, na0, nb0, lead_c
                        y0 = x0.bit_length() - 1
                        y1 = x1.bit_length() - 1
                        y2 = x2.bit_length() - 1
                        k, y = (1, y1) if beats[y1 * 32 + y0] else (0, y0)
                        if beats[y2 * 32 + y]:
                            k = 2
                        r = gain + rest if (lp + k) % 3 == declarer else gain
                    elif rest <= alpha_c - gain:
                        r = gain + rest  # the declarer cannot get more than everything
                    elif beta_c <= gain:
                        r = gain
                    else:
                        na = na0
                        nb = nb0
                        nc = hc ^ (1 << c)
                        # squeeze the bands, the weakest card played first (a card with no
                        # live card under it in its band moves nothing)
                        mc = band_low[c] & live and band_low[c]
                        if not band_ab:
                            if mc:
                                na = na & ~mc | (na & mc) >> 1
                                nb = nb & ~mc | (nb & mc) >> 1
                                nc = nc & ~mc | (nc & mc) >> 1
                        elif not mc and not (ma and mb):
                            na = na & ~band_ab | (na & band_ab) >> 1
                            nb = nb & ~band_ab | (nb & band_ab) >> 1
                            nc = nc & ~band_ab | (nc & band_ab) >> 1
                        else:
                            x0, x1, x2 = a, b, c
                            if x0 < x1:
                                x0, x1 = x1, x0
                            if x1 < x2:
                                x1, x2 = x2, x1
                                if x0 < x1:
                                    x0, x1 = x1, x0
                            for m in (band_low[x0], band_low[x1], band_low[x2]):
                                if m:
                                    na = na & ~m | (na & m) >> 1
                                    nb = nb & ~m | (nb & m) >> 1
                                    nc = nc & ~m | (nc & m) >> 1
                        if w == 0:
                            x0, x1, x2, lp = na, nb, nc, lead
                        elif w == 1:
                            x0, x1, x2, lp = nb, nc, na, lead_b
                        else:
                            x0, x1, x2, lp = nc, na, nb, lead_c
                        # the table is asked here: most answers it gives end the search of that
                        # position at once, and a call costs more than the question
                        tkey = x0 | x1 << 32 | x2 << 64 | lp << 96
                        entry_c = tt.get(tkey, -1)
                        a_c = alpha_c - gain
                        b_c = beta_c - gain
                        if entry_c < 0:
                            r = gain + search(lp, x0, x1, x2, rest, a_c, b_c, tkey, entry_c)
                        elif entry_c & 0xFF >= b_c:
                            count += 1
                            r = gain + (entry_c & 0xFF)
                        elif entry_c >> 8 & 0xFF <= a_c:
                            count += 1
                            r = gain + (entry_c >> 8 & 0xFF)
                        else:
                            r = gain + search(lp, x0, x1, x2, rest, a_c, b_c, tkey, entry_c)
                    if max_c:
                        if r > vc:
                            vc = r
                            if r > alpha_c:
                                alpha_c = r
                                if r >= beta_c:
                                    if c != order_c[0] and ckey_top >= 0:
                                        # the card that cut off goes first next time (a new list:
                                        # an outer loop may still walk the old one)
                                        order_memo[ckey_top] = [c] + [x for x in order_c if x != c]
                                        if wpos == 0:
                                            under_a = order_memo[ckey_top]
                                    break
                    elif r < vc:
                        vc = r
                        if r < beta_c:
                            beta_c = r
                            if r <= alpha_c:
                                if c != order_c[0] and ckey_top >= 0:
                                    order_memo[ckey_top] = [c] + [x for x in order_c if x != c]
                                    if wpos == 0:
                                        under_a = order_memo[ckey_top]
                                break
                if max_b:
                    if vc > vb:
                        vb = vc
                        if vc > alpha_b:
                            alpha_b = vc
                            if vc >= beta_b:
                                if b != moves_b[0] and okey >= 0:
                                    order_b_memo[okey] = [b] + [x for x in moves_b if x != b]
                                break
                elif vc < vb:
                    vb = vc
                    if vc < beta_b:
                        beta_b = vc
                        if vc <= alpha_b:
                            if b != moves_b[0] and okey >= 0:
                                order_b_memo[okey] = [b] + [x for x in moves_b if x != b]
                            break
            if max_a:
                if vb > va:
                    va = vb
                    best_a = a
                    if vb > alpha:
                        alpha = vb
                        if vb >= beta:
                            break
            elif vb < va:
                va = vb
                best_a = a
                if vb < beta:
                    beta = vb
                    if vb <= alpha:
                        break
        if va >= beta if max_a else va <= alpha:
            # a cut-off: remember the lead that caused it
            self.killer[depth] = best_a
        elif tt_move >= 0:
            # no lead cut off (all failed): the table keeps the lead that cut off before, for
            # the next question from the other side
            best_a = tt_move
        if va <= alpha0:
            if va < hi:
                hi = va
        elif va >= beta0:
            if va > lo:
                lo = va
        else:
            lo = hi = va
        # ints, not lists: the table holds millions of entries, and the garbage
        # collector would scan every list again and again
        tt[key] = lo | hi << 8 | (best_a + 1) << 16
        self.nodes += count
        return va

    # ------------------------------------------------------------------ Null
    def every_trick(self, mine: int, opp1: int, opp2: int) -> int:
        """Every trick (``all_tricks``), the declarer to lead at a trick start: 1 if he surely
        takes all the tricks left, 0 if a defender surely takes one, -1 if only the search can
        tell. From here on he leads every trick he takes, so each of his cards is led once.

        Surely not: a defender holds more trumps than he does (that defender keeps one to the
        end and trumps the declarer's last card, if not before), or a card above all the
        declarer's cards of a group he holds (the first time that group is led, it wins).
        Surely yes: in each group he holds, his cards above all the defenders' ones are all
        his cards of the group, or at least as many as either defender has of it. He draws the
        trumps with his top trumps (the defenders must follow, so they have none left after
        that), then leads the top cards of each suit, after which the defenders are void in it."""
        tm = self.trump_mask
        mine_t = (mine & tm).bit_count()
        if (opp1 & tm).bit_count() > mine_t or (opp2 & tm).bit_count() > mine_t:
            return 0
        out = 1
        for m in self.group_masks:
            d = mine & m
            o = (opp1 | opp2) & m
            if not d or not o:
                continue
            best = o & -o  # the strongest card is the lowest bit
            if best < d & -d:
                return 0
            top = (d & (best - 1)).bit_count()
            if top < d.bit_count() and ((opp1 & m).bit_count() > top or (opp2 & m).bit_count() > top):
                out = -1
        return out

    def no_trick(self, mine: int, leader: int, others: int) -> int:
        """Null, a defender (``leader``) to lead at a trick start: 1 if the declarer surely
        takes no trick, 0 if he surely takes one, -1 if only the search can tell.

        Surely not: in each group, his n-th lowest card has at most n - 1 of the defenders'
        cards under it (his lowest none: it goes under any lead). When the group is led he
        plays his highest card under the trick's best; that keeps the rule, as the led card
        goes and it lay under all his cards above the one played. When he is void in the
        suit led he throws the highest card of a group, which keeps it too. Surely: the
        leader holds a card under the declarer's lowest card of a group, and the other
        defender has one too or none of the group: the leader leads it, the other defender
        stays under his card (or under the lead) and the declarer must take the trick."""
        out = 1
        opp = leader | others
        for m in self.group_masks:
            d = mine & m
            o = opp & m
            if not d or not o:
                continue
            if o < d & -d:  # his strongest card (the lowest bit) under their weakest
                continue
            under = m & ~((1 << d.bit_length()) - 1)  # the cards under his lowest one
            if leader & under and (others & under or not others & m):
                return 0
            n = 0
            x = d
            while x and out == 1:
                low = 1 << (x.bit_length() - 1)  # his n-th lowest card
                x ^= low
                if (o & ~((low << 1) - 1)).bit_count() > n:
                    out = -1
                n += 1
        return out

    def forced_over(self, moves: list[int], opp1: int, opp2: int) -> list[int]:
        """Null: the declarer's leads that a defender must take (all his cards of the group are
        higher); the others lose at once (both defenders play under or throw a card away)."""
        follow_t = self.t.follow
        out: list[int] = []
        for i in moves:
            f = follow_t[i]
            under = f & ~((2 << i) - 1)  # the cards of the group weaker than i
            if opp1 & f and not opp1 & under or opp2 & f and not opp2 & under:
                out.append(i)
        return out

    def safe_leads(self, moves: list[int], opp1: int, opp2: int) -> list[int]:
        """The declarer's leads (every trick) that no defender can take at once: none holds a
        higher card of the group, and none void in a plain suit holds a trump."""
        follow_t = self.t.follow
        tm = self.trump_mask
        opp = opp1 | opp2
        out: list[int] = []
        for i in moves:
            f = follow_t[i]
            if opp & f & ((1 << i) - 1):
                continue
            if i >= self.trumps and (opp1 & tm and not opp1 & f or opp2 & tm and not opp2 & f):
                continue
            out.append(i)
        return out

    def yes_no(self, seat: int, n: int, best: int, bseat: int, follow: int, tmask: int) -> bool:  # noqa: PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
        """:meth:`null`, in the native core where there is one."""
        core = self.core
        if core is None:
            return self.null(seat, n, best, bseat, follow, tmask)
        h = self.hands
        r = core.null(seat, n, best, bseat, follow, tmask, h[0], h[1], h[2], self.all_tricks, self.nodes, self.limit)
        self.nodes = core.nodes
        if r is None:
            raise SearchAborted(self.nodes)
        return r

    def null(self, seat: int, n: int, best: int, bseat: int, follow: int, tmask: int) -> bool:  # noqa: C901, PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
        """Can the declarer make sure of taking no trick from here?"""
        self.nodes += 1
        if self.nodes > self.limit:
            raise SearchAborted(self.nodes)
        hands = self.hands
        key = 0
        declarer = self.declarer
        if n == 0:
            h0 = hands[0]
            if not h0 | hands[1] | hands[2]:
                return True
            if self.all_tricks:
                if seat == declarer:
                    sure = self.every_trick(hands[seat], hands[_NEXT[seat]], hands[_NEXT[_NEXT[seat]]])
                    if sure >= 0:
                        return sure == 1
            elif seat != declarer:
                sure = self.no_trick(hands[declarer], hands[seat], hands[3 - seat - declarer])
                if sure >= 0:
                    return sure == 1
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
        moves = self.moves(seat, legal, tmask)
        is_declarer = seat == declarer
        if self.all_tricks:
            if is_declarer and n == 0:
                # the declarer leads strongest first (his top trumps, then the top of each
                # suit) and never a card a defender can take at once
                moves = self.safe_leads(moves, hands[_NEXT[seat]], hands[_NEXT[_NEXT[seat]]])
            elif not is_declarer and len(moves) > 1:
                # a defender gives away first the cards of suits the declarer has no more of
                # (they can never take a trick), then his lowest cards: he keeps his high
                # cards and the guards under them
                mine = hands[declarer]
                follow_t = self.t.follow
                trumps = self.trumps
                moves.sort(key=lambda i: (i < trumps or mine & follow_t[i] != 0, -i))
        elif is_declarer and n == 0:
            # Null: the declarer never leads a card both defenders can stay under
            moves = self.forced_over(moves, hands[_NEXT[seat]], hands[_NEXT[_NEXT[seat]]])
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


def solve(  # noqa: C901, PLR0913 - the hot loop takes plain ints and branches inline (compiled with mypyc)
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
    if all_tricks and game.is_null:
        raise SkatError("Im Nullspiel gibt es kein Schwarz", "A Null game has no Schwarz")
    tables = tables_for(game)
    search = _Search(tables, declarer, [_to_solver_mask(tables, m) for m in masks])
    if max_nodes is not None:
        search.limit = max_nodes
    root = _Root.start(search, leader, [tables.to_solver[c.index] for c in trick])
    to_move = root.seat
    if game.is_null or all_tricks:
        search.all_tricks = all_tricks
        wins = root.null()
        values: dict[Card, int | bool] = {}
        if card_values:
            for card, v in root.card_values(None, None).items():
                values[card] = bool(v)
        return Solution(game, to_move, None, wins, values, search.nodes)
    base = points + mask_points(skat_mask)
    if target is not None:
        need = target - base
        wins = root.at_least(need)
        values = {}
        if card_values:
            for card, v in root.card_values(need, None).items():
                values[card] = bool(v)
        return Solution(game, to_move, None, wins, values, search.nodes)
    value = root.exact()
    values = {}
    if card_values:
        for card, v in root.card_values(None, value).items():
            values[card] = base + v
    return Solution(game, to_move, base + value, base + value >= WIN_POINTS, values, search.nodes)


class _Root:
    """The position a search starts from, perhaps inside a trick: the cards still to come in
    that trick are tried one by one (here, not in the hot loop), and the positions after it are
    handed to :meth:`_Search.trick` with the bands squeezed."""

    def __init__(self, search: _Search, leader: int, trick: list[int], tpts: int, left: int) -> None:
        self.search = search
        self.leader = leader
        self.trick = trick
        self.seat = (leader + len(trick)) % 3
        self.tpts = tpts
        """The Augen of the cards on the table."""
        self.left = left
        """The Augen of the cards in the hands."""

    @staticmethod
    def start(search: _Search, leader: int, trick: list[int]) -> _Root:
        t = search.t
        hands = search.hands
        left = sum(t.points[i] for i in range(32) if (hands[0] | hands[1] | hands[2]) >> i & 1)
        return _Root(search, leader, trick, sum(t.points[i] for i in trick), left)

    def legal(self) -> int:
        hand = self.search.hands[self.seat]
        if not self.trick:
            return hand
        return hand & self.search.t.follow[self.trick[0]] or hand

    def tmask(self) -> int:
        out = 0
        for i in self.trick:
            out |= 1 << i
        return out

    def play(self, card: int) -> _Root:
        """The position after ``card`` (of the seat to move), still inside the trick."""
        s = self.search
        s.hands[self.seat] ^= 1 << card
        p = s.t.points[card]
        return _Root(s, self.leader, self.trick + [card], self.tpts + p, self.left - p)

    def undo(self, card: int) -> None:
        self.search.hands[self.seat] ^= 1 << card

    def winner(self) -> int:
        """The seat that takes the complete trick."""
        beats = self.search.t.beats
        best, k = self.trick[0], 0
        for j in (1, 2):
            if beats[self.trick[j] * 32 + best]:
                best, k = self.trick[j], j
        return (self.leader + k) % 3

    def points(self, alpha: int, beta: int) -> int:
        """Augen the declarer gets from the current trick (its cards on the table included) on."""
        s = self.search
        core = s.core
        if core is not None:
            # the same in the native core, the rest of the trick included
            h = s.hands
            r = core.points(
                self.leader, tuple(self.trick), h[0], h[1], h[2], self.tpts, self.left, alpha, beta, s.nodes, s.limit
            )
            s.nodes = core.nodes
            if r is None:
                raise SearchAborted(s.nodes)
            return r
        if len(self.trick) == 3:
            winner = self.winner()
            gain = self.tpts if winner == s.declarer else 0
            return gain + self.after_trick(winner, alpha - gain, beta - gain)
        if not self.trick:
            return self.after_trick(self.leader, alpha, beta)
        s.nodes += 1
        maximize = self.seat == s.declarer
        v = -1 if maximize else 1000
        for card in s.moves(self.seat, self.legal(), self.tmask()):
            r = self.play(card).points(alpha, beta)
            self.undo(card)
            if maximize:
                v = max(v, r)
                alpha = max(alpha, v)
            else:
                v = min(v, r)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return v

    def after_trick(self, lead: int, alpha: int, beta: int) -> int:
        s = self.search
        h = s.hands
        h0, h1, h2 = _squeeze(s.bands, h[0], h[1], h[2])
        hs = (h0, h1, h2)
        ha, hb, hc = hs[lead], hs[_NEXT[lead]], hs[_NEXT[_NEXT[lead]]]
        key = _tt_key(lead, ha, hb, hc)
        return s.trick(lead, ha, hb, hc, self.left, alpha, beta, key, s.tt.get(key, -1))

    def top(self) -> int:
        return self.tpts + self.left

    def at_least(self, need: int) -> bool:
        """Does the declarer make sure of ``need`` Augen from the current trick on? One
        null-window search."""
        return _at_least(self.points, need, self.top())

    def exact(self, lo: int = 0, hi: int | None = None) -> int:
        """The declarer's Augen from the current trick on, by null-window questions over thresholds."""
        return _mtdf(self.points, self.top() if hi is None else hi, lo)

    def null(self) -> bool:
        """Null: does the declarer take no trick? With ``all_tricks``: does he take every one?"""
        s = self.search
        n = len(self.trick)
        best = bseat = follow = 0
        for k, i in enumerate(self.trick):
            if k == 0:
                best, bseat, follow = i, self.leader, s.t.follow[i]
            elif s.t.beats[i * 32 + best]:
                best, bseat = i, (self.leader + k) % 3
        if n == 3:
            winner = self.winner()
            if (winner != s.declarer) == s.all_tricks:
                return False
            return s.yes_no(winner, 0, 0, 0, 0, 0)
        return s.yes_no(self.seat, n, best, bseat, follow, self.tmask())

    def card_values(self, need: int | None, value: int | None) -> dict[Card, int]:
        """The value after each legal card; equivalent cards share the searched value.

        Null (``need`` and ``value`` None): 1 if the declarer still wins, else 0. With
        ``need``: 1 if the declarer still makes ``need`` Augen. Otherwise the exact Augen from
        the current trick on; ``value``, the position's own value, bounds each card's value
        (no card is better than the best), so each search over thresholds starts narrower. The table is
        shared by all these searches.
        """
        s = self.search
        t = s.t
        legal = self.legal()
        reps = s.moves(self.seat, legal, self.tmask())
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
        maximize = self.seat == s.declarer
        null = s.t.game.is_null or s.all_tricks
        values: dict[int, int] = {}
        for i in reps:
            after = self.play(i)
            if null:
                r = int(after.null())
            elif need is not None:
                r = int(after.at_least(need))
            elif value is not None and maximize:
                r = after.exact(0, value)
            elif value is not None:
                r = after.exact(value, None)
            else:  # pragma: no cover - solve() always passes the value
                r = after.exact()
            self.undo(i)
            values[i] = r
        return {CARDS[t.to_card[i]]: values[rep_of[i]] for i in rep_of}


Bounded = Callable[[int, int], int]


def _at_least(search: Bounded, need: int, top: int) -> bool:
    """Does the value reach ``need`` (one null-window search)?"""
    if need <= 0:
        return True
    if need > top:
        return False
    return search(need - 1, need) >= need


def _mtdf(search: Bounded, top: int, lo: int = 0) -> int:
    """The exact value in [lo, top] by null-window searches ("at least beta?").

    Each question is asked near the top of the interval still open (a sixteenth of it down,
    one Augen at a time in the last 16): a "no" is mostly cheap to prove (the declarer runs out
    of Augen early), a "yes" costs a whole strategy for the declarer, so few "yes" questions
    are asked. A fail-soft answer beyond the window (a bound tighter than the question) narrows
    the interval at once. On the 50 bench deals this needs 25 % fewer nodes than halving.
    """
    hi = top
    while lo < hi:
        beta = hi - (hi - lo) // 16
        g = search(beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return lo


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


SCHWARZ = 121
"""The threshold of :func:`wins` that asks for every trick (Schwarz), not for Augen."""


@dataclass(frozen=True)
class Position:
    """A position to solve: the arguments of :func:`solve` as one value (see there)."""

    game: GameType
    declarer: int
    hands: tuple[CardSet, CardSet, CardSet]
    leader: int
    trick: tuple[Card, ...] = ()
    skat: CardSet = field(default_factory=CardSet)
    points: int = 0

    @classmethod
    def of(cls, state: GameState) -> Position:
        """The position of a game in its play phase."""
        if state.phase != Phase.PLAY or state.contract is None or state.declarer is None:
            raise SkatError("Nur ein laufendes Kartenspiel lässt sich lösen", "Only a game in play can be solved")
        hands = (CardSet(state.hands[0]), CardSet(state.hands[1]), CardSet(state.hands[2]))
        return cls(
            state.contract.game,
            state.declarer,
            hands,
            state.leader,
            tuple(state.trick),
            CardSet(state.skat),
            state.declarer_trick_points,
        )

    def solve(self, **options: object) -> Solution:
        return solve(
            self.game,
            self.declarer,
            self.hands,
            leader=self.leader,
            trick=self.trick,
            skat=self.skat,
            points=self.points,
            **options,  # type: ignore[arg-type]
        )


def wins(position: Position, threshold: int = WIN_POINTS, *, max_nodes: int | None = None) -> bool:
    """Can the declarer make sure of ``threshold`` Augen (61 to win, 31 to stay out of
    Schneider, 90 for Schneider) or, with :data:`SCHWARZ`, of every trick? One null-window
    search, much quicker than the exact value. In Null: does he take no trick?"""
    if position.game.is_null:
        return position.solve(card_values=False, max_nodes=max_nodes).declarer_wins
    if threshold == SCHWARZ:
        return position.solve(card_values=False, all_tricks=True, max_nodes=max_nodes).declarer_wins
    return position.solve(card_values=False, target=threshold, max_nodes=max_nodes).declarer_wins


def card_values(
    position: Position, threshold: int | None = None, *, max_nodes: int | None = None
) -> dict[Card, int | bool]:
    """What each legal card of the player to move gives with best play, all in one search
    with one table: the declarer's Augen, or with ``threshold`` whether he still reaches it
    (:data:`SCHWARZ`: every trick); in Null whether he still takes no trick."""
    if position.game.is_null:
        return dict(position.solve(max_nodes=max_nodes).card_values)
    if threshold == SCHWARZ:
        return dict(position.solve(all_tricks=True, max_nodes=max_nodes).card_values)
    return dict(position.solve(target=threshold, max_nodes=max_nodes).card_values)
