"""Writes to score sheets: create, enter a game, correct one (with history), undo.

A sheet lives in the database for signed-in users and in the session for visitors;
:class:`SheetStore` hides which. Every write replays the whole sheet through the
engine first, so nothing invalid is ever stored.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone

from skatschule.engine.errors import SkatError
from skatschule.home.errors import UserError

from .models import ScoreSheet
from .sheet import new_sheet, replay

SESSION_KEY = "scoresheet"
MAX_ENTRIES = 200


class SheetError(UserError):
    pass


def _user_error(err: SkatError) -> SheetError:
    return SheetError(err.message_de, err.message_en)


class SheetStore:
    """Where a sheet's data lives: a ScoreSheet row or the visitor's session."""

    def __init__(self, *, sheet: ScoreSheet | None = None, session: Any = None, editable: bool = True) -> None:
        self.sheet, self.session, self.editable = sheet, session, editable

    @property
    def key(self) -> str:
        return str(self.sheet.public_id) if self.sheet is not None else "sitzung"

    def load(self) -> dict[str, Any]:
        if self.sheet is not None:
            return copy.deepcopy(self.sheet.data)
        return copy.deepcopy(self.session.get(SESSION_KEY) or {})

    def save(self, data: dict[str, Any]) -> None:
        if not self.editable:
            raise SheetError("Diese Liste ist nur zum Lesen geteilt", "This sheet is shared read-only")
        if self.sheet is not None:
            self.sheet.data = data
            self.sheet.save(update_fields=["data", "updated_at"])
        else:
            self.session[SESSION_KEY] = data
            self.session.modified = True


def create_sheet(
    *,
    user: Any,
    session: Any,
    players: Sequence[str],
    dealer: int,
    pub: bool,
    profile: Mapping[str, Any],
    cents: int,
    title: str = "",
) -> SheetStore:
    try:
        data = new_sheet(players=players, dealer=dealer, pub=pub, profile=profile, cents=cents)
    except SkatError as err:
        raise _user_error(err) from None
    if user is not None and user.is_authenticated:
        sheet = ScoreSheet.objects.create(owner=user, title=title[:80], data=data)
        return SheetStore(sheet=sheet)
    store = SheetStore(session=session)
    store.save(data)
    return store


def _checked(data: dict[str, Any]) -> dict[str, Any]:
    try:
        replay(data)
    except SkatError as err:
        raise _user_error(err) from None
    return data


def add_entry(*, store: SheetStore, entry: dict[str, Any]) -> int:
    data = store.load()
    if not data:
        raise SheetError("Keine Liste angelegt", "No sheet set up")
    if len(data["entries"]) >= MAX_ENTRIES:
        raise SheetError("Die Liste ist voll", "The sheet is full")
    data["entries"].append(entry)
    store.save(_checked(data))
    return len(data["entries"])


def correct_entry(*, store: SheetStore, number: int, entry: dict[str, Any]) -> None:
    data = store.load()
    entries = data.get("entries", [])
    if not 1 <= number <= len(entries):
        raise SheetError("Dieses Spiel gibt es nicht", "There is no such game")
    old = entries[number - 1]
    entries[number - 1] = entry
    data["history"].append({"number": number, "old": old, "new": entry, "at": timezone.now().isoformat()})
    store.save(_checked(data))


def undo_last(*, store: SheetStore) -> None:
    data = store.load()
    if not data.get("entries"):
        raise SheetError("Die Liste ist leer", "The sheet is empty")
    old = data["entries"].pop()
    data["history"].append(
        {"number": len(data["entries"]) + 1, "old": old, "new": None, "at": timezone.now().isoformat()}
    )
    store.save(_checked(data))


def set_cents(*, store: SheetStore, cents: int) -> None:
    if not 0 <= cents <= 1000:
        raise SheetError(
            "Der Einsatz liegt zwischen 0 und 1000 Cent je Punkt", "The stake lies between 0 and 1000 cents per point"
        )
    data = store.load()
    data["cents"] = cents
    store.save(data)
