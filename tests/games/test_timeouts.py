"""Timeouts with a real Celery worker and beat (subprocesses, Redis, the test database), and
the services' guarantees under races: one outcome per deadline, one touch per sweep."""

import threading
import time
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games import services, tasks, timeouts, write
from games.exceptions import GameError, StaleVersion, TimeExpired, WrongStatus
from games.management.commands.check_replays import replay_mismatch
from games.models import Game, Move, Seat
from tests.celery_processes import SWEEP_SECONDS, CeleryEnv, celery_env, wait_until
from tests.factories import LONGER_DEAL, started_game

__all__ = ["celery_env"]  # the fixture, imported for the tests below

# Slack for process scheduling on a loaded 2-core machine, on top of the promised bound (an
# ETA task fires at its deadline, a sweep within SWEEP_SECONDS). Latenesses are measured from
# the moment the timeout could first be applied: the deadline, or when worker and beat were up.
SLACK = 4.0
#: How long a test waits for what it expects before it fails.
PATIENCE = 60


def finished(game: Game) -> Game | None:
    game.refresh_from_db()
    return game if game.status == Game.Status.FINISHED else None


def assert_timed_out(game: Game, *, fool: int) -> None:
    assert game.status == Game.Status.FINISHED
    end = game.engine().end
    assert end == {"reason": "timeout", "player": fool}
    assert game.seats.get(position=fool).result == Seat.Result.FOOL
    timeouts = Move.objects.filter(game=game, action__type="timeout")
    assert [(m.position, m.action) for m in timeouts] == [(None, {"type": "timeout", "player": fool})]
    assert replay_mismatch(game) is None
    assert game.deadline is None
    assert not game.seats.filter(deadline__isnull=False).exists()


def test_deadline_expires_and_the_game_ends_with_the_right_fool(celery_env: CeleryEnv) -> None:
    """Only the ETA task queued by the last change runs: no request, no beat."""
    celery_env.start_worker()
    game, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=1))
    queued = timezone.now()  # the ETA task is published when the game's start commits
    seat = game.seats.get(awaiting_move=True)
    assert seat.position == 0 and game.deadline == seat.deadline
    deadline = seat.deadline
    assert deadline is not None
    game = wait_until(lambda: finished(game), PATIENCE, "the timeout")
    assert_timed_out(game, fool=0)
    assert "Task games.tasks.apply_timeout[" in celery_env.log("worker")
    assert game.finished_at is not None and game.finished_at >= deadline
    assert (game.finished_at - max(deadline, queued)).total_seconds() < SLACK


def test_a_killed_worker_loses_its_eta_task_and_the_sweep_still_times_the_game_out(
    celery_env: CeleryEnv,
) -> None:
    first = celery_env.start_worker("worker1")
    game, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=12))
    # The ETA message is in the first worker's hands (reserved, unacknowledged) ...
    celery_env.wait_for_log("worker1", "Task games.tasks.apply_timeout[")
    celery_env.kill(first)
    # ... and a new worker never sees it (Redis returns it only after its visibility timeout).
    celery_env.start_worker("worker2")
    celery_env.start_beat()
    deadline, up = game.deadline, celery_env.ready_at
    assert deadline is not None and up is not None
    game = wait_until(lambda: finished(game), PATIENCE, "the swept timeout")
    assert_timed_out(game, fool=0)
    assert "Task games.tasks.sweep_deadlines[" in celery_env.log("worker2")
    assert game.finished_at is not None and game.finished_at >= deadline
    if deadline > up + timedelta(seconds=SWEEP_SECONDS + SLACK):
        # Sweeps ran before the deadline and queued a fresh ETA task for it (the lost one is
        # still invisible in Redis), so worker2 applied the timeout at its deadline.
        assert "Task games.tasks.apply_timeout[" in celery_env.log("worker2")
        assert (game.finished_at - deadline).total_seconds() < SLACK
    # Else the replacement started late (a loaded machine): the sweep itself caught the game.
    assert (game.finished_at - max(deadline, up)).total_seconds() < SWEEP_SECONDS + SLACK


