"""Reads: find a sheet for a request, and the numbers the sheet page shows."""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import HttpRequest
from django.utils.dateparse import parse_datetime
from django.utils.formats import number_format
from django.utils.translation import gettext

from skatschule.core.errors import message_in
from skatschule.core.notfound import NotFound
from skatschule.engine.errors import SkatError
from skatschule.engine.evening import parse_stake
from skatschule.engine.houserules import PROFILES
from skatschule.engine.names import render
from skatschule.engine.pubround import DealKind
from skatschule.engine.rules import RuleSet

from .models import ScoreSheet
from .scoring import rules_from, score, switch_names
from .services import SESSION_KEY, SheetStore
from .sheet import SYSTEMS, Replay, game_label, house_game, replay


def _uuid(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise NotFound from None


def store_for(request: HttpRequest, *, key: str) -> SheetStore:
    """The sheet ``key`` to edit: "sitzung" is the visitor's session sheet, otherwise the
    signed-in owner's sheet by its id (anyone else gets a 404)."""
    if key == "sitzung":
        if not request.session.get(SESSION_KEY):
            raise NotFound
        return SheetStore(session=request.session)
    if not request.user.is_authenticated:
        raise NotFound
    sheet = ScoreSheet.objects.filter(public_id=_uuid(key), owner=request.user).first()
    if sheet is None:
        raise NotFound
    return SheetStore(sheet=sheet)


def shared_store(*, share_id: str) -> SheetStore:
    sheet = ScoreSheet.objects.filter(share_id=_uuid(share_id)).first()
    if sheet is None:
        raise NotFound
    return SheetStore(sheet=sheet, editable=False)


REPLAYS_KEPT = 32
"""Replays of sheets a process keeps (each a few hundred kB at most), newest used last."""
_replays: OrderedDict[bytes, Replay] = OrderedDict()
_replays_lock = threading.Lock()


def replayed(*, data: Mapping[str, Any]) -> Replay:
    """``replay(data)``, kept per process by the digest of the data: a page of a long evening
    would otherwise replay every game of it on every view. The replay is a pure function of
    the data and immutable, so a kept one is the same as a new one; a change of the data
    (a new game, a correction) is a new key."""
    key = hashlib.blake2b(json.dumps(data, sort_keys=True, default=str).encode(), digest_size=20).digest()
    with _replays_lock:
        found = _replays.get(key)
        if found is not None:
            _replays.move_to_end(key)
            return found
    made = replay(data)  # raises SkatError for a sheet that does not replay: nothing is kept
    with _replays_lock:
        _replays[key] = made
        while len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)
    return made


def current_players(*, data: dict[str, Any]) -> list[str]:
    """The names in the seats now (after changes of player); the original ones if the sheet does not replay."""
    try:
        return list(replayed(data=data).players)
    except (SkatError, KeyError):
        return list(data.get("players", []))


def entry_rules(*, data: dict[str, Any]) -> tuple[RuleSet, bool]:
    """The house rules and whether pub rules hold, for checking a game entered on this sheet."""
    try:
        return rules_from(data.get("profile") or {}, pub=bool(data.get("pub"))), bool(data.get("pub"))
    except SkatError:
        return RuleSet(), bool(data.get("pub"))


def sheets_of(request: HttpRequest) -> list[ScoreSheet]:
    if not request.user.is_authenticated:
        return []
    return list(ScoreSheet.objects.filter(owner=request.user)[:50])


def euros(*, cents: Fraction | int, places: int = 2) -> str:
    """An amount of money given in cents, as the reader writes euros: "9,20 €", "€9.20"."""
    exact = Fraction(cents) / 100
    amount = number_format(Decimal(exact.numerator) / exact.denominator, decimal_pos=places, use_l10n=True)
    return gettext("%(amount)s €") % {"amount": amount}


def _correction(item: dict[str, Any]) -> dict[str, Any]:
    """A correction of the history with its time as a datetime (stored as ISO text)."""
    return {**item, "at": parse_datetime(str(item.get("at") or ""))}


@dataclass(frozen=True)
class RowView:
    number: int
    kind: str
    deal: str
    dealer: str
    label: str
    declarer: str
    cells: list[int | None]
    totals: list[int]
    steps: list[tuple[str, tuple[str, ...]]]
    won: bool | None

    @property
    def columns(self) -> list[tuple[int | None, int]]:
        """Each player's entry in this row beside the running total after it (one template loop)."""
        return list(zip(self.cells, self.totals, strict=True))


