"""Issue 18, accounts in Debian's chromium at 375 px, by keyboard: a password reset through
the mail (captured with Django's locmem backend; the live server runs in this process)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "pik-ass-und-karo-zehn"


@pytest.fixture(autouse=True)
def mail_and_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []


def _no_horizontal_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_password_reset_through_the_mail_by_keyboard(live_server, phone_page):
    page = phone_page
    user = get_user_model().objects.create_user("greta", "greta@example.org", "altes-passwort-1")
    page.goto(live_server.url + "/konto/anmelden/")
    link = page.get_by_role("link", name="Passwort vergessen?")
    link.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Passwort vergessen")
    _no_horizontal_scroll(page)
    page.get_by_label("E-Mail").focus()
    page.keyboard.type("greta@example.org")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Link verschickt")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["greta@example.org"]
    url = re.search(r"(https?://\S+/konto/passwort-vergessen/\S+/)", mail.outbox[0].body).group(1)
    assert url.startswith(live_server.url)
    page.goto(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Neues Passwort")
    _no_horizontal_scroll(page)
    page.locator("#id_new_password1").focus()
    page.keyboard.type(NEW_PASSWORD)
    page.keyboard.press("Tab")
    page.keyboard.type(NEW_PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Passwort geändert")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # and the new password logs in
    page.get_by_role("link", name="Jetzt anmelden").click()
    page.locator("#id_username").fill("greta")
    page.locator("#id_password").fill(NEW_PASSWORD)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/ueben/"))
