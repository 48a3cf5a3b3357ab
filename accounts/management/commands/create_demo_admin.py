"""Create (once) a superuser for local demos: ``./dev.py serve`` calls this."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Create a demo superuser if it does not exist yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="admin")
        parser.add_argument("--password", default="admin")
        parser.add_argument("--email", default="admin@example.com")

    def handle(self, *args: Any, username: str, password: str, email: str, **options: Any) -> None:
        user_model = get_user_model()
        if user_model.objects.filter(username=username).exists():
            self.stdout.write(f"Demo admin {username!r} already exists.")
            return
        user_model.objects.create_superuser(username=username, email=email, password=password)
        self.stdout.write(f"Created demo admin {username!r} with password {password!r}.")
