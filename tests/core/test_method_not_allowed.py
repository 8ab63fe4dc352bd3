"""A GET on an address that only takes forms gets the site's page with a way back (issue 34 §7)."""

from __future__ import annotations

from django.test import Client


def test_a_get_on_a_form_address_is_the_sites_page_with_a_way_back(client: Client) -> None:
    response = client.get("/liste/sitzung/einsatz/", HTTP_REFERER="http://testserver/regeln/")
    page = response.content.decode()
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert "Nur über ein Formular" in page
    assert 'href="http://testserver/regeln/">Zurück</a>' in page
    assert "<nav" in page  # the site's chrome, not the browser's bare page


def test_the_way_back_never_leaves_the_site(client: Client) -> None:
    for referer in ("https://evil.example/", "javascript:alert(1)", ""):
        page = client.get("/liste/sitzung/einsatz/", HTTP_REFERER=referer).content.decode()
        assert 'href="/">Zurück</a>' in page and "evil" not in page, referer


def test_other_methods_keep_djangos_answer(client: Client) -> None:
    assert client.put("/liste/sitzung/einsatz/").content == b""
