"""Daily goal and streak (counted answers, local days), the goal page, card marks, the next step,
and reminder mails (jobs API, once per period, one-click unsubscribe)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from freezegun.api import TickingDateTimeFactory

from skatschule.jobs.models import Job
from skatschule.learners import selectors
from skatschule.learners.models import AnswerDays, LearnerSettings, Reminders, ReminderSent
from skatschule.learners.reminders import period_for, queue_due_reminders
from skatschule.learners.selectors import Choices
from skatschule.learners.services import unsubscribe_token
from skatschule.owners import Owner
from skatschule.training.models import Attempt, IssuedExercise, ReviewItem
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import issue, question_for, submit
from tests.present import present

pytestmark = pytest.mark.django_db


def _answer(owner: Owner, when: datetime, *, kind: str = "rangfolge", right: bool = True) -> Attempt:
    issued = issue(kind=kind, difficulty=1, owner=owner)
    values = present(get_type(kind)).correct_answer(question_for(issued))
    if not right:
        values = list(reversed(values)) if question_for(issued).widget == "order" else []
    attempt = submit(issued=issued, owner=owner, values=values, now=when).attempt
    return attempt


def test_answers_per_local_day_and_only_counted_ones() -> None:
    owner = Owner.for_session("s" * 32)
    # 23:30 UTC on the 25th is already the 26th in Berlin (UTC+1 in November)
    late = datetime(2026, 11, 25, 23, 30, tzinfo=UTC)
    for _ in range(3):
        _answer(owner, late)
    counts = selectors.answers_per_day(owner=owner, zone="Europe/Berlin")
    assert counts == {datetime(2026, 11, 26).date(): 3}
    assert selectors.answers_per_day(owner=owner, zone="UTC") == {datetime(2026, 11, 25).date(): 3}
    # history that does not count for mastery (an unsigned import) never counts for the goal;
    # attempts are append-only, so an import adds rows (made here as answers, then marked)
    unsigned = _answer(owner, late)
    Attempt.objects.filter(pk=unsigned.pk).update(counts_for_mastery=False)
    assert selectors.answers_per_day(owner=owner, zone="Europe/Berlin") == {datetime(2026, 11, 26).date(): 3}
    # nor does a signed import: it counts for mastery from its import, but it was not answered here
    signed = _answer(owner, late)
    Attempt.objects.filter(pk=signed.pk).update(imported_at=late + timedelta(days=1))
    assert selectors.answers_per_day(owner=owner, zone="Europe/Berlin") == {datetime(2026, 11, 26).date(): 3}
    # the stored counts are what grouping the history gives
    _answer(owner, late + timedelta(days=2))
    assert selectors.answers_per_day(owner=owner, zone="Europe/Berlin") == {
        datetime(2026, 11, 26).date(): 3,
        datetime(2026, 11, 28).date(): 1,
    }


def test_streak_for_reads_the_owner_and_the_goal() -> None:
    owner = Owner.for_session("s" * 32)
    now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    for day in (0, 2):  # today and two days ago; yesterday is this week's free day
        for _ in range(5):
            _answer(owner, now - timedelta(days=day))
    streak = selectors.streak_for(owner=owner, choices=Choices(goal=5), now=now)
    assert (streak.days, len(streak.frozen), streak.goal_met_today) == (2, 1, True)
    assert selectors.streak_for(owner=owner, choices=Choices(goal=10), now=now).days == 0


def test_reminders_chosen_in_english_come_in_english() -> None:
    """The language of the page where the learner saved the choice is the mails' language."""
    now = datetime(2026, 11, 26, 9, 30, tzinfo=UTC)
    user = get_user_model().objects.create_user("liam", password="x" * 12, email="liam@example.org")
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("learners:settings"),
        {"goal": "10", "time_zone": "Europe/London", "reminders": "daily"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302 and LearnerSettings.objects.get(user=user).language == "en"
    _due_item(user, now)
    assert queue_due_reminders(now=now)["queued"] == 1
    (message,) = mail.outbox
    assert "1 Aufgabe" not in message.subject and "Aufgabe" not in message.body
    assert "review" in message.body.lower()


def test_goal_page_stores_a_users_choice_and_rejects_bad_input() -> None:
    user = get_user_model().objects.create_user("lea", password="x" * 12, email="lea@example.org")
    client = Client()
    client.force_login(user)
    url = reverse("learners:settings")
    assert client.get(url).status_code == 200
    response = client.post(url, {"goal": "7", "time_zone": "Europe/Berlin"})
    assert response.status_code == 400 and not LearnerSettings.objects.exists()
    response = client.post(url, {"goal": "20", "time_zone": "Nowhere/City"})
    assert response.status_code == 400 and not LearnerSettings.objects.exists()
    response = client.post(url, {"goal": "20", "time_zone": "America/New_York", "reminders": "weekly"})
    assert response.status_code == 302
    row = LearnerSettings.objects.get(user=user)
    assert (row.daily_goal, row.time_zone, row.reminders) == (20, "America/New_York", "weekly")


def test_anonymous_goal_lives_in_the_session() -> None:
    client = Client()
    url = reverse("learners:settings")
    assert client.post(url, {"goal": "5", "time_zone": "Asia/Tokyo"}).status_code == 302
    html = client.get(url).content.decode()
    assert "Heute 0 von 5 Antworten" in html
    assert not LearnerSettings.objects.exists()


def test_feedback_shows_goal_and_one_next_step(clock: TickingDateTimeFactory) -> None:
    client = Client()
    client.get(reverse("training:lesson", kwargs={"slug": "die-karten"}))
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    right = present(get_type(issued.kind)).correct_answer(question_for(issued))
    html = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right}).content.decode()
    assert "Heute 1 von 10 Antworten" in html
    assert html.count('class="btn next-exercise"') == 1
    assert "Als Nächstes:" in html and "Die Karten" in html


