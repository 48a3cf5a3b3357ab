"""Give someone the moderator role, or take it away: ``manage.py moderator grant alice``.

Moderators are staff accounts in the Moderators group; the change is in the audit log
(with no actor: the command line).
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from moderation import services
from moderation.roles import moderators_group


class Command(BaseCommand):
    help = "Grant or revoke the moderator role, or list the moderators."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("what", choices=["grant", "revoke", "list"])
        parser.add_argument("username", nargs="?")
        parser.add_argument("--reason", default="", help="Kept in the audit log.")

    def handle(self, *args: Any, what: str, username: str | None, reason: str, **options: Any) -> None:
        if what == "list":
            for user in moderators_group().user_set.order_by("username"):
                self.stdout.write(user.username)
            return
        if not username:
            raise CommandError("Name the user: manage.py moderator grant USERNAME")
        try:
            user = get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"There is no user {username!r}.") from None
        if what == "grant":
            services.moderator_grant(user=user, actor=None, reason=reason or "granted on the command line")
            self.stdout.write(f"{username} is a moderator: they log in as usual and open /admin/.")
        else:
            services.moderator_revoke(user=user, actor=None, reason=reason or "revoked on the command line")
            self.stdout.write(f"{username} is no longer a moderator.")
