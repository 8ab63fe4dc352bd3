"""Fixtures for the classroom and quiz tests: teachers, students, a class and quizzes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from skatschule.classrooms import services as classrooms
from skatschule.quizzes import services
from skatschule.quizzes.models import Quiz


def make_user(name: str, teacher: bool = False):
    user = get_user_model().objects.create_user(name)  # no password: tests log in with force_login
    if teacher:
        classrooms.grant_teacher(user)
    return user


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def teacher(db):
    return make_user("lehrerin", teacher=True)


@pytest.fixture
def other_teacher(db):
    return make_user("anderer-lehrer", teacher=True)


@pytest.fixture
def student(db):
    return make_user("schueler")


@pytest.fixture
def other_student(db):
    return make_user("schuelerin")


@pytest.fixture
def classroom(teacher, student, other_student):
    room = classrooms.create_classroom(teacher, "Skat-AG")
    classrooms.join(student, room.join_code)
    classrooms.join(other_student, room.join_code.lower())
    return room


@pytest.fixture
def make_quiz(teacher, classroom):
    def make(count: int = 3, kinds=("augen", "spielwert", "stich"), **options) -> Quiz:
        pool = services.build_pool(kinds=kinds, difficulty=options.pop("difficulty", 1))
        return services.create_quiz(teacher, classroom, options.pop("title", "Probe"), pool, count, **options)

    return make
