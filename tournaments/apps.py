from django.apps import AppConfig

from games import hooks


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from . import services, tasks  # noqa: F401  (tasks: every process knows them by name)

        hooks.game_finished.register(services.game_finished)
