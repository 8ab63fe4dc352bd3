"""Every directive kind renders numbers from the engine; bad directives fail loudly."""

from __future__ import annotations

import pytest

from skatschule.content.compute import DirectiveError, parse_game_words
from skatschule.content.directives import find_directives
from skatschule.engine import Contract, GameType, game_value, get_rules, score_game
from skatschule.rules.content import Registry
from skatschule.rules.directives import render_directive


def test_value_derivation_in_both_languages(registry: Registry) -> None:
    de = render_directive("[[value: clubs mit 2 hand]]", registry=registry)
    assert "48" in de and "mit 2, Spiel 3, Hand 4 × Kreuz 12 = 48" in de
    assert 'data-value="48"' in de
    en = render_directive("[[value: kreuz mit 2 hand]]", lang="en", registry=registry)
    assert "with 2, game 3, hand 4 × clubs 12 = 48" in en
    expected = game_value(Contract(GameType.GRAND, hand=True, ouvert=True), 4).value
    assert str(expected) in render_directive("value: grand ouvert mit 4 hand", registry=registry)
    assert "= 23" in render_directive("[[value: null]]", registry=registry)
    assert "= 59" in render_directive("[[value: null hand ouvert]]", registry=registry)


def test_value_levels_and_rules(registry: Registry) -> None:
    assert render_directive("value: clubs mit 1 schneider", text=True) == "mit 1, Spiel 2, Schneider 3 × Kreuz 12 = 36"
    assert render_directive("value: hearts ohne 2 hand schwarz_angesagt", text=True).endswith(
        "Schwarz angesagt 8 × Herz 10 = 80"
    )
    # Grand ouvert before 1999: base 36, no level "offen"
    assert render_directive("value: grand ouvert mit 4 hand rules pre1999", text=True).endswith(
        "× Grand ouvert 36 = 360"
    )


def test_result_overbid(registry: Registry) -> None:
    html = render_directive("[[result: hearts mit 1 bid 50 points 70 tricks 6]]", registry=registry)
    assert "-100" in html
    assert "verloren (überreizt)" in html and "Spielwert 50" in html
    assert 'class="directive-result lost"' in html
    assert "Überreizt: der Spielwert 20 erreicht den Reizwert 50 nicht" in html  # the engine's explanation lines
    assert 'href="/regeln/1.1.2"' not in html  # engine rule ids only link when the rule exists
    en = render_directive("[[result: hearts mit 1 bid 50 points 70 tricks 6]]", lang="en", registry=registry)
    assert "lost (overbid)" in en and "list entry -100" in en


def test_result_defaults_and_pub_rules(registry: Registry) -> None:
    won = render_directive("result: clubs mit 2 points 75", text=True)
    assert won.startswith("gewonnen: Spielwert 36, Listeneintrag +36")
    doubled = score_game(
        Contract(GameType.GRAND),
        1,
        bid=18,
        declarer_points=70,
        declarer_tricks=5,
        rules=get_rules("pub"),
        kontra=True,
        re=True,
    ).score
    assert f"+{doubled}" in render_directive(
        "result: grand mit 1 bid 18 points 70 tricks 5 rules pub kontra re", text=True
    )
    assert render_directive("result: null", text=True).startswith("gewonnen: Spielwert 23")  # tricks default to 0
    assert "Listeneintrag -46" in render_directive("result: null tricks 1", text=True)
    schwarz = render_directive("result: grand mit 2 schwarz", text=True)  # 120 Augen, 10 tricks
    assert schwarz.startswith("gewonnen: Spielwert 120")
    spec = parse_game_words("kreuz ohne 3 hand bid 30 points 40", result=True)
    assert (spec.matadors, spec.bid, spec.points, spec.tricks) == (-3, 30, 40, None)


def test_matadors_points_cards_rule(registry: Registry) -> None:
    assert "mit 2" in render_directive("[[matadors: clubs CJ SJ DJ C7]]", registry=registry)
    assert render_directive("[[matadors: grand SJ HJ]]", lang="en", text=True) == "without 1"
    assert render_directive("[[points: CA CT CK]]", text=True) == "25"
    cards = render_directive("[[cards: CJ SJ HA]]", registry=registry)
    assert cards.count("<svg") == 3 and 'aria-label="Kreuz-Bube"' in cards
    german = render_directive("[[cards: CJ]]", deck="german", registry=registry)
    assert german != render_directive("[[cards: CJ]]", deck="french", registry=registry)
    assert 'aria-label="jack of clubs"' in render_directive("[[cards: CJ]]", lang="en", registry=registry)
    link = render_directive("[[rule: 1.1.2]]", lang="en", registry=registry)
    assert link == '<a class="rule-ref" href="/regeln/1.1.2" title="1.1.2 Schneider">1.1.2</a>'


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("[[cards: CJ XX]]", "keine Karte"),
        ("[[cards: CJ CJ]]", "doppelt"),
        ("[[value: clubs hand]]", "mit N"),
        ("[[value: null mit 1]]", "keine Spitzen"),
        ("[[value: clubs mit 12]]", "1 bis 11"),
        ("[[value: clubs mit 2 ouvert]]", "Handspiel"),
        ("[[value: skat mit 2]]", "Unbekanntes Spiel"),
        ("[[value: clubs mit 2 foo]]", "unbekanntes Wort"),
        ("[[result: clubs mit 2]]", "points N"),
        ("[[result: clubs mit 2 points 70 kontra]]", "Kneipenregeln"),
        ("[[result: clubs mit 2 points 70 schneider]]", "'schneider' passt nicht"),
        ("[[result: clubs mit 2 points 170]]", "zwischen 0 und 120"),
        ("[[value: clubs mit 2 rules house]]", "Unbekannte Regeln"),
        ("[[matadors: null CJ]]", "keine Spitzen"),
        ("[[rule: 9.9.9]]", "gibt es nicht"),
        ("[[dance: CJ]]", "unbekannte Direktive"),
    ],
)
def test_bad_directive_fails_loudly(registry: Registry, source: str, reason: str) -> None:
    with pytest.raises(DirectiveError) as info:
        render_directive(source, registry=registry, where="regeln/1-x.md:7 1.1.1")
    message = str(info.value)
    assert reason in message
    assert message.startswith("regeln/1-x.md:7 1.1.1: [[")  # names the file, the rule and the directive
    assert info.value.text.en  # an English message too


def test_find_directives_across_line_wraps() -> None:
    found = find_directives("a [[result: grand mit 1 bid 18\npoints 70 tricks 5]] b [[rule: 1.1.1]]")
    assert [(d.kind, d.args) for d in found] == [("result", "grand mit 1 bid 18 points 70 tricks 5"), ("rule", "1.1.1")]
