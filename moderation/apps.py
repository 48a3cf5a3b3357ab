from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.db.models.signals import post_migrate

from chat import restrictions


class ModerationConfig(AppConfig):
    default = True
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from . import signals  # noqa: F401
        from .roles import ensure_moderators_group
        from .selectors import why_muted

        post_migrate.connect(ensure_moderators_group, sender=self, dispatch_uid="moderators_group")
        # Chat sits below moderation (which reports and hides its messages): it asks, we answer.
        restrictions.register(why_muted)


class ModerationAdminConfig(admin_apps.AdminConfig):
    """Django's admin with the site that only lets moderators in (``moderation.admin_site``)."""

    default = False
    default_site = "moderation.admin_site.ModerationAdminSite"
