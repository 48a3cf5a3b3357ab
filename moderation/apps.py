from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ModerationConfig(AppConfig):
    default = True
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from . import signals  # noqa: F401


class ModerationAdminConfig(admin_apps.AdminConfig):
    """Django's admin with the site that only lets moderators in (``moderation.admin_site``)."""

    default = False
    default_site = "moderation.admin_site.ModerationAdminSite"
