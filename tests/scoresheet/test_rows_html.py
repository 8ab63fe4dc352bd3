"""The sheet's rows built as one string (scoresheet/rows_html.py) are what the template loop they
replaced rendered: games, Ramsch, a Bock round, passed in, a change of player, names that need
escaping, editable and shared, German and English."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template import engines
from django.test import Client
from django.utils import translation

from skatschule.scoresheet import selectors
from skatschule.scoresheet.rows_html import rows_html

pytestmark = pytest.mark.django_db

# the loop of templates/scoresheet/sheet.html before rows_html, as it was
LOOP = """{% load i18n %}{% for row in rows %}
  <tr class="sheet-row{% if row.deal %} deal-{{ row.deal|lower }}{% endif %}" id="spiel-{{ row.number }}">
    <th scope="row">{% if row.kind != "change" %}{{ row.number }}{% endif %}</th>
    <td><span class="game-label">{% if row.declarer %}{{ row.declarer }}: {% endif %}{{ row.label }}</span>{% if row.deal %} <span class="deal-badge">{{ row.deal }}</span>{% endif %}
      {% if editable and row.kind != "change" and row.kind != "passed" %}<a class="correct-link" href="{% url 'scoresheet:correct' key row.number %}">{% translate "korrigieren" %}</a>{% endif %}
      <details><summary>{% translate "Herleitung" %}</summary><ol class="derivation">{% for text, rules in row.steps %}<li>{{ text }}{% for r in rules %} <a class="rule-ref" href="/regeln/{{ r }}">{{ r }}</a>{% endfor %}</li>{% endfor %}</ol></details></td>
    {% for c, t in row.columns %}<td class="num">{% if c is not None %}{{ c }}{% endif %}<span class="running">{{ t }}</span></td>{% endfor %}
  </tr>
  {% endfor %}"""  # noqa: E501


def _same(html: str) -> str:
    return re.sub(r"\s+", " ", html).replace("> <", "><").strip()


def _evening(client: Client, players: dict[str, str]) -> dict[str, Any]:
    new = {**players, "dealer": "0", "pub": "on", "cents": "10", "grand_base": "24"}
    assert client.post("/liste/", new).status_code == 302
    game = {"declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"}
    for _ in range(3):
        assert client.post("/liste/sitzung/spiel/", game).status_code == 302
    lost = {**game, "points": "50", "tricks": "4", "kontra": "on"}  # starts a Bock and Ramsch round
    assert client.post("/liste/sitzung/spiel/", lost).status_code == 302
    ramsch = {"augen1": 52, "augen2": 41, "augen3": 27, "tricks1": 4, "tricks2": 3, "tricks3": 3, "schieben": 1}
    assert client.post("/liste/sitzung/ramsch/", ramsch).status_code == 302
    escape = {**game, "declarer": "2", "game": "grand", "hand": "on"}
    assert client.post("/liste/sitzung/spiel/", escape).status_code == 302
    assert client.post("/liste/sitzung/platzwechsel/", {"seat": "0", "name": "Dö<ra>"}).status_code == 302
    data: dict[str, Any] = client.session["scoresheet"]
    return data


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_rows_are_what_the_template_loop_rendered(client: Client, lang: str) -> None:
    data = _evening(client, {"player1": "A&nna", "player2": '"Bernd"', "player3": "Carla"})
    with translation.override(lang):
        view = selectors.sheet_view(data=data, query=selectors.SheetQuery(), lang=lang, deck="french")
        rows = view["rows"]
        kinds = {row.kind for row in rows}
        assert {"change", "ramsch"} <= kinds and len(rows) >= 7 and any(row.deal for row in rows)
        for editable in (True, False):
            loop = engines["django"].from_string(LOOP).render({"rows": rows, "editable": editable, "key": "sitzung"})
            built = rows_html(rows, editable=editable, key="sitzung")
            assert _same(built) == _same(loop)
            assert ("korrigieren" if lang == "de" else "correct") in built or not editable
    page = client.get("/liste/sitzung/").content.decode()
    assert "Dö&lt;ra&gt;" in page and "Dö<ra>" not in page


def test_passed_in_has_no_correction_link(client: Client) -> None:
    new = {"player1": "A", "player2": "B", "player3": "C", "dealer": "0", "cents": "10", "grand_base": "24"}
    assert client.post("/liste/", new).status_code == 302
    assert client.post("/liste/sitzung/eingepasst/").status_code == 302
    data = client.session["scoresheet"]
    rows = selectors.sheet_view(data=data, query=selectors.SheetQuery(), lang="de", deck="french")["rows"]
    assert [row.kind for row in rows] == ["passed"]
    loop = engines["django"].from_string(LOOP).render({"rows": rows, "editable": True, "key": "sitzung"})
    built = rows_html(rows, editable=True, key="sitzung")
    assert _same(built) == _same(loop) and "correct-link" not in built
