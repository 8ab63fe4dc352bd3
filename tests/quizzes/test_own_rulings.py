"""Issue 18, own questions "Regelverstoß": a teacher's game in progress and irregularity, ruled
by the engine. The situations are checked against the generated exercise: whatever the
generator draws, typed in as a teacher would, gets the same ruling (or is refused because
it depends on cards the teacher did not name)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from skatschule.engine import Contract, GameState, GameType, parse_cards
from skatschule.engine.rulings import Event, Irregularity, Ruling, rule
from skatschule.exercises import REGISTRY
from skatschule.exercises.regelverstoss import Regelverstoss, Scenario, winner_value
from skatschule.quizzes import own_items
from skatschule.quizzes.models import OwnItem, Quiz
from skatschule.quizzes.own_rulings import check_irregularity
from tests.people import client_for
from tests.present import present

FLAGS = ("hand", "ouvert", "schneider_announced", "schwarz_announced")
AMBIGUOUS = "hängt hier davon ab"


def _as_typed(scenario: Scenario, question: str = "liste") -> dict[str, Any]:
    """The generator's scenario, as a teacher enters it in the builder."""
    start = GameState.start(
        scenario.deal,
        declarer=scenario.declarer,
        bid=scenario.bid,
        contract=scenario.contract,
        discard=scenario.discard,
    )
    skat = scenario.discard if scenario.discard is not None else scenario.deal.skat
    event = scenario.event
    return {
        "game": scenario.contract.game.value,
        "flags": [flag for flag in FLAGS if getattr(scenario.contract, flag)],
        "declarer": scenario.declarer,
        "bid": scenario.bid,
        "hand": [c.code for c in start.hand(scenario.declarer)],
        "skat": [c.code for c in skat],
        "plays": [c.code for c in scenario.plays],
        "event": {"kind": event.kind.value, "seat": event.seat, "card": event.card.code if event.card else ""},
        "question": question,
    }


@pytest.mark.parametrize("level", (1, 2, 3))
def test_typed_in_situations_get_the_generators_ruling(level: int) -> None:
    kind = REGISTRY["regelverstoss"]
    assert isinstance(kind, Regelverstoss)
    refused = 0
    for seed in range(120):
        scenario = kind.build(random.Random(seed), level)
        expected = scenario.ruling()
        try:
            situation = check_irregularity(**_as_typed(scenario))
        except own_items.OwnItemError as exc:
            # only a lead out of turn to the last trick plays cards the teacher did not name
            assert AMBIGUOUS in exc.text.de, (seed, exc.text.de)
            assert scenario.event.kind is Irregularity.LEAD_OUT_OF_TURN and len(scenario.plays) == 27
            refused += 1
            continue
        ruling = situation.scenario().ruling()
        assert (ruling.won, ruling.score) == (expected.won, expected.score), seed
    assert refused < 12


def _grand_revoke(**changes: Any) -> dict[str, Any]:
    situation: dict[str, Any] = {
        "game": "grand",
        "flags": [],
        "declarer": "0",
        "bid": "48",
        "hand": "CJ SJ HJ DJ CA CT SA ST HA HT".split(),
        "skat": ["D7", "D8"],
        "plays": ["CA", "C7", "CQ", "SA", "S7"],
        "event": {"kind": "revoke", "seat": "2", "card": "DK"},
        "question": "gewinner",
    }
    situation.update(changes)
    return situation


def _ruling_by_hand(situation: dict[str, Any]) -> Ruling:
    """The same game rebuilt here: any deal that fits (Hinterhand holds a Pik and the Karo-König)."""
    hands = [
        situation["hand"],
        "C7 S7 C8 S8 H7 H8 H9 D9 DT DA".split(),
        "CQ DK S9 CK C9 SK SQ HK HQ DQ".split(),
    ]
    from skatschule.engine import Deal

    deal = Deal.from_codes(hands + [situation["skat"]])
    state = GameState.start(
        deal, declarer=0, bid=int(situation["bid"]), contract=Contract(GameType.GRAND), discard=deal.skat
    )
    for card in parse_cards(situation["plays"]):
        state.play(card)
    return rule(state, Event(Irregularity.REVOKE, 2, parse_cards(["DK"])[0]))


