"""The score sheet without a browser: forms, engine-computed entries, storage, exports, errors."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from skatschule.engine import Contract, GameType, score_game, score_ramsch
from skatschule.engine.pubround import round_cents
from skatschule.engine.rules import PUB
from skatschule.scoresheet.models import ScoreSheet

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse
from tests.present import present

pytestmark = pytest.mark.django_db

NEW = {
    "player1": "Anna",
    "player2": "Bernd",
    "player3": "Carla",
    "dealer": "0",
    "pub": "on",
    "cents": "10",
    "grand_base": "24",
}


def _game(client: Client, key: object, **fields: object) -> _MonkeyPatchedWSGIResponse:
    data = {"declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"}
    data.update({k: str(v) for k, v in fields.items()})
    return client.post(f"/liste/{key}/spiel/", data)


def test_visitor_sheet_lives_in_the_session_and_the_engine_computes_entries(client: Client) -> None:
    r = client.post("/liste/", NEW)
    assert r.status_code == 302 and r["Location"] == "/liste/sitzung/"
    assert _game(client, "sitzung").status_code == 302
    page = client.get("/liste/sitzung/").content.decode()
    expected = score_game(Contract(GameType.CLUBS), 1, bid=18, declarer_points=70, declarer_tricks=6).score
    assert f">{expected}<" in page
    assert "4.2.2" in page  # the derivation's rule ids
    assert "Es gibt: Carla" in page or "Es gibt: Bernd" in page


def test_kontra_lost_starts_bock_and_the_bock_game_is_doubled(client: Client) -> None:
    client.post("/liste/", NEW)
    _game(client, "sitzung", declarer=1, points=50, tricks=4, kontra="on")
    page = client.get("/liste/sitzung/").content.decode()
    assert "Bock" in page
    # the next game: entered like any other; the sheet knows it is a Bock game
    _game(client, "sitzung", declarer=2, points=70, tricks=6)
    doubled = score_game(
        Contract(GameType.CLUBS), 1, bid=18, declarer_points=70, declarer_tricks=6, rules=PUB, bock=True
    ).score
    assert f">{doubled}<" in client.get("/liste/sitzung/").content.decode()


def test_re_without_kontra_and_re_on_null_are_refused_with_400(client: Client) -> None:
    client.post("/liste/", NEW)
    assert _game(client, "sitzung", re="on").status_code == 400
    r = _game(client, "sitzung", game="null", points=0, tricks=0, kontra="on", re="on", bid=23)
    assert r.status_code == 400 and "K.1.3" in r.content.decode()


def test_ramsch_form_and_correction_with_history(client: Client) -> None:
    client.post("/liste/", NEW)
    r = client.post(
        "/liste/sitzung/ramsch/",
        {"augen1": 52, "augen2": 41, "augen3": 27, "tricks1": 4, "tricks2": 3, "tricks3": 3, "schieben": 1},
    )
    assert r.status_code == 302
    result = score_ramsch((52, 41, 27), (4, 3, 3), schieben=1)
    assert f">{result.scores[0]}<" in client.get("/liste/sitzung/").content.decode()
    _game(client, "sitzung", points=70)
    assert client.get("/liste/sitzung/spiel/2/").status_code == 200
    r = client.post(
        "/liste/sitzung/spiel/2/",
        {"declarer": "1", "game": "grand", "matadors": "2", "bid": "18", "points": "80", "tricks": "7"},
    )
    assert r.status_code == 302
    session = client.session["scoresheet"]
    assert session["entries"][1]["game"] == "grand" and session["history"][0]["old"]["game"] == "clubs"
    assert client.post("/liste/sitzung/spiel/9/", {}).status_code == 404


def test_signed_in_sheet_is_stored_shared_read_only_and_exported(client: Client) -> None:
    user = get_user_model().objects.create_user("skatfreund", password="pik-dame-und-herz-koenig")
    client.force_login(user)
    r = client.post("/liste/", {**NEW, "player4": "Dora"})
    sheet = ScoreSheet.objects.get(owner=user)
    assert r["Location"] == f"/liste/{sheet.public_id}/"
    page = client.get(f"/liste/{sheet.public_id}/").content.decode()
    assert "Anna setzt aus" in page  # four players: the dealer sits out
    _game(client, sheet.public_id, declarer=2)
    body = client.get(f"/liste/{sheet.public_id}/liste.csv").content
    assert body.startswith("\ufeff".encode())  # like every other export: BOM, semicolons, CRLF
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Nr.", "Geber", "Art"] and len(rows) == 2
    log = client.get(f"/liste/{sheet.public_id}/protokoll.txt").content.decode()
    assert " C d:2 " in log and "win" in log
    assert client.get(f"/liste/{sheet.public_id}/druck/").status_code == 200
    # shared read-only: anyone can read, nobody can write through it, the owner URL is private
    client.logout()
    shared = client.get(f"/liste/geteilt/{sheet.share_id}/")
    assert shared.status_code == 200 and "Spiel eintragen" not in shared.content.decode()
    assert client.get(f"/liste/{sheet.public_id}/").status_code == 404
    assert _game(client, sheet.public_id).status_code == 404


def test_bad_input_is_a_clear_4xx(client: Client) -> None:
    assert client.get("/liste/kein-uuid/").status_code == 404
    assert client.get("/liste/sitzung/").status_code == 404
    assert client.post("/liste/", {**NEW, "player2": "Anna"}).status_code == 400
    client.post("/liste/", NEW)
    assert client.post("/liste/sitzung/einsatz/", {"cents": "viel"}).status_code == 400
    assert client.post("/liste/sitzung/eingepasst/").status_code == 400  # pub rules: Ramsch instead
    assert _game(client, "sitzung", points=130).status_code == 400


def _euros(cents: Fraction | int, places: int = 2) -> str:
    """German money: 360 cents are "3,60 €"."""
    whole, rest = divmod(Fraction(cents) * 10**places / 100, 10**places)
    assert rest.denominator == 1
    return f"{whole},{int(rest):0{places}d} €"


def test_totals_systems_and_money(client: Client) -> None:
    client.post("/liste/", NEW)
    _game(client, "sitzung", declarer=1, points=50, tricks=4)  # Bernd loses
    seeger = client.get("/liste/sitzung/?system=seeger").content.decode()
    assert 'id="totals-seeger"' in seeger
    lost = score_game(Contract(GameType.CLUBS), 1, bid=18, declarer_points=50, declarer_tricks=4).score
    assert f'data-total="Bernd">{lost - 50}<' in seeger and 'data-total="Anna">40<' in seeger
    bier = client.get("/liste/sitzung/?system=bierlachs").content.decode()
    assert f'data-total="Bernd">{-lost}<' in bier
    page = client.get("/liste/sitzung/").content.decode()
    assert f"Bernd zahlt Anna {_euros(-lost * 10)}" in page  # money in euros, not in cents


def test_house_rules_page_compares_with_the_isko(client: Client) -> None:
    r = client.get(
        "/liste/hausregeln/",
        {
            "spitze": "on",
            "grand_base": "24",
            "game": "clubs",
            "matadors": "2",
            "bid": "18",
            "points": "70",
            "tricks": "6",
            "spitzen": "2",
        },
    )
    page = r.content.decode()
    assert r.status_code == 200
    assert 'id="entry-isko">36<' in page and 'id="entry-house">60<' in page
    assert "K.5.5" in page
    assert client.get("/liste/hausregeln/").status_code == 200
    bad = client.get("/liste/hausregeln/", {"grand_base": "22", "game": "clubs"})
    assert bad.status_code in (200, 400) and "Traceback" not in bad.content.decode()


def test_english_and_the_german_deck(client: Client) -> None:
    client.post("/liste/", NEW)
    _game(client, "sitzung", hand="on")
    client.cookies["skatschule_deck"] = "german"
    page = client.get("/liste/sitzung/").content.decode()
    assert "Eichel Hand" in page and '<option value="clubs">Eichel</option>' in page
    client.cookies["django_language"] = "en"
    page = client.get("/liste/sitzung/").content.decode()
    assert "Score sheet" in page and "Enter game" in page and "A lost game" not in page
    assert "Card points: declarer" in page  # the derivation in English (score_game's, the one scoring path)
    assert "Spiel eintragen" not in page


def test_change_of_player_keeps_the_bock_round(client: Client) -> None:
    client.post("/liste/", NEW)
    _game(client, "sitzung", declarer=1, points=50, tricks=4, kontra="on")  # starts a Bock round
    r = client.post("/liste/sitzung/platzwechsel/", {"seat": "0", "name": "Dieter"})
    assert r.status_code == 302
    page = client.get("/liste/sitzung/").content.decode()
    assert "Dieter" in page and "K.2.4" in page and "Bock" in page
    # the next game is still a Bock game, for Dieter's seat as for anyone
    _game(client, "sitzung", declarer=0, points=70, tricks=6)
    doubled = score_game(
        Contract(GameType.CLUBS), 1, bid=18, declarer_points=70, declarer_tricks=6, rules=PUB, bock=True
    ).score
    assert f">{doubled}<" in client.get("/liste/sitzung/").content.decode()
    assert client.post("/liste/sitzung/platzwechsel/", {"seat": "1", "name": "Carla"}).status_code == 400


def test_escape_grand_in_the_ramsch_round_and_passed_in_without_pub_rules(client: Client) -> None:
    client.post("/liste/", NEW)
    _game(client, "sitzung", declarer=1, points=50, tricks=4, kontra="on")  # Bock/Ramsch round
    for _ in range(3):
        client.post(
            "/liste/sitzung/ramsch/",
            {"augen1": 52, "augen2": 41, "augen3": 27, "tricks1": 4, "tricks2": 3, "tricks3": 3, "schieben": 0},
        )
    page = client.get("/liste/sitzung/").content.decode()
    assert "Pflichtramsch" in page
    # an ordinary game is refused in the Ramsch round; a Grand Hand is the escape
    assert _game(client, "sitzung", declarer=1).status_code == 400
    assert _game(client, "sitzung", declarer=1, game="grand", hand="on").status_code == 302
    data = client.session["scoresheet"]
    from skatschule.scoresheet.sheet import replay

    state = replay(data).state
    running = present(state.running)
    assert running.ramsch_left == 3 and 1 in running.escaped
    assert _game(client, "sitzung", declarer=1, game="grand", hand="on").status_code == 400  # once per player

    plain = {k: v for k, v in NEW.items() if k != "pub"}
    client.post("/liste/", plain)
    assert client.post("/liste/sitzung/eingepasst/").status_code == 302
    assert _game(client, "sitzung", kontra="on").status_code == 400  # no Kontra under the ISkO
    assert "eingepasst" in client.get("/liste/sitzung/").content.decode()


def test_four_players_the_dealer_cannot_declare(client: Client) -> None:
    client.post("/liste/", {**NEW, "player4": "Dora"})
    r = _game(client, "sitzung", declarer=0)
    assert r.status_code == 400 and "Geber" in r.content.decode()


def test_ramsch_broken_off_is_scored_by_the_engine(client: Client) -> None:
    from skatschule.engine.pubround import score_broken_ramsch

    client.post("/liste/", NEW)
    r = client.post(
        "/liste/sitzung/ramsch/",
        {
            "augen1": 30,
            "augen2": 0,
            "augen3": 0,
            "tricks1": 3,
            "tricks2": 0,
            "tricks3": 0,
            "schieben": 0,
            "broken_by": "0",
        },
    )
    assert r.status_code == 302
    expected = score_broken_ramsch((30, 0, 0), (3, 0, 0), breaker=0)
    page = client.get("/liste/sitzung/").content.decode()
    assert f">{expected.scores[0]}<" in page and "K.7.12" in page


def test_house_rules_presets_fill_the_form(client: Client) -> None:
    from urllib.parse import parse_qs

    from skatschule.engine.houserules import PROFILES
    from skatschule.scoresheet.forms import ProfileForm
    from skatschule.scoresheet.selectors import profile_presets

    for name, query in profile_presets():
        form = ProfileForm({k: v[0] for k, v in parse_qs(query).items()})
        assert form.is_valid(), (name, form.errors)
        assert form.profile() == PROFILES[name].as_dict()
    page = client.get("/liste/hausregeln/").content.decode()
    assert 'class="preset"' in page


def test_nothing_to_correct_on_a_change_of_player(client: Client) -> None:
    client.post("/liste/", NEW)
    client.post("/liste/sitzung/platzwechsel/", {"seat": "0", "name": "Dieter"})
    assert client.get("/liste/sitzung/spiel/1/").status_code == 400
    assert client.post("/liste/sitzung/spiel/1/", {}).status_code == 400
    assert client.put("/liste/sitzung/spiel/1/").status_code == 405


def test_the_sheet_names_its_house_rules_in_the_visitors_language(client: Client) -> None:
    """Issue 26 §2: not "hand_not_punished, schneider_at_30" but the switches' names (engine SWITCHES)."""
    client.post("/liste/", {**NEW, "hand_not_punished": "on", "schneider_at_30": "on"})
    page = client.get("/liste/sitzung/").content.decode()
    assert "Hand wird nicht bestraft" in page and "Mit 30 aus dem Schneider" in page
    assert "hand_not_punished" not in page and "schneider_at_30" not in page
    client.cookies["django_language"] = "en"
    page = client.get("/liste/sitzung/").content.decode()
    assert "Hand is not punished" in page and "Out of Schneider with 30" in page


