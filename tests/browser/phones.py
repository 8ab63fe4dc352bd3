"""A phone-sized browser context (375 × 740, touch), signed in as a user if one is given,
in German or English. Shared by the browser tests of the teacher and referee pages."""

from __future__ import annotations

from typing import Any

from django.test import Client


def phone(browser: Any, live_server: Any, user: Any = None, *, lang: str = "de", **options: Any) -> Any:
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
    cookies = []
    if user is not None:
        client = Client()
        client.force_login(user)
        cookies.append({"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url})
    if lang == "en":
        cookies.append({"name": "django_language", "value": "en", "url": live_server.url})
    if cookies:
        context.add_cookies(cookies)
    return context
