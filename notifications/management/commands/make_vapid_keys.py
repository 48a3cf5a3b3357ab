"""Make a VAPID key pair for web push and print it as the environment's lines.

    python manage.py make_vapid_keys --subject mailto:admin@durak.example >> .env

The private key is printed once and stored nowhere: put it in the environment (or ``.env``)
of the web process and the Celery worker alike. A new pair makes every browser subscribed with
the old one subscribe again (push services refuse pushes signed with another key), so make it
once per site.
"""

from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand, CommandError, CommandParser

from notifications.vapid import b64url, public_key_of


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push as VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT lines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--subject",
            default="mailto:admin@example.com",
            help="How push services reach the site's operator: a mailto: address or an https: URL.",
        )

    def handle(self, *args: Any, subject: str, **options: Any) -> None:
        if not subject.startswith(("mailto:", "https://")):
            raise CommandError("--subject must be a mailto: address or an https:// URL")
        private = ec.generate_private_key(ec.SECP256R1())
        raw = private.private_numbers().private_value.to_bytes(32, "big")
        self.stdout.write(f"VAPID_PUBLIC_KEY={public_key_of(private)}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={b64url(raw)}")
        self.stdout.write(f"VAPID_SUBJECT={subject}")
