"""The hooks through which notifications and stats add to a game's changes (``games.hooks``):
the apps register into them when the site starts, and a hook left empty fails the system check,
so that a missing app cannot silently drop notifications or stats."""

import pytest
from django.core.checks import run_checks
from django.core.management import call_command

from games import hooks
from notifications import services as notifications
from stats import selectors as stats_selectors
from stats import services as stats
from tournaments import services as tournaments


def test_the_apps_register_their_answers_when_the_site_starts() -> None:
    assert list(hooks.seat_facts) == [notifications.with_notification_facts]
    assert list(hooks.change_recorded) == [notifications.game_changed]
    assert list(hooks.bells_changed) == [notifications.bells_changed]
    assert list(hooks.invited) == [notifications.invited]
    assert list(hooks.game_seen) == [notifications.game_seen]
    assert list(hooks.reminders_sent) == [notifications.reminders_sent]
    assert list(hooks.sweep) == [notifications.send_time_warnings, notifications.send_claim_warnings]
    # Stats counts the game in its transaction; a tournament queues its next step after the commit.
    assert list(hooks.game_finished) == [stats.game_finished, tournaments.game_finished]
    assert list(hooks.ratings_of) == [stats_selectors.ratings_of]


def test_every_hook_is_checked() -> None:
    named = {name for name in dir(hooks) if isinstance(getattr(hooks, name), hooks.Hook)}
    assert {hook.name for hook in hooks.HOOKS} == named


def test_the_site_passes_the_check() -> None:
    assert hooks.check_hooks() == []
    call_command("check")  # raises SystemCheckError on any error


def test_an_empty_hook_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    empty = hooks.Hook[hooks.GameFinished]("game_finished")
    monkeypatch.setattr(hooks, "HOOKS", (*hooks.HOOKS, empty))
    errors = [error for error in run_checks() if error.id == "games.E001"]
    assert len(errors) == 1
    assert "'game_finished'" in errors[0].msg


def test_registering_twice_calls_once() -> None:
    hook = hooks.Hook[hooks.SweepStep]("sweep")
    hook.register(notifications.send_time_warnings)
    hook.register(notifications.send_time_warnings)
    assert list(hook) == [notifications.send_time_warnings]
