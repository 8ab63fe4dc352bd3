"""The review's counts (issue 38): each at or below its floor, and each counter able to find what it counts."""

from __future__ import annotations

import textwrap

import pytest

from skatschule.operations import conventions
from skatschule.operations.conventions import (
    FLOORS,
    PACKAGE,
    exempt_files,
    positional_functions,
    rule_number_literals,
    service_modules,
    translation_conflicts,
)


def test_the_command_prints_each_count_at_or_below_its_floor(capsys: pytest.CaptureFixture[str]) -> None:
    """The command exits 1 when a count is over its floor and then lists what it found."""
    status = conventions.main([])
    out = capsys.readouterr().out
    assert status == 0, out
    for name, floor in FLOORS.items():
        (line,) = [line for line in out.splitlines() if line.startswith(name)]
        count = int(line[len(name) :].split("/")[0])
        assert count <= floor and line.split("/")[1].split()[0] == str(floor), line


def test_a_count_over_its_floor_is_reported_with_what_it_found() -> None:
    over = conventions.Count(conventions.CONFLICTS, ["en: Aufgaben"])
    assert "over the floor!" in conventions.report([over]) and "    en: Aufgaben" in conventions.report([over])


def test_the_walk_finds_service_and_selector_modules_and_packages() -> None:
    found = {str(path.relative_to(PACKAGE)) for path in service_modules()}
    assert {"casebook/services.py", "quizzes/selectors/results.py", "training/services/issuing.py"} <= found
    assert not {path for path in found if path.startswith(("quizzes/views", "quizzes/questions"))}


def _source(text: str) -> str:
    return textwrap.dedent(text)


def test_keyword_only_arguments_pass_and_positional_ones_are_found() -> None:
    source = _source(
        """
        from django.contrib.auth.models import AnonymousUser, User
        from django.http import HttpRequest
        from .models import Quiz

        def keywords(*, user: User, quiz: Quiz) -> None: ...
        def subject_first(quiz: Quiz, *, lang: str) -> None: ...
        def only_the_subject(quiz: Quiz) -> int: ...
        def the_request(request: HttpRequest) -> None: ...
        def either_user(user: User | AnonymousUser, *, pk: int) -> None: ...
        def _private(a, b): ...

        class Reader:
            def method(self, a, b): ...

        def two_positional(user: User, quiz: Quiz) -> None: ...
        def no_subject(kind: str) -> int: ...
        def optional_subject(quiz: Quiz | None) -> None: ...
        def unannotated(quiz) -> None: ...
        def star_args(*quizzes: Quiz) -> None: ...
        async def later(user: User, pk: int) -> None: ...
        """
    )
    assert positional_functions(source) == [
        "two_positional",
        "no_subject",
        "optional_subject",
        "unannotated",
        "star_args",
        "later",
    ]


def test_only_complexity_exemptions_count() -> None:
    pyproject = _source(
        """
        [tool.ruff.lint.per-file-ignores]
        "tests/**" = ["B011"]
        "a/complex.py" = ["C901"]
        "a/long.py" = ["PLR0913", "E501"]
        """
    )
    assert exempt_files(pyproject) == ["a/complex.py", "a/long.py"]


def test_rule_numbers_are_found_and_other_numbers_are_not() -> None:
    source = _source(
        """
        WIN_POINTS = 61
        won = points >= 61
        seed = rng.randrange(2**31)
        low = key & 31
        short = title[:120]
        title = models.CharField(max_length=120)
        value = -120
        minutes = 90  # not a rule number
        schneider = (90, 31)
        """
    )
    assert rule_number_literals(source) == [(2, 61), (3, 61), (10, 31), (10, 90)]
    assert rule_number_literals(source, constants=True) == [(3, 61), (10, 31), (10, 90)]


def test_a_msgid_translated_two_ways_in_one_language_is_a_conflict() -> None:
    first = 'msgid "Aufgaben"\nmsgstr "Items"\n\nmsgctxt "Quiz"\nmsgid "Richtig"\nmsgstr "Correct"\n'
    second = 'msgid "Aufgaben"\nmsgstr "Puzzles"\n\nmsgid "Richtig"\nmsgstr "Right"\n'
    assert translation_conflicts([("en", first), ("en", second)]) == ["en: Aufgaben"]
    assert translation_conflicts([("en", first), ("de", second)]) == []
