"""Computer players for the table: declaring and card play.

Card play is *perfect-information Monte Carlo* (PIMC): the bot deals the cards it
cannot see at random, consistent with everything it has seen (its own hand, the cards
played, the skat if it put it away, and the suits a player has shown to be void in),
solves each such deal open-handed with :mod:`.solver` and plays the card that wins in
the most deals ("wins": the declarer reaches 61 Augen, or takes no trick in Null; for a
defender the other way round). Ties are broken by a simple rule: take a trick your side
can keep with Augen, otherwise throw the cheapest card. Sampling stops after
``samples`` deals or ``time_cap`` seconds, and each deal's search has a node budget;
when not one deal could be solved in time (early in a big game), the simple rule alone
decides. The bot explains its choice in German and English.

Declaring: the best suit game with at least five trumps or a Grand with three jacks
(the same idea as the bidding bots of the auction table), pick up the skat, put away
the two dearest cards of the shortest side suits.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARDS, Card, CardSet, Deal, deal_cards
from .errors import SkatError
from .game import GameState
from .games import Contract, GameType
from .scoring import matadors_in_mask
from .solver import SearchAborted, solve

__all__ = [
    "CardChoice",
    "choose_card",
    "choose_contract",
    "choose_discard",
    "random_card",
    "unseen_cards",
    "play_match",
]

_SUIT_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)


@dataclass(frozen=True)
class CardChoice:
    """A bot's card and why: ``wins[card]`` out of ``samples`` deals solved."""

    card: Card
    samples: int
    wins: dict[Card, int]
    method: str
    """"pimc" (the card won most often) or "rule" (no deal solved in time, or all tied)."""

    def reason(self, lang: str = "de") -> str:
        """Why this card, in words (card names as ``⟦card:XX⟧`` markers for names.render)."""
        marker = f"⟦card:{self.card.code}⟧"
        if self.samples == 0:
            if lang == "de":
                return (
                    f"{marker}: zu früh im Spiel für eine Durchrechnung in der Zeit; nach der Faustregel "
                    "(einen sicheren Stich mit Augen nehmen, sonst die billigste Karte abwerfen)."
                )
            return (
                f"{marker}: too early in the game to work out in time; by the rule of thumb "
                "(take a safe trick with card points, else throw the cheapest card)."
            )
        won = self.wins.get(self.card, 0)
        others = ", ".join(
            f"⟦card:{c.code}⟧ {n}" for c, n in sorted(self.wins.items(), key=lambda kv: -kv[1]) if c != self.card
        )
        if lang == "de":
            text = (
                f"{marker}: In {self.samples} zufälligen Verteilungen der unbekannten Karten, die zu allem "
                f"Gesehenen passen, offen durchgerechnet, gewinnt die eigene Partei mit dieser Karte "
                f"{won}-mal."
            )
            return text + (f" Die anderen Karten: {others}." if others else "")
        text = (
            f"{marker}: In {self.samples} random deals of the unseen cards that fit everything seen so far, "
            f"solved with all cards open, the bot's side wins {won} times with this card."
        )
        return text + (f" The other cards: {others}." if others else "")


def _played(state: GameState) -> list[Card]:
    return [c for trick in state.tricks for c in trick.cards] + state.trick


def unseen_cards(state: GameState, seat: int) -> tuple[int, list[int], int]:
    """What ``seat`` cannot see: the mask of unseen cards, how many each seat holds,
    and how many of them lie in the skat (0 when the seat put the skat away itself)."""
    seen = state.hands[seat]
    for card in _played(state):
        seen |= card.bit
    knows_skat = seat == state.declarer and state.picked_up
    if knows_skat:
        seen |= state.skat
    unseen = 0xFFFFFFFF & ~seen
    counts = [state.hands[s].bit_count() if s != seat else 0 for s in range(3)]
    return unseen, counts, 0 if knows_skat else 2


def _voids(state: GameState) -> list[int]:
    """For each seat the cards it cannot hold: the groups it did not follow."""
    game = state.contract.game if state.contract else GameType.GRAND
    void = [0, 0, 0]
    tricks = [(t.leader, list(t.cards)) for t in state.tricks]
    if state.trick:
        tricks.append((state.leader, state.trick))
    for leader, cards in tricks:
        follow = game.follow_mask[cards[0].index]
        for k in range(1, len(cards)):
            if not follow & cards[k].bit:
                void[(leader + k) % 3] |= follow
    return void