def test_rank_order_shows_pictures_and_marks_after_the_answer() -> None:
    client = Client()
    owner_html = ""
    for _ in range(30):  # the seed decides between ordering and picking trumps
        owner_html = client.get(reverse("training:exercise", kwargs={"kind": "rangfolge"})).content.decode()
        issued = IssuedExercise.objects.latest("issued_at", "pk")
        if question_for(issued).widget == "order":
            break
    question = question_for(issued)
    assert question.widget == "order"
    assert owner_html.count('class="card-img') >= len(question.options)  # pictures beside the drop-downs
    assert "card-mark" not in owner_html  # nothing marked before the answer
    right = present(get_type("rangfolge")).correct_answer(question)
    given = [right[1], right[0], *right[2:]]
    html = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": given}).content.decode()
    assert html.count("card-mark-wrong") == 2 and html.count("card-mark-right") == len(right) - 2
    assert "✗" in html and "(falsch)" in html


def test_trump_picking_marks_right_wrong_and_missed() -> None:
    client = Client()
    for _ in range(40):
        client.get(reverse("training:exercise", kwargs={"kind": "rangfolge"}))
        issued = IssuedExercise.objects.latest("issued_at", "pk")
        question = question_for(issued)
        right = present(get_type("rangfolge")).correct_answer(question)
        if question.widget == "cards" and len(right) >= 2 and len(right) < len(question.options):
            break
    wrong = next(o.value for o in question.options if o.value not in right)
    given = [right[0], wrong]  # one right, one wrong, the others missed
    html = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": given}).content.decode()
    assert html.count("card-mark-right") == 1
    assert html.count("card-mark-wrong") == 1
    assert html.count("card-mark-missed") == len(right) - 1
    assert "(übersehen)" in html


def _reminded_user(name: str = "mia", frequency: str = Reminders.DAILY, language: str = "de") -> User:
    user = get_user_model().objects.create_user(name, password="x" * 12, email=f"{name}@example.org")
    LearnerSettings.objects.create(user=user, reminders=frequency, language=language)
    return user


def _due_item(user: User, now: datetime) -> None:
    owner = Owner.for_user(user)
    _answer(owner, now - timedelta(days=3), right=False)
    ReviewItem.objects.filter(user=user).update(due=now - timedelta(hours=1))


