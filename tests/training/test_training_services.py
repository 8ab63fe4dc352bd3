from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from skatschule.core.notfound import NotFound
from skatschule.exercises.base import AnswerError, Feedback, Question
from skatschule.owners import Owner
from skatschule.training.lessons import get_lesson
from skatschule.training.models import AppendOnlyError, Attempt, AttemptGrade, IssuedExercise, ReviewItem
from skatschule.training.selectors import lesson_progress_for, progress
from skatschule.training.services import issuing, review, variants
from skatschule.training.services.adoption import adopt_session
from skatschule.training.services.issuing import (
    TIME_CAP_MS,
    BadDifficulty,
    UnknownExercise,
    clean_answer,
    issue,
    question_for,
    submit,
)
from tests.present import present

from .fakes import FakeAdd
from .helpers import answer, right_answer, wrong_answer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_training")]


def test_issue_stores_server_side_state(owner: Owner) -> None:
    issued = issue(kind="fake_add", difficulty=2, owner=owner)
    assert 0 <= issued.seed < 2**31
    assert issued.session_key == owner.session_key and issued.user is None
    assert issued.mode == IssuedExercise.Mode.PRACTICE and issued.lesson is None
    assert question_for(issued).prompt.de.startswith("Wie viel")
    lesson_issue = issue(kind="fake_add", difficulty="1", lesson=get_lesson("addieren"), owner=owner)
    assert lesson_issue.lesson == "addieren" and lesson_issue.mode == IssuedExercise.Mode.LESSON


def test_issue_rejects_unknown_kind_and_bad_level(owner: Owner) -> None:
    with pytest.raises(UnknownExercise):
        issue(kind="nope", difficulty=1, owner=owner)
    assert issubclass(UnknownExercise, NotFound)
    bad: Any
    for bad in (0, 4, "x", "", None, "1.5"):  # not only what the signature admits
        with pytest.raises(BadDifficulty):
            issue(kind="fake_add", difficulty=bad, owner=owner)
    assert not IssuedExercise.objects.exists()


def test_submit_right_and_wrong(owner: Owner) -> None:
    issued = issue(kind="fake_add", difficulty=1, owner=owner)
    submitted = submit(issued=issued, owner=owner, values=right_answer(issued))
    attempt, feedback = submitted.attempt, submitted.feedback
    assert attempt.correct and feedback.correct and submitted.created
    assert attempt.answer == right_answer(issued)
    assert attempt.rule_ids == ["4.1.1"]
    assert (attempt.kind, attempt.difficulty, attempt.seed) == ("fake_add", 1, issued.seed)
    assert 0 <= attempt.time_taken_ms < 60_000

    issued = issue(kind="fake_add", difficulty=1, owner=owner)
    submitted = submit(issued=issued, owner=owner, values=wrong_answer(issued))
    attempt, feedback = submitted.attempt, submitted.feedback
    assert not attempt.correct and not feedback.correct
    assert feedback.steps and feedback.answer.de


def test_time_taken_is_capped(owner: Owner) -> None:
    issued = issue(kind="fake_add", difficulty=1, owner=owner)
    attempt = submit(
        issued=issued, owner=owner, values=right_answer(issued), now=issued.issued_at + timedelta(days=3)
    ).attempt
    assert attempt.time_taken_ms == TIME_CAP_MS


def test_submit_checks_the_owner(owner: Owner, other_owner: Owner, django_user_model: type[User]) -> None:
    issued = issue(kind="fake_add", difficulty=1, owner=owner)
    with pytest.raises(NotFound):
        submit(issued=issued, owner=other_owner, values=right_answer(issued))
    user = django_user_model.objects.create_user("u1", password="pw-long-enough-1")
    with pytest.raises(NotFound):
        submit(issued=issued, owner=Owner.for_user(user), values=right_answer(issued))
    with pytest.raises(NotFound):
        issuing.get_issued(public_id=issued.public_id, owner=other_owner)
    assert issuing.get_issued(public_id=issued.public_id, owner=owner) == issued
    assert not Attempt.objects.exists()