def _sample(state: GameState, seat: int, rng: random.Random) -> tuple[list[int], int] | None:
    unseen, counts, skat_count = unseen_cards(state, seat)
    voids = _voids(state)
    cards = [i for i in range(32) if unseen >> i & 1]
    for _ in range(30):
        rng.shuffle(cards)
        room = list(counts) + [skat_count]
        hands = [0, 0, 0, 0]
        ok = True
        # the most constrained cards first: those only few places can take
        for i in sorted(cards, key=lambda i: sum(1 for s in range(3) if room[s] and not voids[s] >> i & 1)):
            places = [s for s in range(3) if room[s] and not voids[s] >> i & 1]
            if room[3]:
                places.append(3)
            if not places:
                ok = False
                break
            weights = [room[p] for p in places]
            place = rng.choices(places, weights)[0]
            hands[place] |= 1 << i
            room[place] -= 1
        if ok:
            hands[seat] = state.hands[seat]
            skat = state.skat if skat_count == 0 else hands[3]
            return hands[:3], skat
    return None


def _rule_score(state: GameState, card: Card, seat: int) -> int:
    """The simple rule: keep a trick with Augen, else throw cheap cards (higher is better)."""
    game = state.contract.game if state.contract else GameType.GRAND
    trick = state.trick
    declarer = state.declarer
    mine = seat == declarer
    if not trick:
        # lead: the highest card of a group if nobody else holds a higher one, else a cheap card
        higher = 0
        follow = game.follow_mask[card.index]
        for other in CARDS:
            if follow & other.bit and game.beats[other.index * 32 + card.index]:
                higher |= other.bit
        live = state.hands[0] | state.hands[1] | state.hands[2]
        if game.is_null:
            return -card.points if mine else card.points
        return 50 + card.points if not (live & higher & ~state.hands[seat]) else -card.points
    best = trick[0]
    best_pos = 0
    for k, c in enumerate(trick[1:], 1):
        if game.beats[c.index * 32 + best.index]:
            best, best_pos = c, k
    best_seat = (state.leader + best_pos) % 3
    beats = game.beats[card.index * 32 + best.index]
    if game.is_null:
        if mine:
            return 100 - card.index % 8 if not beats else -100
        return (50 if best_seat == declarer and not beats else 0) + card.index % 8
    same_side = mine == (best_seat == declarer)
    if beats or same_side:
        return 100 + card.points
    return 40 - card.points


def choose_card(
    state: GameState,
    *,
    rng: random.Random | None = None,
    samples: int = 16,
    time_cap: float = 1.0,
    max_nodes: int = 60_000,
) -> CardChoice:
    """The bot's card for the player to move (see the module text)."""
    seat = state.to_move
    legal = list(state.legal_cards())
    if seat is None or not legal or state.contract is None:
        raise SkatError("Jetzt ist keine Karte zu spielen", "No card is to be played now")
    rng = rng if rng is not None else random.Random()
    rules = {c: _rule_score(state, c, seat) for c in legal}
    if len(legal) == 1:
        return CardChoice(legal[0], 0, {}, "rule")
    game = state.contract.game
    declarer = state.declarer
    assert declarer is not None
    wins = {c: 0 for c in legal}
    done = 0
    deadline = time.perf_counter() + time_cap
    trick = state.trick
    for _ in range(samples):
        if time.perf_counter() > deadline:
            break
        sample = _sample(state, seat, rng)
        if sample is None:
            break
        hands, skat = sample
        try:
            solution = solve(
                game,
                declarer,
                [CardSet(h) for h in hands],
                leader=state.leader,
                trick=trick,
                skat=CardSet(skat),
                points=state.declarer_trick_points,
                target=None if game.is_null else 61,
                max_nodes=max_nodes,
            )
        except SearchAborted:
            continue
        done += 1
        for card, value in solution.card_values.items():
            if bool(value) == (seat == declarer):
                wins[card] += 1
    if done == 0:
        card = max(legal, key=lambda c: (rules[c], -c.index))
        return CardChoice(card, 0, {}, "rule")
    card = max(legal, key=lambda c: (wins[c], rules[c], -c.index))
    return CardChoice(card, done, wins, "pimc")


