"""Writes to score sheets: create, enter a game, correct one (with history), undo, share.

A sheet lives in the database for signed-in users and in the session for visitors;
:class:`SheetStore` hides which. Every write replays the whole sheet through the
engine first, so nothing invalid is ever stored. A write to a stored sheet reads it
again under a row lock (``select_for_update``) and saves it in the same transaction,
so games posted at the same moment are all kept. A sheet's size is bounded: at most
``MAX_ENTRIES`` entries and the last ``HISTORY_LIMIT`` corrections.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from skatschule.core.errors import UserError
from skatschule.engine.errors import SkatError

from .models import ScoreSheet
from .sheet import checked_stake, new_sheet, replay

SESSION_KEY = "scoresheet"
MAX_ENTRIES = 200
HISTORY_LIMIT = 50
"""Corrections kept per sheet; older ones are counted in ``history_dropped``."""

T = TypeVar("T")


class SheetError(UserError):
    pass


def _user_error(err: SkatError) -> SheetError:
    return SheetError(err.text.de, err.text.en)


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

    def read(self) -> dict[str, Any]:
        """The data for a page that only shows it: a stored sheet's own dict (read for this request
        and never saved by it: no copy of a long evening on every view), a session's a copy."""
        if self.sheet is not None:
            return dict(self.sheet.data)
        return self.load()

    def save(self, data: dict[str, Any]) -> None:
        if not self.editable:
            raise SheetError("Diese Liste ist nur zum Lesen geteilt", "This sheet is shared read-only")
        if self.sheet is not None:
            self.sheet.data = data
            self.sheet.save(update_fields=["data", "updated_at"])
        else:
            self.session[SESSION_KEY] = data
            self.session.modified = True


def create_sheet(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    user: Any,
    session: Any,
    players: Sequence[str],
    dealer: int,
    pub: bool,
    profile: Mapping[str, Any],
    cents: object,
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


def _update(store: SheetStore, change: Callable[[dict[str, Any]], T]) -> T:
    """Apply ``change`` to the sheet's data and save it, checked by a replay. A stored sheet is
    read again under a row lock, so parallel writes queue up instead of overwriting each other."""
    if not store.editable:
        raise SheetError("Diese Liste ist nur zum Lesen geteilt", "This sheet is shared read-only")
    if store.sheet is None:
        return _update_session(store.session, change)
    with transaction.atomic():
        locked = ScoreSheet.objects.select_for_update().filter(pk=store.sheet.pk).first()
        if locked is None:
            raise SheetError("Diese Liste gibt es nicht mehr", "This sheet no longer exists")
        store.sheet = locked
        data = copy.deepcopy(locked.data)
        result = change(data)
        store.save(_checked(data))
    return result


def _update_session(session: Any, change: Callable[[dict[str, Any]], T]) -> T:
    """A visitor's sheet: like a stored one, read again from the session's own row under a row
    lock and saved before the lock ends. The session is loaded once per request, so without this
    two games posted at the same moment both started from the same list and the last one saved
    won (4 of 20 parallel games were kept). A session without a row (not saved yet, or kept in
    signed cookies or the cache alone) is changed as before."""
    if not isinstance(session, DbSessionStore) or session.session_key is None:  # no row (yet)
        data = copy.deepcopy(session.get(SESSION_KEY) or {})
        result = change(data)
        session[SESSION_KEY] = _checked(data)
        session.modified = True
        return result
    with transaction.atomic():
        row = Session.objects.select_for_update().filter(session_key=session.session_key).first()
        stored = session.decode(row.session_data) if row is not None else {}
        data = copy.deepcopy(stored.get(SESSION_KEY) or {})
        result = change(data)
        session[SESSION_KEY] = _checked(data)
        session.save(must_create=row is None)
    # Saved: the middleware need not save this request's copy again at the end (if the request
    # changes the session once more, it saves it then, with the sheet as it is now).
    session.modified = False
    return result


def _remember(data: dict[str, Any], item: dict[str, Any]) -> None:
    """Add a correction to the history, keeping the last HISTORY_LIMIT."""
    history = data.setdefault("history", [])
    history.append(item)
    if len(history) > HISTORY_LIMIT:
        dropped = len(history) - HISTORY_LIMIT
        del history[:dropped]
        data["history_dropped"] = int(data.get("history_dropped") or 0) + dropped


def add_entry(*, store: SheetStore, entry: dict[str, Any]) -> int:
    def change(data: dict[str, Any]) -> int:
        if not data:
            raise SheetError("Keine Liste angelegt", "No sheet set up")
        if len(data["entries"]) >= MAX_ENTRIES:
            raise SheetError("Die Liste ist voll", "The sheet is full")
        data["entries"].append(entry)
        return len(data["entries"])

    return _update(store, change)


def correct_entry(*, store: SheetStore, number: int, entry: dict[str, Any]) -> None:
    def change(data: dict[str, Any]) -> None:
        entries = data.get("entries", [])
        if not 1 <= number <= len(entries):
            raise SheetError("Dieses Spiel gibt es nicht", "There is no such game")
        old = entries[number - 1]
        entries[number - 1] = entry
        _remember(data, {"number": number, "old": old, "new": entry, "at": timezone.now().isoformat()})

    _update(store, change)


def undo_last(*, store: SheetStore) -> None:
    def change(data: dict[str, Any]) -> None:
        if not data.get("entries"):
            raise SheetError("Die Liste ist leer", "The sheet is empty")
        old = data["entries"].pop()
        _remember(data, {"number": len(data["entries"]) + 1, "old": old, "new": None, "at": timezone.now().isoformat()})

    _update(store, change)


def set_cents(*, store: SheetStore, cents: object) -> None:
    """Set the stake: cents per point, exact (``1/4``, ``0,5``, ``10``)."""
    try:
        stake = checked_stake(cents)
    except SkatError as err:
        raise _user_error(err) from None

    def change(data: dict[str, Any]) -> None:
        data["cents"] = str(stake)

    _update(store, change)


def share(*, store: SheetStore, action: str) -> None:
    """Revoke the sheet's read-only link ("widerrufen") or replace it by a new one ("neu");
    the old link then answers 404."""
    if store.sheet is None or not store.editable:
        raise SheetError("Nur gespeicherte Listen lassen sich teilen", "Only saved sheets can be shared")
    if action not in ("widerrufen", "neu"):
        raise SheetError("Teilen: widerrufen oder neu", "Sharing: revoke or new")
    with transaction.atomic():
        locked = ScoreSheet.objects.select_for_update().get(pk=store.sheet.pk)
        locked.share_id = uuid.uuid4() if action == "neu" else None
        locked.save(update_fields=["share_id", "updated_at"])
    store.sheet = locked