def test_every_engine_switch_has_a_field_on_the_profile_form() -> None:
    from skatschule.engine.rules import SWITCHES
    from skatschule.scoresheet.forms import ProfileForm

    form = ProfileForm()
    assert list(form.fields) == [ProfileForm.FIELD_OF.get(s.field, s.field) for s in SWITCHES]
    assert [bound.name for bound in form.switch_fields()] == list(form.fields)


def test_the_profile_form_names_its_checkboxes_as_the_engine_does(client: Client) -> None:
    """Issue 38 §3: the on/off switches are labelled from engine SWITCHES in the reader's deck, and
    the page shows those labels (no second list of names in the form)."""
    from django import forms as django_forms

    from skatschule.engine.rules import SWITCHES
    from skatschule.scoresheet.forms import ProfileForm
    from skatschule.scoresheet.scoring import switch_label

    form = ProfileForm(deck="german")
    checkboxes = [
        s
        for s in SWITCHES
        if isinstance(form.fields[ProfileForm.FIELD_OF.get(s.field, s.field)], django_forms.BooleanField)
    ]
    assert len(checkboxes) >= 9
    for switch in checkboxes:
        field = form.fields[ProfileForm.FIELD_OF.get(switch.field, switch.field)]
        assert field.label == switch_label(switch.field, "de", "german")
    assert form.fields["jacks_only_matadors"].label == "Spitzen nur mit Unter"
    page = client.get("/liste/hausregeln/").content.decode()
    assert all(str(switch_label(s.field, "de", "french")) in page for s in checkboxes)


