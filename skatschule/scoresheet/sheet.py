"""The score sheet as data and its replay through the engine.

A sheet is a plain JSON document; :func:`replay` feeds its entries, in order, through
:class:`~skatschule.engine.pubround.PubRound` and the engine's scoring (through
:func:`.scoring.score`, the app's one door to it), so every list entry, Bock flag,
total and settlement is computed by the engine, never stored. A correction replaces one
entry and the whole evening is replayed (a later Bock game may stop being one).
No Django here: the services and selectors call it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from skatschule.engine.errors import SkatError
from skatschule.engine.evening import EveningDeal, EveningGame, EveningPassed, EveningRamsch, parse_stake, play_deal
from skatschule.engine.explain import Step
from skatschule.engine.games import Contract, GameType
from skatschule.engine.houserules import Special, doublings
from skatschule.engine.pubround import DealKind, PlayerChange, PubRound
from skatschule.engine.rules import RuleSet
from skatschule.engine.text import Text

from .scoring import HouseGame, rules_from

GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
SPECIALS = ("revolution", "saxon")
SYSTEMS = ("isko", "seeger", "bierlachs")
SERIES = {3: 36, 4: 48}


MAX_STAKE = 1000


def checked_stake(raw: object) -> Fraction:
    """The stake in cents per point, exact (``1/4``, ``0,5``, ``10``), from 0 to 1000 cents."""
    stake = parse_stake(raw)
    if stake > MAX_STAKE:
        raise SkatError(
            "Der Einsatz liegt zwischen 0 und 1000 Cent je Punkt", "The stake lies between 0 and 1000 cents per point"
        )
    return stake


def new_sheet(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    players: Sequence[str],
    dealer: int = 0,
    pub: bool = False,
    profile: Mapping[str, Any] | None = None,
    cents: object = 0,
    series: int | None = None,
) -> dict[str, Any]:
    names = [p.strip() for p in players if p and p.strip()]
    if len(names) not in (3, 4):
        raise SkatError("Eine Skatrunde hat drei oder vier Spieler", "A Skat table has three or four players")
    if len(set(names)) != len(names):
        raise SkatError("Jeder Name nur einmal", "Each name only once")
    if any(len(n) > 30 for n in names):
        raise SkatError("Namen haben höchstens 30 Zeichen", "Names have at most 30 characters")
    if not 0 <= dealer < len(names):
        raise SkatError("Der Geber muss am Tisch sitzen", "The dealer must sit at the table")
    stake = checked_stake(cents)
    rules = rules_from(profile or {}, pub=bool(pub))
    data = {
        "version": 1,
        "players": names,
        "dealer": dealer,
        "pub": bool(pub),
        "profile": rules.as_dict(),
        "cents": str(stake),
        "series": series or SERIES[len(names)],
        "entries": [],
        "history": [],
    }
    replay(data)
    return data


@dataclass(frozen=True)
class Row:
    number: int
    kind: str
    deal: DealKind
    dealer: int
    sitting_out: int | None
    declarer: int | None
    entry: tuple[int, ...]
    totals: tuple[int, ...]
    steps: tuple[Step, ...]
    won: bool | None
    data: Mapping[str, Any]


@dataclass(frozen=True)
class Replay:
    players: tuple[str, ...]
    rules: RuleSet
    pub: bool
    state: PubRound
    rows: tuple[Row, ...]


def _flag(entry: Mapping[str, Any], name: str) -> bool:
    value = entry.get(name, False)
    if not isinstance(value, bool):
        raise SkatError(f"{name}: ja oder nein", f"{name}: yes or no")
    return value


def _int(entry: Mapping[str, Any], name: str, default: int | None = None) -> int:
    value = entry.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise SkatError(f"{name}: eine ganze Zahl fehlt", f"{name}: a whole number is missing")
    return value


_WORDS = {
    "saxon": Text("Sächsische Spitze", "Saxon Spitze"),
    "rum": Text("Rum", "rum"),
    "kontra": Text("Kontra", "Kontra"),
    "re": Text("Re", "Re"),
    "conceded": Text("aufgegeben", "conceded"),
    "ramsch": Text("Ramsch", "Ramsch"),
    "schieberamsch": Text("Schieberamsch", "Schieberamsch"),
    "passed": Text("eingepasst", "passed in"),
    "change": Text("Platzwechsel", "change of player"),
}
"""The sheet's words for the kinds and flags of an entry (the contract is named by
:meth:`~skatschule.engine.Contract.ref`)."""


def game_label(entry: Mapping[str, Any], lang: str = "de") -> str:  # noqa: C901 - over the budget since issue 27; to be split
    """The game as the sheet shows it; game names stay references for names.render."""
    words = {key: text.get(lang) for key, text in _WORDS.items()}
    kind = entry.get("kind")
    if kind == "ramsch":
        return words["schieberamsch" if entry.get("schieben") else "ramsch"]
    if kind == "passed":
        return words["passed"]
    if kind == "change":
        return f"{words['change']}: {entry.get('name', '')}"
    game = entry.get("game")
    flags = {flag: bool(entry.get(flag)) for flag in ("hand", "ouvert", "schneider_announced", "schwarz_announced")}
    if game in SPECIALS:  # a house game, named like the engine game it plays as
        like = GameType.NULL if game == "revolution" else GameType.GRAND
        parts = [Contract(like, **flags).ref(lang, game="Revolution" if game == "revolution" else words["saxon"])]
    else:
        parts = [Contract(GameType(game), **flags).ref(lang)]
    if entry.get("rum"):
        parts.append(words["rum"])
    if entry.get("spitzen"):
        parts.append(f"{entry['spitzen']} Spitze(n)")
    for flag in ("kontra", "re", "conceded"):
        if entry.get(flag):
            parts.append(words[flag])
    return " ".join(parts)


def house_game(entry: Mapping[str, Any], *, pub: bool, bock: bool = False) -> HouseGame:
    """The entered game as the engine values it (raises SkatError for what cannot be entered)."""
    name = entry.get("game")
    if name not in GAMES + SPECIALS:
        raise SkatError("Unbekanntes Spiel", "Unknown game")
    kontra, re = _flag(entry, "kontra"), _flag(entry, "re")
    more = _int(entry, "more", 0)
    is_null = name in ("null", "revolution")
    null_closed = name == "null" and not _flag(entry, "ouvert")
    calls = doublings(kontra=kontra, re=re, more=more, null_closed=null_closed, pub=pub)
    without = entry.get("matadors_without_skat")
    return HouseGame(
        game=GameType(name) if name in GAMES else None,
        special=Special(name) if name in SPECIALS else None,
        hand=_flag(entry, "hand"),
        ouvert=_flag(entry, "ouvert"),
        schneider_announced=_flag(entry, "schneider_announced"),
        schwarz_announced=_flag(entry, "schwarz_announced"),
        # a Null's matadors count only when it was bid above its value (ISkO 2.4.4, cheapest lost game)
        matadors=(_int(entry, "matadors", 0) if name == "null" else 0) if is_null else _int(entry, "matadors"),
        matadors_without_skat=without if isinstance(without, int) and not isinstance(without, bool) else None,
        bid=_int(entry, "bid", 18),
        declarer_points=_int(entry, "points"),
        declarer_tricks=_int(entry, "tricks"),
        conceded=_flag(entry, "conceded"),
        spitze=_int(entry, "spitzen", 0),
        spitze_made=entry.get("spitze_made", True) is not False,
        rum=_flag(entry, "rum"),
        doublings=calls,
        bock=bock,
    )


def replay(data: Mapping[str, Any]) -> Replay:
    players = [str(p) for p in data["players"]]
    pub = bool(data.get("pub"))
    rules = rules_from(data.get("profile") or {}, pub=pub)
    state = PubRound(players=len(players), dealer=int(data.get("dealer", 0)), ramsch_when_passed=pub, bock_rounds=pub)
    rows: list[Row] = []
    for number, entry in enumerate(data.get("entries", []), start=1):
        try:
            if entry.get("kind") == "change":
                # a new player takes a seat: the Bock/Ramsch queue stays (K.2.4)
                seat, name = _int(entry, "seat"), str(entry.get("name", "")).strip()
                if not 0 <= seat < len(players) or not name or len(name) > 30 or name in players:
                    raise SkatError(
                        "Platzwechsel: ein Platz am Tisch und ein neuer Name",
                        "Change of player: a seat at the table and a new name",
                    )
                old, players[seat] = players[seat], name
                state = state.apply(PlayerChange(seat))
                rows.append(
                    Row(
                        number,
                        "change",
                        state.next_kind,
                        state.dealer,
                        state.sitting_out,
                        seat,
                        (0,) * len(players),
                        state.totals,
                        (
                            Step(
                                f"{name} übernimmt den Platz von {old}; die Bock- und Ramschrunden laufen weiter",
                                f"{name} takes {old}'s seat; the Bock and Ramsch rounds carry on",
                                ("K.2.4",),
                            ),
                        ),
                        None,
                        entry,
                    )
                )
                continue
            row, state = _apply(state, entry, rules, pub, number)
        except SkatError as err:
            raise SkatError(f"Spiel {number}: {err.text.de}", f"Game {number}: {err.text.en}") from None
        rows.append(row)
    return Replay(tuple(players), rules, pub, state, tuple(rows))


def _apply(state: PubRound, entry: Mapping[str, Any], rules: RuleSet, pub: bool, number: int) -> tuple[Row, PubRound]:
    """The entry as a deal of the evening, valued by the engine's one place for a deal
    (:func:`~skatschule.engine.evening.play_deal`)."""
    kind = entry.get("kind")
    out = state.sitting_out
    deal: EveningDeal
    if kind == "game":
        deal = EveningGame(_int(entry, "declarer"), house_game(entry, pub=pub))
    elif kind == "ramsch":
        augen, tricks = entry.get("augen"), entry.get("tricks")
        if not (
            isinstance(augen, list)
            and isinstance(tricks, list)
            and all(isinstance(x, int) and not isinstance(x, bool) for x in augen + tricks)
        ):
            raise SkatError("Ramsch: Augen und Stiche je Spieler", "Ramsch: card points and tricks per player")
        broken_by = _int(entry, "broken_by") if entry.get("broken_by") is not None else None
        deal = EveningRamsch(tuple(augen), tuple(tricks), _int(entry, "schieben", 0), broken_by)
    elif kind == "passed":
        deal = EveningPassed()
    else:
        raise SkatError("Unbekannte Art von Eintrag", "Unknown kind of entry")
    played, new = play_deal(state, deal, rules)
    row = Row(
        number,
        str(kind),
        played.deal,
        played.dealer,
        out,
        played.declarer,
        played.entry,
        new.totals,
        played.steps,
        played.won,
        entry,
    )
    return row, new
