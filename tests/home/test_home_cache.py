"""The home page's cached part is keyed by what it is made of: a deploy that changes its
template or the catalogue never shows the old page from the cache."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.test import Client

from skatschule.home import views


@pytest.mark.django_db
def test_the_cached_home_page_is_keyed_by_its_content_version(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.clear()
    assert client.get("/").status_code == 200
    version = views.content_version()
    assert len(version) == 12
    assert cache.get(make_template_fragment_key("home_content", [version, "de", "french"])) is not None
    views.content_version.cache_clear()
    monkeypatch.setattr(views, "_SOURCES", ("templates/home/index.html", "a changed file"))
    try:
        assert views.content_version() != version  # another source, another key
    finally:
        views.content_version.cache_clear()