ALL_ROWS = "alle"
"""The ``page`` of :func:`sheet_view` that holds every row (print, CSV)."""

ROWS_PER_PAGE = 24
"""Rows of the list on one page of the sheet; the newest page is shown unless another is asked for
(a sheet of an evening's 100 games stays as quick as one of 20)."""


@dataclass(frozen=True)
class RowsPage:
    number: int
    count: int
    first: int
    """The index of the page's first row in the whole list."""

    @property
    def older(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def newer(self) -> int | None:
        return self.number + 1 if self.number < self.count else None


def rows_page(*, total: int, asked: str | None) -> RowsPage:
    """The page ``asked`` (``?seite=``; anything that is not a page number gives the newest)."""
    count = max(1, -(-total // ROWS_PER_PAGE))
    number = int(asked) if asked and asked.isdigit() and 1 <= int(asked) <= count else count
    return RowsPage(number, count, (number - 1) * ROWS_PER_PAGE)


def _text(text: str, lang: str, deck: str) -> str:
    return render(text, lang, deck)


@dataclass(frozen=True)
class SheetQuery:
    """What the reader asked of the sheet page: the list system, the Bierlachs limit, the page."""

    system: str = "isko"
    bierlachs_limit: int | None = None
    page: str | None = None
    """``?seite=`` (default the newest page), or :data:`ALL_ROWS`."""

    @classmethod
    def of(cls, params: Mapping[str, str]) -> SheetQuery:
        limit = params.get("bierlachs")
        return cls(
            params.get("system", "isko"),
            401 if limit == "401" else 301 if limit == "301" else None,
            params.get("seite"),
        )


def sheet_view(*, data: dict[str, Any], query: SheetQuery, lang: str, deck: str) -> dict[str, Any]:
    """Everything the sheet page shows, computed by the engine from the entries: the rows of one
    page (the newest unless ``query`` asks for another; :data:`ALL_ROWS` for print and download)."""
    system, bierlachs_limit, page = query.system, query.bierlachs_limit, query.page
    if system not in SYSTEMS:
        system = "isko"
    try:
        rep: Replay = replayed(data=data)
    except SkatError as err:  # a stored sheet is always valid; this guards hand-edited data
        return {"error": message_in(err, lang)}
    players = list(rep.players)
    state = rep.state
    rows = []
    deal_names = {DealKind.NORMAL: "", DealKind.BOCK: "Bock", DealKind.RAMSCH: "Ramsch"}
    shown = rows_page(total=len(rep.rows), asked=page)
    all_rows = page == ALL_ROWS
    window = rep.rows if all_rows else rep.rows[shown.first : shown.first + ROWS_PER_PAGE]
    for row in window:
        cells: list[int | None] = [None] * len(players)
        if row.kind == "change":
            pass
        elif row.kind == "ramsch":
            for p, value in enumerate(row.entry):
                if p != row.sitting_out:
                    cells[p] = value
        elif row.declarer is not None:
            cells[row.declarer] = row.entry[row.declarer]
        rows.append(
            RowView(
                row.number,
                row.kind,
                deal_names[row.deal],
                players[row.dealer],
                _text(game_label(row.data, lang), lang, deck),
                players[row.declarer] if row.declarer is not None and row.kind != "change" else "",
                cells,
                list(row.totals),
                [(_text(s.text(lang), lang, deck), s.rules) for s in row.steps],
                row.won,
            )
        )
    seeger = list(state.seeger_totals())
    won_lost = list(state.won_lost())
    rounds = state.bierlachs(bierlachs_limit)
    cents = parse_stake(data.get("cents") or 0)
    balances = list(state.balances())
    # paid in whole cents, reckoned exactly: (payer, payee, euros paid, exact euros where they differ)
    transfers = [
        (
            players[t.payer],
            players[t.payee],
            euros(cents=t.payable),
            "" if t.cents == t.payable else euros(cents=t.cents, places=4),
        )
        for t in state.settlement(cents)
    ]
    n = len(players)
    games = sum(1 for r in rep.rows if r.kind != "change")
    series = int(data.get("series") or 36)
    return {
        "players": players,
        "rows": rows,
        "rows_page": None if all_rows else shown,
        "system": system,
        "isko_totals": list(state.totals),
        "seeger_totals": seeger,
        "won_lost": won_lost,
        "bierlachs_current": list(rounds[-1].minus),
        "bierlachs_limit": bierlachs_limit or (301 if n == 3 else 401),
        "bierlachs_lost": [players[loser] for r in rounds for loser in r.losers],
        "balances": balances,
        "cents": str(cents) if cents else "",
        "transfers": transfers,
        "next_dealer": players[state.dealer],
        "sitting_out": players[state.sitting_out] if state.sitting_out is not None else "",
        "seats": [players[s] for s in state.seats],
        "next_kind": state.next_kind.value,
        "queue": [s.text(lang) for s in state.explain_queue()],
        "games": games,
        "series": series,
        "round_number": games // n + 1,
        "series_done": games >= series,
        "pub": rep.pub,
        "rules": rep.rules,
        "rule_names": switch_names(rep.rules, lang, deck),
        "history": [_correction(item) for item in data.get("history", [])],
        "history_dropped": int(data.get("history_dropped") or 0),
        "escape_allowed": [players[p] for p in state.seats if state.may_escape(p)],
        "passed_in_allowed": not rep.pub,
    }


ISS_GAME = {
    "clubs": "C",
    "spades": "S",
    "hearts": "H",
    "diamonds": "D",
    "grand": "G",
    "null": "N",
    "revolution": "R",
    "saxon": "X",
}


def game_log(*, data: dict[str, Any], lang: str) -> str:
    """A game log in the style of ISS records: one line per deal with the game code
    (C S H D G N, then H hand, S Schneider, Z Schwarz angesagt, O ouvert), declarer,
    result and list entry, and the running totals."""
    rep = replay(data)
    players = list(rep.players)
    lines = [
        f"# players: {' '.join(f'{i}:{p}' for i, p in enumerate(players))}",
        f"# rules: {'pub' if rep.pub else 'isko'} {' '.join(f'{k}={v}' for k, v in rep.rules.as_dict().items())}",
    ]
    for row in rep.rows:
        e = row.data
        head = f"{row.number:>3} dealer:{row.dealer} {row.deal.value}"
        if row.kind == "game":
            code = ISS_GAME[e["game"]] + "".join(
                c
                for flag, c in (
                    ("hand", "H"),
                    ("schneider_announced", "S"),
                    ("schwarz_announced", "Z"),
                    ("ouvert", "O"),
                )
                if e.get(flag)
            )
            result = "win" if row.won else "loss"
            extra = (
                " kontra" * bool(e.get("kontra")) + " re" * bool(e.get("re")) + " conceded" * bool(e.get("conceded"))
            )
            line = (
                f"{head} {code} d:{row.declarer} m:{e.get('matadors', 0)} bid:{e.get('bid')} "
                f"p:{e.get('points')} t:{e.get('tricks')} {result} v:{row.entry[row.declarer or 0]}{extra}"
            )
        elif row.kind == "change":
            line = f"{head} CHANGE seat:{e.get('seat')} name:{e.get('name')}"
        elif row.kind == "ramsch":
            line = (
                f"{head} RA augen:{','.join(map(str, e['augen']))} schieben:{e.get('schieben', 0)} "
                f"v:{','.join(map(str, row.entry))}"
            )
        else:
            line = f"{head} PASS"
        lines.append(f"{line} totals:{','.join(map(str, row.totals))}")
    return "\n".join(lines) + "\n"


def compare_example(*, rules: RuleSet, example: dict[str, Any], lang: str, deck: str) -> dict[str, Any]:
    """The example game's entry (``ExampleForm.entry``) under the ISkO and under ``rules``, with
    both derivations and the switches by their names."""
    out: dict[str, Any] = {"ok": True}
    isko_entry = {**example, "spitzen": 0, "rum": False}
    for label, rules_used, entry in (("isko", RuleSet(), isko_entry), ("house", rules, example)):
        try:
            o = score(house_game(entry, pub=False), rules_used)
        except SkatError as err:
            out[label] = {"error": message_in(err, lang)}
            continue
        out[label] = {
            "score": o.score,
            "won": o.won,
            "steps": [(render(s.text(lang), lang, deck), s.rules) for s in o.steps],
        }
    out["switches"] = switch_names(rules, lang, deck)
    return out


def profile_presets() -> list[tuple[str, str]]:
    """The named profiles as query strings for the house-rules form (name, query)."""
    from urllib.parse import urlencode

    out = []
    for name, rules in PROFILES.items():
        params: dict[str, str] = {"grand_base": str(rules.grand_base)}
        for key, value in rules.as_dict().items():
            if key == "doubling_levels":
                params["extended_doublings"] = "on"
            elif value is True:
                params[key] = "on"
            else:
                params[key] = str(value)
        out.append((name, urlencode(params)))
    return out
