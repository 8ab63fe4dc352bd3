"""A phone-sized browser context (375 × 740, touch), signed in as a user if one is given,
in German or English. Shared by the browser tests of the teacher and referee pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.test import Client

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam
    from playwright.sync_api import Browser, BrowserContext
    from pytest_django.live_server_helper import LiveServer


def phone(
    browser: Browser, live_server: LiveServer, user: User | None = None, *, lang: str = "de", **options: Any
) -> BrowserContext:
    """A new context; ``options`` go to ``browser.new_context`` (``java_script_enabled``,
    ``accept_downloads`` ...). English is chosen with the site's language cookie."""
    context = browser.new_context(
        viewport={"width": 375, "height": 740},
        is_mobile=True,
        has_touch=True,
        locale="en-GB" if lang == "en" else "de-DE",
        **options,
    )
    context.set_default_timeout(15_000)
    cookies: list[SetCookieParam] = []
    if user is not None:
        client = Client()
        client.force_login(user)
        cookies.append({"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url})
    if lang == "en":
        cookies.append({"name": "django_language", "value": "en", "url": live_server.url})
    if cookies:
        context.add_cookies(cookies)
    return context
