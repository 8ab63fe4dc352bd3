"""How far can I bid? A hand evaluation a club player would accept.

Given the ten cards a player holds in the auction, :func:`evaluate` picks the game he
would declare and its value; that value is his bidding limit (0: pass). The model is
deliberately simple, so that it can be explained in the bidding lesson and checked by
hand. It counts what club players count:

- **Suit game** (with pick-up): the trumps (the four jacks and the suit), the *high
  trumps* among them (jacks, the trump ace and ten), and the *side winners*: side aces
  and side tens with their ace. Playable with at least five trumps, at least two of them
  high, and trumps plus side winners at least six (the skat may bring a seventh good
  card, and two losers go into it).
- **Grand** (with pick-up): the jacks and the *winners in the suits*, the unbroken run
  from the ace down in each suit (A, A-10, A-10-K ...). Every other suit card is a
  *loser*; the skat takes two of them. Playable with at least one jack and at most two
  losers left after the skat (jacks plus winners at least six).
- **Null** (23; Null Hand 35): every suit must be *safe*, i.e. the lowest card of the
  suit at most a Sieben, the second at most a Neun, the third at most a Bube and so on
  (in the Null order 7 8 9 10 J Q K A), so that an opponent's lead can always be ducked.
  All suits safe: Null Hand; safe once at most two cards that are too high go into the
  skat: Null with pick-up.

The value of a suit or Grand game is the engine's :func:`~.scoring.game_value` of the
game with pick-up and the matadors of the ten cards (the skat is unknown). Among the
playable games the one with the highest value is declared. Hand games other than Null
Hand are not bid: they need a stronger hand than this model measures.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, CardSet, Rank, Suit
from .explain import Step, plural
from .games import Contract, GameType
from .names import game_ref, rank_ref
from .rules import ISKO, RuleSet
from .scoring import game_value, matadors_in_mask
from .text import Text

__all__ = ["GameCheck", "Evaluation", "evaluate", "bid_limit", "check_game", "null_safe", "null_unsafe_cards"]

_SUIT_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)
_RUN_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
"""A suit's order without its jack (Grand and suit games): the run from the ace."""
_NULL_POSITION = {
    Rank.SEVEN: 0,
    Rank.EIGHT: 1,
    Rank.NINE: 2,
    Rank.TEN: 3,
    Rank.JACK: 4,
    Rank.QUEEN: 5,
    Rank.KING: 6,
    Rank.ACE: 7,
}
MIN_TRUMPS = 5
MIN_HIGH_TRUMPS = 2
MIN_GOOD_CARDS = 6
"""Suit game: trumps plus side winners; Grand: jacks plus winners in the suits."""
MAX_NULL_DISCARDS = 2


@dataclass(frozen=True, slots=True)
class GameCheck:
    """One game looked at: playable or not, why, and its value."""

    game: GameType
    playable: bool
    value: int
    """The value with pick-up (Null: 23, or 35 for a Null Hand); 0 when not playable."""
    contract: Contract
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The game the player would declare and his bidding limit (0: pass)."""

    best: GameCheck | None
    checks: tuple[GameCheck, ...]

    @property
    def limit(self) -> int:
        return self.best.value if self.best else 0

    @property
    def contract(self) -> Contract | None:
        return self.best.contract if self.best else None

    def summary(self, lang: str = "de") -> str:
        """``⟦game:hearts⟧: mit 1, Spiel 2 × ⟦game:hearts⟧ 10 = 20`` or ``passen``
        (references rendered by names.render)."""
        if self.best is None:
            return Text("kein Spiel reicht: passen", "no game is strong enough: pass").get(lang)
        return self.best.steps[-1].text(lang)


def _byte(mask: int, suit: Suit) -> int:
    """The suit's eight cards of a mask as one byte, bits in the order A T K Q J 9 8 7."""
    return (mask >> (8 * suit)) & 0xFF


_JACK_BIT = 1 << Rank.JACK


def _run_of(byte: int) -> int:
    count = 0
    for rank in _RUN_ORDER:
        if not byte & (1 << rank):
            break
        count += 1
    return count


def _null_unsafe_of(byte: int) -> int:
    positions = sorted(_NULL_POSITION[r] for r in Rank if byte & (1 << r))
    for k, pos in enumerate(positions):
        if pos > 2 * k:
            return len(positions) - k
    return 0


_RUN = tuple(_run_of(b) for b in range(256))
"""Per suit byte: the unbroken run from the ace down (jack left out)."""
_NULL_UNSAFE = tuple(_null_unsafe_of(b) for b in range(256))
"""Per suit byte: how many of its highest cards must go to make the suit safe in Null."""
_SIDE_WINNERS = tuple((b & 1) + (1 if b & 3 == 3 else 0) for b in range(256))
"""Per suit byte: its ace, and its ten when the ace is there too."""