def test_the_bock_reading_switch_reaches_the_sheet(client: Client) -> None:
    """A won Kontra game starts a Bock round only when the table reads "Kontra verloren" as the defenders' loss."""
    client.post("/liste/", {**NEW, "bock_reading": "defenders_lost"})
    _game(client, "sitzung", declarer=1, points=70, tricks=6, kontra="on")
    assert "Nächstes Spiel: Bock" in client.get("/liste/sitzung/").content.decode()
    client.post("/liste/", NEW)
    _game(client, "sitzung", declarer=1, points=70, tricks=6, kontra="on")
    assert "Nächstes Spiel: Bock" not in client.get("/liste/sitzung/").content.decode()


def test_an_overbid_null_is_the_cheapest_lost_game_on_the_sheet_and_the_house_rules_page(client: Client) -> None:
    """Issue 26 §1.1 / case F-13: Null bid to 30 with 'mit 2' is a lost Herz game, -60 (not 2 x 23 = -92)."""
    client.post("/liste/", {**NEW, "pub": ""})
    _game(client, "sitzung", game="null", matadors="2", bid="30", points="0", tricks="0")
    page = client.get("/liste/sitzung/").content.decode()
    assert ">-60<" in page and ">-92<" not in page
    r = client.get(
        "/liste/hausregeln/",
        {"grand_base": "24", "game": "null", "matadors": "2", "bid": "30", "points": "0", "tricks": "0"},
    )
    assert 'id="entry-isko">-60<' in r.content.decode()