def test_eta_messages_lost_with_the_broker_are_rearmed_by_the_sweep(celery_env: CeleryEnv) -> None:
    """The broker loses every queued message (a Redis restart without persistence) before any
    worker took them: the sweep re-queues the deadlines due before the next sweep, so they fire
    on time; a deadline that had already passed is caught by the sweep itself."""
    game, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=10))
    overdue, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=1))
    celery_env.forget_messages()  # both ETA messages gone
    assert overdue.deadline is not None
    wait_until(lambda: timezone.now() > overdue.deadline, PATIENCE, "the second game's deadline")
    celery_env.start_worker()
    celery_env.start_beat()
    deadline, up = game.deadline, celery_env.ready_at
    assert deadline is not None and up is not None
    swept = wait_until(lambda: finished(overdue), PATIENCE, "the overdue game swept")
    assert_timed_out(swept, fool=0)
    assert swept.finished_at is not None
    assert (swept.finished_at - up).total_seconds() < SWEEP_SECONDS + SLACK
    game = wait_until(lambda: finished(game), PATIENCE, "the re-armed timeout")
    assert_timed_out(game, fool=0)
    assert game.finished_at is not None and game.finished_at >= deadline
    if deadline > up + timedelta(seconds=SWEEP_SECONDS + SLACK):
        # Re-armed by a sweep before it was due: on time, by an ETA task.
        assert (game.finished_at - deadline).total_seconds() < SLACK
        assert "Task games.tasks.apply_timeout[" in celery_env.log("worker")
    # Else worker and beat started after it (a loaded machine): the sweep caught it.
    assert (game.finished_at - max(deadline, up)).total_seconds() < SWEEP_SECONDS + SLACK


def test_two_beats_and_the_eta_tasks_time_out_each_game_exactly_once(celery_env: CeleryEnv) -> None:
    """Gentle rule ("auto"): a timeout is a safe move and the game goes on, so a game touched
    twice would show two server moves (or a second, fool-making one)."""
    games = []
    for _ in range(12):
        game, _ = started_game(
            deal=LONGER_DEAL, overrides={"on_timeout": "auto"}, move_time=timedelta(seconds=60)
        )
        games.append(game)
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game__in=games, awaiting_move=True).update(deadline=past)
    Game.objects.filter(pk__in=[game.pk for game in games]).update(deadline=past)
    for game in games:  # an overdue ETA task for each game, twice, races the two beats' sweeps
        for _ in range(2):
            tasks.apply_timeout.apply_async((game.pk, game.version), eta=past)
    celery_env.start_worker(concurrency=6)
    celery_env.start_beat("beat1")
    celery_env.start_beat("beat2")
    ids = [game.pk for game in games]
    wait_until(
        lambda: Move.objects.filter(game_id__in=ids, position__isnull=True).count() >= len(ids),
        PATIENCE,
        "a timeout in every game",
    )
    celery_env.wait_for_sweeps(4)  # more sweeps and tasks run; none may touch a game again
    for game in games:
        game.refresh_from_db()
        moves = list(Move.objects.filter(game=game))
        assert [(m.position, m.action["type"]) for m in moves] == [(None, "timeout")], game.pk
        assert game.status == Game.Status.ACTIVE  # attacker played their lowest card; the defender's turn
        # The defender got a fresh minute from the timeout on.
        assert game.seats.get(position=1).deadline > moves[0].created_at + timedelta(seconds=30)
        assert replay_mismatch(game) is None


def test_a_sweep_finding_many_games_overdue_shares_them_with_helper_tasks(celery_env: CeleryEnv) -> None:
    """No ETA task at all (every message lost): the first sweep finds them all overdue, queues
    helpers, and between them every game gets exactly one timeout."""
    games = [
        started_game(deal=LONGER_DEAL, overrides={"on_timeout": "auto"}, move_time=timedelta(minutes=5))[0]
        for _ in range(2 * tasks.SWEEP_HELPER_SHARE)
    ]
    ids = [game.pk for game in games]
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game_id__in=ids, awaiting_move=True).update(deadline=past)
    Game.objects.filter(pk__in=ids).update(deadline=past)
    celery_env.forget_messages()
    celery_env.start_worker()
    celery_env.start_beat()
    wait_until(
        lambda: Move.objects.filter(game_id__in=ids, position__isnull=True).count() >= len(ids),
        PATIENCE,
        "a timeout in every game",
    )
    celery_env.wait_for_sweeps(2)  # later sweeps find nothing more to do
    assert "Task games.tasks.sweep_timeouts[" in celery_env.log("worker")
    assert list(
        Move.objects.filter(game_id__in=ids)
        .values_list("game_id", "position", "action__type")
        .order_by("game_id")
    ) == [(game_id, None, "timeout") for game_id in sorted(ids)]


def test_a_move_racing_its_own_deadline_has_exactly_one_outcome_with_a_real_worker(
    celery_env: CeleryEnv,
) -> None:
    celery_env.start_worker()
    celery_env.start_beat()
    outcomes = []
    for offset in (-0.03, 0.0, 0.03):
        game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=1.5))
        assert game.deadline is not None
        time.sleep(max(0.0, (game.deadline - timezone.now()).total_seconds() + offset))
        outcome = _attack(game, users[0])
        first = wait_until(
            lambda game=game: Move.objects.filter(game=game, seq=1).first(), PATIENCE, "a first move"
        )
        if outcome == "played":
            assert first.position == 0 and first.action["type"] == "attack"
        else:
            assert (first.position, first.action) == (None, {"type": "timeout", "player": 0})
        assert Move.objects.filter(game=game, action__player=0).count() == 1
        outcomes.append(outcome)
    assert set(outcomes) <= {"played", "too late", "stale"}


