"""Bytes on the wire (issue 17, §2): every rules chapter is at most 40 kB with gzip, in every
language and deck, and a permalink is served from the one cached chapter body."""

from __future__ import annotations

import gzip

import pytest
from django.test import Client

from skatschule.rules import views
from skatschule.rules.content import reload

pytestmark = pytest.mark.django_db
LIMIT = 40 * 1024


def test_every_chapter_is_compressed_below_40_kb() -> None:
    registry = reload()
    client = Client()
    for lang in ("de", "en"):
        client.cookies["django_language"] = lang
        for chapter in registry.chapters:
            response = client.get(f"/regeln/kapitel/{chapter.id}/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
            assert response.status_code == 200
            assert response["Content-Encoding"] == "gzip"
            assert "Accept-Encoding" in response["Vary"]
            assert len(response.content) <= LIMIT, (lang, chapter.id, len(response.content))
            assert b"</html>" in gzip.decompress(response.content)
    plain = client.get("/regeln/kapitel/1/")  # a client that does not ask for gzip gets plain HTML
    assert "Content-Encoding" not in plain and b"</html>" in plain.content


def test_permalinks_share_the_cached_chapter() -> None:
    registry = reload()
    views.clear_body_cache()
    client = Client()
    rules = [rule for rule in registry.rules.values() if rule.chapter_id == "3"][:20]
    for rule in rules:
        target = client.get(f"/regeln/{rule.id}")["Location"]
        assert target == f"/regeln/kapitel/3/#{rule.anchor}"  # the fragment scrolls and highlights, also without JS
        assert client.get(target.split("#")[0]).status_code == 200
    assert len(views._bodies) == 1


def test_the_spliced_gzip_page_is_the_plain_page() -> None:
    """The chapter body is compressed once and spliced between the per-request parts: the
    result decompresses (CRC and length checked by gzip) to exactly the page a client without
    gzip gets, but for the visitor's own CSRF token."""
    import re

    reload()
    client = Client()
    token = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"')
    for url in ("/regeln/kapitel/3/", "/regeln/kapitel/3/"):  # the second time from the cache
        zipped = gzip.decompress(client.get(url, HTTP_ACCEPT_ENCODING="gzip").content)
        plain = client.get(url).content
        assert token.sub(b"", zipped) == token.sub(b"", plain)
        assert len(plain) > 100_000
    first = client.get("/regeln/kapitel/3/", HTTP_ACCEPT_ENCODING="gzip").content
    second = client.get("/regeln/kapitel/3/", HTTP_ACCEPT_ENCODING="gzip").content
    assert first[10:] != second[10:]  # random padding in the header (BREACH), fresh token
