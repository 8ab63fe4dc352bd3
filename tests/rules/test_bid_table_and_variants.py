"""The bid table of chapter 2 (``[[bids: isko]]``), the pub-rule readings of chapter K and the
variants and glossary terms added for issues 13 and 19, checked against the engine."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from django.test import Client

from skatschule.content.compute import DirectiveError, bid_table
from skatschule.engine import BID_VALUES, Contract, GameType, game_value, get_rules, score_game
from skatschule.engine.cards import DECK
from skatschule.engine.pub import starts_bock_round
from skatschule.rules.content import Registry, read_published_ids, reload
from skatschule.rules.directives import render_directive
from skatschule.rules.render import markdown_to_html

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def engine_values() -> set[tuple[GameType, bool, int]]:
    """(game, grand ouvert?, value) for every valid suit or grand contract, by the engine's game_value."""
    out: set[tuple[GameType, bool, int]] = set()
    flags = list(itertools.product((False, True), repeat=4))  # hand, ouvert, schneider_announced, schwarz_announced
    for game in GameType:
        if game.is_null:
            continue
        for hand, ouvert, sa, swa in flags:
            contract = Contract(game, hand=hand, ouvert=ouvert, schneider_announced=sa, schwarz_announced=swa)
            if not contract.is_valid:
                continue
            for count in range(1, game.max_matadors + 1):
                for schneider, schwarz in ((False, False), (True, False), (True, True)):
                    if (sa and not schneider) or (swa and not schwarz) or (ouvert and not schwarz):
                        continue
                    value = game_value(contract, count, schneider=schneider, schwarz=schwarz).value
                    out.add((game, False, value))
    return out


def test_bid_table_is_the_engines_list_of_bids_and_every_row_is_a_real_game(
    engine_values: set[tuple[GameType, bool, int]],
) -> None:
    table = bid_table()
    assert [value for value, _ in table] == list(BID_VALUES)
    nulls = {
        get_rules(None).null_value(c.hand, c.ouvert)
        for c in (Contract(GameType.NULL, hand=h, ouvert=o) for h in (False, True) for o in (False, True))
    }
    for value, ways in table:
        assert ways, value
        for contract, multiplier in ways:
            if contract.game.is_null:
                assert multiplier is None and value in nulls
                assert get_rules(None).null_value(contract.hand, contract.ouvert) == value
            else:
                assert multiplier is not None and multiplier * get_rules(None).base_value(contract.game) == value
                assert (contract.game, False, value) in engine_values, (value, contract, multiplier)
    # and the other way round: every value the engine gives a game appears in that game's row
    listed = {(c.game, v) for v, ways in table for c, _ in ways}
    assert {(g, v) for g, _, v in engine_values if v >= 18} <= listed


def test_bid_table_renders_in_both_languages_and_decks() -> None:
    de = render_directive("[[bids: isko]]")
    assert f'data-count="{len(BID_VALUES)}"' in de
    assert '<th scope="row">18</th><td>Karo × 2</td>' in de
    assert '<th scope="row">23</th><td>Null</td>' in de
    assert '<th scope="row">48</th><td>Kreuz × 4, Grand × 2</td>' in de
    en = render_directive("[[bids: isko]]", lang="en", deck="german")
    assert '<th scope="row">18</th><td>Bells × 2</td>' in en and "Games worth exactly this" in en
    text = render_directive("bids: isko", text=True)
    assert text.startswith("18: Karo × 2; 20: Herz × 2; 22: Pik × 2; 23: Null")
    assert text.endswith(f"{BID_VALUES[-1]}: Grand × {BID_VALUES[-1] // 24}")
    with pytest.raises(DirectiveError):
        render_directive("[[bids: pre1999]]")
    with pytest.raises(DirectiveError):
        render_directive("[[bids: isko pub]]")


def test_a_block_directive_is_not_wrapped_in_a_paragraph() -> None:
    registry = reload()
    html = markdown_to_html(
        "Vorher.\n\n[[bids: isko]]\n\nNachher [[value: clubs mit 1]].", lang="de", deck="french", registry=registry
    )
    assert "<p><div" not in html and "</table></div></p>" not in html
    assert '<div class="table-wrap directive-bids">' in html
    assert "<p>Nachher <span" in html  # inline directives keep their paragraph


def test_chapter_2_shows_the_bid_table(client: Client) -> None:
    reload()
    for lang, caption in (("de", "Reizwerte"), ("en", "bid values")):
        client.post("/i18n/setlang/", {"language": lang, "next": "/regeln/"})
        page = client.get("/regeln/kapitel/2/").content.decode()
        assert 'class="bid-table"' in page and caption in page


# --------------------------------------------------------------------------- chapter K and A


@pytest.fixture(scope="module")
def real() -> Registry:
    return reload()


def test_k21_reading_matches_the_engine(real: Registry) -> None:
    """K.2.1 item 1: Kontra without Re starts a Bock round only when the declarer loses."""
    pub = get_rules("pub")

    def game(points: int, **kw: Any) -> bool:
        o = score_game(
            Contract(GameType.GRAND),
            1,
            bid=18,
            declarer_points=points,
            declarer_tricks=5 if points > 60 else 3,
            rules=pub,
            **kw,
        )
        return starts_bock_round(o)

    assert game(50, kontra=True) and not game(70, kontra=True)
    assert game(70, kontra=True, re=True) and game(50, kontra=True, re=True)
    assert not game(70) and not game(50)
    rule = real.rule("K.2.1")
    assert rule is not None
    assert "das der Alleinspieler verliert" in rule.text("de")
    assert "that the declarer loses" in rule.text("en")


def test_six_card_skat_numbers_follow_from_the_deck(real: Registry) -> None:
    assert len(DECK) == 32
    total = DECK.points + 4 * 6  # a six worth 6 card points in each of the four suits
    rule = real.rule("K.6.1")
    assert rule is not None
    for lang in ("de", "en"):
        words = set(re.findall(r"\d+", rule.text(lang)))
        assert {"36", str(total), str(total // 2), str(total // 2 + 1), str(total // 4)} <= words


def test_new_rules_are_published_and_bilingual(real: Registry) -> None:
    published = set(read_published_ids(real.content_dir))
    for rid in ("K.4.4", "K.6.1", "K.6.2", "K.6.3", "K.6.4", "K.6.5", "K.6.6"):
        rule = real.rule(rid)
        assert rule is not None and rid in published
        assert rule.text("de").strip() and rule.text("en").strip()


def test_glossary_has_the_audit_terms(real: Registry) -> None:
    wanted = (
        "faelle",
        "reizhoehe",
        "spitzentrumpf",
        "farbzwang",
        "stichzwang",
        "kiebitz",
        "skatgericht",
        "schiedsrichter",
        "dskv",
        "ispa",
        "skwo",
        "preisskat",
        "turnierskat",
        "floete",
        "mauern",
        "der-alte",
        "wimmeln",
        "zusammenwerfen",
    )
    for slug in wanted:
        term = real.term(slug)
        assert term is not None, slug
        assert term.text("de").strip() and term.text("en").strip()
    aufgeben = real.term("aufgeben")
    assert aufgeben is not None and "mindestens eines Gegenspielers" in aufgeben.text("de")
    isko = real.term("isko")
    assert isko is not None and isko.term("en") == "International Skat Rules"


def test_english_text_uses_one_name_and_the_agreed_terms(real: Registry) -> None:
    banned = ("Skat Order", "split backside", "split knife", "greas", "(sloughing)", "(virgin)")
    found = [(where, word) for where, lang, text in real.sources() if lang == "en" for word in banned if word in text]
    assert found == []
