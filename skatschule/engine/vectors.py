"""The vectors contract (shared/vectors/README.md).

    python -m skatschule.engine.vectors answer FILE   # JSON list of {"id", "answer"} / {"id", "error"}
    python -m skatschule.engine.vectors check FILE    # compare with "expected"; last line 'N passed, M failed'
    python -m skatschule.engine.vectors explain FILE [en]  # the derivations, in the ISkO's (French) names

``answer`` never reads ``expected``. Input the engine rejects becomes an
``error`` answer with the engine's message, never a crash. The input readers live
here, :func:`ruling_from_input` among them (it reads a ``ruling`` case for
:func:`~.rulings.rule`; the rulings module knows nothing of this contract).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .bidding import parse_auction_move, run_auction
from .cards import Card, CardSet, Deal, parse_card, parse_cards
from .errors import SkatError
from .evening import EveningDeal, EveningGame, EveningPassed, EveningRamsch, parse_stake, play_evening
from .explain import Step
from .game import Discard, GameState, Phase, PickUp
from .games import Contract, is_trump, legal_cards, parse_game, trick_winner, tricks_from_augen
from .houserules import HouseGame, Special, doublings
from .iss import parse_record
from .lists import BIERLACHS_LIMIT, seeger_totals
from .names import render
from .rules import get_rules
from .rulings import Event, Irregularity, Ruling, rule
from .scoring import Outcome, game_value, matadors, score_game
from .solver import solve

__all__ = ["answer_case", "answer_cases", "check_case", "explain_case", "main", "ruling_from_input"]

Input = Mapping[str, Any]


def _flag(inp: Input, key: str) -> bool:
    value = inp.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise SkatError(f"{key} muss true oder false sein", f"{key} must be true or false")
    return value


def _int(inp: Input, key: str, default: int | None = None) -> int:
    value = inp.get(key)
    if value is None:
        value = default
    if not isinstance(value, int) or isinstance(value, bool):
        raise SkatError(f"{key} muss eine ganze Zahl sein", f"{key} must be an integer")
    return value


def _contract(inp: Input) -> Contract:
    return Contract(
        parse_game(inp["game"]),
        hand=_flag(inp, "hand"),
        ouvert=_flag(inp, "ouvert"),
        schneider_announced=_flag(inp, "schneider_announced"),
        schwarz_announced=_flag(inp, "schwarz_announced"),
    )


def _distinct(cards: list[Card]) -> list[Card]:
    """The cards as given, refused when one of them is listed twice (a deck has each card once)."""
    if len(set(cards)) != len(cards):
        raise SkatError("Karte doppelt angegeben", "A card is listed twice")
    return cards


def _card_points(inp: Input, rules: str) -> object:
    return CardSet(_distinct(parse_cards(inp["cards"]))).points


def _is_trump(inp: Input, rules: str) -> object:
    return is_trump(parse_game(inp["game"]), parse_card(inp["card"]))


def _trick_winner(inp: Input, rules: str) -> object:
    trick = parse_cards(inp["trick"])
    if not 1 <= len(trick) <= 3 or len(set(trick)) != len(trick):
        raise SkatError("Ein Stich hat ein bis drei verschiedene Karten", "A trick has one to three different cards")
    return trick_winner(parse_game(inp["game"]), trick)


def _legal_cards(inp: Input, rules: str) -> object:
    hand = _distinct(parse_cards(inp["hand"]))
    trick = _distinct(parse_cards(inp.get("trick") or []))
    if len(trick) > 2 or set(hand) & set(trick):
        raise SkatError("Ungültige Stich- oder Handangabe", "Invalid hand or trick")
    return [c.code for c in legal_cards(parse_game(inp["game"]), CardSet(hand), trick)]


def _matadors(inp: Input, rules: str) -> object:
    game = parse_game(inp["game"])
    if game.is_null:
        raise SkatError("Nullspiele haben keine Spitzen", "Null games have no matadors")
    return matadors(game, _distinct(parse_cards(inp["cards"])))


def _bid_values(inp: Input, rules: str) -> object:
    return get_rules(rules).bid_values()


def _declaration(inp: Input, rules: str) -> object:
    return {"valid": _contract(inp).is_valid}


def _game_value(inp: Input, rules: str) -> object:
    contract = _contract(inp)
    contract.validate()
    count = 0 if contract.game.is_null else _int(inp, "matadors")
    return game_value(
        contract, count, schneider=_flag(inp, "schneider"), schwarz=_flag(inp, "schwarz"), rules=get_rules(rules)
    ).value


def _game_result(inp: Input, rules: str) -> object:
    return _result_outcome(inp, rules).as_dict()


def _result_outcome(inp: Input, rules: str) -> Outcome:
    contract = _contract(inp)
    cards = None
    if inp.get("declarer_cards") is not None:
        cards = _distinct(parse_cards(inp["declarer_cards"]))
    if contract.game.is_null:
        # Null has no matadors; the cards still decide a Null announced above the bid
        # (ISkO 2.4.4: a suit or Grand game is lost instead, see scoring.cheapest_lost_game).
        count = 0
    elif cards is not None:
        count = matadors(contract.game, cards)
    else:
        count = _int(inp, "matadors")
    points = _int(inp, "declarer_points", 0)
    tricks = _tricks(inp, points, contract.game.is_null)
    outcome = score_game(
        contract,
        count,
        bid=_int(inp, "bid", 18),
        declarer_points=points,
        declarer_tricks=tricks,
        rules=get_rules(rules),
        kontra=_flag(inp, "kontra"),
        re=_flag(inp, "re"),
        bock=_flag(inp, "bock"),
        declarer_cards=cards if contract.game.is_null else None,
    )
    return outcome


def _tricks(inp: Input, points: int, null: bool) -> int:
    """The declarer's tricks; without them (suit and Grand games only) Schwarz can only be read
    from the Augen: all 120 or none at all."""
    if inp.get("declarer_tricks") is None and not null:
        return tricks_from_augen(points)
    return _int(inp, "declarer_tricks")


def _seeger(inp: Input, rules: str) -> object:
    games = [(g.get("declarer"), g["score"]) for g in inp["games"]]
    return {"totals": seeger_totals(_int(inp, "players"), games)}


def _auction(inp: Input, rules: str) -> object:
    auction = run_auction(list(inp["moves"]))
    if not auction.is_over:
        raise SkatError("Das Reizen ist nicht zu Ende", "The auction is not finished")
    if auction.declarer is None:
        return {"declarer": None, "bid": None}
    return {"declarer": auction.declarer, "bid": auction.value}


def replay_from_input(inp: Input, rules: str) -> GameState:
    """Rebuild the game of a ``game_replay`` (or ``ruling``) input."""
    deal = Deal.from_codes(inp["deal"])
    moves = [parse_auction_move(m) for m in inp["auction"]]
    decl = inp.get("declaration")
    contract = _contract(decl) if decl else None
    discard = parse_cards(decl["discard"]) if decl and decl.get("discard") else None
    state = GameState.replay(deal, moves, contract, discard, rules=get_rules(rules))
    for code in inp.get("plays") or []:
        if state.is_over():
            break  # the rules ended the game (e.g. Null lost); later cards are not part of it
        state.play(parse_card(code))
    return state


def _game_replay(inp: Input, rules: str) -> object:
    state = replay_from_input(inp, rules)
    if state.passed_in:
        return {"declarer": None, "bid": None}
    if not state.is_over():
        raise SkatError(
            "Das Spiel ist nach den angegebenen Karten nicht beendet",
            "The game is not over after the cards given",
        )
    outcome = state.score()
    return {
        "declarer": state.declarer,
        "bid": state.bid,
        "matadors": outcome.matadors,
        "declarer_points": outcome.declarer_points,
        "declarer_tricks": outcome.declarer_tricks,
        **outcome.as_dict(),
    }


def _ruling(inp: Input, rules: str) -> object:
    return ruling_from_input(inp, rules).as_dict()


def _iss_record(inp: Input, rules: str) -> object:

    return parse_record(inp["record"], get_rules(rules)).answer()


def _open_hand(inp: Input, rules: str) -> object:

    game = parse_game(inp["game"])
    hands = inp["hands"]
    if not isinstance(hands, list) or len(hands) != 3:
        raise SkatError("hands: die Karten der drei Plätze", "hands: the cards of the three seats")
    trick = _distinct(parse_cards(inp.get("trick") or []))
    skat = _distinct(parse_cards(inp.get("skat") or []))
    solution = solve(
        game,
        _int(inp, "declarer"),
        [CardSet(_distinct(parse_cards(h))) for h in hands],
        leader=_int(inp, "leader"),
        trick=trick,
        skat=CardSet(skat),
        points=_int(inp, "points", 0),
        card_values=False,
    )
    if game.is_null:
        return {"declarer_wins": solution.declarer_wins}
    return {"declarer_points": solution.declarer_points}


def _evening_deal(raw: Input, pub: bool) -> EveningDeal:
    if not isinstance(raw, Mapping):
        raise SkatError("Jedes Spiel ist ein Objekt", "Each game is an object")
    if raw.get("passed") is True:
        return EveningPassed()
    if raw.get("ramsch") is not None:
        r = raw["ramsch"]
        augen, tricks = r.get("augen"), r.get("tricks")
        if not (isinstance(augen, list) and isinstance(tricks, list)) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in augen + tricks
        ):
            raise SkatError("Ramsch: Augen und Stiche je Spieler", "Ramsch: card points and tricks per player")
        return EveningRamsch(tuple(augen), tuple(tricks), _int(r, "schieben", 0))
    name = raw.get("game")
    special = Special(name) if name in ("revolution", "saxon") else None
    game = None if special else parse_game(str(name))
    null_like = special is Special.REVOLUTION or (game is not None and game.is_null)
    kontra, re = _flag(raw, "kontra"), _flag(raw, "re")
    null_closed = game is not None and game.is_null and not _flag(raw, "ouvert")
    calls = doublings(kontra=kontra, re=re, more=_int(raw, "more", 0), null_closed=null_closed, pub=pub)
    without = raw.get("matadors_without_skat")
    spitze_made = raw.get("spitze_made", True)
    if not isinstance(spitze_made, bool):
        raise SkatError("spitze_made muss true oder false sein", "spitze_made must be true or false")
    house_game = HouseGame(
        game=game,
        special=special,
        hand=_flag(raw, "hand"),
        ouvert=_flag(raw, "ouvert"),
        schneider_announced=_flag(raw, "schneider_announced"),
        schwarz_announced=_flag(raw, "schwarz_announced"),
        matadors=_int(raw, "matadors", 0) if null_like else _int(raw, "matadors"),
        matadors_without_skat=None if without is None else _int(raw, "matadors_without_skat"),
        bid=_int(raw, "bid", 18),
        declarer_points=_int(raw, "declarer_points", 0),
        declarer_tricks=_tricks(raw, _int(raw, "declarer_points", 0), null_like),
        conceded=_flag(raw, "conceded"),
        spitze=_int(raw, "spitze", 0),
        spitze_made=spitze_made,
        rum=_flag(raw, "rum"),
        doublings=calls,
    )
    return EveningGame(_int(raw, "declarer"), house_game)


def _evening(inp: Input, rules: str) -> object:
    names = inp["players"]
    if not isinstance(names, list) or len(names) not in (3, 4):
        raise SkatError("Eine Skatrunde hat drei oder vier Spieler", "A Skat table has three or four players")
    players = len(names)
    kind = inp.get("rules") or "isko"
    if kind not in ("isko", "pub"):
        raise SkatError(f"Unbekannte Regeln {kind!r}: isko oder pub", f"Unknown rules {kind!r}: isko or pub")
    house = inp.get("house") or {}
    if not isinstance(house, Mapping):
        raise SkatError("house: die Schalter als Objekt", "house: the switches as an object")
    evening_rules = get_rules(kind).with_switches(house)
    stake = parse_stake(inp.get("stake", 1))
    games = inp.get("games") or []
    if not isinstance(games, list):
        raise SkatError("games ist eine Liste", "games is a list")
    evening = play_evening(
        players=players,
        dealer=_int(inp, "dealer", 0),
        rules=evening_rules,
        deals=[_evening_deal(g, evening_rules.doublings) for g in games],
        stake=stake,
    )
    state = evening.round
    minus, lost = evening.bierlachs()
    queue = state.running
    return {
        "list": list(state.totals),
        "seeger": list(state.seeger_totals()),
        "bierlachs": {"limit": BIERLACHS_LIMIT[players], "minus": list(minus), "lost": list(lost)},
        "money": {
            "stake": str(stake),
            "balance_points": list(state.balances()),
            "cents": [str(c) for c in evening.cents()],
        },
        "queue": {
            "next": state.next_kind.value,
            "bock_left": queue.bock_left if queue else 0,
            "ramsch_left": queue.ramsch_left if queue else 0,
            "waiting": state.waiting,
        },
        "next_dealer": state.dealer,
        "rows": [{"deal": r.deal.value, "dealer": r.dealer, "entry": list(r.entry)} for r in evening.rows],
    }


KINDS: dict[str, Callable[[Input, str], object]] = {
    "card_points": _card_points,
    "is_trump": _is_trump,
    "trick_winner": _trick_winner,
    "legal_cards": _legal_cards,
    "matadors": _matadors,
    "bid_values": _bid_values,
    "declaration": _declaration,
    "game_value": _game_value,
    "game_result": _game_result,
    "seeger": _seeger,
    "auction": _auction,
    "game_replay": _game_replay,
    "ruling": _ruling,
    "iss_record": _iss_record,
    "open_hand": _open_hand,
    "evening": _evening,
}


def answer_case(case: Mapping[str, Any]) -> dict[str, object]:
    """Answer one case: ``{"id", "answer"}`` or ``{"id", "error"}``. Reads no ``expected``."""
    cid = case.get("id")
    try:
        kind = case["kind"]
        if kind not in KINDS:
            raise SkatError(f"Unbekannte Art {kind!r}", f"Unknown kind {kind!r}")
        rules = case.get("rules") or "isko"
        get_rules(rules)
        return {"id": cid, "answer": KINDS[kind](case.get("input") or {}, rules)}
    except SkatError as exc:  # name references (cards in rulings) in the ISkO's own names
        return {"id": cid, "error": render(str(exc), "de")}
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return {"id": cid, "error": f"Ungültige Eingabe: {type(exc).__name__}: {exc}"}


def answer_cases(cases: Sequence[Mapping[str, Any]]) -> list[dict[str, object]]:
    return [answer_case(c) for c in cases]


def _same(expected: object, got: object, kind: str) -> bool:
    if isinstance(expected, dict) and isinstance(got, dict):
        return all(k in got and _same(v, got[k], kind) for k, v in expected.items())
    if kind == "legal_cards" and isinstance(expected, list) and isinstance(got, list):
        return sorted(map(str, expected)) == sorted(map(str, got))
    if isinstance(expected, bool) or isinstance(got, bool):
        return expected is got
    return expected == got


def check_case(case: Mapping[str, Any], result: Mapping[str, object]) -> bool:
    """Does ``result`` (from :func:`answer_case`) satisfy the case's expectation?"""
    expected = case.get("expected")
    check = case.get("check")
    if isinstance(check, dict) and "expected" in check:
        expected = check["expected"]
    if isinstance(expected, dict) and expected.get("error") is True:
        return "error" in result
    if "error" in result:
        return False
    got = result.get("answer")
    kind = str(case.get("kind"))
    if isinstance(check, dict):
        if "contains" in check:
            return isinstance(got, list) and (check["contains"] in got) is expected
        if check.get("abs"):
            return isinstance(got, int) and isinstance(expected, int) and abs(got) == abs(expected)
    return _same(expected, got, kind)


