"""Share links revocable and renewable, a viewer's print and CSV (issue 25 item 11), the CSV's formula
guard (item 12) and the bounded correction history (item 14)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from skatschule.core.spreadsheets import guard
from skatschule.scoresheet import services
from skatschule.scoresheet.models import ScoreSheet
from skatschule.scoresheet.services import SheetStore

pytestmark = pytest.mark.django_db

NEW = {"player1": "Anna", "player2": "Bernd", "player3": "Carla", "dealer": "0", "cents": "0", "grand_base": "24"}
GAME = {"declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"}


@pytest.fixture
def owner(client: Client) -> tuple[Client, ScoreSheet]:
    user = get_user_model().objects.create_user("listenwart", password="herz-dame-und-karo-as")
    client.force_login(user)
    client.post("/liste/", NEW)
    sheet = ScoreSheet.objects.get(owner=user)
    client.post(f"/liste/{sheet.public_id}/spiel/", GAME)
    return client, sheet


def test_a_viewer_gets_the_read_only_print_and_csv(owner: tuple[Client, ScoreSheet], client: Client) -> None:
    _, sheet = owner
    client.logout()
    page = client.get(f"/liste/geteilt/{sheet.share_id}/").content.decode()
    assert f"/liste/geteilt/{sheet.share_id}/druck/" in page and f"/liste/geteilt/{sheet.share_id}/liste.csv" in page
    assert f"/liste/{sheet.public_id}/" not in page  # no link to the owner's pages (they answer 404 to a viewer)
    printed = client.get(f"/liste/geteilt/{sheet.share_id}/druck/")
    assert printed.status_code == 200 and "Anna" in printed.content.decode()
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/liste/geteilt/{sheet.share_id}/liste.csv").content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    assert len(rows) == 2 and rows[0][5:8] == ["Anna", "Bernd", "Carla"]
    assert client.post(f"/liste/geteilt/{sheet.share_id}/druck/").status_code == 405


def test_the_owner_revokes_and_renews_the_link(owner: tuple[Client, ScoreSheet]) -> None:
    client, sheet = owner
    old = sheet.share_id
    r = client.post(f"/liste/{sheet.public_id}/teilen/", {"aktion": "neu"})
    assert r.status_code == 302
    sheet.refresh_from_db()
    assert sheet.share_id != old and sheet.share_id is not None
    assert client.get(f"/liste/geteilt/{old}/").status_code == 404
    assert client.get(f"/liste/geteilt/{old}/liste.csv").status_code == 404
    assert client.get(f"/liste/geteilt/{sheet.share_id}/").status_code == 200
    new = sheet.share_id
    client.post(f"/liste/{sheet.public_id}/teilen/", {"aktion": "widerrufen"})
    sheet.refresh_from_db()
    assert sheet.share_id is None
    for url in (f"/liste/geteilt/{new}/", f"/liste/geteilt/{new}/druck/", f"/liste/geteilt/{new}/liste.csv"):
        assert client.get(url).status_code == 404
    page = client.get(f"/liste/{sheet.public_id}/").content.decode()
    assert "Nur-Lese-Link erzeugen" in page and "/liste/geteilt/" not in page
    assert client.post(f"/liste/{sheet.public_id}/teilen/", {"aktion": "alles"}).status_code == 400


def test_nobody_else_can_revoke_and_a_visitor_has_no_link(owner: tuple[Client, ScoreSheet], client: Client) -> None:
    _, sheet = owner
    client.logout()
    assert client.post(f"/liste/{sheet.public_id}/teilen/", {"aktion": "widerrufen"}).status_code == 404
    client.post("/liste/", NEW)
    assert client.post("/liste/sitzung/teilen/", {"aktion": "neu"}).status_code == 400
    sheet.refresh_from_db()
    assert sheet.share_id is not None


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "@SUM(A1)", "+1+2", "-Anna"])
def test_the_csv_keeps_formulas_out(client: Client, name: str) -> None:
    client.post("/liste/", {**NEW, "player1": name})
    client.post("/liste/sitzung/spiel/", GAME)
    body = client.get("/liste/sitzung/liste.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body), delimiter=";"))
    assert rows[0][5] == guard(name) and rows[0][5].startswith("'")
    assert all(not cell.startswith(("=", "@", "+")) for row in rows for cell in row)
    assert rows[1][-3:] == [guard(c) for c in rows[1][-3:]]  # numbers stay numbers


def _correct_many(store: SheetStore, count: int) -> None:
    for i in range(count):
        services.correct_entry(store=store, number=1, entry={**_ENTRY, "points": 61 + i % 30})


_ENTRY = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18, "points": 70, "tricks": 6}


def test_the_history_is_bounded_and_a_sheets_size_stays_flat(owner: tuple[Client, ScoreSheet]) -> None:
    _, sheet = owner
    store = SheetStore(sheet=sheet)
    _correct_many(store, services.HISTORY_LIMIT)
    sheet.refresh_from_db()
    size = len(json.dumps(sheet.data))
    _correct_many(store, 60)
    sheet.refresh_from_db()
    assert len(sheet.data["history"]) == services.HISTORY_LIMIT
    assert sheet.data["history_dropped"] == 60
    assert len(json.dumps(sheet.data)) <= size + 100  # a counter more, nothing that grows
    assert sheet.data["history"][-1]["old"]["points"] == 61 + 58 % 30
    client = owner[0]
    page = client.get(f"/liste/{sheet.public_id}/").content.decode()
    assert "60 ältere Korrekturen sind nicht mehr gespeichert" in page


def test_a_visitors_sheet_in_the_session_is_bounded_too(client: Client) -> None:
    client.post("/liste/", NEW)
    client.post("/liste/sitzung/spiel/", GAME)
    for i in range(services.HISTORY_LIMIT + 5):
        client.post("/liste/sitzung/spiel/1/", {**GAME, "points": str(61 + i % 30)})
    data = client.session["scoresheet"]
    assert len(data["history"]) == services.HISTORY_LIMIT and data["history_dropped"] == 5
    # undo counts as a correction, and the sheet's entries stay bounded
    client.post("/liste/sitzung/rueckgaengig/")
    assert len(client.session["scoresheet"]["history"]) == services.HISTORY_LIMIT
