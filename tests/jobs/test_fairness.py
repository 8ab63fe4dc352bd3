"""Issue 33, M2 and L3: visitors cannot starve the worker, and no limit is passed by parallel posts.

- an ISS record's analysis is keyed by its game (deal and moves), not by the names in it;
- the worker takes short jobs and signed-in learners' first (the database queue's order);
- visitors together may have ``JOBS_ANONYMOUS_TOTAL`` jobs pending;
- the addresses of one IPv6 /64 share ``JOBS_PER_ADDRESS``;
- counting and inserting are one step: threads posting at the same moment (each with its own
  connection and transaction) never get more pending jobs than allowed, on SQLite and on
  PostgreSQL (``postgres``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client, override_settings
from django_tasks_db.models import DBTaskResult

from skatschule.engine.iss import parse_record
from skatschule.jobs import services
from skatschule.jobs.models import PENDING, Job
from skatschule.jobs.probe import PROBE
from skatschule.owners import Owner
from skatschule.table import services as table_services
from skatschule.table import work
from tests.table.records import played_record

pytestmark = pytest.mark.django_db
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # jobs stay queued
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def _renamed(record: str, names: tuple[str, str, str]) -> str:
    for seat, name in enumerate(names):
        record = record.replace(f"P{seat}[{('Vorhand', 'Mittelhand', 'Hinterhand')[seat]}]", f"P{seat}[{name}]")
    return record


def _played(seed: int = 3) -> str:
    record = played_record(seed)
    assert parse_record(record).plays  # a game with cards played: the board asks for an analysis
    return record


def test_the_analysis_key_is_the_game_not_the_names_in_its_record() -> None:
    record = _played()
    renamed = _renamed(record, ("Anna", "Bernd", "Carla"))
    assert renamed != record
    key = table_services.game_key(state=parse_record(record).state)
    assert table_services.game_key(state=parse_record(renamed).state) == key
    assert table_services.game_key(state=parse_record(_played(4)).state) != key


@override_settings(TASKS=DUMMY)
def test_renamed_records_share_one_analysis_job_key() -> None:
    record = _played()
    keys = set()
    for names in (("Vorhand", "Mittelhand", "Hinterhand"), ("Anna", "Bernd", "Carla"), ("x", "y", "z")):
        visitor = Client()
        assert visitor.post("/ueben/spiel/iss/", {"records": _renamed(record, names)}).status_code == 302
        assert visitor.get("/ueben/spiel/iss/brett/", {"spiel": 0}).status_code == 200
        keys |= set(Job.objects.filter(kind=work.ANALYSIS).values_list("key", flat=True))
    assert len(keys) == 1 and Job.objects.filter(kind=work.ANALYSIS).count() == 3


@override_settings(TASKS=DB_TASKS, JOBS_PER_ADDRESS=100)
def test_the_worker_takes_short_jobs_and_signed_in_learners_first() -> None:
    user = get_user_model().objects.create_user("lernt")
    signed_in, visitor = Owner.for_user(user), Owner.for_session("v" * 32)
    order = [
        (visitor, work.ANALYSIS),
        (signed_in, work.ANALYSIS),
        (visitor, work.BOTS),
        (signed_in, work.BOTS),
    ]
    for n, (owner, kind) in enumerate(order):
        services.submit(owner=owner, kind=kind, key=f"k{n}", payload={})
    taken = [row.args_kwargs["args"][0] for row in DBTaskResult.objects.ready()]
    expected = [str(job.pk) for job in [Job.objects.get(key=f"k{n}") for n in (3, 2, 1, 0)]]
    assert taken == expected


@override_settings(TASKS=DUMMY, JOBS_ANONYMOUS_TOTAL=3, JOBS_PER_OWNER=100, JOBS_PER_ADDRESS=100)
def test_visitors_together_may_queue_only_so_much() -> None:
    for n in range(3):
        services.submit(owner=Owner.for_session(f"{n}" * 32), kind=PROBE, key=f"v{n}", payload={})
    with pytest.raises(services.LimitReached) as refused:
        services.submit(owner=Owner.for_session("z" * 32), kind=PROBE, key="v3", payload={})
    assert refused.value.status == 429 and "Angemeldete kommen zuerst" in str(refused.value.text.de)
    user = get_user_model().objects.create_user("angemeldet")
    assert services.submit(owner=Owner.for_user(user), kind=PROBE, key="u", payload={}).is_pending


@override_settings(TASKS=DUMMY, JOBS_PER_OWNER=100, JOBS_PER_ADDRESS=2, JOBS_ANONYMOUS_TOTAL=100)
def test_the_addresses_of_one_ipv6_64_share_the_address_limit() -> None:
    for n in (1, 2):
        services.submit(
            owner=Owner.for_session(f"{n}" * 32), kind=PROBE, key=f"a{n}", payload={}, address=f"2001:db8:7::{n}"
        )
    with pytest.raises(services.LimitReached):
        services.submit(
            owner=Owner.for_session("3" * 32), kind=PROBE, key="a3", payload={}, address="2001:db8:7::ffff:3"
        )
    other = services.submit(
        owner=Owner.for_session("4" * 32), kind=PROBE, key="a4", payload={}, address="2001:db8:8::1"
    )
    assert other.is_pending and other.address == "2001:db8:8::/64"


PARALLEL = 12


def _in_parallel(submit: Any) -> list[bool]:
    start = Barrier(PARALLEL)

    def one(n: int) -> bool:
        try:
            start.wait()
            submit(n)
            return True
        except services.LimitReached:
            return False
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        return list(pool.map(one, range(PARALLEL)))


def _parallel_posts_keep_the_limits() -> None:
    with override_settings(TASKS=DUMMY, JOBS_PER_OWNER=3, JOBS_PER_ADDRESS=8, JOBS_ANONYMOUS_TOTAL=100):
        owner = Owner.for_session("p" * 32)
        taken = _in_parallel(lambda n: services.submit(owner=owner, kind=PROBE, key=f"o{n}", payload={}))
        assert sum(taken) == 3 and Job.objects.owned_by(owner).filter(status__in=PENDING).count() == 3

        def from_one_address(n: int) -> None:
            services.submit(
                owner=Owner.for_session(f"{n:032d}"), kind=PROBE, key=f"a{n}", payload={}, address="10.9.0.1"
            )

        taken = _in_parallel(from_one_address)
        assert sum(taken) == 8 and Job.objects.filter(address="10.9.0.1", status__in=PENDING).count() == 8
    with override_settings(TASKS=DUMMY, JOBS_PER_OWNER=3, JOBS_PER_ADDRESS=100, JOBS_ANONYMOUS_TOTAL=5):
        Job.objects.all().delete()
        taken = _in_parallel(
            lambda n: services.submit(owner=Owner.for_session(f"{n:032d}"), kind=PROBE, key=f"t{n}", payload={})
        )
        assert sum(taken) == 5 and Job.objects.filter(status__in=PENDING).count() == 5


@pytest.mark.django_db(transaction=True)
def test_parallel_posts_keep_the_limits_on_sqlite() -> None:
    _parallel_posts_keep_the_limits()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_posts_keep_the_limits_on_postgres() -> None:
    _parallel_posts_keep_the_limits()