def explain_case(case: Mapping[str, Any], lang: str = "de") -> list[str]:
    """The derivation behind a case's answer, in the ISkO's (French) names: for
    ``game_value``, ``game_result``, ``game_replay`` and ``ruling``; empty for other kinds
    or when the input is refused."""
    kind = case.get("kind")
    inp = case.get("input") or {}
    rules = case.get("rules") or "isko"
    steps: tuple[Step, ...] = ()
    try:
        if kind == "game_value":
            contract = _contract(inp)
            count = 0 if contract.game.is_null else _int(inp, "matadors")
            steps = game_value(
                contract,
                count,
                schneider=_flag(inp, "schneider"),
                schwarz=_flag(inp, "schwarz"),
                rules=get_rules(rules),
            ).steps
        elif kind == "game_result":
            steps = _result_outcome(inp, rules).steps
        elif kind == "game_replay":
            state = replay_from_input(inp, rules)
            if state.is_over() and not state.passed_in:
                steps = state.score().steps
        elif kind == "ruling":
            steps = ruling_from_input(inp, rules).steps
    except (SkatError, KeyError, TypeError, ValueError, AttributeError, IndexError):
        return []
    return [step.plain(lang) for step in steps]


def _load(path: str) -> list[Mapping[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    cases = data["cases"] if isinstance(data, dict) else data
    if not isinstance(cases, list):
        raise SystemExit(f"{path}: expected a list of cases")
    return cases


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["explain"] and len(args) in (2, 3):
        lang = args[2] if len(args) == 3 else "de"
        for case in _load(args[1]):
            lines = explain_case({k: v for k, v in case.items() if k not in ("expected", "check")}, lang)
            if lines:
                print(case.get("id"))
                for line in lines:
                    print(f"  {line}")
        return 0
    if len(args) != 2 or args[0] not in ("answer", "check"):
        print("usage: python -m skatschule.engine.vectors answer|check|explain FILE [de|en]", file=sys.stderr)
        return 2
    cases = _load(args[1])
    if args[0] == "answer":
        public = [{k: v for k, v in c.items() if k not in ("expected", "check")} for c in cases]
        print(json.dumps(answer_cases(public), ensure_ascii=False, indent=1))
        return 0
    passed = failed = 0
    for case in cases:
        result = answer_case({k: v for k, v in case.items() if k not in ("expected", "check")})
        if check_case(case, result):
            passed += 1
        else:
            failed += 1
            shown = result.get("answer", result.get("error"))
            print(
                f"FAIL {case.get('id')}: expected {json.dumps(case.get('expected'), ensure_ascii=False)}, "
                f"got {json.dumps(shown, ensure_ascii=False)}"
            )
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


# ------------------------------------------------------------------ rulings (the ``ruling`` kind)
def ruling_from_input(inp: Mapping[str, Any], rules: str) -> Ruling:
    """A ``ruling`` case of the vectors contract: a replay input plus ``event``, ruled by
    :func:`~.rulings.rule`."""
    raw = inp["event"]
    try:
        kind = Irregularity(raw["type"])
    except ValueError:
        raise SkatError(f"Unbekannter Regelverstoß {raw['type']!r}", f"Unknown irregularity {raw['type']!r}") from None
    if kind is Irregularity.DECLARER_LEADS_EARLY:
        state = _state_before_announcement(inp, rules)
    else:
        state = replay_from_input(inp, rules)
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise SkatError("Der Platz des Regelverstoßes fehlt", "The seat of the irregularity is missing")
    card = parse_card(raw["card"]) if raw.get("card") else None
    accepted = raw.get("accepted")
    if accepted is not None and not isinstance(accepted, bool):
        raise SkatError("accepted muss true oder false sein", "accepted must be true or false")
    claimed = raw.get("claimed")
    if claimed is not None and not isinstance(claimed, str):
        raise SkatError("claimed muss eine Gewinnstufe sein", "claimed must be a level")
    cont = raw.get("continuation")
    continuation = tuple(parse_cards(cont)) if cont is not None else None
    return rule(state, Event(kind, seat, card, accepted, claimed, continuation))


def _state_before_announcement(inp: Mapping[str, Any], rules: str) -> GameState:
    """The game after the auction (and the pick-up and discard, if ``declaration`` names a
    ``discard``), before any announcement."""
    deal = Deal.from_codes(inp["deal"])
    state = GameState.replay(deal, [parse_auction_move(m) for m in inp["auction"]], rules=get_rules(rules))
    if state.phase != Phase.SKAT:
        raise SkatError(
            "Das Reizen ist nicht beendet oder es wurde eingepasst",
            "The auction is not over, or the deal was passed in",
        )
    decl = inp.get("declaration") or {}
    if decl.get("game"):
        raise SkatError(
            "Vor der Spielansage darf noch kein Spiel angegeben sein", "Before the announcement no game may be given"
        )
    if decl.get("discard"):
        a, b = parse_cards(decl["discard"])
        state.push(PickUp())
        state.push(Discard((a, b)))
    return state


if __name__ == "__main__":
    sys.exit(main())