@pytest.mark.parametrize("typed", ["1/4", "0,25", "0.25"])
def test_a_stake_of_a_quarter_cent_is_kept_exact_and_paid_in_whole_cents(client: Client, typed: str) -> None:
    """Seed 003 plays for fractions of a cent: the sums stay exact, the payment is rounded."""
    client.post("/liste/", {**NEW, "cents": typed})
    _game(client, "sitzung", declarer=1, points=50, tricks=4)  # Bernd loses
    lost = score_game(Contract(GameType.CLUBS), 1, bid=18, declarer_points=50, declarer_tricks=4).score
    exact = Fraction(-lost, 4)
    page = client.get("/liste/sitzung/").content.decode()
    assert "1/4 Cent je Punkt" in page
    assert f"Bernd zahlt Anna {_euros(round_cents(exact))}" in page
    if exact.denominator > 1:
        assert f"gerechnet {_euros(exact, places=4)}" in page


def test_a_stake_that_is_none_stays_in_the_form_with_its_error(client: Client) -> None:
    for typed in ("1e999999", "-1", "1/0", "1001", "viel", "½"):
        refused = client.post("/liste/", {**NEW, "cents": typed})
        assert refused.status_code == 400, typed
        assert 'name="player1" value="Anna"' in refused.content.decode()  # nothing typed is lost
    client.post("/liste/", NEW)
    assert client.post("/liste/sitzung/einsatz/", {"cents": "1/3"}).status_code == 302
    assert "1/3 Cent je Punkt" in client.get("/liste/sitzung/").content.decode()


