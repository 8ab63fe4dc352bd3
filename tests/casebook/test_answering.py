"""Answering a case page (with and without htmx), the record of solved cases, and the
casebook's search and filters (words, sections, levels)."""

from __future__ import annotations

import html as html_lib
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.casebook import cases as casebook
from skatschule.casebook import selectors, services
from skatschule.casebook.models import SolvedCase
from skatschule.engine.names import render as render_names
from skatschule.exercises.helpers import signed
from tests.people import client_for, make_user
from tests.present import present

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db


def _right(case: casebook.Case) -> list[str]:
    answer = casebook.solve(case)  # from the engine where the case has an engine input
    return [answer.choice, str(answer.score)] if case.score_asked else [answer.choice]


def _wrong(case: casebook.Case) -> list[str]:
    right = _right(case)
    other = next(c.value for c in case.choices if c.value != right[0])
    return [other, *right[1:]]


def _engine_case(score_asked: bool) -> casebook.Case:
    """A case of that level, decided by the engine where the casebook has one (level 2)."""
    every = [c for c in casebook.load_cases() if c.score_asked == score_asked]
    return next((c for c in every if c.engine_input is not None), every[0])


def _page_text(response: _MonkeyPatchedWSGIResponse) -> str:
    return html_lib.unescape(response.content.decode())


def test_no_page_holds_the_answer_before_it_is_given(client: Client) -> None:
    for case in casebook.load_cases():
        text = _page_text(client.get(reverse("casebook:case", args=[case.id])))
        answer = casebook.solve(case)
        for step in (line.de for line in answer.steps):
            assert render_names(step, "de") not in text, (case.id, step)
        if case.score_asked:
            assert f"Listeneintrag {signed(present(answer.score))}" not in text
        assert 'id="case-result-title"' not in text and "Richtige Antwort" not in text


@pytest.mark.parametrize("score_asked", [False, True])
def test_a_right_answer_shows_the_engines_ruling(client: Client, score_asked: bool) -> None:
    case = _engine_case(score_asked)
    response = client.post(reverse("casebook:case_answer", args=[case.id]), {"answer": _right(case)})
    assert response.status_code == 200
    text = _page_text(response)
    assert "Richtig!" in text and "Die Entscheidung" in text
    answer = casebook.solve(case)
    for step in (line.de for line in answer.steps):
        assert render_names(step, "de") in text
    label = present(case.choice(answer.choice)).label.de
    assert html_lib.escape(label, quote=False) in response.content.decode() or label in text
    for rule_id in answer.rule_ids:
        assert f"/regeln/{rule_id}" in text
    assert not SolvedCase.objects.exists(), "anonymous answers are not recorded"


@pytest.mark.parametrize("score_asked", [False, True])
def test_a_wrong_answer_is_wrong(client: Client, score_asked: bool) -> None:
    case = _engine_case(score_asked)
    response = client.post(reverse("casebook:case_answer", args=[case.id]), {"answer": _wrong(case)})
    assert response.status_code == 200
    assert "Leider nicht richtig." in _page_text(response)


def test_a_wrong_list_entry_is_wrong() -> None:
    case = _engine_case(True)
    choice, score = _right(case)
    feedback = services.answer_case(case=case, answer=[choice, str(int(score) + 10)]).feedback
    assert not feedback.correct


def test_every_case_can_be_answered_right(client: Client) -> None:
    for case in casebook.load_cases():
        feedback = services.answer_case(case=case, answer=_right(case)).feedback
        assert feedback.correct, case.id


@pytest.mark.parametrize("answer", [[], ["zaubern"], ["won", "viel"]])
def test_an_unreadable_answer_is_400_without_the_ruling(client: Client, answer: list[str]) -> None:
    case = _engine_case(True)
    response = client.post(reverse("casebook:case_answer", args=[case.id]), {"answer": answer})
    assert response.status_code == 400
    text = _page_text(response)
    assert "Richtige Antwort" not in text and 'role="alert"' in response.content.decode()
    for step in (line.de for line in casebook.solve(case).steps):
        assert render_names(step, "de") not in text


