from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The tasks module is the app's top (it imports the services); the modules beneath queue
        # its tasks by name, so it is imported here, once the app is loaded, for every process
        # to know them (in the worker, Celery's autodiscovery finds it as well).
        from . import tasks  # noqa: F401
