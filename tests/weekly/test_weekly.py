"""Das Blatt der Woche: the week's deals, the fixed bots, one try, the comparison and the ranking."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from skatschule.classrooms import services as classrooms
from skatschule.core.notfound import NotFound
from skatschule.engine import SkatError
from skatschule.engine.bots import choose_card
from skatschule.engine.bots import play as bot_play
from skatschule.engine.game import Phase
from skatschule.engine.lists import seeger_totals
from skatschule.engine.solver import Position, wins
from skatschule.table import services as table_services
from skatschule.weekly import selectors, services, work
from skatschule.weekly.deals import DEALS_PER_SET, deal_of, week_key, week_of
from skatschule.weekly.models import DealSet, Entry
from tests.clock import berlin

from .play import learner_move, play_to_the_end

pytestmark = pytest.mark.django_db

SECRET = "blatt-test-secret"


@pytest.fixture(autouse=True)
def fixed_secret() -> Any:
    with override_settings(WEEKLY_SECRET=SECRET):
        yield


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ---------------------------------------------------------------- the week and its deals


def test_the_week_turns_at_midnight_from_sunday_to_monday_in_berlin(clock: Any) -> None:
    sunday, monday = date(2026, 11, 29), date(2026, 11, 30)
    clock.move_to(berlin(sunday, 23, 59))
    before = services.week_set()
    assert before.key == "2026-W48"
    clock.move_to(berlin(monday, 0, 1))
    after = services.week_set()
    assert after.key == "2026-W49"
    assert [deal_of(before.key, n) for n in range(1, 7)] != [deal_of(after.key, n) for n in range(1, 7)]
    assert week_of(berlin(sunday, 23, 59) + timedelta(minutes=31)) == (2026, 49)


def test_the_iso_year_of_a_week_is_not_the_calendar_year(clock: Any) -> None:
    clock.move_to(berlin(date(2027, 1, 1), 12))  # a Friday: ISO week 53 of 2026
    assert services.week_set().key == "2026-W53"


def test_a_weeks_deals_are_the_same_every_time_and_need_the_secret(clock: Any) -> None:
    key = week_key(*week_of())
    first = [deal_of(key, n) for n in range(1, DEALS_PER_SET + 1)]
    assert first == [deal_of(key, n) for n in range(1, DEALS_PER_SET + 1)]
    assert len({seed for seed, _ in first}) == DEALS_PER_SET
    with override_settings(WEEKLY_SECRET="another-secret"):
        assert [deal_of(key, n) for n in range(1, DEALS_PER_SET + 1)] != first
    with pytest.raises(ValueError):
        deal_of(key, DEALS_PER_SET + 1)


def test_the_page_of_the_week_names_no_seed(clock: Any, learner: Any) -> None:
    page = _signed_in(learner).get(reverse("weekly:index")).content.decode()
    key = services.week_set().key
    for n in range(1, DEALS_PER_SET + 1):
        seed, _ = deal_of(key, n)
        assert str(seed) not in page
    assert "Blatt 6" in page


# ---------------------------------------------------------------- the bots play alike at every table


class _RushedClock:
    """A wall clock on which a second passes at every look: any time cap is over at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def test_the_bots_play_the_same_at_two_tables_for_the_same_learner_moves(
    clock: Any, learner: Any, other: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second table runs on a machine so slow that every time cap is over at the first look:
    the contest bots still play the same cards (they sample by the position, not by the clock)."""
    week = services.week_set()
    played = 0
    for number in range(1, DEALS_PER_SET + 1):
        one = play_to_the_end(_signed_in(learner), key=week.key, number=number)
        with monkeypatch.context() as patched:
            patched.setattr(bot_play, "time", _RushedClock())
            two = play_to_the_end(_signed_in(other), key=week.key, number=number)
        assert one.moves == two.moves
        mine, theirs = (Entry.objects.get(user=u, number=number) for u in (learner, other))
        assert mine.moves == theirs.moves == one.moves and mine.is_finished and theirs.is_finished
        played += any(m[0] == "c" for m in one.moves)
    assert played >= 2  # cards were played, not only passed-in deals


def _a_bot_choice(seed: int) -> Any:
    """A position of a played game where a computer player chooses among several cards with at
    most six in hand (the club player samples there)."""
    table = table_services.Table(seed, 0, [], contest=1)
    table.moves += table_services.bot_moves(table=table)
    state = table_services.replay(table=table)
    while not state.is_over():
        move = learner_move(table)
        state = table_services.play(table=table, action=move["action"], value=move.get("value", ""), state=state)
    for cut in range(len(table.moves)):
        here = table_services.replay(table=table_services.Table(seed, 0, table.moves[:cut]))
        seat = here.to_move
        if (
            here.phase is Phase.PLAY
            and seat not in (None, 0)
            and len(list(here.legal_cards())) > 1
            and len(list(here.hand(seat))) <= 6
        ):
            return here
    return None


def test_the_rushed_clock_would_change_an_ordinary_bots_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """What makes the test above able to fail: with a time cap the rushed clock stops the sampling
    before the first deal, so the card comes from the rule of thumb alone."""
    state = next(found for found in map(_a_bot_choice, range(1, 40)) if found is not None)
    assert choose_card(state, level=services.LEVEL, rng=random.Random(1), time_cap=None).samples > 0
    monkeypatch.setattr(bot_play, "time", _RushedClock())
    assert choose_card(state, level=services.LEVEL, rng=random.Random(1)).samples == 0
    assert choose_card(state, level=services.LEVEL, rng=random.Random(1), time_cap=None).samples > 0


def test_the_contest_bot_card_depends_on_the_position_only() -> None:
    """The contest bots' random source is a digest of the deal and the moves: two tables at the same
    position draw alike; the ordinary table's bots (seeded by a game's own random state) need not."""
    table = table_services.Table(12345, 0, [], contest=7)
    same = table_services.Table(12345, 0, [], contest=99)
    assert table_services.fixed_bot_rng(table=table).random() == table_services.fixed_bot_rng(table=same).random()
    moved = table_services.Table(12345, 0, [["a", 1, 18]], contest=7)
    assert table_services.fixed_bot_rng(table=table).random() != table_services.fixed_bot_rng(table=moved).random()


# ---------------------------------------------------------------- one try counts


def test_a_finished_deal_cannot_be_played_again(clock: Any, learner: Any) -> None:
    client = _signed_in(learner)
    key = services.week_set().key
    play_to_the_end(client, key=key, number=1)
    entry = Entry.objects.get(user=learner, number=1)
    kept = (list(entry.moves), entry.points, entry.finished)
    again = client.post(reverse("weekly:play", args=[key, 1]))
    assert again.status_code == 302 and again["Location"] == reverse("weekly:compare", args=[key, 1])
    refused = services.record_moves(user=learner, entry_id=entry.pk, seed=entry.seed, seat=entry.seat, moves=[])
    assert refused is None
    entry.refresh_from_db()
    assert (entry.moves, entry.points, entry.finished) == kept
    assert Entry.objects.filter(user=learner).count() == 1


def test_leaving_the_table_keeps_the_moves_and_opening_again_goes_on(clock: Any, learner: Any) -> None:
    client = _signed_in(learner)
    key = services.week_set().key
    # a deal that goes on after the learner's first move (not passed in at once)
    for number in range(1, DEALS_PER_SET + 1):
        table = play_to_the_end(client, key=key, number=number, stop_after=1)
        if not Entry.objects.get(user=learner, number=number).is_finished:
            break
    else:
        pytest.fail("every deal was over after one move")
    entry = Entry.objects.get(user=learner, number=number)
    assert entry.moves == table.moves and table.contest == entry.pk
    # a new game at the table drops the deal from the session ...
    client.post(reverse("table:play"), {"action": "new", "confirm": "1"})
    fresh = table_services.from_session(session=client.session)
    assert fresh is not None and fresh[0].contest == 0
    # ... and opening the deal again goes on from the kept moves, not from the start
    client.post(reverse("weekly:play", args=[key, number]))
    back = table_services.from_session(session=client.session)
    assert back is not None and back[0].moves == entry.moves and back[0].contest == entry.pk


def test_no_take_back_and_no_hint_in_a_contest_game() -> None:
    table = table_services.Table(4242, 0, [], contest=3)
    state = table_services.replay(table=table)
    table.moves += table_services.bot_moves(table=table)
    state = table_services.replay(table=table)
    table_services.play(table=table, action=learner_move(table)["action"], state=state)
    with pytest.raises(SkatError):
        table_services.take_back(table=table)
    with pytest.raises(SkatError):
        table_services.check_hint(table=table, state=table_services.replay(table=table))


def test_moves_that_do_not_continue_the_kept_ones_are_refused(clock: Any, learner: Any, other: Any) -> None:
    entry = services.open_deal(user=learner, deal_set=services.week_set(), number=3)
    assert (
        services.record_moves(user=other, entry_id=entry.pk, seed=entry.seed, seat=entry.seat, moves=entry.moves)
        is None
    )
    assert entry.moves, "the computer players spoke before the learner"
    taken_back = entry.moves[:-1]
    assert (
        services.record_moves(user=learner, entry_id=entry.pk, seed=entry.seed, seat=entry.seat, moves=taken_back)
        is None
    )
    other_way = entry.moves[:-1] + [["a", entry.moves[-1][1], 99]]
    assert (
        services.record_moves(user=learner, entry_id=entry.pk, seed=entry.seed, seat=entry.seat, moves=other_way)
        is None
    )
    entry.refresh_from_db()
    assert entry.moves and not entry.is_finished


def test_only_this_weeks_deals_can_be_played(clock: Any, learner: Any) -> None:
    old = services.week_set()
    clock.move_to(berlin(date(2026, 12, 9), 12))
    with pytest.raises(NotFound):
        services.open_deal(user=learner, deal_set=old, number=1)
    assert _signed_in(learner).post(reverse("weekly:play", args=[old.key, 1])).status_code == 404


# ---------------------------------------------------------------- the comparison and the par


def test_the_points_are_the_engines_seeger_fabian_and_the_comparison_ranks_them(
    clock: Any, learner: Any, other: Any
) -> None:
    key = services.week_set().key
    for user in (learner, other):
        for number in range(1, DEALS_PER_SET + 1):
            play_to_the_end(_signed_in(user), key=key, number=number)
    for entry in Entry.objects.filter(user=learner):
        table = table_services.Table(entry.seed, entry.seat, entry.moves)
        state = table_services.replay(table=table)
        outcome = state.outcome()
        expected = 0 if outcome is None else seeger_totals(3, [(state.declarer, outcome.score)])[entry.seat]
        assert entry.points == expected
        seen = selectors.comparison(user=learner, deal_set=entry.deal_set, number=entry.number)
        assert seen.players == 2 and seen.rank == 1  # the same moves, the same points: a shared first place


def test_the_comparison_shows_nothing_before_the_learners_own_game_is_over(
    clock: Any, learner: Any, other: Any
) -> None:
    key = services.week_set().key
    play_to_the_end(_signed_in(other), key=key, number=1)
    client = _signed_in(learner)
    with pytest.raises(NotFound):
        selectors.comparison(user=learner, deal_set=services.week_set(), number=1)
    assert client.get(reverse("weekly:compare", args=[key, 1])).status_code == 302


def test_the_comparison_page_shows_the_par_from_the_solver(clock: Any, learner: Any) -> None:
    key = services.week_set().key
    client = _signed_in(learner)
    shown = 0
    for number in range(1, DEALS_PER_SET + 1):
        play_to_the_end(client, key=key, number=number)
        entry = Entry.objects.get(user=learner, number=number)
        page = client.get(reverse("weekly:compare", args=[key, number]))
        assert page.status_code == 200
        if entry.contract is None:
            continue
        par = work.run_par(work.par_payload(seed=entry.seed, seat=entry.seat, moves=entry.moves))
        start = table_services.replay(table=table_services.Table(entry.seed, entry.seat, work.setup_moves(entry.moves)))
        position = Position.of(start)
        if par["augen"] is not None:
            assert f"{par['augen']} Augen" in page.content.decode()
            assert par["wins"] == wins(position, par["need"])
            assert not wins(position, par["augen"] + 1) and wins(position, par["augen"])
            shown += 1
    assert shown >= 1


# ---------------------------------------------------------------- class tournament and ranking


@pytest.fixture
def teacher(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("lehrerin", password="geheim-12345")
    classrooms.grant_teacher(user=user)
    return user


def test_a_class_tournament_ranks_its_members_by_seeger_fabian(
    clock: Any, teacher: Any, learner: Any, other: Any, django_user_model: Any
) -> None:
    room = classrooms.create_classroom(teacher=teacher, name="7b")
    for student in (learner, other):
        classrooms.join(student=student, raw_code=room.join_code)
    outsider = django_user_model.objects.create_user("fremd", password="geheim-12345")
    made = services.create_tournament(teacher=teacher, classroom_id=room.pk, title="  Adventsturnier ")
    assert made.title == "Adventsturnier" and made.key.startswith("turnier-")
    with pytest.raises(NotFound):
        services.open_deal(user=outsider, deal_set=made, number=1)
    with pytest.raises(NotFound):
        services.create_tournament(teacher=learner, classroom_id=room.pk, title="Meins")
    # the learner wins a game of value 18 as declarer, then loses one (list -36);
    # the other defends twice against a computer that loses: the engine's Seeger-Fabian points
    won, lost = seeger_totals(3, [(0, 18)])[0], seeger_totals(3, [(0, -36)])[0]
    defended = seeger_totals(3, [(1, -36)])[0]
    for student, points in ((learner, [won, lost]), (other, [defended, defended])):
        for number, p in enumerate(points, 1):
            entry = services.open_deal(user=student, deal_set=made, number=number)
            Entry.objects.filter(pk=entry.pk).update(finished=timezone.now(), points=p)
    Entry.objects.create(user=outsider, deal_set=made, number=1, seed=1, seat=0, finished=timezone.now(), points=999)
    lines = selectors.ranking(deal_set=made)
    assert [(line.place, line.name, line.points, line.deals) for line in lines] == [
        (1, "zweiter", 2 * defended, 2),
        (2, "wochenspieler", won + lost, 2),
    ]
    page = _signed_in(learner).get(reverse("weekly:standings", args=[made.key]))
    assert page.status_code == 200 and "zweiter" in page.content.decode()
    assert _signed_in(outsider).get(reverse("weekly:standings", args=[made.key])).status_code == 404


def test_ties_share_a_place(clock: Any, learner: Any, other: Any) -> None:
    week = services.week_set()
    for user in (learner, other):
        Entry.objects.create(user=user, deal_set=week, number=1, seed=1, seat=0, finished=timezone.now(), points=40)
    assert [line.place for line in selectors.ranking(deal_set=week)] == [1, 1]


def test_a_teacher_sets_a_tournament_by_the_page(clock: Any, teacher: Any) -> None:
    room = classrooms.create_classroom(teacher=teacher, name="8a")
    client = _signed_in(teacher)
    made = client.post(reverse("weekly:new_tournament"), {"classroom": room.pk, "title": "Winter"})
    found = DealSet.objects.get(classroom=room)
    assert made.status_code == 302 and made["Location"] == reverse("weekly:set", args=[found.key])
    assert client.post(reverse("weekly:new_tournament"), {"classroom": room.pk, "title": "  "}).status_code == 400


def test_the_pages_speak_english_too(clock: Any, learner: Any, settings: Any) -> None:
    client = _signed_in(learner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("weekly:index")).content.decode()
    assert "Deal of the week" in page and "The first try counts" in page and "Deal 6" in page
    play_to_the_end(client, key=services.week_set().key, number=1)
    compared = client.get(reverse("weekly:compare", args=[services.week_set().key, 1])).content.decode()
    assert "Deal 1: comparison" in compared and "All results on this deal" in compared


def test_opening_a_deal_asks_before_a_running_practice_game_is_dropped(clock: Any, learner: Any) -> None:
    client = _signed_in(learner)
    # a practice game at the table in which the learner has spoken and that still runs
    for seed in range(1, 50):
        own = table_services.new_table(seed=seed)
        state = table_services.play(table=own, action="pass")
        if not state.is_over():
            break
    session = client.session
    table_services.keep(session=session, table=own)
    session.save()
    running = table_services.from_session(session=client.session)
    assert running is not None and running[0].running and not running[1].is_over()
    key = services.week_set().key
    asked = client.post(reverse("weekly:play", args=[key, 1]))
    assert asked.status_code == 200 and "Wirklich verwerfen" in asked.content.decode()
    assert not Entry.objects.filter(user=learner).exists()
    kept = table_services.from_session(session=client.session)
    assert kept is not None and kept[0].moves == running[0].moves
    assert client.post(reverse("weekly:play", args=[key, 1]), {"confirm": "1"}).status_code == 302
    opened = table_services.from_session(session=client.session)
    assert opened is not None and opened[0].contest == Entry.objects.get(user=learner).pk


def test_the_week_page_links_the_week_before_once_someone_saw_it(clock: Any) -> None:
    clock.move_to(berlin(date(2026, 12, 31), 12))  # Thursday of week 53
    services.week_set()
    clock.move_to(berlin(date(2027, 1, 4), 12))  # Monday of 2027's week 1
    current = services.week_set()
    assert current.key == "2027-W01"
    before = selectors.week_before(deal_set=current)
    assert before is not None and before.key == "2026-W53"
    assert selectors.week_before(deal_set=before) is None
    assert 'href="/blatt-der-woche/2026-W53/"' in Client().get(reverse("weekly:index")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_tabs_opening_a_deal_at_once_share_one_try(
    clock: Any, learner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    week = services.week_set()
    real = table_services.bot_moves
    seed, seat = deal_of(week.key, 4)

    def other_tab_first(**kwargs: Any) -> Any:
        moves = real(**kwargs)
        Entry.objects.create(user=learner, deal_set=week, number=4, seed=seed, seat=seat, moves=moves)
        return moves

    monkeypatch.setattr(table_services, "bot_moves", other_tab_first)
    entry = services.open_deal(user=learner, deal_set=week, number=4)
    assert Entry.objects.filter(user=learner, number=4).count() == 1
    assert entry.pk == Entry.objects.get(user=learner, number=4).pk


def test_a_deal_of_the_week_cannot_be_shared(clock: Any, learner: Any) -> None:
    """A shared board shows every hand: those still to play the deal would see it."""
    from skatschule.table.models import TableGame

    client = _signed_in(learner)
    key = services.week_set().key
    for number in range(1, DEALS_PER_SET + 1):
        play_to_the_end(client, key=key, number=number)
        entry = Entry.objects.get(user=learner, number=number)
        if entry.contract is not None:
            break
    row = TableGame.objects.get(user=learner, seed=entry.seed, seat=entry.seat)
    assert row.contest
    refused = client.post(reverse("table:share", args=[row.pk]))
    assert refused.status_code == 400
    row.refresh_from_db()
    assert row.share is None
    board = client.get(reverse("table:stored_board", args=[row.pk])).content.decode()
    assert "lässt sich nicht teilen" in board and "Brett teilen" not in board
