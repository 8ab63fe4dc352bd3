"""The ``rule`` URL converter: every published id keeps its URL; lowercase and old citations still work."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import resolve, reverse

from skatschule.rules.content import get_registry, read_published_ids


def _published() -> list[str]:
    return read_published_ids(get_registry().content_dir)


def test_every_published_id_keeps_its_permalink_and_detail_url() -> None:
    ids = _published()
    assert ids
    for rid in ids:
        assert reverse("rules:rule", args=[rid]) == f"/regeln/{rid}"
        assert reverse("rules:rule_detail", args=[rid]) == f"/regeln/{rid}/einzeln/"
        for url in (f"/regeln/{rid}", f"/regeln/{rid}/", f"/regeln/{rid.lower()}"):
            match = resolve(url)
            assert match.view_name == "rules:rule" and match.kwargs == {"ref": url.split("/")[2]}


@pytest.mark.django_db
def test_lowercase_and_old_forms_redirect_to_the_published_id(client: Client) -> None:
    registry = get_registry()
    rule = registry.rule("K.1.2")
    assert rule is not None
    published = client.get("/regeln/K.1.2")
    assert published.status_code == 302 and published.headers["Location"].endswith(f"#{rule.anchor}")
    for url in ("/regeln/k.1.2", "/regeln/k.1.2/", "/regeln/K.1.2/"):
        response = client.get(url)
        assert (response.status_code, response.headers["Location"]) == (302, published.headers["Location"]), url
    assert client.get("/regeln/k.1.2/einzeln/").headers["Location"] == "/regeln/K.1.2/einzeln/"
    section = client.get("/regeln/3.2")
    assert section.status_code == 302 and section.headers["Location"].endswith("#s-3.2")
    alias = registry.resolve("SkO 4.2.9")
    assert alias is not None
    old = client.get("/regeln/SkO-4.2.9/")
    assert old.status_code == 302 and old.headers["Location"].endswith(f"#{registry.rules[alias].anchor}")


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/regeln/3.2.4.5", "/regeln/3..4", "/regeln/x.1.1/einzeln/", "/regeln/9.9.9"])
def test_what_is_no_rule_id_is_not_found(client: Client, url: str) -> None:
    assert client.get(url).status_code == 404
