"""The cards app: SVG rendering in three decks, template tags, deck choice, gallery."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.template import Context, Template
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from skatschule.cards.context_processors import DECK_COOKIE, current_deck
from skatschule.cards.render import DECKS, DEFAULT_DECK, card_svg, cards_html, choice_html, deck_choices
from skatschule.engine import CARDS, Card, InvalidCard, Rank
from skatschule.engine.names import card_name, names_for

ALL_CODES = [c.code for c in CARDS]

GERMAN_RANKS_DE = {
    Rank.ACE: "Daus",
    Rank.TEN: "Zehn",
    Rank.KING: "König",
    Rank.QUEEN: "Ober",
    Rank.JACK: "Unter",
    Rank.NINE: "Neun",
    Rank.EIGHT: "Acht",
    Rank.SEVEN: "Sieben",
}
GERMAN_RANKS_EN = {
    Rank.ACE: "Daus",
    Rank.TEN: "ten",
    Rank.KING: "king",
    Rank.QUEEN: "Ober",
    Rank.JACK: "Unter",
    Rank.NINE: "nine",
    Rank.EIGHT: "eight",
    Rank.SEVEN: "seven",
}
GERMAN_SUITS_EN = ("acorns", "leaves", "hearts", "bells")


def expected_label(card: Card, deck: str, lang: str) -> str:
    if deck == "german":
        if lang == "en":
            return f"{GERMAN_RANKS_EN[card.rank]} of {GERMAN_SUITS_EN[card.suit]}"
        return f"{names_for('german').suit(card.suit)}-{GERMAN_RANKS_DE[card.rank]}"
    return card_name(card, "en" if lang == "en" else "de")


def aria_label(svg: str) -> str:
    match = re.search(r'aria-label="([^"]*)"', svg)
    assert match, svg[:200]
    return match.group(1)


# ---- render.py ----------------------------------------------------------


@pytest.mark.parametrize("deck", list(DECKS))
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_card_renders_in_every_deck_with_its_name(deck: str, lang: str) -> None:
    with translation.override(lang):
        for card in CARDS:
            svg = card_svg(card.code, deck)
            assert svg.startswith("<svg ") and svg.endswith("</svg>")
            assert 'role="img"' in svg
            assert 'viewBox="0 0 60 90"' in svg
            assert f'data-card="{card.code}"' in svg
            label = expected_label(card, deck, lang)
            assert aria_label(svg) == label
            assert f"<title>{label}</title>" in svg


def test_known_names() -> None:
    with translation.override("de"):
        assert aria_label(card_svg("CJ", "french")) == "Kreuz-Bube"
        assert aria_label(card_svg("CJ", "german")) == "Eichel-Unter"
        assert aria_label(card_svg("SQ", "german")) == "Grün-Ober"
        assert aria_label(card_svg("DA", "german")) == "Schellen-Daus"
        assert aria_label(card_svg("HT", "tournament")) == "Herz-Zehn"
    with translation.override("en"):
        assert aria_label(card_svg("CJ", "french")) == "jack of clubs"
        assert card_name("CJ", "en", "german") == "Unter of acorns"


def test_decks_draw_differently() -> None:
    # Pik is black in the French deck and green in the tournament deck.
    assert "#1a1a1a" in card_svg("S7", "french")
    assert "#1a1a1a" not in card_svg("S7", "tournament")
    # Karo is red in the French deck and orange in the tournament deck.
    assert card_svg("D7", "french") != card_svg("D7", "tournament")
    # German corner indices: U for the Unter, O for the Ober.
    assert ">U</text>" in card_svg("CJ", "german")
    assert ">O</text>" in card_svg("CQ", "german")
    assert ">B</text>" in card_svg("CJ", "french", lang="de")
    assert ">D</text>" in card_svg("CQ", "tournament", lang="de")
    # English faces: J, Q, K, A, 10 (the German deck keeps U and O, its own proper names)
    assert ">J</text>" in card_svg("CJ", "french", lang="en") and ">B</text>" not in card_svg("CJ", "french", lang="en")
    assert ">Q</text>" in card_svg("CQ", "tournament", lang="en")
    assert ">10</text>" in card_svg("CT", "french", lang="en") and ">A</text>" in card_svg("CA", "french", lang="en")
    assert ">U</text>" in card_svg("CJ", "german", lang="en") and ">O</text>" in card_svg("CQ", "german", lang="en")
    assert len({card_svg(code, "french") for code in ALL_CODES}) == 32


def test_card_svg_accepts_lowercase_ten_and_card_objects() -> None:
    assert card_svg("cj", "french") == card_svg("CJ", "french")
    assert card_svg("H10", "french") == card_svg("HT", "french")
    assert card_svg(CARDS[0], "french") == card_svg("CA", "french")


def test_unknown_deck_falls_back_to_default() -> None:
    assert card_svg("CJ", "no-such-deck") == card_svg("CJ", DEFAULT_DECK)


def test_decorative_svg_is_hidden_from_screen_readers() -> None:
    svg = card_svg("CJ", "french", decorative=True)
    assert 'aria-hidden="true"' in svg
    assert "role=" not in svg


@pytest.mark.parametrize("bad", ["XX", "CJJ", "", "C1", "<script>", "ZZ"])
def test_bad_code_raises_invalid_card(bad: str) -> None:
    with pytest.raises(InvalidCard):
        card_svg(bad, "french")
    with pytest.raises(InvalidCard):
        cards_html(["CJ", bad or "?"], "french")
    with pytest.raises(InvalidCard):
        choice_html("c", ["CJ", bad or "?"], "french")


def test_cards_html_row() -> None:
    html = cards_html("CJ SJ HA", "french")
    assert html.startswith('<span class="cards">') and html.endswith("</span>")
    assert html.count("<svg ") == 3
    assert cards_html(["CJ", "SJ", "HA"], "french") == html
    assert cards_html("CJ, SJ, HA", "french") == html
    assert cards_html([CARDS[4]], "french").count("<svg ") == 1
    assert cards_html([], "french") == '<span class="cards"></span>'
    # Order is kept.
    assert html.index('data-card="CJ"') < html.index('data-card="SJ"') < html.index('data-card="HA"')


def test_choice_html_checkboxes() -> None:
    with translation.override("de"):
        html = choice_html("skat", ["CJ", "HA"], "german", checked=["HA"])
    labels = re.findall(r'<label class="card-choice">.*?</label>', html)
    assert len(labels) == 2
    assert '<input type="checkbox" name="skat" value="CJ">' in labels[0]
    assert '<input type="checkbox" name="skat" value="HA" checked>' in labels[1]
    assert '<span class="visually-hidden">Eichel-Unter</span>' in labels[0]
    assert 'aria-hidden="true"' in labels[0]
    # The input comes right before the SVG: the CSS styles `input:checked + .card-img`.
    assert re.search(r'<input [^>]*><svg class="card-img', labels[0])


def test_choice_html_ignores_marks_that_are_no_cards() -> None:
    """A form shown again with what a visitor sent: junk is not marked, and nothing breaks."""
    html = choice_html("hand", ["CJ", "HA"], "french", checked=["XX", "10", "", "HA", '"><b>'])
    assert html.count(" checked") == 1 and 'value="HA" checked' in html and "<b>" not in html


def test_choice_html_radio_and_escaping() -> None:
    html = choice_html('a"b', "CJ SJ", "french", input_type="radio", checked="SJ")
    assert html.count('type="radio"') == 2
    assert 'name="a&quot;b"' in html
    assert 'value="SJ" checked' in html
    with pytest.raises(ValueError):
        choice_html("c", ["CJ"], "french", input_type="text")


def test_deck_choices_are_translated() -> None:
    with translation.override("de"):
        assert dict(deck_choices())["german"] == "Deutsches Blatt"
    with translation.override("en"):
        assert dict(deck_choices())["german"] == "German deck"
    assert [key for key, _ in deck_choices()] == ["french", "german", "tournament"]


# ---- template tags ------------------------------------------------------


def render(source: str, **context: object) -> str:
    return Template("{% load cards %}" + source).render(Context(context))


def test_card_tags_use_the_context_deck() -> None:
    with translation.override("de"):
        assert 'aria-label="Eichel-Unter"' in render('{% card "CJ" %}', deck="german")
        assert 'aria-label="Kreuz-Bube"' in render('{% card "CJ" %}')
        assert 'aria-label="Kreuz-Bube"' in render('{% card "CJ" %}', deck="bogus")
        row = render('{% cards "CJ SJ HA" %}', deck="tournament")
        assert row.count("<svg ") == 3 and row.startswith('<span class="cards">')
        assert render("{% cards hand %}", hand=["CJ", "DA"], deck="french").count("<svg ") == 2
        choices = render('{% card_choices "c" hand "radio" %}', hand="CJ SJ", deck="german")
        assert choices.count('type="radio"') == 2 and "Grün-Unter" in choices
        checked = render('{% card_choices "c" hand checked=sel %}', hand="CJ SJ", sel=["SJ"])
        assert 'value="SJ" checked' in checked
        assert render('{% card_name "SQ" %}', deck="german") == "Grün-Ober"


def test_card_tag_with_bad_code_raises() -> None:
    with pytest.raises(InvalidCard):
        render('{% card "XX" %}')


# ---- deck choice --------------------------------------------------------


@pytest.mark.django_db
def test_set_deck_rejects_unknown_deck(client: Client) -> None:
    response = client.post(reverse("cards:deck"), {"deck": "tarot", "next": "/"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "tarot" in body and "kein Kartenblatt" in body
    assert "Deutsches Blatt" in body
    assert DECK_COOKIE not in response.cookies


@pytest.mark.django_db
def test_set_deck_without_field_is_400(client: Client) -> None:
    assert client.post(reverse("cards:deck")).status_code == 400


@pytest.mark.django_db
def test_set_deck_needs_post(client: Client) -> None:
    assert client.get(reverse("cards:deck")).status_code == 405


@pytest.mark.django_db
def test_deck_choice_persists_across_requests(client: Client) -> None:
    response = client.post(reverse("cards:deck"), {"deck": "german", "next": reverse("cards:gallery")})
    assert response.status_code == 302
    assert response["Location"] == reverse("cards:gallery")
    cookie = response.cookies[DECK_COOKIE]
    assert cookie.value == "german"
    assert int(cookie["max-age"]) >= 300 * 24 * 3600
    for _ in range(2):
        page = client.get(reverse("cards:gallery")).content.decode()
        assert 'aria-label="Eichel-Unter"' not in page  # gallery SVGs are decorative ...
        assert "Eichel-Unter" in page  # ... the names are in the text
        assert '<option value="german" selected>' in page
    home = client.get("/").content.decode()
    assert 'aria-label="Eichel-Unter"' in home


@pytest.mark.django_db
def test_deck_cookie_alone_is_enough(client: Client) -> None:
    client.cookies[DECK_COOKIE] = "tournament"
    page = client.get("/").content.decode()
    assert '<option value="tournament" selected>' in page


@pytest.mark.django_db
def test_bad_deck_cookie_is_ignored(client: Client, rf: RequestFactory) -> None:
    client.cookies[DECK_COOKIE] = "<script>"
    page = client.get("/").content.decode()
    assert '<option value="french" selected>' in page
    request = rf.get("/")
    request.COOKIES[DECK_COOKIE] = "nonsense"
    assert current_deck(request) == DEFAULT_DECK
    assert current_deck(None) == DEFAULT_DECK


@pytest.mark.django_db
def test_set_deck_redirects_only_to_this_site(client: Client) -> None:
    url = reverse("cards:deck")
    assert client.post(url, {"deck": "french", "next": "https://evil.example/"})["Location"] == "/"
    assert client.post(url, {"deck": "french", "next": "//evil.example/x"})["Location"] == "/"
    assert client.post(url, {"deck": "french"}, HTTP_REFERER="http://testserver/karten/")["Location"] == (
        "http://testserver/karten/"
    )
    assert client.post(url, {"deck": "french"}, HTTP_REFERER="https://evil.example/")["Location"] == "/"


@pytest.mark.django_db
def test_set_deck_shows_a_message(client: Client) -> None:
    response = client.post(reverse("cards:deck"), {"deck": "german", "next": "/"}, follow=True)
    assert "Kartenblatt gewechselt: Deutsches Blatt." in response.content.decode()


@pytest.mark.django_db
def test_logged_in_user_keeps_deck(client: Client, django_user_model: type[User]) -> None:
    user = django_user_model.objects.create_user("anna", password="pw-skat-2024")
    client.force_login(user)
    client.post(reverse("cards:deck"), {"deck": "german", "next": "/"})
    assert client.session["deck"] == "german"
    assert '<option value="german" selected>' in client.get("/").content.decode()


# ---- gallery ------------------------------------------------------------


@pytest.mark.django_db
def test_gallery_shows_all_32_cards_with_both_names(client: Client) -> None:
    response = client.get(reverse("cards:gallery"))
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('class="gallery-card"') == 32
    assert page.count("<svg ") == 32
    for card in CARDS:
        assert f'id="karte-{card.code}"' in page
        assert f'<span class="gallery-name">{card_name(card)}</span>' in page
        assert card_name(card, "en") not in page  # the German interface names each card once, in German
    assert "(clubs)" not in page and 'lang="en"' not in page.split("<main", 1)[1]
    assert "11 Augen" in page and "0 Augen" in page and "2 Augen" in page


@pytest.mark.django_db
def test_gallery_in_german_deck_names_the_french_equivalent(client: Client) -> None:
    client.post(reverse("cards:deck"), {"deck": "german"})
    page = client.get(reverse("cards:gallery")).content.decode()
    assert "Schellen-Daus" in page and "Daus of bells" not in page and "(acorns)" not in page
    assert "entspricht Kreuz-Bube" in page


@pytest.mark.django_db
def test_gallery_in_english(client: Client) -> None:
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(reverse("cards:gallery")).content.decode()
    assert '<html lang="en">' in page
    assert "The cards" in page and "11 card points" in page
    # English first, the German name after it; faces show J and Q
    assert '<span class="gallery-name">jack of clubs</span>' in page
    assert page.index("jack of clubs") < page.index("Kreuz-Bube")
    assert ">Clubs <span" in page and "Kreuz-Ass / " not in page
    face = page[page.index('id="karte-CJ"') :]
    assert ">J</text>" in face[: face.index("</svg>")] and ">B</text>" not in face[: face.index("</svg>")]
    client.post(reverse("cards:deck"), {"deck": "german"})
    page = client.get(reverse("cards:gallery")).content.decode()
    assert '<span class="gallery-name">Unter of acorns</span>' in page and "Eichel-Unter" in page
    assert page.index("Unter of acorns") < page.index("Eichel-Unter")
    assert "jack of clubs" in page  # the French card it corresponds to, in English
