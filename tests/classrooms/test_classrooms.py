"""Teachers, classes, join codes: services and pages, with a permission test for every view."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from skatschule.classrooms import selectors, services
from skatschule.classrooms.models import TEACHER_GROUP, Classroom, Membership, TeacherInvitation
from skatschule.core.notfound import NotFound
from tests.people import client_for

pytestmark = pytest.mark.django_db


def test_teacher_group_exists_after_migrations() -> None:
    assert Group.objects.filter(name=TEACHER_GROUP).exists()


def test_invitation_code_makes_a_teacher_and_is_counted(student: User, other_student: User) -> None:
    TeacherInvitation.objects.create(code="skat-abend-2026", uses_left=1)
    assert not services.is_teacher(user=student)
    assert services.redeem_invitation(user=student, raw_code="  SKAT-ABEND-2026 ")
    assert services.is_teacher(user=get_user_model().objects.get(pk=student.pk))
    assert TeacherInvitation.objects.get().uses_left == 0
    with pytest.raises(services.ClassroomError, match="aufgebraucht"):
        services.redeem_invitation(user=other_student, raw_code="skat-abend-2026")
    assert not services.is_teacher(user=other_student)


def test_become_teacher_page(student: User) -> None:
    TeacherInvitation.objects.create(code="ZEHNERLE", uses_left=3)
    client = client_for(student)
    assert client.post(reverse("classrooms:become_teacher"), {"code": "falsch"}).status_code == 400
    response = client.post(reverse("classrooms:become_teacher"), {"code": "zehnerle"})
    assert response.status_code == 302
    assert student.groups.filter(name=TEACHER_GROUP).exists()
    assert "schon als Lehrkraft" in client.get(reverse("classrooms:become_teacher")).content.decode()


def test_join_codes_are_short_unguessable_and_case_insensitive(teacher: User, student: User) -> None:
    room = services.create_classroom(teacher=teacher, name="  Donnerstags-Runde ")
    assert room.name == "Donnerstags-Runde"
    assert len(room.join_code) == 8 and set(room.join_code) <= set(services.CODE_ALPHABET)
    codes = {services.new_join_code() for _ in range(200)}
    assert len(codes) == 200
    joined = services.join(student=student, raw_code=room.join_code.lower()[:4] + "-" + room.join_code.lower()[4:])
    assert joined == services.Joined(room, created=True)
    assert services.join(student=student, raw_code=room.join_code) == services.Joined(room, created=False)
    assert Membership.objects.count() == 1


def test_rotating_the_code_invalidates_the_old_one(teacher: User, student: User, other_student: User) -> None:
    room = services.create_classroom(teacher=teacher, name="AG")
    services.join(student=student, raw_code=room.join_code)
    old = room.join_code
    services.rotate_code(classroom=room)
    assert room.join_code != old
    with pytest.raises(services.ClassroomError):
        services.join(student=other_student, raw_code=old)
    assert room.memberships.filter(student=student).exists()


def test_students_can_be_in_several_classes(teacher: User, other_teacher: User, student: User) -> None:
    for owner, name in ((teacher, "A"), (other_teacher, "B")):
        services.join(student=student, raw_code=services.create_classroom(teacher=owner, name=name).join_code)
    assert sorted(c.name for c in selectors.classrooms_joined(student)) == ["A", "B"]


def test_only_teachers_create_classes_and_names_are_checked(teacher: User, student: User) -> None:
    with pytest.raises(NotFound):
        services.create_classroom(teacher=student, name="X")
    with pytest.raises(services.ClassroomError):
        services.create_classroom(teacher=teacher, name="   ")
    with pytest.raises(services.ClassroomError):
        services.create_classroom(teacher=teacher, name="x" * 101)


def test_database_constraints(teacher: User, classroom: Classroom, student: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(classroom=classroom, student=student)
    with pytest.raises(IntegrityError), transaction.atomic():
        Classroom.objects.create(teacher=teacher, name="Kopie", join_code=classroom.join_code)
    with pytest.raises(IntegrityError), transaction.atomic():
        Classroom.objects.create(teacher=teacher, name="", join_code="ABCDEFGH")


def test_pages_create_join_by_link_and_by_code(teacher: User, student: User, other_student: User) -> None:
    teacher_client = client_for(teacher)
    response = teacher_client.post(reverse("classrooms:create"), {"name": "Skatclub"})
    room = Classroom.objects.get()
    assert response["Location"] == reverse("classrooms:detail", kwargs={"pk": room.pk})
    detail = teacher_client.get(response["Location"]).content.decode()
    link = reverse("classrooms:join_code", kwargs={"code": room.join_code})
    assert room.join_code in detail and link in detail
    assert teacher_client.post(reverse("classrooms:create"), {"name": ""}).status_code == 400

    client = client_for(student)
    confirm = client.get(link)
    assert confirm.status_code == 200 and "Skatclub" in confirm.content.decode()
    assert not Membership.objects.exists()  # GET alone changes nothing
    assert client.post(link)["Location"] == reverse("quizzes:index")
    bad = client_for(other_student).post(reverse("classrooms:join"), {"code": "ZZZZZZZZ"})
    assert bad.status_code == 400 and "keine Klasse" in bad.content.decode()
    client_for(other_student).post(reverse("classrooms:join"), {"code": room.join_code.lower()})
    assert room.memberships.count() == 2
    assert client.get(reverse("classrooms:join_code", kwargs={"code": "nix"})).status_code == 404

    # Rotate and remove a member.
    teacher_client.post(reverse("classrooms:rotate", kwargs={"pk": room.pk}))
    room.refresh_from_db()
    assert reverse("classrooms:join_code", kwargs={"code": room.join_code}) != link
    teacher_client.post(reverse("classrooms:remove_member", kwargs={"pk": room.pk, "student_id": student.pk}))
    assert list(room.memberships.values_list("student__username", flat=True)) == ["schuelerin"]


def test_students_cannot_create_classes(student: User) -> None:
    response = client_for(student).post(reverse("classrooms:create"), {"name": "X"})
    assert response.status_code == 403 and not Classroom.objects.exists()


def test_teachers_guessing_another_teachers_class_get_404(
    classroom: Classroom, other_teacher: User, student: User
) -> None:
    urls = [
        ("get", reverse("classrooms:detail", kwargs={"pk": classroom.pk})),
        ("post", reverse("classrooms:rotate", kwargs={"pk": classroom.pk})),
        ("post", reverse("classrooms:remove_member", kwargs={"pk": classroom.pk, "student_id": student.pk})),
    ]
    code = classroom.join_code
    for user in (other_teacher, student):
        client = client_for(user)
        for method, url in urls:
            assert getattr(client, method)(url).status_code == 404, (user, url)
    classroom.refresh_from_db()
    assert classroom.join_code == code and classroom.memberships.filter(student=student).exists()


def test_index_shows_only_own_classes(classroom: Classroom, other_teacher: User) -> None:
    page = client_for(other_teacher).get(reverse("classrooms:index")).content.decode()
    assert "Skat-AG" not in page and classroom.join_code not in page


def test_anonymous_visitors_go_to_login(classroom: Classroom) -> None:
    client = Client()
    urls = [
        reverse("classrooms:index"),
        reverse("classrooms:become_teacher"),
        reverse("classrooms:join"),
        reverse("classrooms:join_code", kwargs={"code": classroom.join_code}),
        reverse("classrooms:detail", kwargs={"pk": classroom.pk}),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("accounts:login")), url
    posts = [reverse("classrooms:create"), reverse("classrooms:rotate", kwargs={"pk": classroom.pk})]
    for url in posts:
        assert client.post(url).status_code == 302


def test_get_new_class_shows_the_form_like_new_quiz(teacher: User, student: User) -> None:
    """GET /klassen/neu/ shows the form for a new class, as GET /quiz/neu/ shows the quiz form;
    it creates nothing. A student is sent to the class page, which says how to become a teacher."""
    page = client_for(teacher).get(reverse("classrooms:create"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'action="/klassen/neu/"' in html and 'id="class-name"' in html and "autofocus" in html
    assert not Classroom.objects.exists()
    away = client_for(student).get(reverse("classrooms:create"))
    assert away.status_code == 302 and away["Location"] == reverse("classrooms:index")
    assert client_for(teacher).put(reverse("classrooms:create")).status_code == 405


def test_the_roster_names_people_as_the_lms_sent_them(teacher: User, classroom: Classroom, student: User) -> None:
    """An LTI launch makes accounts like "anna-pik-632651e9" and sends the person's name: the
    teacher reads the name, and the username only where no name is known."""
    student.first_name, student.last_name = "Anna", "Pik"
    student.save()
    page = client_for(teacher).get(reverse("classrooms:detail", kwargs={"pk": classroom.pk})).content.decode()
    assert ">Anna Pik\n" in page and "Anna Pik entfernen" in page
    assert ">schuelerin\n" in page  # no name known: the username
    progress = selectors.class_progress(classroom, sort=selectors.SORT_NAME)
    assert "Anna Pik" in {line.name for line in progress.students}
