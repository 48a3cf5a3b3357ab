from django.apps import AppConfig

from games import hooks
from tournaments import signals as tournament_signals


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        # The tasks module is the app's top (it imports the services and the push); the services
        # queue its tasks by name (``notifications.queue``), so it is imported here, once the app
        # is loaded, for every process to know them (in the worker, Celery's autodiscovery finds
        # it as well; under CELERY_TASK_ALWAYS_EAGER a task queued by name then runs at once).
        from accounts import relations

        from . import (
            tasks,  # noqa: F401
            tournament_news,
        )
        from .services import (
            bells_changed,
            friend_accepted,
            friend_requested,
            game_changed,
            game_seen,
            invited,
            reminders_sent,
            send_claim_warnings,
            send_time_warnings,
            with_notification_facts,
        )

        # Games sits below notifications (which point at its games and seats): it asks, we answer
        # (``games.hooks``), in the move's transaction after the seats are written.
        hooks.seat_facts.register(with_notification_facts)
        hooks.change_recorded.register(game_changed)
        hooks.bells_changed.register(bells_changed)
        hooks.invited.register(invited)
        hooks.game_seen.register(game_seen)
        hooks.reminders_sent.register(reminders_sent)
        hooks.sweep.register(send_time_warnings)
        hooks.sweep.register(send_claim_warnings)
        # Accounts sits below notifications: its friend requests and accepts are signals, sent
        # after their commit, that write the recipient's notifications here.
        relations.friend_requested.connect(friend_requested, dispatch_uid="notifications.friend_requested")
        relations.friend_accepted.connect(friend_accepted, dispatch_uid="notifications.friend_accepted")
        # Tournaments sit below notifications too: their news are signals, sent after each
        # change's commit, that write the players' notifications here (``tournament_news``).
        for signal, receiver in (
            (tournament_signals.registration_opened, tournament_news.registration_opened),
            (tournament_signals.registration_closing, tournament_news.registration_closing),
            (tournament_signals.round_opened, tournament_news.round_opened),
            (tournament_signals.tournament_finished, tournament_news.tournament_finished),
        ):
            signal.connect(receiver, dispatch_uid=f"notifications.{receiver.__name__}")