def test_htmx_answer_returns_the_result_section_only(client: Client) -> None:
    case = _engine_case(False)
    response = client.post(
        reverse("casebook:case_answer", args=[case.id]), {"answer": _right(case)}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="case-result"') and "<html" not in html
    assert "Richtig!" in html


def test_htmx_unreadable_answer_is_swapped_in_with_its_message(client: Client) -> None:
    case = _engine_case(True)
    response = client.post(reverse("casebook:case_answer", args=[case.id]), {"answer": ["won"]}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200  # htmx swaps only 2xx responses
    assert html.lstrip().startswith('<section id="case-result"') and 'role="alert"' in html
    assert "Richtige Antwort" not in html


def test_answer_url_wants_post_and_a_real_case(client: Client) -> None:
    case = casebook.load_cases()[0]
    assert client.get(reverse("casebook:case_answer", args=[case.id])).status_code == 405
    assert client.post("/faelle/F-999/antwort/", {"answer": ["won"]}).status_code == 404


def test_signed_in_answers_are_recorded_and_the_index_shows_them() -> None:
    user = make_user("schiri")
    client = client_for(user)
    solved, tried = casebook.load_cases()[:2]
    url = reverse("casebook:case_answer", args=[solved.id])
    client.post(url, {"answer": _right(solved)})
    row = SolvedCase.objects.get(user=user, case_id=solved.id)
    assert (row.attempts, row.solved, row.last_correct) == (1, True, True)
    assert row.first_solved_at is not None
    client.post(url, {"answer": _wrong(solved)})
    row.refresh_from_db()
    assert (row.attempts, row.solved, row.last_correct) == (2, True, False)  # solved stays solved
    tried_url = reverse("casebook:case_answer", args=[tried.id])
    client.post(tried_url, {"answer": _wrong(tried)})
    client.post(tried_url, {"answer": _right(tried)})  # right only at the second go: not solved
    row = SolvedCase.objects.get(user=user, case_id=tried.id)
    assert (row.attempts, row.solved, row.last_correct, row.first_solved_at) == (2, False, True, None)

    assert selectors.solved_states(user=user) == {solved.id: "solved", tried.id: "tried"}
    html = client.get(reverse("casebook:index")).content.decode()
    solved_item = html[html.index(f'href="/faelle/{solved.id}/"') :]
    assert solved_item.index("gelöst") < solved_item.index("</li>")
    tried_item = html[html.index(f'href="/faelle/{tried.id}/"') :]
    assert tried_item.index("versucht") < tried_item.index("</li>")
    assert "2 davon bearbeitet" in html
    page = client.get(reverse("casebook:case", args=[solved.id])).content.decode()
    assert "case-solved" in page
    # someone else sees nothing of it
    other = client_for(make_user("gast"))
    assert "gelöst" not in other.get(reverse("casebook:index")).content.decode().split('id="case-list"')[1]


def test_trying_every_option_solves_no_case() -> None:
    """Issue 25, item 10: 97 posts used to solve all 48 cases; the first answer is the one recorded."""
    user = make_user("durchprobierer")
    client = client_for(user)
    cases = casebook.load_cases()
    firsts_right = 0
    for case in cases:
        url = reverse("casebook:case_answer", args=[case.id])
        right = _right(case)
        options = [c.value for c in services.case_question(case=case).options]  # in the order the page shows
        firsts_right += options[0] == right[0]
        for value in options:  # every option in turn, with the right list entry
            client.post(url, {"answer": [value, *right[1:]]})
    rows = SolvedCase.objects.filter(user=user)
    assert rows.count() == len(cases)
    assert rows.filter(solved=True).count() == firsts_right < len(cases)
    for row in rows.filter(solved=True):
        solved = casebook.get_case(row.case_id)
        assert solved is not None and services.case_question(case=solved).options[0].value == _right(solved)[0]


def _ids(response: _MonkeyPatchedWSGIResponse) -> set[str]:
    html = response.content.decode()
    return {c.id for c in casebook.load_cases() if f'href="/faelle/{c.id}/"' in html}


def test_a_section_finds_every_case_under_it(client: Client) -> None:
    every = casebook.load_cases()
    sections = {r.rsplit(".", 1)[0] for c in every for r in c.rule_ids if r.count(".") == 2}
    assert sections
    for section in sorted(sections):
        expected = {c.id for c in every if any(r.startswith(section + ".") or r == section for r in c.rule_ids)}
        response = client.get(reverse("casebook:index"), {"regel": section})
        assert response.status_code == 200
        assert _ids(response) == expected, section
    chapter = sorted(sections)[0].split(".")[0]
    expected = {c.id for c in every if any(r.startswith(chapter + ".") for r in c.rule_ids)}
    assert _ids(client.get(reverse("casebook:index"), {"regel": chapter})) == expected
    # "3.2" must not catch "3.20.1"-style neighbours: prefix matching is by whole parts
    assert all(
        not selectors._cites(c, "3.2") or any(r == "3.2" or r.startswith("3.2.") for r in c.rule_ids) for c in every
    )


def test_level_filter(client: Client) -> None:
    every = casebook.load_cases()
    for level in ("1", "2"):
        expected = {c.id for c in every if (c.score_asked and level == "2") or (not c.score_asked and level == "1")}
        assert expected
        assert _ids(client.get(reverse("casebook:index"), {"stufe": level})) == expected


def test_text_search_finds_titles_in_both_languages_and_ignores_umlauts(client: Client) -> None:
    every = casebook.load_cases()
    case = next(c for c in every if any(ch in c.title_de for ch in "äöüÄÖÜ"))
    word = next(w for w in case.title_de.split() if any(ch in w for ch in "äöüÄÖÜ"))
    spelled = word.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").strip(",.:;()")
    for query in (word, spelled.lower(), case.title_en.split()[-1]):
        found = _ids(client.get(reverse("casebook:index"), {"q": query}))
        assert case.id in found, query
        assert found < {c.id for c in every} or len(every) == 1
    assert _ids(client.get(reverse("casebook:index"), {"q": case.id})) == {case.id}
    assert _ids(client.get(reverse("casebook:index"), {"q": "xyzzy quux"})) == set()


def test_search_never_looks_at_the_ruling() -> None:
    every = casebook.load_cases()
    shown = {
        c.id: selectors.fold(
            text=" ".join(
                [
                    c.title_de,
                    c.situation_de,
                    c.question_de,
                    c.title_en,
                    c.situation_en,
                    c.question_en,
                    *[ch.label.de for ch in c.choices],
                    *[ch.label.en for ch in c.choices],
                    c.id,
                    *c.rule_ids,
                    c.category_obj.name_de,
                    c.category_obj.name_en,
                ]
            )
        )
        for c in every
    }
    words = {w for c in every for w in selectors.fold(text=c.ruling_de + " " + c.explanation_de).split() if len(w) > 5}
    word = next(w for w in sorted(words) if not any(w in text for text in shown.values()))
    assert selectors.find_cases(query=word) == ()


def test_filters_combine() -> None:
    every = casebook.load_cases()
    case = next(c for c in every if c.score_asked)
    found = selectors.find_cases(category=case.category, rule=case.rule_ids[0], level="2", query=case.id)
    assert found == (case,)


@pytest.mark.parametrize("params", [{"stufe": "7"}, {"stufe": "x"}, {"regel": "3..2"}, {"q": "x" * 101}])
def test_bad_search_values_are_400(client: Client, params: dict[str, Any]) -> None:
    assert client.get(reverse("casebook:index"), params).status_code == 400


def test_english_case_page_and_answer(client: Client) -> None:
    case = _engine_case(True)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(reverse("casebook:case", args=[case.id])).content.decode()
    assert "Decide" in page and "Entscheiden" not in page
    response = client.post(reverse("casebook:case_answer", args=[case.id]), {"answer": _right(case)})
    text = _page_text(response)
    answer = casebook.solve(case)
    assert "Sign in" in text and "Melde dich an" not in text
    for step in (line.en for line in answer.steps):
        assert render_names(step, "en") in text
    index = client.get(reverse("casebook:index")).content.decode()
    assert "Search the cases" in index and "all levels" in index and "Stufe" not in index