def test_the_sheet_speaks_plainly_before_and_after_a_correction(client: Client) -> None:
    """No "Spiel 0 von 36"; the correction link is on the row, not hidden in the derivation; a
    correction is dated as the reader writes dates; the house-rule options name no sources."""
    client.post("/liste/", NEW)
    page = client.get("/liste/sitzung/").content.decode()
    assert "Spiel 0 von" not in page and "Noch kein Spiel; die Serie hat 36 Spiele." in page
    assert _game(client, "sitzung").status_code == 302
    assert (
        client.post(
            "/liste/sitzung/spiel/1/",
            {"declarer": "1", "game": "spades", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"},
        ).status_code
        == 302
    )
    page = client.get("/liste/sitzung/").content.decode()
    row = page[page.index('id="spiel-1"') : page.index("</tr>", page.index('id="spiel-1"'))]
    assert row.index('class="correct-link"') < row.index("<details>")
    at = timezone.localtime(datetime.fromisoformat(client.session["scoresheet"]["history"][0]["at"]))
    assert f"Spiel 1 geändert ({at:%d.%m.%Y %H:%M})" in page
    form = client.get("/liste/").content.decode()
    assert "der Alleinspieler hat verloren" in form and "Seed 00" not in form


def test_a_long_evening_is_shown_a_page_at_a_time_newest_first(client: Client) -> None:
    """100 games once made one 100 kB page whose rendering grew with every game; the print and
    the download still hold every game."""
    from skatschule.scoresheet.selectors import ROWS_PER_PAGE

    client.post("/liste/", {**NEW, "series": "120"})
    games = ROWS_PER_PAGE * 2 + 3
    for _ in range(games):
        assert _game(client, "sitzung").status_code == 302
    newest = client.get("/liste/sitzung/").content.decode()
    assert newest.count('class="sheet-row') == 3 and f'id="spiel-{games}"' in newest and 'id="spiel-1"' not in newest
    assert "Seite 3 von 3" in newest and 'href="?seite=2#liste"' in newest and "Spätere Spiele" not in newest
    first = client.get("/liste/sitzung/?seite=1").content.decode()
    assert first.count('class="sheet-row') == ROWS_PER_PAGE and 'id="spiel-1"' in first
    assert 'href="?seite=2#liste"' in first
    for junk in ("0", "99", "-1", "x"):  # not a page: the newest
        assert f'id="spiel-{games}"' in client.get(f"/liste/sitzung/?seite={junk}").content.decode()
    printed = client.get("/liste/sitzung/druck/").content.decode()
    assert printed.count("<tr>") >= games


def test_the_sheet_page_replays_an_evening_once_until_it_changes(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every view replayed every game of the evening through the engine (issue 36: the score
    sheet with 100 games at 51-58x a minimal page); a changed sheet is replayed anew."""
    from skatschule.scoresheet import selectors
    from skatschule.scoresheet.sheet import replay as real

    calls: list[int] = []

    def counted(data: Any) -> Any:
        calls.append(len(data.get("entries", [])))
        return real(data)

    monkeypatch.setattr("skatschule.scoresheet.selectors.replay", counted)
    monkeypatch.setattr(selectors, "_replays", type(selectors._replays)())
    client.post("/liste/", NEW)
    for _ in range(3):
        assert _game(client, "sitzung").status_code == 302
    calls.clear()
    first = client.get("/liste/sitzung/").content.decode()
    assert client.get("/liste/sitzung/").status_code == 200
    assert calls == [3]
    assert _game(client, "sitzung", points="40").status_code == 302
    again = client.get("/liste/sitzung/").content.decode()
    assert 'id="spiel-4"' in again and 'id="spiel-4"' not in first
    assert calls.count(4) == 1


def test_the_empty_entry_forms_are_rendered_once_for_the_same_players_and_rules(client: Client) -> None:
    """Dozens of widget templates ran on every view of a sheet (issue 36); a form sent back with
    an error keeps what was typed."""
    client.post("/liste/", {**NEW, "player1": "Zora"})
    first = client.get("/liste/sitzung/")
    second = client.get("/liste/sitzung/")
    assert "scoresheet/fields.html" in [t.name for t in first.templates]
    assert "scoresheet/fields.html" not in [t.name for t in second.templates]
    form = second.content.decode().split('id="game-form"')[1].split("</form>")[0]
    assert 'name="declarer"' in form and ">Zora</option>" in form and 'name="points"' in form
    refused = _game(client, "sitzung", points="130")
    assert refused.status_code == 400 and 'value="130"' in refused.content.decode()
