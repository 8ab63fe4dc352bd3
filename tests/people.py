"""People for the tests of classes and quizzes: helpers and fixtures in one place.

``make_user`` and ``client_for`` are plain helpers; the fixtures (two teachers, two students,
a class that both students joined) are imported by tests/classrooms/conftest.py and
tests/quizzes/conftest.py.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Classroom


def make_user(name: str, teacher: bool = False) -> User:
    user = get_user_model().objects.create_user(name)  # no password: tests log in with force_login
    if teacher:
        classrooms.grant_teacher(user=user)
    return user


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def teacher(db: None) -> User:
    return make_user("lehrerin", teacher=True)


@pytest.fixture
def other_teacher(db: None) -> User:
    return make_user("anderer-lehrer", teacher=True)


@pytest.fixture
def student(db: None) -> User:
    return make_user("schueler")


@pytest.fixture
def other_student(db: None) -> User:
    return make_user("schuelerin")


@pytest.fixture
def classroom(teacher: User, student: User, other_student: User) -> Classroom:
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=student, raw_code=room.join_code)
    classrooms.join(student=other_student, raw_code=room.join_code.lower())
    return room
