"""Services and selectors of the studies: create, annotate, grade (a job), share, answer, the board."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from skatschule.classrooms.models import Classroom
from skatschule.core.limits import TooLarge
from skatschule.core.notfound import NotFound
from skatschule.engine.puzzles import Spot, grade
from skatschule.jobs.models import Job
from skatschule.owners import Owner
from skatschule.studies import reading, selectors, services
from skatschule.studies.models import Study, StudyStop

from .games import random_game, stop_with_a_wrong_card, typed_fields

pytestmark = pytest.mark.django_db
SEED = 11


def _study(teacher: User, spot: Spot | None = None) -> Study:
    spot = spot or random_game(SEED)
    return services.create_study(teacher=teacher, title="Grand mit vier", spot=spot, source=Study.Source.TYPED)


def _graded_stop(teacher: User) -> tuple[Study, int]:
    spot = random_game(SEED)
    study = _study(teacher, spot)
    moment = stop_with_a_wrong_card(spot)
    services.save_annotations(teacher=teacher, study=study, notes={moment: "Was nun?"}, stops=[moment])
    services.grade_waiting(teacher=teacher, study=study)  # the immediate task backend runs the job now
    return study, moment


def test_a_typed_deal_is_read_back_to_the_same_game() -> None:
    spot = random_game(SEED)
    read = reading.typed(typed_fields(spot))
    assert (read.game, read.declarer, read.plays, set(read.discard)) == (spot.game, 0, spot.plays, set(spot.discard))
    assert read.state().hands == spot.state().hands
    assert reading.typed(typed_fields(spot, cards=4)).plays == spot.plays[:4]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hand0": "CJ XX"}, "keine Karte"),
        ({"spiel": "skat"}, "Spiel"),
        ({"allein": "3"}, "Alleinspieler"),
        ({"skat": ""}, "zehn Karten"),
    ],
)
def test_a_typed_deal_that_is_no_game_says_why(change: dict[str, str], words: str) -> None:
    fields = typed_fields(random_game(SEED)) | change
    with pytest.raises(reading.StudyInputError) as caught:
        reading.typed(fields)
    assert words in caught.value.message("de") and caught.value.status == 400


def test_an_illegal_card_in_the_typed_line_is_named() -> None:
    spot = random_game(SEED)
    fields = typed_fields(spot)
    codes = fields["karten"].split()
    codes[1] = codes[0]  # the first card played again
    with pytest.raises(reading.StudyInputError) as caught:
        reading.typed(fields | {"karten": " ".join(codes)})
    assert caught.value.message("de").startswith("Karte 2")


def test_a_field_over_its_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(reading.StudyInputError) as caught:
        reading.typed(typed_fields(random_game(SEED)) | {"karten": "CJ " * 1000})
    assert "zu lang" in caught.value.message("de") and caught.value.status == 400
    with pytest.raises(reading.StudyInputError):
        reading.from_iss({"iss": "(;" * 5000})
    with pytest.raises(TooLarge):  # a paste over the site's limit
        reading.from_iss({"iss": "(;" * 40_000})


def test_only_a_teacher_makes_a_study(student: User) -> None:
    with pytest.raises(services.NotTeacher):
        _study(student)


def test_a_stop_is_graded_by_the_job_as_the_solver_grades_it(teacher: User) -> None:
    study, moment = _graded_stop(teacher)
    stop = study.stops.get()
    spot = Spot.from_dict(study.record)
    graded = grade(Spot(spot.deal, spot.declarer, spot.game, spot.discard, spot.plays[:moment]).state())
    assert stop.status == StudyStop.Status.GRADED
    assert stop.right == [c.code for c in graded.right] and 0 < len(stop.right) < len(stop.values)
    assert Job.objects.filter(kind="studies-solve", status="done").count() == 1
    assert study.notes == {str(moment): "Was nun?"}


def test_a_second_study_of_the_same_stops_takes_the_known_grading(teacher: User) -> None:
    first, moment = _graded_stop(teacher)
    second = _study(teacher, Spot.from_dict(first.record))
    services.save_annotations(teacher=teacher, study=second, notes={}, stops=[moment])
    job = services.grade_waiting(teacher=teacher, study=second)
    assert job is not None and job.is_done
    assert second.stops.get().right == first.stops.get().right


def test_a_stop_without_a_choice_or_past_the_end_is_refused(teacher: User) -> None:
    spot = random_game(SEED)
    study = _study(teacher, spot)
    with pytest.raises(services.StudyError) as caught:
        services.save_annotations(teacher=teacher, study=study, notes={}, stops=[len(spot.plays) - 1])
    assert "nur eine erlaubte Karte" in caught.value.message("de")
    with pytest.raises(services.StudyError):
        services.save_annotations(teacher=teacher, study=study, notes={}, stops=[len(spot.plays) + 1])
    with pytest.raises(services.StudyError):
        services.save_annotations(teacher=teacher, study=study, notes={0: "x" * 1001}, stops=[])
    assert not study.stops.exists()


def test_another_teacher_cannot_change_a_study(teacher: User, other_teacher: User) -> None:
    study = _study(teacher)
    with pytest.raises(NotFound):
        services.save_annotations(teacher=other_teacher, study=study, notes={0: "meins"}, stops=[])
    with pytest.raises(NotFound):
        selectors.own_study(teacher=other_teacher, pk=study.pk)


def test_an_answer_is_graded_and_the_first_one_counts(teacher: User, student: User) -> None:
    study, moment = _graded_stop(teacher)
    stop = study.stops.get()
    wrong = next(c for c in stop.values if c not in stop.right)
    owner = Owner.for_user(student)
    first = services.answer(owner=owner, study=study, moment=moment, card=wrong)
    assert first.created and not first.answer.correct
    again = services.answer(owner=owner, study=study, moment=moment, card=stop.right[0])
    assert not again.created and again.answer.card == wrong
    other = services.answer(owner=Owner.for_session("k" * 32), study=study, moment=moment, card=stop.right[0])
    assert other.created and other.answer.correct


def test_an_answer_that_is_not_allowed_is_refused(teacher: User, student: User) -> None:
    study, moment = _graded_stop(teacher)
    spot = Spot.from_dict(study.record)
    state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, spot.plays[:moment]).state()
    assert state.to_move is not None
    elsewhere = next(c for c in spot.plays[moment:] if not state.hands[state.to_move] & c.bit)
    with pytest.raises(reading.StudyInputError):
        services.answer(owner=Owner.for_user(student), study=study, moment=moment, card=elsewhere.code)
    with pytest.raises(reading.StudyInputError):
        services.answer(owner=Owner.for_user(student), study=study, moment=moment, card="ZZ")
    with pytest.raises(NotFound):
        services.answer(owner=Owner.for_user(student), study=study, moment=moment - 1, card=elsewhere.code)


def test_the_board_stops_at_an_unanswered_stop(teacher: User, student: User) -> None:
    study, moment = _graded_stop(teacher)
    services.save_annotations(
        teacher=teacher, study=study, notes={moment: "Was nun?", moment + 1: "Danach"}, stops=[moment]
    )
    owner = Owner.for_user(student)
    board = selectors.board(study=study, step=moment + 3, owner=owner)
    assert (board.step, board.limit) == (moment, moment)
    assert len(board.played) == moment and board.legal and not board.right and board.answer is None
    assert board.note == "Was nun?"
    teacher_board = selectors.board(study=study, step=moment + 1, owner=Owner.for_user(teacher), sees_all=True)
    assert teacher_board.step == moment + 1 and teacher_board.note == "Danach"
    services.answer(owner=owner, study=study, moment=moment, card=board.legal[0])
    after = selectors.board(study=study, step=moment, owner=owner)
    assert after.answer is not None and after.right == tuple(study.stops.get().right)
    assert selectors.board(study=study, step=moment + 1, owner=owner).step == moment + 1


def test_a_study_is_seen_by_its_teacher_its_class_or_anyone_with_a_shared_link(
    teacher: User, student: User, classroom: Classroom
) -> None:
    study = _study(teacher)
    outsider = User.objects.create_user("fremd")
    assert selectors.study_by_token(token=study.token, user=teacher) == study
    for user in (student, outsider, AnonymousUser()):
        with pytest.raises(NotFound):
            selectors.study_by_token(token=study.token, user=user)
    services.share(teacher=teacher, study=study, classroom_pk=str(classroom.pk), link=False)
    assert selectors.study_by_token(token=study.token, user=student) == study
    assert list(selectors.learner_studies(user=student)) == [study]
    with pytest.raises(NotFound):
        selectors.study_by_token(token=study.token, user=outsider)
    services.share(teacher=teacher, study=study, classroom_pk="", link=True)
    assert selectors.study_by_token(token=study.token, user=AnonymousUser()) == study
    old = study.token
    services.new_link(teacher=teacher, study=study)
    with pytest.raises(NotFound):
        selectors.study_by_token(token=old, user=AnonymousUser())
    assert len(study.token) >= 32


def test_a_teacher_shares_only_with_an_own_class(teacher: User, other_teacher: User, classroom: Classroom) -> None:
    study = _study(other_teacher)
    with pytest.raises(NotFound):
        services.share(teacher=other_teacher, study=study, classroom_pk=str(classroom.pk), link=False)


def test_the_results_list_each_answer_by_stop(teacher: User, student: User, other_student: User) -> None:
    study, moment = _graded_stop(teacher)
    stop = study.stops.get()
    wrong = next(c for c in stop.values if c not in stop.right)
    services.answer(owner=Owner.for_user(student), study=study, moment=moment, card=stop.right[0])
    services.answer(owner=Owner.for_user(other_student), study=study, moment=moment, card=wrong)
    [result] = selectors.study_results(study=study)
    assert (result.moment, result.answers, result.correct) == (moment, 2, 1)
    assert sorted(result.by_learner) == sorted([("schueler", stop.right[0], True), ("schuelerin", wrong, False)])


def test_the_class_results_show_each_students_stops(
    teacher: User, student: User, other_student: User, classroom: Classroom
) -> None:
    from skatschule.classrooms.selectors import class_progress, progress_table

    study, moment = _graded_stop(teacher)
    services.share(teacher=teacher, study=study, classroom_pk=classroom.pk, link=False)
    stop = study.stops.get()
    services.answer(owner=Owner.for_user(student), study=study, moment=moment, card=stop.right[0])
    progress = class_progress(classroom)
    assert progress.studies == [(study.pk, study.title, 1)]
    cells = {s.name: (s.studies[0].right, s.studies[0].answered) for s in progress.students}
    assert cells == {"schueler": (1, 1), "schuelerin": (0, 0)}
    table = progress_table(progress=progress)
    assert table[0][-1].startswith("Studie: Grand mit vier")
    column = [row[-1] for row in table[1:]]
    assert 1 in column and "" in column


def test_answers_without_an_account_move_to_it_on_sign_in(teacher: User, student: User) -> None:
    study, moment = _graded_stop(teacher)
    stop = study.stops.get()
    services.answer(owner=Owner.for_session("s" * 32), study=study, moment=moment, card=stop.right[0])
    assert services.adopt_session(session_key="s" * 32, user=student) == 1
    assert stop.answers.get().user == student
    services.answer(owner=Owner.for_session("t" * 32), study=study, moment=moment, card=stop.right[0])
    assert services.adopt_session(session_key="t" * 32, user=student) == 0
    assert stop.answers.count() == 1