def test_a_defenders_revoke_is_ruled_by_the_engine(teacher: User) -> None:
    situation = _grand_revoke()
    item = own_items.create_own_item(owner=teacher, kind="regelverstoss", title="Hinterhand bedient nicht", **situation)
    question, right = own_items.own_question(item)
    expected = _ruling_by_hand(situation)
    assert question.widget == "choice" and right.correct
    assert own_items.grade_own(item, [winner_value(expected)]).correct
    other = "gegenpartei" if winner_value(expected) == "alleinspieler" else "alleinspieler"
    assert not own_items.grade_own(item, [other]).correct
    # asked for the list entry instead
    entry = own_items.create_own_item(
        owner=teacher, kind="regelverstoss", title="Liste", **_grand_revoke(question="liste")
    )
    question, right = own_items.own_question(entry)
    assert question.widget == "number"
    assert own_items.grade_own(entry, [str(expected.score)]).correct
    assert not own_items.grade_own(entry, [str(-expected.score)]).correct


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"event": {"kind": "revoke", "seat": "2", "card": "SK"}}, "regelgerecht"),  # a Pik follows: no revoke
        ({"event": {"kind": "revoke", "seat": "1", "card": "DK"}}, "nicht an der Reihe"),
        ({"event": {"kind": "revoke", "seat": "2", "card": ""}}, "gehört eine Karte"),
        ({"event": {"kind": "cards_exposed", "seat": "0", "card": ""}}, "einfach zurück"),
        ({"event": {"kind": "declarer_concedes", "seat": "1", "card": ""}}, "Nur der Alleinspieler"),
        ({"event": {"kind": "lead_out_of_turn", "seat": "2", "card": "DK"}}, "ist an der Reihe"),
        ({"event": {"kind": "wrong_card_count", "seat": "0", "card": ""}}, "welcher Regelverstoß"),
        ({"bid": "19"}, "Reizwert"),
        ({"hand": "CJ SJ HJ DJ CA CT SA ST HA".split()}, "zehn Karten"),
        ({"flags": ["ouvert"]}, "Hand"),
        ({"plays": ["CA", "H7", "CQ", "CT", "C7"]}, "vorher nicht bedient"),
    ],
)
def test_impossible_situations_are_refused_with_the_engines_reason(
    teacher: User, changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(own_items.OwnItemError) as info:
        own_items.create_own_item(owner=teacher, kind="regelverstoss", title="X", **_grand_revoke(**changes))
    assert message in info.value.text.de, info.value.text.de
    assert not OwnItem.objects.exists()


def test_builder_page_keeps_the_input_and_saves_the_item(teacher: User) -> None:
    client = client_for(teacher)
    url = reverse("quizzes:own_create")
    page = client.get(url + "?art=regelverstoss").content.decode()
    assert page.count('name="play') == 29 and 'name="event_kind"' in page and 'name="answer"' not in page
    form = {
        "art": "regelverstoss",
        "title": "Hinterhand bedient nicht",
        "game": "grand",
        "declarer": "0",
        "bid": "48",
        "hand": "CJ SJ HJ DJ CA CT SA ST HA HT".split(),
        "skat": ["D7", "D8"],
        "play1": "CA",
        "play2": "C7",
        "play3": "CQ",
        "play4": "SA",
        "play5": "S7",
        "event_kind": "revoke",
        "event_seat": "2",
        "event_card": "DK",
        "question": "liste",
    }
    gap = client.post(url, {**form, "play3": ""})
    text = gap.content.decode()
    assert gap.status_code == 400 and "3. gespielte Karte fehlt" in text
    assert '<option value="SA" selected>' in text and 'value="DK" selected' in text  # nothing typed is lost
    response = client.post(url, form)
    item = OwnItem.objects.get()
    assert response.status_code == 302 and item.kind == "regelverstoss"
    detail = client.get(response["Location"]).content.decode()
    expected = _ruling_by_hand(_grand_revoke())
    assert str(expected.score) in detail.split('id="own-right"')[1][:400]


def test_builder_and_item_in_english(teacher: User) -> None:
    client = client_for(teacher)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(reverse("quizzes:own_create") + "?art=regelverstoss").content.decode()
    for english in ("Played so far, in order", "The irregularity", "revoke", "Who wins the game?", "Bid up to"):
        assert english in page
    for german in ("Bisher gespielt", "Der Regelverstoß", "falsches Bedienen", "Gereizt bis"):
        assert german not in page
    item = own_items.create_own_item(owner=teacher, kind="regelverstoss", title="X", **_grand_revoke())
    detail = client.get(reverse("quizzes:own_detail", args=[item.pk])).content.decode()
    assert "How does the referee rule" in detail and "Wie entscheidet" not in detail


def test_moodle_export_asks_the_ruling_with_the_engines_answer(teacher: User, make_quiz: Callable[..., Quiz]) -> None:
    """Both question forms reach Moodle: who wins as a single choice, the list entry as a number."""
    import xml.etree.ElementTree as ET

    from skatschule.quizzes import exports

    quiz = make_quiz(count=1, kinds=("augen",))
    winner = own_items.create_own_item(owner=teacher, kind="regelverstoss", title="A", **_grand_revoke())
    entry = own_items.create_own_item(owner=teacher, kind="regelverstoss", title="B", **_grand_revoke(question="liste"))
    for item in (winner, entry):
        own_items.add_to_quiz(owner=teacher, item=item, quiz=quiz)
    root = ET.fromstring(exports.moodle_xml(quiz))
    found = {
        int(present(present(q.find("name/text")).text).split(".")[0]): q
        for q in root.findall("question")
        if q.get("type") != "category"
    }
    expected = _ruling_by_hand(_grand_revoke())
    choice = found[2]
    question, _ = own_items.own_question(winner)
    right = [o.value for o, a in zip(question.options, choice.findall("answer")) if a.get("fraction") == "100"]
    assert choice.get("type") == "multichoice" and right == [winner_value(expected)]
    assert found[3].get("type") == "numerical" and present(found[3].find("answer/text")).text == str(expected.score)


def _kinds_of_items(teacher: User) -> list[OwnItem]:
    return [
        own_items.create_own_item(
            owner=teacher, kind="stich", title="S", game="hearts", leader=1, trick=["SA", "S7", "HJ"]
        ),
        own_items.create_own_item(
            owner=teacher, kind="zugeben", title="Z", game="grand", leader=2, trick=["ST"], hand=["CJ", "SA", "S9"]
        ),
        own_items.create_own_item(
            owner=teacher,
            kind="spielwert",
            title="W",
            game="hearts",
            hand="CJ SJ HA HT HK HQ H9 DA DT C7".split(),
            skat=["S7", "S8"],
            flags=["hand"],
            result="schneider",
        ),
        own_items.create_own_item(owner=teacher, kind="regelverstoss", title="R", **_grand_revoke()),
    ]


def test_an_item_opens_as_a_template_and_saves_as_the_same_situation(teacher: User) -> None:
    import html

    client = client_for(teacher)
    for item in _kinds_of_items(teacher):
        detail = client.get(reverse("quizzes:own_detail", args=[item.pk])).content.decode()
        href = html.unescape(detail.split('id="own-as-template"')[0].rsplit('href="', 1)[1].split('"')[0])
        builder = client.get(href)
        assert builder.status_code == 200 and f'value="{item.title}"' in builder.content.decode()
        response = client.post(reverse("quizzes:own_create"), own_items.builder_fields(item))
        copy = OwnItem.objects.latest("pk")
        assert response.status_code == 302 and copy.pk != item.pk
        assert (copy.kind, copy.situation) == (item.kind, item.situation)


def test_delete_an_item_unless_a_quiz_asks_it(
    teacher: User, other_teacher: User, make_quiz: Callable[..., Quiz]
) -> None:
    client = client_for(teacher)
    unused, used = (
        own_items.create_own_item(
            owner=teacher, kind="stich", title="A", game="grand", leader=0, trick=["CA", "CT", "CJ"]
        ),
        own_items.create_own_item(
            owner=teacher, kind="stich", title="B", game="grand", leader=0, trick=["SA", "ST", "SJ"]
        ),
    )
    own_items.add_to_quiz(owner=teacher, item=used, quiz=make_quiz(count=1, kinds=("augen",)))
    assert client_for(other_teacher).post(reverse("quizzes:own_delete", args=[unused.pk])).status_code == 404
    refused = client.post(reverse("quizzes:own_delete", args=[used.pk]))
    assert refused.status_code == 400 and "bleibt deshalb erhalten" in refused.content.decode()
    assert client.post(reverse("quizzes:own_delete", args=[unused.pk])).status_code == 302
    assert list(OwnItem.objects.values_list("title", flat=True)) == ["B"]
    assert client.get(reverse("quizzes:own_delete", args=[used.pk])).status_code == 405


@pytest.mark.parametrize("deck,name", [("french", "Pik-König"), ("german", "Grün-König")])
def test_the_engines_refusal_names_the_card_in_the_visitors_deck(teacher: User, deck: str, name: str) -> None:
    from skatschule.cards.context_processors import DECK_COOKIE

    client = client_for(teacher)
    client.cookies[DECK_COOKIE] = deck
    situation = _grand_revoke(event={"kind": "revoke", "seat": "2", "card": "SK"})  # a Pik follows: no revoke
    form = {
        "art": "regelverstoss",
        "title": "X",
        "game": situation["game"],
        "declarer": situation["declarer"],
        "bid": situation["bid"],
        "hand": situation["hand"],
        "skat": situation["skat"],
        **{f"play{n}": code for n, code in enumerate(situation["plays"], start=1)},
        "event_kind": "revoke",
        "event_seat": "2",
        "event_card": "SK",
        "question": "gewinner",
    }
    response = client.post(reverse("quizzes:own_create"), form)
    error = response.content.decode().split('id="own-error">')[1].split("</p>")[0]
    assert response.status_code == 400 and "regelgerecht" in error
    assert name in error and "⟦" not in error


def test_junk_in_the_builder_is_a_400_never_a_500(teacher: User) -> None:
    """Random field values (codes, seats, bids, gaps, unknown words) for every type get the engine's
    or the form's refusal, and the form shows them again without a crash."""
    rng = random.Random(18)
    codes = ["CJ", "SA", "HT", "D7", "XX", "", "c7", "10", "S"]
    client = client_for(teacher)
    for round_ in range(48):
        form = {
            "art": ("regelverstoss", "stich", "zugeben", "spielwert")[round_ % 4],
            "leader": rng.choice(["0", "2", "5", ""]),
            "result": rng.choice(["einfach", "schwarz", "x"]),
            **{f"trick{n}": rng.choice(codes) for n in (1, 2, 3)},
            "title": rng.choice(["Fall", "", " "]),
            "game": rng.choice(["grand", "null", "clubs", "karo", ""]),
            "flags": rng.sample(["hand", "ouvert", "schneider_announced", "schwarz_announced", "x"], rng.randint(0, 3)),
            "declarer": rng.choice(["0", "1", "2", "3", "-1", "a"]),
            "bid": rng.choice(["18", "19", "264", "999", "x", ""]),
            "hand": rng.sample(codes, rng.randint(0, 6)) + "CA CT SJ HJ DJ".split(),
            "skat": rng.sample(codes, rng.randint(0, 3)),
            "event_kind": rng.choice(["revoke", "lead_out_of_turn", "skat_viewed", "claim", ""]),
            "event_seat": rng.choice(["0", "1", "2", "9", ""]),
            "event_card": rng.choice(codes),
            "question": rng.choice(["gewinner", "liste", "x"]),
            **{f"play{n}": rng.choice(codes) for n in range(1, rng.randint(1, 30))},
        }
        response = client.post(reverse("quizzes:own_create"), form)
        assert response.status_code in (302, 400), form
        assert client.get(reverse("quizzes:own_create"), form).status_code == 200  # a template link with junk
    for item in OwnItem.objects.all():  # whatever was accepted, the engine can ask and answer
        question, right = own_items.own_question(item)
        assert right.correct
