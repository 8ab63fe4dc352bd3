"""Moments of an ISS record as exercises: "Wer bekommt den Stich?", "Wie viele Augen hat der
Alleinspieler?" and "Was wird notiert?", graded by the engine and never answered on the page
before the visitor answers. The engine is the oracle: every right answer below is the engine's
reading of the record (its tricks, :meth:`IssGame.answer`), never a number written here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from skatschule.engine import Phase
from skatschule.engine.iss import IssGame, parse_record, write_record
from skatschule.engine.names import card_name
from skatschule.table import moments
from tests.table.records import played_record

URL = "/ueben/spiel/iss/"
PUBLIC_ISS = Path(__file__).resolve().parents[2].parent / "shared" / "vectors" / "public_iss.json"


def _records() -> list[str]:
    records = [played_record(seed) for seed in range(40)]
    if PUBLIC_ISS.exists():
        cases = json.loads(PUBLIC_ISS.read_text(encoding="utf-8"))["cases"]
        records += [c["input"]["record"] for c in cases if not c["expected"].get("error")]
    return records


RECORDS = _records()
GAMES = [parse_record(r) for r in RECORDS]
PLAYED = [(r, g) for r, g in zip(RECORDS, GAMES, strict=True) if g.state.contract is not None]


def test_the_records_cover_what_the_exercises_need() -> None:
    assert len(PLAYED) >= 10
    assert any(g.state.contract is not None and g.state.contract.game.is_null for _, g in PLAYED)
    assert any("augen" in moments.kinds_at(g, len(g.plays)) for _, g in PLAYED)
    assert any(g.state.picked_up for _, g in PLAYED)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_moment_offers_what_the_engine_can_answer(index: int) -> None:
    game = GAMES[index]
    plays = game.plays
    for step in range(len(plays) + 1):
        kinds = moments.kinds_at(game, step)
        probe = game.position(step)
        # a trick just completed: who takes it; otherwise, in play: which cards are allowed
        assert ("stich" in kinds) == (step > 0 and step % 3 == 0 and len(probe.tricks) == step // 3)
        if "stich" not in kinds:
            assert ("legal" in kinds) == (probe.phase is Phase.PLAY)
        at_end = step == len(plays) and game.state.declarer is not None
        assert ("liste" in kinds) == at_end
        if at_end and not game.state.contract.game.is_null and game.resigned is None:  # type: ignore[union-attr]
            assert "augen" in kinds
        else:
            assert "augen" not in kinds


@pytest.mark.parametrize("index", range(len(PLAYED)))
def test_the_engine_grades_each_exercise(index: int) -> None:
    _, game = PLAYED[index]
    state = game.state
    for trick_no, trick in enumerate(state.tricks, 1):
        step = 3 * trick_no
        for seat in range(3):
            graded = moments.grade(game, step, "stich", [str(seat)])
            assert graded.correct is (seat == trick.winner)
            assert graded.right == (str(trick.winner),)
        # the engine's steps end with the seat that takes it and its card
        last = graded.steps[-1].plain("de")
        assert WORDS["de"]["seats"][trick.winner] in last and "bekommt den Stich" in last
    end = len(game.plays)
    expected = game.answer()
    kinds = moments.kinds_at(game, end)
    if "augen" in kinds:
        augen = int(str(expected["declarer_points"]))
        assert moments.grade(game, end, "augen", [str(augen)]).correct
        wrong = moments.grade(game, end, "augen", [str(augen + 1)])
        assert not wrong.correct and wrong.right == (str(augen),)
        # the steps add up to the engine's number
        assert wrong.steps[-1].plain("de").endswith(f"{augen} Augen")
    score = int(str(expected["score"]))
    for typed in (str(score), f"{score:+d}", f"{score:+d}".replace("-", "\u2212")):
        assert moments.grade(game, end, "liste", [typed]).correct, typed
    wrong = moments.grade(game, end, "liste", [str(-score)])
    assert not wrong.correct and wrong.steps


def test_exercises_that_the_moment_does_not_offer_are_refused() -> None:
    from skatschule.engine import SkatError

    _, game = PLAYED[0]
    with pytest.raises(SkatError):
        moments.grade(game, 1, "stich", ["0"])
    with pytest.raises(SkatError):
        moments.grade(game, 0, "liste", ["18"])
    with pytest.raises(SkatError):
        moments.grade(game, 3, "stich", ["3"])
    with pytest.raises(SkatError):
        moments.grade(game, len(game.plays), "liste", ["zwölf"])


# ------------------------------------------------------------------------------------ pages


def _text(html: str) -> str:
    html = re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _client(client: Client, record: str, lang: str, deck: str = "french") -> Client:
    assert client.post(URL, {"records": record}).status_code == 302
    session = client.session
    session["deck"] = deck
    session.save()
    client.cookies["django_language"] = lang
    return client


def _first_full_game() -> tuple[str, IssGame]:
    for record, game in PLAYED:
        if "augen" in moments.kinds_at(game, len(game.plays)) and len(game.state.tricks) >= 2:
            return record, game
    raise AssertionError("no played-out suit or Grand game")


WORDS: dict[str, dict[str, Any]] = {
    "de": {
        "stich": "Wer bekommt den Stich?",
        "legal": "Welche Karten darf",
        "augen": "Wie viele Augen hat der Alleinspieler?",
        "liste": "Was wird für den Alleinspieler in die Liste notiert?",
        "right": "Richtig.",
        "wrong": "Nicht ganz.",
        "takes": "bekommt den Stich",
        "entry": "Eintrag",
        "seats": ("Vorhand", "Mittelhand", "Hinterhand"),
    },
    "en": {
        "stich": "who takes the trick?",
        "legal": "which cards may",
        "augen": "how many card points does the declarer have?",
        "liste": "what is written on the score sheet for the declarer?",
        "right": "Right.",
        "wrong": "Not quite.",
        "takes": "takes the trick",
        "entry": "entry",
        "seats": ("forehand", "middlehand", "rearhand"),
    },
}


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "deck"), [("de", "french"), ("en", "german")])
def test_who_takes_the_trick_is_asked_without_giving_it_away(client: Client, lang: str, deck: str) -> None:
    record, game = _first_full_game()
    words = WORDS[lang]
    _client(client, record, lang, deck)
    trick = game.state.tricks[1]
    page = client.get(URL, {"spiel": 0, "schritt": 6}).content.decode()
    text = _text(page)
    assert words["stich"] in text
    # the next card's seat would name the winner: not asked at this moment
    assert words["legal"] not in text
    # the seats in their fixed order, whoever takes it
    options = re.findall(r'<input type="radio" name="antwort" value="(\d)"', page)
    assert options == ["0", "1", "2"]
    labels = [text.index(f" {name}", text.index(words["stich"])) for name in words["seats"]]
    assert labels == sorted(labels)
    # the completed trick lies on the table; the list holds only the trick before it
    tricks = text.replace("← und →", "").replace("← and →", "")  # the keys' note is no trick
    assert tricks.count("→") == 1, "only the first trick shows who took it"
    # answered: the engine's verdict and its steps, card names in the visitor's deck
    for seat in range(3):
        graded = client.post(URL, {"exercise": "stich", "spiel": 0, "schritt": 6, "antwort": str(seat)})
        assert graded.status_code == 200
        feedback = _text(graded.content.decode().split('role="status"', 1)[1].split("</div>", 1)[0])
        assert (words["right"] if seat == trick.winner else words["wrong"]) in feedback
        assert words["takes"] in feedback
        winning = trick.cards[(trick.winner - trick.leader) % 3]
        assert card_name(winning, lang, deck) in feedback
    # without a choice: a clear 400, the moment still shown
    missing = client.post(URL, {"exercise": "stich", "spiel": 0, "schritt": 6})
    assert missing.status_code == 400 and words["stich"] in _text(missing.content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "deck"), [("de", "german"), ("en", "french")])
def test_the_end_of_a_record_asks_for_the_augen_and_the_entry(client: Client, lang: str, deck: str) -> None:
    record, game = _first_full_game()
    words = WORDS[lang]
    expected = game.answer()
    augen, score = int(str(expected["declarer_points"])), int(str(expected["score"]))
    _client(client, record, lang, deck)
    end = len(game.plays)
    page = client.get(URL, {"spiel": 0, "schritt": end})
    text = _text(page.content.decode())
    assert words["augen"] in text and words["liste"] in text and words["stich"] in text
    # neither answer on the page before it is given: no result, no entry
    assert 'id="ergebnis"' not in page.content.decode()
    assert words["entry"] not in text and f"{score:+d}" not in text
    # the Augen: graded by the engine, the steps add up
    right = client.post(URL, {"exercise": "augen", "spiel": 0, "schritt": end, "antwort": str(augen)})
    feedback = _text(right.content.decode().split('role="status"', 1)[1].split("</div>", 1)[0])
    assert words["right"] in feedback and f"{augen}" in feedback
    for trick in game.state.tricks:
        if trick.winner == game.state.declarer:
            assert card_name(trick.cards[0], lang, deck) in feedback
    # the Augen name the last trick's taker: from now on the end asks neither for it nor again
    answered = _text(right.content.decode())
    assert words["stich"] not in answered and words["augen"] not in answered and words["liste"] in answered
    # the entry answered wrongly: the engine's entry and its derivation (then the result is shown)
    wrong = client.post(URL, {"exercise": "liste", "spiel": 0, "schritt": end, "antwort": str(-score or 1)})
    html = wrong.content.decode()
    feedback = _text(html.split('role="status"', 1)[1].split("</div>", 1)[0])
    assert words["wrong"] in feedback and f"{score:+d}" in feedback
    assert 'id="ergebnis"' in html and words["liste"] not in _text(html)
    right = client.post(URL, {"exercise": "liste", "spiel": 0, "schritt": end, "antwort": f"{score:+d}"})
    assert words["right"] in _text(right.content.decode())
    # a number that is none: 400 with the reason
    bad = client.post(URL, {"exercise": "augen", "spiel": 0, "schritt": end, "antwort": "viele"})
    assert bad.status_code == 400 and 'role="alert"' in bad.content.decode()


@pytest.mark.django_db
def test_the_result_is_shown_on_request_and_exercises_need_a_record(client: Client) -> None:
    record, game = _first_full_game()
    _client(client, record, "de")
    hidden = client.get(URL, {"spiel": 0, "schritt": 0}).content.decode()
    assert 'id="ergebnis"' not in hidden and "Ergebnis mit Herleitung zeigen" in hidden
    shown = client.get(URL, {"spiel": 0, "schritt": 0, "ergebnis": 1}).content.decode()
    assert 'id="ergebnis"' in shown and f"{int(str(game.answer()['score'])):+d}" in _text(shown)
    fresh = Client()
    response = fresh.post(URL, {"exercise": "stich", "spiel": 0, "schritt": 3, "antwort": "0"})
    assert response.status_code == 409
    wrong_moment = client.post(URL, {"exercise": "stich", "spiel": 0, "schritt": 1, "antwort": "0"})
    assert wrong_moment.status_code == 400


def _resigned(record: str, cards: int, seats: tuple[int, ...]) -> str:
    """``record`` cut after its first ``cards`` cards, then ``seats`` resign (``RE``)."""
    head, rest = record.split("MV[", 1)
    moves, tail = rest.split("]", 1)
    tokens = moves.split()
    pairs = [tokens[i : i + 2] for i in range(2, len(tokens), 2)]
    kept: list[str] = tokens[:2]
    played = 0
    for actor, action in pairs:
        if actor in "012" and re.fullmatch(r"[CSHD][789TJQKA]", action):
            if played == cards:
                break
            played += 1
        kept += [actor, action]
    kept += [t for seat in seats for t in (str(seat), "RE")]
    return f"{head}MV[{' '.join(kept)}]{tail}"


@pytest.mark.parametrize("who", ["declarer", "defenders"])
def test_a_record_that_ends_in_a_resignation_asks_for_the_entry_only(who: str) -> None:
    tried = 0
    for _, game in PLAYED:
        state = game.state
        if state.contract is None or state.contract.game.is_null or len(game.plays) < 12:
            continue
        declarer = state.declarer
        assert declarer is not None
        seats = (declarer,) if who == "declarer" else tuple(s for s in range(3) if s != declarer)
        cut = parse_record(_resigned(write_record(state), 7, seats))
        assert cut.resigned == who and len(cut.plays) == 7
        kinds = moments.kinds_at(cut, 7)
        assert "liste" in kinds and "augen" not in kinds
        score = int(str(cut.answer()["score"]))
        graded = moments.grade(cut, 7, "liste", [str(score)])
        assert graded.correct and "aufgegeben" in graded.steps[0].plain("de")
        assert not moments.grade(cut, 7, "liste", [str(score + 1)]).correct
        tried += 1
    assert tried >= 3


@pytest.mark.django_db
def test_odd_numbers_in_the_query_or_form_give_no_500(client: Client) -> None:
    record, _ = _first_full_game()
    _client(client, record, "de")
    for query in ({"spiel": "x", "schritt": "y"}, {"spiel": "-3", "schritt": "99999"}, {"schritt": ""}):
        assert client.get(URL, query).status_code == 200
    for form in (
        {"exercise": "stich", "spiel": "x", "schritt": "drei", "antwort": "0"},
        {"exercise": "raten", "spiel": 0, "schritt": 3, "antwort": "0"},
        {"exercise": "liste", "spiel": 0, "schritt": 3, "antwort": "+18"},
    ):
        assert client.post(URL, form).status_code == 400