def random_card(state: GameState, rng: random.Random) -> Card:
    """A random legal card (the yardstick the bots are measured against)."""
    return rng.choice(list(state.legal_cards()))


def choose_contract(cards: Sequence[Card]) -> Contract:
    """The game a bot declares with these (ten or twelve) cards, before the hand/pick-up choice."""
    mask = 0
    for c in cards:
        mask |= c.bit
    jacks = sum(1 for c in cards if c.is_jack)
    best: tuple[int, GameType] | None = None
    for game in _SUIT_GAMES:
        trumps = (mask & game.trump_mask).bit_count()
        score = trumps * 10 + abs(matadors_in_mask(game, mask))
        if best is None or score > best[0]:
            best = (score, game)
    assert best is not None
    if jacks >= 3 and (mask & GameType.GRAND.trump_mask).bit_count() >= 3:
        aces = sum(1 for c in cards if c.rank == 0)
        if aces >= 2 or jacks == 4:
            return Contract(GameType.GRAND)
    return Contract(best[1])


def choose_discard(twelve: Sequence[Card], game: GameType) -> tuple[Card, Card]:
    """Two cards to put away: the dearest non-aces of the shortest side suits (never a trump
    while another card is left)."""
    trump = game.trump_mask

    def key(c: Card) -> tuple[int, int, int]:
        if trump & c.bit:
            return (1, 0, c.points)
        suit_len = sum(1 for o in twelve if o.suit == c.suit and not trump & o.bit)
        return (0, suit_len + (5 if c.rank == 0 else 0), -c.points)

    ordered = sorted(twelve, key=key)
    return ordered[0], ordered[1]


def play_match(
    seed: int,
    declarer_bot: bool,
    defender_bots: bool,
    *,
    samples: int = 6,
    time_cap: float = 0.3,
    max_nodes: int = 20_000,
) -> bool:
    """One seeded deal played out: seat ``seed % 3`` declares (bot rules), the others
    defend; each side plays by the bot or at random. Returns whether the declarer won."""
    rng = random.Random(seed)
    deal: Deal = deal_cards(rng=rng)
    declarer = seed % 3
    twelve = list(deal.hand(declarer)) + list(deal.skat)
    contract = choose_contract(twelve)
    discard = choose_discard(twelve, contract.game)
    state = GameState.start(deal, declarer=declarer, bid=18, contract=contract, discard=discard)
    while not state.is_over():
        seat = state.to_move
        bot = declarer_bot if seat == declarer else defender_bots
        if bot:
            card = choose_card(state, rng=rng, samples=samples, time_cap=time_cap, max_nodes=max_nodes).card
        else:
            card = random_card(state, rng)
        state.play(card)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.won


def main(argv: list[str] | None = None) -> int:
    """``python -m skatschule.engine.bots --deals 1000``: the declarer's win rate over seeded
    deals for bot against bot, bot declarer against random defenders, random declarer
    against bot defenders, and random against random."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--time-cap", type=float, default=0.3)
    parser.add_argument("--max-nodes", type=int, default=20_000)
    parser.add_argument("--setups", default="1234", help="which of the four setups to run, e.g. 24")
    args = parser.parse_args(argv)
    setups = (
        ("bot vs bot", True, True),
        ("bot declarer vs random defenders", True, False),
        ("random declarer vs bot defenders", False, True),
        ("random vs random", False, False),
    )
    print(
        f"{args.deals} seeded deals; bots: {args.samples} samples, {args.time_cap} s, {args.max_nodes} nodes a deal",
        flush=True,
    )
    for number, (name, declarer_bot, defender_bots) in enumerate(setups, 1):
        if str(number) not in args.setups:
            continue
        start = time.process_time()
        won = sum(
            play_match(
                seed,
                declarer_bot,
                defender_bots,
                samples=args.samples,
                time_cap=args.time_cap,
                max_nodes=args.max_nodes,
            )
            for seed in range(args.deals)
        )
        print(
            f"{name}: declarer won {won}/{args.deals} = {100 * won / args.deals:.1f} % "
            f"({time.process_time() - start:.0f} s CPU)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