def test_reminder_goes_once_per_period_through_the_jobs_api() -> None:
    now = datetime(2026, 11, 26, 9, 30, tzinfo=UTC)  # 10:30 in Berlin
    user = _reminded_user()
    _due_item(user, now)
    quiet = _reminded_user("noah")  # nothing due: no mail
    assert queue_due_reminders(now=now)["queued"] == 1
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["mia@example.org"] and "1 Aufgabe" in message.subject
    links = re.findall(r"http://127\.0\.0\.1:8000(/tagesziel/abbestellen/[^/\s]+/)", str(message.body))
    assert len(links) == 1 and "English" not in message.body  # one language: German, as she saved it
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert Job.objects.filter(kind="reminder_mail", status="done").count() == 1
    # a second run in the same period sends nothing, also when the job is run again directly
    assert queue_due_reminders(now=now)["sent_before"] == 1
    from skatschule.learners.reminders import send_reminder

    period = period_for(Reminders.DAILY, "Europe/Berlin", now)
    assert send_reminder({"user_id": user.pk, "period": period})["sent"] is False
    assert len(mail.outbox) == 1 and ReminderSent.objects.filter(user=user).count() == 1
    assert not ReminderSent.objects.filter(user=quiet).exists()
    # the mail's one-click link turns reminders off (a GET, as a click in a mail programme)
    assert Client().get(links[0]).status_code == 200
    assert LearnerSettings.objects.get(user=user).reminders == Reminders.OFF
    LearnerSettings.objects.filter(user=user).update(reminders=Reminders.DAILY)
    # the next day is a new period, from 8 o'clock local time on (not in the learner's night)
    assert queue_due_reminders(now=now + timedelta(hours=16))["too_early"] == 2  # 2:30 in Berlin
    assert len(mail.outbox) == 1
    assert queue_due_reminders(now=now + timedelta(days=1))["queued"] == 1
    assert len(mail.outbox) == 2


def test_weekly_period_and_one_click_unsubscribe(clock: TickingDateTimeFactory) -> None:
    thursday = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    assert period_for(Reminders.WEEKLY, "Europe/Berlin", thursday) == "w2026-48"
    assert period_for(Reminders.DAILY, "Pacific/Auckland", thursday) == "d2026-11-26"
    assert period_for(Reminders.DAILY, "Pacific/Auckland", thursday + timedelta(hours=12)) == "d2026-11-27"
    user = _reminded_user("ole", Reminders.WEEKLY)
    client = Client()
    assert client.get(reverse("learners:unsubscribe", args=["forged-token"])).status_code == 400
    assert LearnerSettings.objects.get(user=user).reminders == Reminders.WEEKLY
    response = client.post(reverse("learners:unsubscribe", args=[unsubscribe_token(user=user)]))  # RFC 8058 POST
    assert response.status_code == 200
    assert LearnerSettings.objects.get(user=user).reminders == Reminders.OFF
    _due_item(user, timezone.now())
    assert queue_due_reminders(now=timezone.now().replace(hour=11))["queued"] == 0 and not mail.outbox


def test_dashboard_names_the_lesson_step() -> None:
    html = Client().get(reverse("training:dashboard")).content.decode()
    assert re.search(r"Stufe 1 \(", html)
    assert "Tagesziel" in html


def test_free_practice_names_a_due_review_first() -> None:
    client = Client()
    client.get(reverse("training:exercise", kwargs={"kind": "rangfolge"}))
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    question = question_for(issued)
    right = present(get_type("rangfolge")).correct_answer(question)
    wrong = list(reversed(right)) if question.widget == "order" else [o.value for o in question.options]
    html = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": wrong}).content.decode()
    nxt = re.search(r'<a class="btn next-exercise" href="([^"]+)"', html)
    assert nxt and nxt.group(1).startswith("/ueben/aufgabe/rangfolge/")  # nothing due yet: more practice
    ReviewItem.objects.update(due=timezone.now() - timedelta(minutes=1))
    client.get(reverse("training:exercise", kwargs={"kind": "rangfolge"}))
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    right = present(get_type("rangfolge")).correct_answer(question_for(issued))
    html = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right}).content.decode()
    nxt = re.search(r'<a class="btn next-exercise" href="([^"]+)"', html)
    assert nxt and nxt.group(1).startswith("/ueben/wiederholen/")
    assert "1 Aufgabe zum Wiederholen ist fällig." in html


