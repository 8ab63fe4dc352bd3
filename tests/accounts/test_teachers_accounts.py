"""Issue 18, accounts: optional email, password reset by mail, export and deletion."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from skatschule.accounts.deletion import (
    DELETED_PREFIX,
    delete_account,
    export_account,
    is_deleted_name,
)
from skatschule.accounts.email_config import CONSOLE, FILE, SMTP, email_settings
from skatschule.accounts.views import EXPORT_SESSION_FLAG
from skatschule.casebook.models import Exam
from skatschule.classrooms.models import Classroom, Membership
from skatschule.quizzes import questions
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt
from skatschule.quizzes.services import attempts, authoring
from skatschule.training.models import Attempt, IssuedExercise
from tests.people import client_for, make_user
from tests.present import present
from tests.quizzes.helpers import right_values
from tests.training.helpers import right_answer

PASSWORD = "kreuz-bube-und-herz-zehn"


@pytest.fixture(autouse=True)
def fast_hasher(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- mail settings from the environment ---------------------------------------------------------


def test_console_mail_without_variables() -> None:
    assert email_settings({})["EMAIL_BACKEND"] == CONSOLE
    assert "@" in email_settings({})["DEFAULT_FROM_EMAIL"]


def test_email_url_smtp_with_starttls_and_encoded_password() -> None:
    s = email_settings(
        {"EMAIL_URL": "smtp://skat%40verein.de:p%40ss@mail.example.org:587", "DEFAULT_FROM_EMAIL": "a@b.de"}
    )
    assert s["EMAIL_BACKEND"] == SMTP
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"]) == ("mail.example.org", 587)
    assert (s["EMAIL_HOST_USER"], s["EMAIL_HOST_PASSWORD"]) == ("skat@verein.de", "p@ss")
    assert s["EMAIL_USE_TLS"] and not s["EMAIL_USE_SSL"]
    assert s["DEFAULT_FROM_EMAIL"] == "a@b.de"


def test_email_url_smtps_and_local_relay_and_file() -> None:
    ssl = email_settings({"EMAIL_URL": "smtps://u:p@mail.example.org"})
    assert ssl["EMAIL_PORT"] == 465 and ssl["EMAIL_USE_SSL"] and not ssl["EMAIL_USE_TLS"]
    relay = email_settings({"EMAIL_URL": "smtp://localhost:25"})
    assert relay["EMAIL_PORT"] == 25 and not relay["EMAIL_USE_TLS"]
    assert email_settings({"EMAIL_URL": "file:///var/tmp/mails"}) | {} == {
        **email_settings({}),
        "EMAIL_BACKEND": FILE,
        "EMAIL_FILE_PATH": "/var/tmp/mails",
    }
    with pytest.raises(ValueError):
        email_settings({"EMAIL_URL": "gopher://x"})


def test_email_host_variables() -> None:
    s = email_settings({"EMAIL_HOST": "mail.example.org", "EMAIL_HOST_USER": "u", "EMAIL_USE_TLS": "0"})
    assert s["EMAIL_BACKEND"] == SMTP and s["EMAIL_PORT"] == 587 and not s["EMAIL_USE_TLS"]
    assert email_settings({"EMAIL_HOST": "h", "EMAIL_USE_SSL": "1"})["EMAIL_PORT"] == 465


# --- email at signup and later -------------------------------------------------------------------


@pytest.mark.django_db
def test_signup_with_and_without_email() -> None:
    client = Client()
    response = client.post(
        reverse("accounts:signup"),
        {"username": "anna", "email": "anna@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert User.objects.get(username="anna").email == "anna@example.org"
    Client().post(reverse("accounts:signup"), {"username": "bert", "password1": PASSWORD, "password2": PASSWORD})
    assert User.objects.get(username="bert").email == ""


@pytest.mark.django_db
def test_signup_refuses_a_malformed_email() -> None:
    response = Client().post(
        reverse("accounts:signup"),
        {"username": "anna", "email": "nicht-mail", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 400 and not User.objects.filter(username="anna").exists()
    assert "E-Mail" in response.content.decode()


@pytest.mark.django_db
def test_change_and_remove_email() -> None:
    user = make_user("carla")
    user.set_password(PASSWORD)
    user.save()
    client = client_for(user)
    assert client.get(reverse("accounts:settings")).status_code == 200
    response = client.post(reverse("accounts:settings"), {"email": "carla@example.org", "password": PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == "carla@example.org"
    assert client.post(reverse("accounts:settings"), {"email": "kaputt", "password": PASSWORD}).status_code == 400
    client.post(reverse("accounts:settings"), {"email": "", "password": PASSWORD})
    user.refresh_from_db()
    assert user.email == ""


@pytest.mark.django_db
@pytest.mark.parametrize("password", ["", "falsch"])
def test_changing_the_email_needs_the_password(password: str) -> None:
    """Whoever sets the address can reset the password: a session alone is not enough."""
    user = make_user("carla")
    user.set_password(PASSWORD)
    user.email = "carla@example.org"
    user.save()
    response = client_for(user).post(reverse("accounts:settings"), {"email": "dieb@example.org", "password": password})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="dieb@example.org"' in html  # the typed address is kept, the password is not
    user.refresh_from_db()
    assert user.email == "carla@example.org"


@pytest.mark.django_db
def test_settings_need_login() -> None:
    response = Client().get(reverse("accounts:settings"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


# --- password reset ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_password_reset_by_mail(settings: Settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = User.objects.create_user("dora", "dora@example.org", "altes-passwort-1")
    client = Client()
    assert "Passwort vergessen?" in client.get(reverse("accounts:login")).content.decode()
    response = client.post(reverse("accounts:password_reset"), {"email": "DORA@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dora@example.org"] and "dora" in message.body
    link = present(re.search(r"https?://testserver(/konto/passwort-vergessen/\S+/)", str(message.body))).group(1)
    form_url = client.get(link)["Location"]  # Django swaps the token for a session marker
    response = client.post(form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    again = client.get(link)
    assert again.status_code == 200 and "gilt nicht mehr" in again.content.decode()


@pytest.mark.django_db
def test_password_reset_tells_nothing_about_unknown_addresses(settings: Settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = Client().post(reverse("accounts:password_reset"), {"email": "niemand@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


@pytest.mark.django_db
def test_password_change() -> None:
    user = User.objects.create_user("emil", password="altes-passwort-1")
    client = client_for(user)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "altes-passwort-1", "new_password1": PASSWORD, "new_password2": PASSWORD},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


# --- export and deletion ----------------------------------------------------------------------


@pytest.fixture
def quiz_with_results(db: None) -> tuple[User, User, Quiz, QuizAttempt]:
    teacher = make_user("lehrerin", teacher=True)
    student = make_user("schueler")
    student.email = "s@example.org"
    student.set_password(PASSWORD)
    student.save()
    from skatschule.classrooms import services as classrooms

    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=student, raw_code=room.join_code)
    pool = authoring.build_pool(kinds=("augen", "spielwert"), difficulty=1)
    quiz = authoring.create_quiz(
        owner=teacher, classroom=room, title="Probe", pool=pool, item_count=2, variants=Quiz.Variants.RANDOM
    )
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    item = quiz.items.get(position=1)
    attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
    attempt, _ = attempts.submit(attempt=attempt)
    return teacher, student, quiz, attempt


def _practise(user: User) -> None:
    client = client_for(user)
    client.get(reverse("training:exercise", kwargs={"kind": "augen"}))
    issued = IssuedExercise.objects.filter(user=user).latest("issued_at", "pk")
    client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)})


def test_export_account_has_everything(quiz_with_results: tuple[User, User, Quiz, QuizAttempt]) -> None:
    teacher, student, quiz, attempt = quiz_with_results
    _practise(student)
    data = export_account(user=student)
    assert data["account"]["username"] == "schueler" and data["account"]["email"] == "s@example.org"
    assert len(data["practice"]["attempts"]) == 1
    assert data["classes_joined"][0]["name"] == "Skat-AG"
    [exported] = data["quiz_attempts"]
    assert exported["quiz"] == "Probe" and exported["score"] == attempt.score == 1
    assert exported["answers"][0]["correct"] is True
    assert export_account(user=teacher)["classes_taught"][0]["students"] == 1
    from skatschule.casebook.services import record_case_answer
    from skatschule.quizzes.own_items import create_own_item

    record_case_answer(user=student, case_id="F-01", correct=True)
    create_own_item(owner=teacher, kind="stich", title="Mein Stich", game="grand", leader=0, trick=["CA", "CT", "CJ"])
    assert export_account(user=student)["solved_cases"][0]["solved"] is True
    assert export_account(user=teacher)["own_quiz_items"][0]["situation"]["trick"] == ["CA", "CT", "CJ"]
    json.dumps(data)  # plain JSON


def test_delete_keeps_quiz_results_anonymous(quiz_with_results: tuple[User, User, Quiz, QuizAttempt]) -> None:
    teacher, student, quiz, attempt = quiz_with_results
    _practise(student)
    question_before = questions.question_for(quiz, quiz.items.get(position=1), student.pk)
    kept = delete_account(user=student)
    assert kept
    row = User.objects.get(pk=student.pk)
    assert is_deleted_name(row.username) and row.username.startswith(DELETED_PREFIX)
    assert "schueler" not in row.username and row.email == "" and not row.is_active
    assert not row.has_usable_password()
    assert not Attempt.objects.filter(user_id=student.pk).exists()
    assert not Membership.objects.filter(student_id=student.pk).exists()
    attempt.refresh_from_db()
    assert attempt.score == 1 and QuizAnswer.objects.filter(attempt=attempt, correct=True).count() == 1
    # the random variant is derived from the id, so the teacher still sees the same question
    assert questions.question_for(quiz, quiz.items.get(position=1), row.pk) == question_before
    html = client_for(teacher).get(reverse("quizzes:results", args=[quiz.pk])).content.decode()
    assert "gelöschter Schüler" in html and ">schueler<" not in html


def test_delete_without_quiz_results_removes_the_row(db: None) -> None:
    user = make_user("fritz")
    _practise(user)
    Exam.objects.create(user=user, size=1, time_limit_s=60)
    assert delete_account(user=user) is False
    assert not User.objects.filter(pk=user.pk).exists()
    assert not Exam.objects.exists() and not Attempt.objects.exists()


def test_deleting_a_teacher_removes_their_classes(quiz_with_results: tuple[User, User, Quiz, QuizAttempt]) -> None:
    teacher, student, quiz, attempt = quiz_with_results
    delete_account(user=teacher)
    assert not Classroom.objects.exists() and not Quiz.objects.exists()
    assert User.objects.filter(pk=student.pk, is_active=True).exists()


def test_delete_view_needs_the_export_first(quiz_with_results: tuple[User, User, Quiz, QuizAttempt]) -> None:
    teacher, student, quiz, attempt = quiz_with_results
    client = client_for(student)
    page = client.get(reverse("accounts:delete")).content.decode()
    assert 'id="export-needed"' in page
    # no "reload this page": reloading the refused POST would send it again (and delete at once)
    assert "neu laden" not in page and "Passwort ein und lösche" in page
    refused = client.post(reverse("accounts:delete"), {"password": PASSWORD, "confirm": "on"})
    assert refused.status_code == 400 and User.objects.get(pk=student.pk).is_active
    download = client.get(reverse("accounts:export_account"))
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    assert json.loads(download.content)["account"]["username"] == "schueler"
    assert EXPORT_SESSION_FLAG in client.session
    assert 'id="export-done"' in client.get(reverse("accounts:delete")).content.decode()
    wrong = client.post(reverse("accounts:delete"), {"password": "falsch", "confirm": "on"})
    assert wrong.status_code == 400 and "Passwort stimmt nicht" in wrong.content.decode()
    unconfirmed = client.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert unconfirmed.status_code == 400
    done = client.post(reverse("accounts:delete"), {"password": PASSWORD, "confirm": "on"})
    assert done.status_code == 302
    assert "_auth_user_id" not in client.session
    assert not User.objects.get(pk=student.pk).is_active
    assert QuizAttempt.objects.filter(pk=attempt.pk).exists()


@pytest.mark.parametrize("name", ["accounts:export_account", "accounts:delete", "accounts:password_change"])
def test_account_pages_need_login(db: None, name: str) -> None:
    response = Client().get(reverse(name))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