def null_safe(cards: CardSet, suit: Suit) -> bool:
    """Can every lead in ``suit`` be ducked? The k-th lowest card (k = 0, 1, ...) must sit at
    most at position 2k of the Null order 7 8 9 10 J Q K A."""
    return null_unsafe_cards(cards, suit) == 0


def null_unsafe_cards(cards: CardSet, suit: Suit) -> int:
    """How many of the suit's highest cards must go (into the skat) to make it safe."""
    return _NULL_UNSAFE[_byte(cards.mask, suit)]


@dataclass(frozen=True, slots=True)
class _Counts:
    """What the evaluation counts for one game (numbers only: the text comes on demand)."""

    game: GameType
    playable: bool
    first: int
    """Suit game: trumps; Grand: jacks; Null: safe suits."""
    second: int
    """Suit game: high trumps; Grand: sure cards in the suits; Null: cards too high."""
    third: int
    """Suit game: side winners; Grand: losers; Null: unused."""


def _suit_bytes(mask: int) -> tuple[int, int, int, int]:
    """The four suits' bytes of a mask (:func:`_byte`), in the order of :class:`Suit`."""
    return (mask & 0xFF, (mask >> 8) & 0xFF, (mask >> 16) & 0xFF, (mask >> 24) & 0xFF)


def _count(mask: int, game: GameType, bytes_: tuple[int, int, int, int] | None = None) -> _Counts:
    if bytes_ is None:
        bytes_ = _suit_bytes(mask)
    jacks = sum(1 for b in bytes_ if b & _JACK_BIT)
    if game is GameType.NULL:
        per_suit = [_NULL_UNSAFE[b] for b in bytes_]
        too_high = sum(per_suit)
        return _Counts(game, too_high <= MAX_NULL_DISCARDS, sum(1 for n in per_suit if n == 0), too_high, 0)
    if game is GameType.GRAND:
        winners = sum(_RUN[b] for b in bytes_)
        losers = mask.bit_count() - jacks - winners
        return _Counts(game, jacks >= 1 and jacks + winners >= MIN_GOOD_CARDS, jacks, winners, losers)
    trump_suit = game.trump_suit
    assert trump_suit is not None
    own = bytes_[trump_suit] & ~_JACK_BIT
    trumps = jacks + own.bit_count()
    high = jacks + (own & 1) + ((own >> 1) & 1)
    winners = sum(_SIDE_WINNERS[b] for s, b in enumerate(bytes_) if s != trump_suit)
    playable = trumps >= MIN_TRUMPS and high >= MIN_HIGH_TRUMPS and trumps + winners >= MIN_GOOD_CARDS
    return _Counts(game, playable, trumps, high, winners)


def _contract(counts: _Counts) -> Contract:
    return Contract(GameType.NULL, hand=counts.first == 4) if counts.game is GameType.NULL else Contract(counts.game)


_VALUES: dict[tuple[GameType, bool, int, RuleSet], int] = {}
"""The values :func:`_value` worked out, by game, Null Hand, matadors and rules (a few hundred)."""


def _value(mask: int, counts: _Counts, rules: RuleSet) -> int:
    game = counts.game
    matadors = 0 if game is GameType.NULL else matadors_in_mask(game, mask)
    key = (game, counts.first == 4, matadors, rules)
    value = _VALUES.get(key)
    if value is None:
        contract = _contract(counts)
        if game is GameType.NULL:
            value = game_value(contract, rules=rules).value
        else:
            value = game_value(contract, matadors, rules=rules).value
        _VALUES[key] = value
    return value


_J = rank_ref(Rank.JACK)
_JS = rank_ref(Rank.JACK, plural=True)
_A = rank_ref(Rank.ACE)
_AS = rank_ref(Rank.ACE, plural=True)
_K = rank_ref(Rank.KING)
"""The ranks as name references: the reader's deck names them (Bube or Unter, Ass or Daus)."""


def _jacks_text(count: int) -> str:
    return f"{count} {_J if count == 1 else _JS}"