def test_double_submit_records_one_attempt(owner: Owner) -> None:
    issued = issue(kind="fake_add", difficulty=1, owner=owner)
    first = submit(issued=issued, owner=owner, values=wrong_answer(issued))
    second = submit(issued=issued, owner=owner, values=right_answer(issued))
    assert Attempt.objects.count() == 1
    assert first.created and not second.created
    assert second.attempt.pk == first.attempt.pk and second.progress_state is None
    assert second.feedback == first.feedback and not second.feedback.correct
    # even junk on the second submit returns the stored feedback
    third = submit(issued=issued, owner=owner, values=["junk"])
    assert third.attempt.pk == first.attempt.pk and third.feedback == first.feedback


def test_concurrent_double_submit_returns_the_winner(owner: Owner, monkeypatch: pytest.MonkeyPatch) -> None:
    issued = issue(kind="fake_add", difficulty=1, owner=owner)
    real = issuing.grade_answer
    calls: list[int] = []

    def racing_grade(*, question: Question, values: Sequence[str]) -> Feedback:
        feedback = real(question=question, values=values)
        if not calls:  # the other request inserts its attempt while we are grading
            calls.append(1)
            Attempt.objects.create(
                issued=issued,
                **owner.fields(),
                kind=issued.kind,
                difficulty=1,
                seed=issued.seed,
                answer=["1"],
                correct=False,
                time_taken_ms=5,
            )
        return feedback

    monkeypatch.setattr(issuing, "grade_answer", racing_grade)
    submitted = submit(issued=issued, owner=owner, values=right_answer(issued))
    assert Attempt.objects.count() == 1
    assert not submitted.created and submitted.attempt.answer == ["1"]
    assert submitted.feedback.given.de == "1"


def test_answer_error_is_not_stored(owner: Owner) -> None:
    issued = issue(kind="fake_add", difficulty=1, owner=owner)
    for junk in ([], ["abc"], ["1", "2"], ["1e5"], ["9" * 80], ["1"] * 100):
        with pytest.raises(AnswerError):
            submit(issued=issued, owner=owner, values=junk)
    assert not Attempt.objects.exists()
    attempt = submit(issued=issued, owner=owner, values=[" " + right_answer(issued)[0] + " "]).attempt
    assert attempt.correct


@pytest.mark.parametrize(
    "kind, junk",
    [
        ("fake_pick", []),
        ("fake_pick", ["z"]),
        ("fake_pick", ["a", "b"]),
        ("fake_jacks", ["XX"]),
        ("fake_jacks", ["CJ", "CJ"]),
        ("fake_order", ["CA"]),
        ("fake_order", ["", "", ""]),
        ("fake_multi", ["0"]),
    ],
)
def test_clean_answer_rejects_junk(kind: str, junk: list[str], owner: Owner) -> None:
    issued = issue(kind=kind, difficulty=1, owner=owner)
    question = question_for(issued)
    with pytest.raises(AnswerError):
        clean_answer(question=question, values=junk)


def test_order_accepts_one_field_with_spaces(owner: Owner) -> None:
    issued = issue(kind="fake_order", difficulty=1, owner=owner)
    right = right_answer(issued)
    submitted = submit(issued=issued, owner=owner, values=[" ".join(right)])
    attempt, feedback = submitted.attempt, submitted.feedback
    assert feedback.correct and attempt.correct


def test_attempts_are_append_only(owner: Owner) -> None:
    attempt = answer("fake_add", 1, owner, True).attempt
    attempt.correct = False
    with pytest.raises(AppendOnlyError):
        attempt.save()
    grade = AttemptGrade.objects.create(attempt=attempt, correct=False, note="x")
    with pytest.raises(AppendOnlyError):
        grade.save()
    assert Attempt.objects.with_grade().get().effective_correct is False
    assert Attempt.objects.get().effective_grade() is False


