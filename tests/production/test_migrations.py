"""Migrations run forwards on a database full of data (``manage.py demo_data``).

For every app of the project: roll back its newest migration (an app with only an initial
migration and no data of its own is rolled back to zero; the training app, which holds the
demo data, only when it has more than one migration), then migrate everything forwards
again. The demo data must survive, and the models must match the migrations.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from skatschule.owners import Owner
from skatschule.training.models import Attempt, ReviewItem
from skatschule.training.selectors import progress

KEEP_DATA = {"training"}  # demo_data fills these: never roll them back to zero


def _project_apps(executor: MigrationExecutor) -> dict[str, list[str]]:
    apps: dict[str, list[str]] = {}
    for app_label, name in executor.loader.disk_migrations:
        module = executor.loader.disk_migrations[(app_label, name)].__module__
        if module.startswith("skatschule."):
            apps.setdefault(app_label, []).append(name)
    return {label: sorted(names) for label, names in apps.items()}


def _roll_back_and_forward() -> None:
    call_command("demo_data", users=3, answers=12, seed=5, verbosity=0, no_play=True)
    users = get_user_model().objects.filter(username__startswith="demo").count()
    attempts, reviews = Attempt.objects.count(), ReviewItem.objects.count()
    before = {u.pk: progress(owner=Owner.for_user(u)).right for u in get_user_model().objects.all()}
    assert users == 3 and attempts == 36

    executor = MigrationExecutor(connection)
    targets: list[tuple[str, str | None]] = []
    for label, names in _project_apps(executor).items():
        if len(names) >= 2:
            targets.append((label, names[-2]))
        elif label not in KEEP_DATA:
            targets.append((label, None))
    assert targets, "nothing to roll back"
    executor.migrate(targets)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert MigrationExecutor(connection).migration_plan(MigrationExecutor(connection).loader.graph.leaf_nodes()) == []
    call_command("makemigrations", check=True, dry_run=True, verbosity=0)
    assert Attempt.objects.count() == attempts and ReviewItem.objects.count() == reviews
    assert {u.pk: progress(owner=Owner.for_user(u)).right for u in get_user_model().objects.all()} == before


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_migrations_forward_on_demo_data() -> None:
    _roll_back_and_forward()


@pytest.mark.django_db
def test_demo_data_is_repeatable() -> None:
    call_command("demo_data", users=2, answers=5, verbosity=0, no_play=True)
    call_command("demo_data", users=2, answers=5, verbosity=0, no_play=True)
    assert get_user_model().objects.filter(username__startswith="demo").count() == 2
    assert Attempt.objects.count() == 10
