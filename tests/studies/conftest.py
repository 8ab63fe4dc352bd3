"""Fixtures for the studies' tests: the shared people from tests/people.py."""

from tests.people import classroom, other_student, other_teacher, student, teacher  # noqa: F401 (fixtures)