def test_progress_derivation(owner: Owner) -> None:
    lesson = present(get_lesson("addieren"))
    lp = lesson_progress_for(owner=owner, lesson=lesson)
    assert (lp.attempts, lp.accuracy, lp.streak, lp.percent, lp.mastered, lp.current_step) == (0, None, 0, 0, False, 1)

    for correct in (False, True, True, True, True, True):
        answer("fake_add", 1, owner, correct)
    lp = lesson_progress_for(owner=owner, lesson=lesson)
    assert lp.attempts == 6 and lp.right == 5
    assert lp.accuracy == 83
    assert lp.streak == 5
    assert lp.percent == round(100 * 5 / 8)
    assert not lp.mastered
    assert lp.current_step == 2  # five right in a row at step 1
    assert lp.steps[0].passed and not lp.steps[1].passed

    for _ in range(3):
        answer("fake_add", 2, owner, True)
    lp = lesson_progress_for(owner=owner, lesson=lesson)
    assert lp.recent_right == 8 and lp.mastered and lp.percent == 100

    # a practice attempt at another level of the type does not count for this lesson
    answer("fake_add", 3, owner, False)
    assert lesson_progress_for(owner=owner, lesson=lesson).attempts == 9
    # wrong answers at the end break the streak and can cost mastery
    answer("fake_add", 2, owner, False)
    answer("fake_add", 2, owner, False)
    lp = lesson_progress_for(owner=owner, lesson=lesson)
    assert lp.streak == 0 and lp.recent_right == 8 and lp.mastered
    answer("fake_add", 2, owner, False)
    lp = lesson_progress_for(owner=owner, lesson=lesson)
    assert lp.recent_right == 7 and not lp.mastered


def test_overall_progress_and_suggestion(owner: Owner) -> None:
    p = progress(owner=owner)
    assert p.attempts == 0 and p.suggestion.kind == "lesson" and present(p.suggestion.lesson).slug == "addieren"
    assert [c.chapter for c in p.chapters] == ["1", "2", "3", "4", "K", "A"]
    for correct in (True, True, False, True):
        answer("fake_add", 1, owner, correct)
    answer("fake_pick", 1, owner, True)
    p = progress(owner=owner)
    assert p.attempts == 5 and p.right == 4 and p.accuracy == 80
    assert p.streak == 2 and p.best_streak == 2
    chapters = {c.chapter: c for c in p.chapters}
    assert (chapters["4"].attempts, chapters["4"].right) == (4, 3)
    assert (chapters["3"].attempts, chapters["K"].attempts) == (1, 1)
    assert chapters["1"].attempts == 0 and chapters["1"].accuracy is None
    rules = {r.rule_id: r for r in p.rules}
    assert rules["4.1.1"].accuracy == 75
    assert p.lessons[0].suggested and present(p.next_lesson).lesson.slug == "addieren"
    # the miss is in the review queue; once due, reviewing is suggested first
    ReviewItem.objects.update(due=timezone.now() - timedelta(minutes=1))
    p = progress(owner=owner)
    assert p.due_reviews == 1 and p.suggestion.kind == "review"


def test_regrade_uses_the_effective_grade(owner: Owner) -> None:
    attempt = answer("fake_add", 1, owner, True).attempt
    AttemptGrade.objects.create(attempt=attempt, correct=False)
    lp = lesson_progress_for(owner=owner, lesson=present(get_lesson("addieren")))
    assert lp.right == 0


def test_miss_creates_review_item_and_hit_reschedules(owner: Owner) -> None:
    before = timezone.now()
    attempt = answer("fake_add", 1, owner, False).attempt
    item = ReviewItem.objects.get()
    assert (item.kind, item.difficulty, item.seed) == ("fake_add", 1, attempt.seed)
    assert item.due > before and item.card["stability"] is not None
    assert review.due_count(owner=owner) == 0  # due again in a minute, not now
    answer("fake_add", 1, owner, True)  # a different exercise: no card
    assert ReviewItem.objects.count() == 1

    later = timezone.now() + timedelta(minutes=5)
    assert review.next_due(owner=owner, now=later) == item
    ReviewItem.objects.update(due=timezone.now() - timedelta(seconds=1))
    item.refresh_from_db()
    issued = variants.issued_for_review(owner=owner, item=item)
    assert issued.mode == IssuedExercise.Mode.REVIEW and issued.review_item == item
    assert issued.seed != item.seed  # a fresh variant, not the missed question
    assert question_for(issued).prompt.de != question_for(attempt.issued).prompt.de
    assert variants.issued_for_review(owner=owner, item=item) == issued  # reload: same exercise
    old_card = dict(item.card)
    submit(issued=issued, owner=owner, values=right_answer(issued))
    item.refresh_from_db()
    assert item.reviews == 1 and item.card != old_card
    assert item.due > timezone.now()
    assert review.due_count(owner=owner) == 0

    # a wrong answer on review rates it Again
    ReviewItem.objects.update(due=timezone.now() - timedelta(seconds=1))
    issued = variants.issued_for_review(owner=owner, item=item)
    submit(issued=issued, owner=owner, values=wrong_answer(issued))
    item.refresh_from_db()
    assert item.reviews == 2 and item.due <= timezone.now() + timedelta(minutes=15)


