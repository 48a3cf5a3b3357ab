from django.apps import AppConfig


class ClubConfig(AppConfig):
    """Players and each other, as pages: friends, requests, blocks (the rules are
    ``accounts.relations``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "club"
    verbose_name = "friends and blocks"
