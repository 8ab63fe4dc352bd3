"""Only a database that cannot be reached is an outage (issue 33, L2).

``handler500`` answered every database error with the 503 outage page, which hid a locking
query that PostgreSQL refuses (H1) and a unique violation. A real fault of the site (a unique
violation, a bad query, a deadlock) is a 500, logged as an error with its traceback; a refused,
lost or restarting database is the 503 with ``Retry-After``. The outage of a real, unreachable
server is tested end to end in test_outages.py.
"""

from __future__ import annotations

import logging
import sys
import types
from collections.abc import Callable

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from pytest_django.fixtures import Settings

from skatschule.core.db import is_outage

pytestmark = pytest.mark.django_db

URLCONF = "skatschule_test_urls_server_error"


def _duplicate_user(request: HttpRequest) -> HttpResponse:
    User.objects.create(username="twice")
    User.objects.create(username="twice")  # IntegrityError, on every database
    return HttpResponse("unreachable")


def _bad_query(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:  # ProgrammingError on PostgreSQL, OperationalError on SQLite
        cursor.execute("SELECT nothing FROM no_such_table")
    return HttpResponse("unreachable")


def _raising(make: Callable[[], Exception]) -> Callable[[HttpRequest], HttpResponse]:
    def view(request: HttpRequest) -> HttpResponse:
        raise make()

    return view


def _wrapped(cause: Exception) -> OperationalError:
    """An OperationalError as Django raises it: psycopg's error is its ``__cause__``."""
    exc = OperationalError(*cause.args)
    exc.__cause__ = cause
    return exc


@pytest.fixture
def site(settings: Settings) -> Client:
    module = types.ModuleType(URLCONF)
    module.urlpatterns = [  # type: ignore[attr-defined]
        path("duplicate/", _duplicate_user),
        path("bad-query/", _bad_query),
        path("refused/", _raising(lambda: _wrapped(psycopg.OperationalError("connection refused")))),
        path("lost/", _raising(lambda: InterfaceError("connection already closed"))),
        path("shutdown/", _raising(lambda: _wrapped(psycopg.errors.AdminShutdown("terminating connection")))),
        path("deadlock/", _raising(lambda: _wrapped(psycopg.errors.DeadlockDetected("deadlock detected")))),
    ]
    module.handler500 = "skatschule.operations.views.server_error"  # type: ignore[attr-defined]
    sys.modules[URLCONF] = module
    settings.ROOT_URLCONF = URLCONF
    settings.DEBUG = False
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("url", ["/duplicate/", "/bad-query/", "/deadlock/"])
def test_a_fault_of_the_site_is_a_logged_500_not_the_outage_page(
    site: Client, url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        response = site.get(url)
    assert response.status_code == 500
    assert response.get("Retry-After") is None
    assert "Vorübergehend nicht erreichbar" not in response.content.decode()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert errors and all("database unavailable" not in r.getMessage() for r in errors)


@pytest.mark.parametrize("url", ["/refused/", "/lost/", "/shutdown/"])
def test_a_database_that_cannot_be_reached_is_the_503_outage_page(site: Client, url: str) -> None:
    response = site.get(url)
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "Vorübergehend nicht erreichbar" in response.content.decode()


def test_sqlites_busy_and_missing_file_are_outages_its_other_errors_are_not() -> None:
    import sqlite3

    def sqlite_error(code: int) -> OperationalError:
        cause = sqlite3.OperationalError("x")
        cause.sqlite_errorcode = code
        return _wrapped(cause)

    assert is_outage(sqlite_error(sqlite3.SQLITE_BUSY))
    assert is_outage(sqlite_error(sqlite3.SQLITE_CANTOPEN))
    assert not is_outage(sqlite_error(sqlite3.SQLITE_ERROR))  # e.g. "no such table"