def test_adopt_session_moves_everything(owner: Owner) -> None:
    answer("fake_add", 1, owner, False)
    answer("fake_add", 1, owner, True)
    user = get_user_model().objects.create_user("anna", password="pw-long-enough-1")
    moved = adopt_session(session_key=owner.session_key, user=user)
    assert moved == {"issued": 2, "attempts": 2, "reviews": 1}
    user_owner = Owner.for_user(user)
    assert Attempt.objects.owned_by(user_owner).count() == 2
    assert ReviewItem.objects.owned_by(user_owner).count() == 1
    assert not Attempt.objects.owned_by(owner).exists()
    assert adopt_session(session_key=owner.session_key, user=user) == {"issued": 0, "attempts": 0, "reviews": 0}
    assert adopt_session(session_key="", user=user)["attempts"] == 0


def test_adopt_session_keeps_the_users_review_item_on_clash(owner: Owner) -> None:
    user = get_user_model().objects.create_user("ben", password="pw-long-enough-1")
    attempt = answer("fake_add", 1, owner, False).attempt
    ReviewItem.objects.create(user=user, kind="fake_add", difficulty=1, seed=attempt.seed, card={}, due=timezone.now())
    adopt_session(session_key=owner.session_key, user=user)
    assert ReviewItem.objects.filter(user=user).count() == 1
    assert ReviewItem.objects.count() == 1


def test_regrade_command(owner: Owner, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answer("fake_add", 1, owner, True)
    answer("fake_add", 1, owner, False)
    call_command("regrade")
    assert "0 changed" in capsys.readouterr().out
    assert not AttemptGrade.objects.exists()

    real = FakeAdd.grade

    def inverted(self: FakeAdd, question: Question, values: Sequence[str]) -> Feedback:
        from dataclasses import replace

        feedback = real(self, question, values)
        return replace(feedback, correct=not feedback.correct)

    monkeypatch.setattr(FakeAdd, "grade", inverted)
    call_command("regrade", "--dry-run")
    assert "2 would change" in capsys.readouterr().out
    assert not AttemptGrade.objects.exists()
    call_command("regrade")
    assert "2 changed" in capsys.readouterr().out
    assert AttemptGrade.objects.count() == 2
    assert sorted(Attempt.objects.with_grade().values_list("correct", "effective_correct")) == [
        (False, True),
        (True, False),
    ]
    call_command("regrade")  # nothing changes a second time
    assert "0 changed" in capsys.readouterr().out
    monkeypatch.setattr(FakeAdd, "grade", real)
    call_command("regrade")  # the engine is fixed again: back to the original grades
    assert "2 changed" in capsys.readouterr().out
    assert all(a.effective_correct == a.correct for a in Attempt.objects.with_grade())
    assert Attempt.objects.filter(correct=True).count() == 1  # attempts themselves never changed


def test_an_attempt_keeps_its_generator_and_a_newer_generator_leaves_it_out_of_a_regrade(
    owner: Owner, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = answer("fake_add", 1, owner, True).attempt
    assert first.generator == FakeAdd.generator == 1
    monkeypatch.setattr(FakeAdd, "generator", 2)  # the generator changed: seeds build other questions
    second = answer("fake_add", 1, owner, True).attempt
    assert second.generator == 2

    real = FakeAdd.grade

    def inverted(self: FakeAdd, question: Question, values: Sequence[str]) -> Feedback:
        from dataclasses import replace

        return replace(real(self, question, values), correct=not real(self, question, values).correct)

    monkeypatch.setattr(FakeAdd, "grade", inverted)
    call_command("regrade")
    out = capsys.readouterr().out
    assert "1 attempts re-graded, 1 changed" in out and "1 left alone" in out
    assert list(AttemptGrade.objects.values_list("attempt_id", flat=True)) == [second.pk]