def _attack(game: Game, user: Any) -> str:
    try:
        services.make_move(
            user=user,
            game_id=game.pk,
            action={"type": "attack", "cards": ["6S"]},
            expected_version=game.version,
        )
    except TimeExpired:
        return "too late"
    except (StaleVersion, WrongStatus):
        return "stale"  # the timeout committed first (and, by the fool rule, ended the game)
    return "played"


@pytest.mark.django_db(transaction=True)
def test_a_move_racing_the_timeout_task_ends_in_exactly_one_outcome() -> None:
    """Threads on the real database: the player's move and the ETA task's timeout, released
    together at the deadline, over and over; each time exactly one of them happens."""
    seen = set()
    for _ in range(8):
        game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=60))
        past = timezone.now() - timedelta(milliseconds=1)
        Seat.objects.filter(game=game, position=0).update(deadline=past)
        Game.objects.filter(pk=game.pk).update(deadline=past)
        barrier = threading.Barrier(2)
        results: dict[str, Any] = {}

        def move(
            game: Game = game, users: list[Any] = users, barrier: Any = barrier, results: Any = results
        ) -> None:
            barrier.wait(timeout=PATIENCE)
            try:
                results["move"] = _attack(game, users[0])
            finally:
                connection.close()

        def timeout(game: Game = game, barrier: Any = barrier, results: Any = results) -> None:
            barrier.wait(timeout=PATIENCE)
            try:
                results["timeout"] = services.game_timeout(game_id=game.pk, expected_version=game.version)
            finally:
                connection.close()

        threads = [threading.Thread(target=move), threading.Thread(target=timeout)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=2 * PATIENCE)
        # The deadline had passed: the move is refused whoever wins the lock, and exactly one
        # timeout is applied, by the task or by make_move itself.
        assert results["move"] in ("too late", "stale")
        seen.add((results["move"], results["timeout"]))
        assert_timed_out(Game.objects.get(pk=game.pk), fool=0)
    assert seen <= {("too late", False), ("stale", True)}


@pytest.mark.django_db(transaction=True)
def test_sweeps_running_at_once_never_touch_a_game_twice() -> None:
    games = [
        started_game(deal=LONGER_DEAL, overrides={"on_timeout": "auto"}, move_time=timedelta(minutes=5))[0]
        for _ in range(30)
    ]
    ids = [game.pk for game in games]
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game_id__in=ids, awaiting_move=True).update(deadline=past)
    Game.objects.filter(pk__in=ids).update(deadline=past)
    barrier = threading.Barrier(3)
    counts: list[int] = []

    def sweep() -> None:
        barrier.wait(timeout=PATIENCE)
        try:
            counts.append(services.sweep_expired())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * PATIENCE)
    assert sum(counts) == len(ids)
    for game_id in ids:
        assert list(Move.objects.filter(game_id=game_id).values_list("position", "action__type")) == [
            (None, "timeout")
        ]
    assert services.sweep_expired() == 0


@pytest.mark.django_db(transaction=True)
def test_a_sweep_skips_a_game_locked_by_a_move_and_commits_each_game_on_its_own() -> None:
    """A game held by a move in progress is skipped, not waited for; the games done so far are
    committed one by one, so another connection sees them while the sweep still runs."""
    games = [started_game(deal=LONGER_DEAL, move_time=timedelta(minutes=5))[0] for _ in range(3)]
    ids = [game.pk for game in games]
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game_id__in=ids, awaiting_move=True).update(deadline=past)
    Game.objects.filter(pk__in=ids).update(deadline=past - timedelta(seconds=1))
    Game.objects.filter(pk=ids[0]).update(deadline=past - timedelta(seconds=5))  # the first claimed
    locked, release = threading.Event(), threading.Event()
    seen_committed: list[bool] = []

    def hold_a_lock() -> None:  # a move being made in the last game
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=ids[2])
                locked.set()
                release.wait(timeout=2 * PATIENCE)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_a_lock)
    holder.start()
    assert locked.wait(timeout=PATIENCE)
    original = write.timeout_if_due

    def watching(game: Game, **kwargs: Any) -> bool:
        if game.pk == ids[1]:  # the second claim: the first game must already be committed

            def look() -> None:
                try:
                    seen_committed.append(Game.objects.get(pk=ids[0]).status == Game.Status.FINISHED)
                finally:
                    connection.close()

            looker = threading.Thread(target=look)
            looker.start()
            looker.join(timeout=PATIENCE)
        return original(game, **kwargs)

    try:
        with mock.patch.object(write, "timeout_if_due", watching):
            assert services.sweep_expired() == 2
    finally:
        release.set()
        holder.join(timeout=PATIENCE)
    assert seen_committed == [True]
    assert Game.objects.get(pk=ids[2]).status == Game.Status.ACTIVE
    assert services.sweep_expired() == 1
    assert Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).count() == 3


