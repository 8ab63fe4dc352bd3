import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

_SOURCES = ("templates/home/index.html", "skatschule/locale/en/LC_MESSAGES/django.mo")


@cache
def content_version() -> str:
    """A digest of what the home page's cached part is made of (its template and the English
    catalogue): part of the fragment cache's key, so a deploy that changes either never shows
    the old page from the cache."""
    digest = hashlib.sha256()
    for name in _SOURCES:
        path = Path(settings.BASE_DIR) / name
        digest.update(path.read_bytes() if path.exists() else name.encode())
    return digest.hexdigest()[:12]


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """What Skatschule is, with links to the parts of the site."""
    return render(request, "home/index.html", {"content_version": content_version()})
