"""Issue 18, accounts in Debian's chromium at 375 px, by keyboard: a password reset through
the console mail, the site's default without mail settings (the live server runs in this
process, so what the console backend prints is read back from the captured stdout). Once in
German with JavaScript, once in English without it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from tests.browser.phones import phone
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "pik-ass-und-karo-zehn"
WORDS = {
    "de": {
        "forgot": "Passwort vergessen?",
        "heading": "Passwort vergessen",
        "sent": "Link verschickt",
        "subject": "Skatschule: neues Passwort",
        "new": "Neues Passwort",
        "changed": "Passwort geändert",
        "login": "Jetzt anmelden",
    },
    "en": {
        "forgot": "Forgot your password?",
        "heading": "Forgotten password",
        "sent": "Link sent",
        "subject": "Skatschule: new password",
        "new": "New password",
        "changed": "Password changed",
        "login": "Log in now",
    },
}


@pytest.fixture(autouse=True)
def console_mail(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # pytest-django sets locmem


def _no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("lang,javascript", [("de", True), ("en", False)])
def test_password_reset_through_the_console_mail_by_keyboard(
    browser: Browser, live_server: LiveServer, capsys: pytest.CaptureFixture[str], lang: str, javascript: bool
) -> None:
    words = WORDS[lang]
    user = get_user_model().objects.create_user("greta", "greta@example.org", "altes-passwort-1")
    context = phone(browser, live_server, lang=lang, java_script_enabled=javascript)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/konto/anmelden/")
        link = page.get_by_role("link", name=words["forgot"])
        link.focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text(words["heading"])
        _no_horizontal_scroll(page)
        capsys.readouterr()  # only what the reset prints from here on
        page.locator("#id_email").focus()
        page.keyboard.type("greta@example.org")
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text(words["sent"])
        printed = capsys.readouterr().out
        assert f"Subject: {words['subject']}" in printed and "To: greta@example.org" in printed
        url = present(re.search(r"(https?://\S+/konto/passwort-vergessen/\S+/)", printed)).group(1)
        assert url.startswith(live_server.url)
        page.goto(url)
        expect(page.get_by_role("heading", level=1)).to_have_text(words["new"])
        _no_horizontal_scroll(page)
        page.locator("#id_new_password1").focus()
        page.keyboard.type(NEW_PASSWORD)
        page.keyboard.press("Tab")
        page.keyboard.type(NEW_PASSWORD)
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text(words["changed"])
        user.refresh_from_db()
        assert user.check_password(NEW_PASSWORD)
        # the link works once only
        page.goto(url)
        expect(page.locator(".callout")).to_be_visible()
        # and the new password logs in
        page.go_back()
        page.get_by_role("link", name=words["login"]).click()
        page.locator("#id_username").fill("greta")
        page.locator("#id_password").fill(NEW_PASSWORD)
        page.keyboard.press("Enter")
        expect(page).to_have_url(re.compile(r"/ueben/"))
    finally:
        context.close()
