from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        # The tasks module is the app's top (it imports the services and the push); the services
        # queue its tasks by name (``notifications.queue``), so it is imported here, once the app
        # is loaded, for every process to know them (in the worker, Celery's autodiscovery finds
        # it as well; under CELERY_TASK_ALWAYS_EAGER a task queued by name then runs at once).
        from . import tasks  # noqa: F401