def _facts(counts: _Counts) -> Step:
    game = counts.game
    if game is GameType.NULL:
        return Step(
            f"{game_ref(game)}: sichere Farben {counts.first} von 4, zu hohe Karten {counts.second}",
            f"{game_ref(game)}: {counts.first} of 4 suits safe, {plural(counts.second, 'card', 'en')} too high to "
            f"duck with",
            ("4.2.7",),
        )
    if game is GameType.GRAND:
        return Step(
            f"{game_ref(game)}: {_jacks_text(counts.first)}; stehende Karten in den Farben ({_A}, {_A}-Zehn, "
            f"{_A}-Zehn-{_K} ...): {counts.second}; Verlierer: {counts.third}, zwei davon gehen in den Skat",
            f"{game_ref(game)}: {_jacks_text(counts.first)}, {plural(counts.second, 'sure card', 'en')} in "
            f"the suits ({_A}, {_A}-ten, {_A}-ten-{_K} ...), {plural(counts.third, 'loser', 'en')}, two of which go "
            f"into the skat",
            ("2.3.2",),
        )
    return Step(
        f"{game_ref(game)}: {plural(counts.first, 'Trumpf')}, hohe davon ({_JS}, {_A}, Zehn): {counts.second}; "
        f"sichere Seitenstiche ({_AS}, Zehnen mit {_A}): {counts.third}",
        f"{game_ref(game)}: {plural(counts.first, 'trump', 'en')} ({counts.second} of them high: {_JS}, {_A}, ten), "
        f"{plural(counts.third, 'side winner', 'en')} ({_AS}, tens with their {_A})",
        ("2.3.2",),
    )


_NEEDED = {
    "suit": (
        f"mindestens {MIN_TRUMPS} Trümpfe, {MIN_HIGH_TRUMPS} davon hoch, und zusammen mit den Seitenstichen "
        f"mindestens {MIN_GOOD_CARDS} gute Karten",
        f"at least {MIN_TRUMPS} trumps, {MIN_HIGH_TRUMPS} of them high, and with the side winners at least "
        f"{MIN_GOOD_CARDS} good cards",
    ),
    "grand": (
        f"mindestens ein {_J} und höchstens zwei Verlierer nach dem Drücken",
        f"at least one {_J} and at most two losers after the discard",
    ),
    "null": (
        f"alle Farben sicher (Null Hand) oder höchstens {MAX_NULL_DISCARDS} Karten zum Drücken",
        f"every suit safe (Null Hand) or at most {MAX_NULL_DISCARDS} cards to discard",
    ),
}


def _check(mask: int, game: GameType, rules: RuleSet) -> GameCheck:
    counts = _count(mask, game)
    contract = _contract(counts)
    facts = _facts(counts)
    if not counts.playable:
        key = "null" if game is GameType.NULL else "grand" if game is GameType.GRAND else "suit"
        de, en = _NEEDED[key]
        verdict = Step(f"nicht spielbar: nötig sind {de}", f"not playable: it needs {en}", ())
        return GameCheck(game, False, 0, contract, (facts, verdict))
    if game.is_null:
        gv = game_value(contract, rules=rules)
    else:
        gv = game_value(contract, matadors_in_mask(game, mask), rules=rules)
    step = gv.steps[0]
    verdict = Step(f"spielbar: {step.de}", f"playable: {step.en}", step.rules)
    return GameCheck(game, True, gv.value, contract, (facts, verdict))


def check_game(cards: CardSet | tuple[Card, ...] | list[Card], game: GameType, rules: RuleSet = ISKO) -> GameCheck:
    """Look at one game for these ten cards, with the facts and the verdict as steps."""
    held = cards if isinstance(cards, CardSet) else CardSet(cards)
    return _check(held.mask, game, rules)


_GAMES = (*_SUIT_GAMES, GameType.GRAND, GameType.NULL)


def bid_limit(cards: CardSet | tuple[Card, ...] | list[Card], rules: RuleSet = ISKO) -> int:
    """:attr:`Evaluation.limit` of :func:`evaluate`, without writing the explanation (for bots)."""
    mask = cards.mask if isinstance(cards, CardSet) else CardSet(cards).mask
    best = 0
    bytes_ = _suit_bytes(mask)
    for game in _GAMES:
        counts = _count(mask, game, bytes_)
        if counts.playable:
            best = max(best, _value(mask, counts, rules))
    return best


def evaluate(cards: CardSet | tuple[Card, ...] | list[Card], rules: RuleSet = ISKO) -> Evaluation:
    """The game this hand would declare (the playable one of the highest value) and the limit.

    >>> from skatschule.engine.cards import parse_cards
    >>> e = evaluate(parse_cards("CJ SJ HA HT HK H9 H8 SA D7 D8"))
    >>> e.limit, e.contract.game.value
    (72, 'grand')
    >>> evaluate(parse_cards("CJ HJ HA HK H9 H7 SA ST C8 D7")).summary("en")
    'playable: with 1, game 2 × ⟦game:hearts⟧ 10 = 20'
    >>> evaluate(parse_cards("S9 SQ S7 D8 S8 DQ CT SK HK H7")).limit
    0
    """
    held = cards if isinstance(cards, CardSet) else CardSet(cards)
    checks = tuple(_check(held.mask, g, rules) for g in _GAMES)
    playable = [c for c in checks if c.playable]
    best = max(playable, key=lambda c: c.value) if playable else None
    return Evaluation(best, checks)