def test_account_export_holds_the_goal_and_the_reminders_sent() -> None:
    from skatschule.accounts.deletion import export_account

    user = _reminded_user("ida", Reminders.WEEKLY)
    ReminderSent.objects.create(user=user, period="w2026-48", due=3)
    data = export_account(user=user)["daily_goal"]
    assert (data["goal"], data["time_zone"], data["reminders"]) == (10, "Europe/Berlin", "weekly")
    assert [(r["period"], r["due"]) for r in data["reminders_sent"]] == [("w2026-48", 3)]


def test_every_lesson_mastered_names_the_puzzle_of_the_day(monkeypatch: pytest.MonkeyPatch) -> None:
    from skatschule.training import selectors as progress

    monkeypatch.setattr(progress, "get_lessons", lambda: ())  # nothing left to master
    monkeypatch.setattr("skatschule.training.views.lesson_of", lambda issued: None)
    client = Client()
    client.get(reverse("training:lesson", kwargs={"slug": "die-karten"}))
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    right = present(get_type(issued.kind)).correct_answer(question_for(issued))
    html = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right}).content.decode()
    puzzle = reverse("puzzles:daily")
    assert f'<a class="btn next-exercise" href="{puzzle}?weiter=1"' in html
    assert "Rätsel des Tages" in html
    assert f'href="{puzzle}"' in client.get(reverse("training:dashboard")).content.decode()


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("de", ["Tagesserie: 0 Tage", "Trefferserie (richtig in Folge)", "Beste Trefferserie", "Trefferserie 1"]),
        ("en", ["Day streak: 0 days", "Answer streak (right in a row)", "Best answer streak", "Answer streak 1"]),
    ],
)
def test_the_dashboard_names_its_two_streaks_apart(lang: str, names: list[str]) -> None:
    """Days with the goal met and right answers in a row are two things: neither is called just "Serie"."""
    user = get_user_model().objects.create_user("serienzaehler", password="kreuz-bube-und-pik-bube")
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = lang
    _answer(Owner.for_user(user), timezone.now())
    html = re.sub(r"\s+", " ", client.get(reverse("training:dashboard")).content.decode())
    for name in names:
        assert name in html
    text = re.sub(r"<[^>]*>", " ", html)
    bare = r"(?<![A-Za-zä])[Ss]erie\b" if lang == "de" else r"(?<!Day )(?<![Aa]nswer )\b[Ss]treak\b"
    assert re.findall(bare + "[^.]{0,30}", text) == []


def test_answers_per_day_are_kept_not_recounted(django_assert_max_num_queries: Any) -> None:
    """They grouped every answer by day on every page with the goal (issue 36): now one query
    reads the stored counts when nothing changed, and a new answer adds to them, whatever the
    length of the history; another time zone, or answers gone, regroups the history once."""
    owner = Owner.for_session("k" * 32)
    start = datetime(2026, 11, 20, 22, 30, tzinfo=UTC)
    for n in range(6):
        _answer(owner, start + timedelta(hours=7 * n))
    berlin_days = selectors.answers_per_day(owner=owner, zone="Europe/Berlin")
    assert AnswerDays.objects.owned_by(owner).get().attempts == 6
    with django_assert_max_num_queries(1):
        assert selectors.answers_per_day(owner=owner, zone="Europe/Berlin") == berlin_days
    _answer(owner, start + timedelta(days=3))
    with django_assert_max_num_queries(4):  # read, count the new ones, group them, store
        after = selectors.answers_per_day(owner=owner, zone="Europe/Berlin")
    assert sum(after.values()) == 7 and after[date(2026, 11, 23)] == berlin_days.get(date(2026, 11, 23), 0) + 1
    AnswerDays.objects.all().delete()
    assert selectors.answers_per_day(owner=owner, zone="Europe/Berlin") == after  # as grouping the whole history gives
    elsewhere = selectors.answers_per_day(owner=owner, zone="America/New_York")
    assert elsewhere != after and sum(elsewhere.values()) == 7
    assert AnswerDays.objects.owned_by(owner).get().zone == "America/New_York"
    Attempt.objects.owned_by(owner).order_by("pk").first().delete()  # type: ignore[union-attr]
    assert sum(selectors.answers_per_day(owner=owner, zone="America/New_York").values()) == 6
