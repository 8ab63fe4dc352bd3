"""The table under its ASGI server (``manage.py serve``: uvicorn, the worker in the same process)
in Debian's chromium: a whole game at each bots' level, the strong bots' cards pushed to the page;
and a connection cut while a bot thinks, with JavaScript (the stream reconnects and catches up)
and without (the reload link goes on where the game stands)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from skatschule.jobs.models import Job
from skatschule.jobs.running import run
from skatschule.table import services
from tests.push.servers import Server, served

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

THINKING = "Der Computer überlegt."


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.05)  # a job run by the test itself


@pytest.fixture
def site(django_db_setup: None) -> Iterator[str]:
    """The site with its worker, once the test database exists (the server opens its file). One a
    test: a worker left running would take the jobs the tests below leave to nobody (the servers
    share the database)."""
    with served() as (base,):
        yield base


@pytest.fixture(scope="module")
def site_without_worker(django_db_setup: None) -> Iterator[str]:
    """A site whose jobs nobody runs but the test: their end is never pushed (another process)."""
    with served(worker=False) as (base,):
        yield base


def _context(browser: Browser, *, js: bool = True) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE", java_script_enabled=js)
    context.set_default_timeout(20_000)
    return context


def _new_game(page: Page, base: str, level: str) -> None:
    page.goto(f"{base}/ueben/spiel/")
    page.locator("#bot-level").select_option(level)
    page.get_by_role("button", name="Neues Spiel").click()
    if page.get_by_role("button", name="Ja, neues Spiel").count():
        page.get_by_role("button", name="Ja, neues Spiel").click()
    expect(page.locator("#bot-level")).to_have_value(level)


def _move(page: Page) -> bool:
    """One move of the learner (pass in the auction, else the first legal card), the answer
    awaited; False once the game is over."""
    board = page.locator("#board")
    if board.locator("#table-result").count():
        return False
    passe = board.get_by_role("button", name="Passe")
    legal = board.locator("ul.table-hand button.legal")
    with page.expect_response(lambda r: r.request.method == "POST"):
        (passe if passe.count() else legal.first).click()
    # the strong bots think on the worker: the page waits for the pushed end, then shows the board
    expect(board.get_by_text(THINKING)).to_have_count(0)
    expect(board.locator("#table-result, ul.table-hand button.legal, button[value=pass]").first).to_be_visible()
    return True


@pytest.mark.parametrize("level", ["beginner", "club", "strong"])
def test_a_whole_game_at_each_level(browser: Browser, site: str, level: str) -> None:
    context = _context(browser)
    thought: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda r: thought.append(r.url) if "/ereignisse/" in r.url else None)
        _new_game(page, site, level)
        for _ in range(40):
            if not _move(page):
                break
        expect(page.locator("#table-result")).to_be_visible()
        # only the strong level's cards go to the worker and come back through an event stream; a
        # strong game need not have one (a passed-in deal, forced cards): the cut-connection tests
        # below look for one on purpose
        if level != "strong":
            assert thought == []
    finally:
        context.close()


def _to_thinking(page: Page, base: str) -> str:
    """A strong game until a bot thinks on the worker; the id of its job."""
    for _ in range(10):
        _new_game(page, base, "strong")
        for _ in range(20):
            waiting = page.locator(".job-progress a")
            if waiting.count():
                found = re.search(r"/rechnung/([0-9a-f-]+)/", waiting.first.get_attribute("href") or "")
                assert found
                return found.group(1)
            board = page.locator("#board")
            if board.locator("#table-result").count():
                break
            passe = board.get_by_role("button", name="Passe")
            with page.expect_response(lambda r: r.request.method == "POST"):
                (passe if passe.count() else board.locator("ul.table-hand button.legal").first).click()
            page.wait_for_load_state()
            expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    raise AssertionError("no strong bot had to think in ten games")


def test_a_cut_connection_reconnects_and_catches_up(browser: Browser, django_db_setup: None) -> None:
    # its jobs are run by the test, whose events reach no stream; a stream lasts 2 s, then the
    # page connects again (while offline it fails, and the sse extension tries again later)
    server = Server({"PUSH_STREAM_SECONDS": "2"}, worker=False)
    context = _context(browser)
    try:
        server.start()
        server.wait()
        page = context.new_page()
        job = _to_thinking(page, server.url)
        streams: list[str] = []
        page.on("request", lambda r: streams.append(r.url) if "/ereignisse/" in r.url else None)
        context.set_offline(True)  # the connection is cut ...
        with page.expect_request_finished(lambda r: "/ereignisse/" in r.url):
            pass  # (the stream open before the cut has ended)
        run(job_id=job)  # ... the bot's card is chosen meanwhile ...
        assert Job.objects.get(pk=job).is_done
        expect(page.locator(f"#job-{job}")).to_be_visible()  # the page has not heard of it
        streams.clear()
        context.set_offline(False)  # ... and back: the page reconnects, the stream's first message says done
        # the bot's card is on the board (the next bot may be thinking already, on a job of its own)
        expect(page.locator(f"#job-{job}")).to_have_count(0, timeout=20_000)
        assert streams  # it came through a new connection of the event stream
        assert job not in page.content()
    finally:
        context.close()
        server.stop()


def test_without_javascript_the_reload_link_goes_on_after_a_cut(browser: Browser, site_without_worker: str) -> None:
    context = _context(browser, js=False)
    try:
        page = context.new_page()
        job = _to_thinking(page, site_without_worker)
        context.set_offline(True)
        link = site_without_worker + (page.locator(".job-progress a").first.get_attribute("href") or "")
        with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
            page.goto(link)  # the reload fails while the connection is cut
        context.set_offline(False)
        page.goto(link)
        run(job_id=job)
        page.get_by_role("link", name="Stand neu laden").click()
        expect(page.locator(f"#job-{job}")).to_have_count(0)  # the bot's card is on the board
        expect(page.locator("#board")).to_be_visible()
    finally:
        context.close()