@pytest.mark.django_db
def test_the_sweep_rearms_only_the_deadlines_due_before_the_next_sweep() -> None:
    soon, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=3))
    later, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=30))
    untimed, _ = started_game(deal=LONGER_DEAL)
    with mock.patch.object(tasks.apply_timeout, "apply_async") as queued:
        assert timeouts.arm_upcoming(within=timedelta(seconds=6)) == 1
    assert queued.call_count == 1
    args, kwargs = queued.call_args
    assert args[0] == (soon.pk, soon.version)
    assert kwargs["eta"] == soon.deadline
    assert later.deadline is not None and untimed.deadline is None


# Deadlines, late moves and pauses, without Celery.


@pytest.mark.django_db
def test_each_change_gives_the_waited_for_players_a_deadline_from_the_engine() -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(minutes=2))
    waiting = game.engine().waiting_for()
    seats = {seat.position: seat for seat in game.seats.all()}
    for position, seat in seats.items():
        assert (seat.deadline is not None) == (position in waiting)
    before = seats[0].deadline
    game = services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    waiting = game.engine().waiting_for()
    seats = {seat.position: seat for seat in game.seats.all()}
    assert waiting == [1] or 1 in waiting
    assert seats[1].deadline is not None and seats[1].deadline > before
    assert game.deadline == min(s.deadline for s in seats.values() if s.deadline)
    assert seats[1].warn_at is None  # a live game's page is open: no "time almost up" reminders


@pytest.mark.django_db
def test_no_time_control_means_no_deadline() -> None:
    game, _ = started_game(deal=LONGER_DEAL)
    assert game.deadline is None
    assert not game.seats.filter(deadline__isnull=False).exists()


@pytest.mark.django_db
def test_a_move_after_the_deadline_is_refused_with_a_clear_message_and_the_timeout_applied() -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(minutes=2))
    past = timezone.now() - timedelta(seconds=3)
    Seat.objects.filter(game=game, position=0).update(deadline=past)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    with pytest.raises(TimeExpired, match="Too late: your time for this move ran out at"):
        services.make_move(
            user=users[0],
            game_id=game.pk,
            action={"type": "attack", "cards": ["6S"]},
            expected_version=game.version,
        )
    assert_timed_out(Game.objects.get(pk=game.pk), fool=0)


@pytest.mark.django_db
def test_the_gentle_rule_plays_a_safe_move_and_makes_a_fool_only_at_the_second_timeout() -> None:
    game, _ = started_game(deal=LONGER_DEAL, overrides={"on_timeout": "auto"}, move_time=timedelta(minutes=1))
    # Player 0 leads the 6S (a strike); player 1 takes (a strike); player 0, waited for only to
    # throw in, passes each time his clock runs out then (no strike, and the take lets him add
    # again); then player 0's next lead is his second timeout in a row: the fool.
    for expected_moves in (1, 2, 3, 4, 5, 6):
        past = timezone.now() - timedelta(seconds=1)
        Seat.objects.filter(game=game, awaiting_move=True).update(deadline=past)
        Game.objects.filter(pk=game.pk).update(deadline=past)
        assert services.game_timeout(game_id=game.pk) is True
        game.refresh_from_db()
        assert Move.objects.filter(game=game).count() == expected_moves
        if game.status == Game.Status.FINISHED:
            break
    assert game.status == Game.Status.FINISHED
    end = game.engine().end
    assert end == {"reason": "timeout", "player": 0}
    automatic = [
        move.events[0]["action"]["type"] for move in Move.objects.filter(game=game).order_by("seq")[:4]
    ]
    assert automatic.count("pass") >= 1 and automatic.count("take") == 1 and automatic[0] == "attack"
    assert replay_mismatch(game) is None


@pytest.mark.django_db
def test_the_timeout_task_does_nothing_for_an_old_version_or_a_deadline_not_yet_reached() -> None:
    game, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(minutes=2))
    assert services.game_timeout(game_id=game.pk, expected_version=game.version) is False  # not yet
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game=game, position=0).update(deadline=past)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    assert services.game_timeout(game_id=game.pk, expected_version=game.version - 1) is False  # moved on
    assert services.game_timeout(game_id=game.pk, expected_version=game.version) is True
    assert services.game_timeout(game_id=game.pk, expected_version=game.version) is False  # done already
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_a_move_time_out_of_range_is_refused(user: Any) -> None:
    with pytest.raises(GameError, match="between one second and thirty days"):
        services.game_create(creator=user, preset="classic", num_players=2, move_time=timedelta(days=90))
