from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matchmaking"

    def ready(self) -> None:
        # The tasks are the app's top (they import the services), and the services queue them
        # by name: imported here, once the models are loaded, so every process knows them (a
        # test's eager run included; Celery's autodiscovery finds them only in the worker).
        from . import tasks  # noqa: F401
